import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { schemeForms, schemes, auditEvents, classes, forms } from "~/services/platform/db/schema";
import { ROLE } from "~/services/identity";
import { cookieActingAs, startTestApp, stopTestApp, userIdOf, classIdOf } from "~/test/app";
import { callAction, callLoader, getPage, postForm, TEST_ORIGIN, flashOf } from "~/test/route";
import { addDays, calendar, dateText } from "~/test/calendar";
import * as supervisorPage from "./class-supervisor";
import * as classPage from "./class";

let app: Awaited<ReturnType<typeof startTestApp>>;
let admin: string;
let teacher: string;
let syk2001: number;
let syk2002: number;
let mainForm: number;
let medicationForm: number;
let woundForm: number;

const db = () => app.database.db;
const { current } = calendar;

async function formIdOf(name: string): Promise<number> {
  const [row] = await db().select({ id: forms.id }).from(forms).where(eq(forms.name, name));
  return row.id;
}

beforeAll(async () => {
  app = await startTestApp();
  admin = await cookieActingAs(db(), "admin@example.org", ROLE.Admin);
  teacher = await cookieActingAs(db(), "laerer1@example.org", ROLE.Teacher);
  syk2001 = await classIdOf(db(), "SYK2001");
  syk2002 = await classIdOf(db(), "SYK2002");
  mainForm = await formIdOf("Vurdering av kliniske kompetanser");
  medicationForm = await formIdOf("Legemiddelhåndtering");
  woundForm = await formIdOf("Sårstell og infeksjonsforebygging");
});

afterAll(async () => {
  await stopTestApp(app);
});

/** A form post with repeated fields (several checkboxes of one name), as a browser sends it. */
function postPairs(path: string, pairs: [string, string][], cookie: string): Request {
  return new Request(new URL(path, TEST_ORIGIN), {
    method: "POST",
    headers: { Origin: TEST_ORIGIN, Cookie: cookie, "x-test-client-address": "192.0.2.5" },
    body: new URLSearchParams(pairs),
  });
}

interface Reply {
  intent: string;
  result: { status: string; initialValue: Record<string, unknown>; error: Record<string, string[] | null> };
}

async function endDateOf(classId: number): Promise<string | null> {
  const [row] = await db().select({ end: classes.endSemesterDate }).from(classes).where(eq(classes.id, classId));
  return row.end;
}

async function schemeCount(classId: number): Promise<number> {
  return (await db().select().from(schemes).where(eq(schemes.classId, classId))).length;
}

describe("the class page", () => {
  test("shows the admin the class, its schemes and its people", async () => {
    const response = await callLoader(classPage, getPage(`/admin/class/${syk2001}`, { cookie: admin }), {
      classId: String(syk2001),
    });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.header).toMatchObject({
      subjectCode: "SYK2001",
      semesterName: current.name,
      semesterStartText: dateText(current.startDate),
      semesterEndText: dateText(current.endDate),
      endSemesterText: dateText(calendar.classes.SYK2001.endSemesterDate),
    });
    expect(body.schemes).toHaveLength(2);
    expect(body.schemes[0]).toMatchObject({ isMidSemester: true, sentAnswerSets: 6 });
    expect(body.teachers.map((p: { displayName: string }) => p.displayName)).toEqual(["Ingrid Haugen", "Lars Bakken"]);
    expect(body.students).toHaveLength(12);
    expect(body.supervisors.map((p: { displayName: string }) => p.displayName)).toEqual([
      "Marte Solberg",
      "Ole Kristiansen",
    ]);
  });

  test("an unknown or malformed class id is not found, never a server error", async () => {
    for (const classId of ["999999", "abc", "0", "-3", "1.5", "99999999999"]) {
      const response = await callLoader(classPage, getPage(`/admin/class/${classId}`, { cookie: admin }), { classId });
      expect(response.status, classId).toBe(404);
    }
  });

  test("someone not acting as admin is sent to the role chooser; no session goes to log-in", async () => {
    const path = `/admin/class/${syk2001}`;
    const asTeacher = await callLoader(classPage, getPage(path, { cookie: teacher }), { classId: String(syk2001) });
    expect(asTeacher.status).toBe(302);
    expect(asTeacher.headers.get("Location")).toMatch(/^\/role\?redirectTo=/);
    const anonymous = await callLoader(classPage, getPage(path), { classId: String(syk2001) });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toBe(`/?redirectTo=${encodeURIComponent(path)}`);
  });
});

describe("changing the end-semester date", () => {
  // Dates inside the current semester after SYK2002's mid-semester date, and some that are not.
  const endOfB = calendar.classes.SYK2002.endSemesterDate;
  const [earlier, later, latest] = [addDays(endOfB, -6), addDays(endOfB, -5), addDays(endOfB, -4)];
  const post = (fields: Record<string, string>, cookie = admin, classId = String(syk2002)) =>
    callAction(classPage, postForm(`/admin/class/${classId}`, { intent: "endDate", ...fields }, { cookie }), {
      classId,
    });

  test("the admin saves a date and is sent back to the page with a message", async () => {
    const response = await post({ endSemesterDate: earlier });
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe(`/admin/class/${syk2002}`);
    expect(await flashOf(response)).toEqual({
      type: "success",
      key: "adminClass:endDate.saved",
      values: { date: dateText(earlier) },
    });
    expect(await endDateOf(syk2002)).toBe(earlier);
    const events = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "class.updated"), eq(auditEvents.classId, syk2002)));
    expect(events.at(-1)).toMatchObject({
      actorUserId: await userIdOf(db(), "admin@example.org"),
      details: { endSemesterDate: { to: earlier } },
    });
  });

  test("a date typed the Norwegian way is understood", async () => {
    const [year, month, day] = later.split("-");
    const response = await post({ endSemesterDate: `${day}.${month}.${year}` });
    expect(response.status).toBe(303);
    expect(await endDateOf(syk2002)).toBe(later);
  });

  test("bad dates get a clear message, keep what was typed, and change nothing", async () => {
    const before = await endDateOf(syk2002);
    for (const [typed, key] of [
      ["", "adminClass:errors.endDate.required"],
      [addDays(current.endDate, 60), "adminClass:errors.endDate.afterEnd"],
      [addDays(current.startDate, -61), "adminClass:errors.endDate.beforeStart"],
      [addDays(current.startDate, 1), "adminClass:errors.endDate.beforeMid"],
      [`31.02.${current.startDate.slice(0, 4)}`, "adminClass:errors.endDate.invalid"],
      ["snart", "adminClass:errors.endDate.invalid"],
      ["x".repeat(5000), "adminClass:errors.endDate.invalid"],
    ]) {
      const response = await post({ endSemesterDate: typed });
      expect(response.status, typed).toBe(400);
      const body = (await response.json()) as Reply;
      expect(body.intent).toBe("endDate");
      expect(body.result.error.endSemesterDate).toEqual([key]);
      if (typed) expect(body.result.initialValue.endSemesterDate).toBe(typed);
    }
    const missing = await callAction(
      classPage,
      postForm(`/admin/class/${syk2002}`, { intent: "endDate" }, { cookie: admin }),
      { classId: String(syk2002) },
    );
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as Reply).result.error.endSemesterDate).toEqual([
      "adminClass:errors.endDate.required",
    ]);
    expect(await endDateOf(syk2002)).toBe(before);
  });

  test("a teacher may not; unknown classes are not found", async () => {
    const before = await endDateOf(syk2002);
    expect((await post({ endSemesterDate: latest }, teacher)).status).toBe(403);
    expect(await endDateOf(syk2002)).toBe(before);
    expect((await post({ endSemesterDate: latest }, admin, "999999")).status).toBe(404);
    expect((await post({ endSemesterDate: latest }, admin, "x1")).status).toBe(404);
  });

  test("an unknown intent is a bad request", async () => {
    const response = await callAction(
      classPage,
      postForm(`/admin/class/${syk2002}`, { intent: "delete" }, { cookie: admin }),
      { classId: String(syk2002) },
    );
    expect(response.status).toBe(400);
  });
});

describe("adding a response scheme", () => {
  const post = (pairs: [string, string][], cookie = admin, classId = String(syk2001)) =>
    callAction(classPage, postPairs(`/admin/class/${classId}`, [["intent", "scheme"], ...pairs], cookie), { classId });

  test("the admin adds a scheme with a main form and several specific competencies", async () => {
    const before = await schemeCount(syk2001);
    // SYK2001's end-semester scheme holds the main form and medication already; a second
    // end-semester scheme may only add what is not there yet.
    const refused = await post([
      ["half", "end"],
      ["formIds", String(mainForm)],
      ["formIds", String(woundForm)],
    ]);
    expect(refused.status).toBe(400);

    const response = await post([
      ["half", "end"],
      ["formIds", String(woundForm)],
    ]);
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe(`/admin/class/${syk2001}`);
    expect(await flashOf(response)).toEqual({ type: "success", key: "adminClass:schemes.createdEnd" });
    expect(await schemeCount(syk2001)).toBe(before + 1);
    const [event] = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "scheme.created"), eq(auditEvents.classId, syk2001)));
    expect(event.details).toMatchObject({ isMidSemester: false, formIds: [woundForm] });

    const fresh = await callAction(
      classPage,
      postPairs(
        `/admin/class/${syk2002}`,
        [
          ["intent", "scheme"],
          ["half", "mid"],
          ["formIds", String(medicationForm)],
        ],
        admin,
      ),
      { classId: String(syk2002) },
    );
    expect(fresh.status).toBe(303);
    const [scheme] = await db()
      .select()
      .from(schemes)
      .where(eq(schemes.classId, syk2002))
      .orderBy(schemes.id)
      .then((rows) => rows.slice(-1));
    expect(scheme.isMidSemester).toBe(true);
    const linked = await db().select().from(schemeForms).where(eq(schemeForms.schemeId, scheme.id));
    expect(linked.map((l) => l.formId)).toEqual([medicationForm]);
  });

  test("without forms or without mid/end it says what is missing and keeps the choices", async () => {
    const before = await schemeCount(syk2001);
    const noForms = await post([["half", "mid"]]);
    expect(noForms.status).toBe(400);
    const body = (await noForms.json()) as Reply;
    expect(body.intent).toBe("scheme");
    expect(body.result.error.formIds).toEqual(["adminClass:errors.noForms"]);
    expect(body.result.initialValue.half).toBe("mid");

    const noHalf = await post([["formIds", String(woundForm)]]);
    expect(noHalf.status).toBe(400);
    const noHalfBody = (await noHalf.json()) as Reply;
    expect(noHalfBody.result.error.half).toEqual(["adminClass:errors.halfRequired"]);
    expect([noHalfBody.result.initialValue.formIds].flat()).toEqual([String(woundForm)]);

    const nothing = await post([]);
    expect(nothing.status).toBe(400);
    const nothingBody = (await nothing.json()) as Reply;
    expect(nothingBody.result.error.half).toEqual(["adminClass:errors.halfRequired"]);
    expect(nothingBody.result.error.formIds).toEqual(["adminClass:errors.noForms"]);

    expect(
      (
        await post([
          ["half", "sometimes"],
          ["formIds", String(mainForm)],
        ])
      ).status,
    ).toBe(400);
    expect(await schemeCount(syk2001)).toBe(before);
  });

  test("a form already in a scheme of the same half is refused by name", async () => {
    const response = await post([
      ["half", "mid"],
      ["formIds", String(mainForm)],
    ]);
    expect(response.status).toBe(400);
    const body = (await response.json()) as Reply;
    expect(body.result.error.formIds).toEqual([
      `adminClass:errors.alreadyInMidScheme?form=${encodeURIComponent("Vurdering av kliniske kompetanser").replace(/%20/g, "+")}`,
    ]);
    expect([body.result.initialValue.formIds].flat()).toEqual([String(mainForm)]);
  });

  test("unknown, deleted or malformed form ids get a message, not a server error", async () => {
    const before = await schemeCount(syk2001);
    const [deleted] = await db().insert(forms).values({ name: "Utgått skjema", deletedAt: new Date() }).returning();
    for (const id of ["999999", String(deleted.id)]) {
      const response = await post([
        ["half", "end"],
        ["formIds", id],
      ]);
      expect(response.status, id).toBe(400);
      expect(((await response.json()) as Reply).result.error.formIds).toEqual(["adminClass:errors.unknownForm"]);
    }
    for (const id of ["abc", "1; drop table forms", "99999999999"]) {
      const response = await post([
        ["half", "end"],
        ["formIds", id],
      ]);
      expect(response.status, id).toBe(400);
    }
    const many = await post([
      ["half", "end"],
      ...Array.from({ length: 500 }, (_, i): [string, string] => ["formIds", String(i + 1)]),
    ]);
    expect(many.status).toBe(400);
    expect(await schemeCount(syk2001)).toBe(before);
  });

  test("a teacher may not; unknown classes are not found", async () => {
    const before = await schemeCount(syk2001);
    expect(
      (
        await post(
          [
            ["half", "end"],
            ["formIds", String(woundForm)],
          ],
          teacher,
        )
      ).status,
    ).toBe(403);
    expect(await schemeCount(syk2001)).toBe(before);
    expect(
      (
        await post(
          [
            ["half", "end"],
            ["formIds", String(mainForm)],
          ],
          admin,
          "999999",
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await post(
          [
            ["half", "end"],
            ["formIds", String(mainForm)],
          ],
          admin,
          "abc",
        )
      ).status,
    ).toBe(404);
  });
});

describe("a supervisor's students in a class", () => {
  const load = (classId: string, userId: string, cookie = admin) =>
    callLoader(supervisorPage, getPage(`/admin/class/${classId}/supervisor/${userId}`, { cookie }), {
      classId,
      userId,
    });

  test("lists the supervisor's students, assigned and extra", async () => {
    const supervisor = await userIdOf(db(), "veileder1@example.org");
    const response = await load(String(syk2001), String(supervisor));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.supervisor.displayName).toBe("Marte Solberg");
    expect(body.students).toHaveLength(6);
    expect(body.students.filter((s: { relation: string }) => s.relation === "extra")).toHaveLength(1);
  });

  test("not found for someone who is no supervisor of the class, or unknown and malformed ids", async () => {
    const other = await userIdOf(db(), "veileder3@example.org");
    const supervisor = await userIdOf(db(), "veileder1@example.org");
    for (const [classId, userId] of [
      [String(syk2001), String(other)],
      [String(syk2001), "999999"],
      ["999999", String(supervisor)],
      ["abc", String(supervisor)],
      [String(syk2001), "x"],
    ]) {
      expect((await load(classId, userId)).status, `${classId}/${userId}`).toBe(404);
    }
  });

  test("someone not acting as admin is sent to the role chooser", async () => {
    const supervisor = await userIdOf(db(), "veileder1@example.org");
    const response = await load(String(syk2001), String(supervisor), teacher);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/role\?redirectTo=/);
  });
});

describe("undoing set-up mistakes", () => {
  const post = (fields: Record<string, string>, classId: number, cookie = admin) =>
    callAction(classPage, postForm(`/admin/class/${classId}`, fields, { cookie }), { classId: String(classId) });
  const midDateOf = async (classId: number) =>
    (await db().select({ mid: classes.midSemesterDate }).from(classes).where(eq(classes.id, classId)))[0].mid;

  test("the mid-semester date moves within the semester and before the end date; a wrong one is named and changes nothing", async () => {
    const end = calendar.classes.SYK2001.endSemesterDate;
    const before = await midDateOf(syk2001);
    for (const [typed, key] of [
      ["", "adminClass:errors.midDate.required"],
      [end, "adminClass:errors.midDate.notBeforeEnd"],
      [addDays(current.startDate, -1), "adminClass:errors.midDate.beforeStart"],
      ["i morgen", "adminClass:errors.midDate.invalid"],
    ]) {
      const response = await post({ intent: "midDate", midSemesterDate: typed }, syk2001);
      expect(response.status, typed).toBe(400);
      const body = (await response.json()) as Reply;
      expect([body.intent, body.result.error.midSemesterDate]).toEqual(["midDate", [key]]);
    }
    expect(await midDateOf(syk2001)).toBe(before);
    expect((await post({ intent: "midDate", midSemesterDate: addDays(end, -30) }, syk2001, teacher)).status).toBe(403);

    const moved = addDays(before!, 1);
    const response = await post({ intent: "midDate", midSemesterDate: moved }, syk2001);
    expect(response.status).toBe(303);
    expect(await flashOf(response)).toEqual({
      type: "success",
      key: "adminClass:midDate.saved",
      values: { date: dateText(moved) },
    });
    expect(await midDateOf(syk2001)).toBe(moved);
    await post({ intent: "midDate", midSemesterDate: before! }, syk2001);
  });

  test("removing a scheme goes through a confirmation; one with answers is refused with a message", async () => {
    const page = async (query: string) =>
      (await (
        await callLoader(classPage, getPage(`/admin/class/${syk2001}${query}`, { cookie: admin }), {
          classId: String(syk2001),
        })
      ).json()) as {
        confirmRemove: number | null;
        schemes: { schemeId: number; isMidSemester: boolean; answerSets: number }[];
      };
    const { schemes } = await page("");
    const count = schemes.length;
    const [answered, empty] = [
      schemes.find((s) => s.answerSets > 0)!,
      schemes.find((s) => !s.isMidSemester && s.answerSets === 0)!,
    ];
    expect(answered.answerSets).toBeGreaterThan(0);
    expect((await page(`?remove=${answered.schemeId}`)).confirmRemove).toBe(answered.schemeId);
    expect((await page("?remove=999999")).confirmRemove).toBeNull();
    expect((await page("?remove=abc")).confirmRemove).toBeNull();

    const refused = await post({ intent: "removeScheme", schemeId: String(answered.schemeId) }, syk2001);
    expect(refused.status).toBe(303);
    expect(refused.headers.get("Location")).toBe(`/admin/class/${syk2001}?remove=${answered.schemeId}#schemes`);
    expect((await flashOf(refused))?.type).toBe("error");
    for (const bad of [
      "",
      "abc",
      "0",
      "99999999999",
      "1e3",
      ` ${empty.schemeId} `,
      String(answered.schemeId + 100_000),
    ]) {
      expect((await post({ intent: "removeScheme", schemeId: bad }, syk2001)).status, bad).toBe(404);
    }
    // Another class's scheme is not found here.
    expect((await post({ intent: "removeScheme", schemeId: String(empty.schemeId) }, syk2002)).status).toBe(404);
    expect((await post({ intent: "removeScheme", schemeId: String(empty.schemeId) }, syk2001, teacher)).status).toBe(
      403,
    );
    expect(await schemeCount(syk2001)).toBe(count);

    const removed = await post({ intent: "removeScheme", schemeId: String(empty.schemeId) }, syk2001);
    expect(removed.status).toBe(303);
    expect(await flashOf(removed)).toEqual({ type: "success", key: "adminClass:schemes.removedEnd" });
    expect(await schemeCount(syk2001)).toBe(count - 1);
    // Put back as it was, for the rest of the file.
    const back = await post({ intent: "scheme", half: "end", formIds: String(mainForm) }, syk2001);
    expect(back.status).toBe(303);

    // A confirmation page loaded before the code said "scheme" posts the id under its earlier name
    // (here the scheme just put back, the newest).
    const again = (await page("")).schemes.reduce((newest, s) => (s.schemeId > newest.schemeId ? s : newest));
    const removedByOldName = await post({ intent: "removeScheme", assignmentId: String(again.schemeId) }, syk2001);
    expect(removedByOldName.status).toBe(303);
    expect(await flashOf(removedByOldName)).toEqual({ type: "success", key: "adminClass:schemes.removedEnd" });
    expect(await schemeCount(syk2001)).toBe(count - 1);
    expect((await post({ intent: "scheme", half: "end", formIds: String(mainForm) }, syk2001)).status).toBe(303);
  });

  test("copying expected levels names what was copied and what did not match; a wrong source is named", async () => {
    const previous = await classIdOf(db(), "SYK1002");
    const [old] = await db().select({ subjectId: classes.subjectId }).from(classes).where(eq(classes.id, previous));
    const [syk] = await db().select({ semesterId: classes.semesterId }).from(classes).where(eq(classes.id, syk2001));
    const [target] = await db()
      .insert(classes)
      .values({ subjectId: old.subjectId, semesterId: syk.semesterId })
      .returning();
    const loaded = await callLoader(classPage, getPage(`/admin/class/${target.id}`, { cookie: admin }), {
      classId: String(target.id),
    });
    expect(((await loaded.json()) as { sources: { classId: number }[] }).sources.map((s) => s.classId)).toEqual([
      previous,
    ]);

    const noSchemes = await post({ intent: "copyExpectations", sourceClassId: String(previous) }, target.id);
    expect(noSchemes.status).toBe(400);
    expect(((await noSchemes.json()) as Reply).result.error.sourceClassId).toEqual(["adminClass:copy.noSchemes"]);
    await callAction(
      classPage,
      postPairs(
        `/admin/class/${target.id}`,
        [
          ["intent", "scheme"],
          ["half", "mid"],
          ["formIds", String(mainForm)],
          ["formIds", String(medicationForm)],
        ],
        admin,
      ),
      {
        classId: String(target.id),
      },
    );
    for (const bad of ["", "abc", String(syk2002), String(target.id)]) {
      const response = await post({ intent: "copyExpectations", sourceClassId: bad }, target.id);
      expect(response.status, bad).toBe(400);
      expect(((await response.json()) as Reply).result.error.sourceClassId).toEqual([
        "adminClass:errors.sourceRequired",
      ]);
    }
    expect(
      (await post({ intent: "copyExpectations", sourceClassId: String(previous) }, target.id, teacher)).status,
    ).toBe(403);

    const copied = await post({ intent: "copyExpectations", sourceClassId: String(previous) }, target.id);
    expect(copied.status).toBe(303);
    const flash = await flashOf(copied);
    expect(flash).toMatchObject({ type: "success", key: "adminClass:copy.message" });
    expect(String(flash?.values?.message)).toMatch(
      /^Forventet nivå er kopiert fra .+: Vurdering av kliniske kompetanser, midtveis \(\d+ spørsmål\)\. Ikke kopiert, for .+ har ikke forventet nivå for: Legemiddelhåndtering \(midtveis\)\. Sett dem selv\.$/,
    );
  });
});
