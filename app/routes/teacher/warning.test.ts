import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { auditEvents, studentReferences, warnings } from "~/services/platform/db/schema";
import { ROLE } from "~/services/identity";
import { WARNING_TEXT_LIMIT } from "~/services/warnings";
import { cookieActingAs, mailsTo, silenceMailLog, startTestApp, stopTestApp, userIdOf, classIdOf } from "~/test/app";
import { callAction, callLoader, getPage, postForm, flashOf } from "~/test/route";
import { startSmtpPeer } from "~/test/smtp";
import { resetEnvForTests } from "~/services/platform/env.server";
import * as api from "../api/warning";
import * as supervisorStudentPage from "../supervisor/student";
import * as studentPage from "./student";
import * as deletePage from "./warning-delete";
import * as givePage from "./warning-give";
import * as warningPage from "./warning";

let app: Awaited<ReturnType<typeof startTestApp>>;
const db = () => app.database.db;
let classA: number;
let classB: number;
let cookies: Record<string, string>;
let ids: Record<string, number>;

const FULL = {
  comment: "Du har flere ganger ikke fulgt prosedyren for legemiddelhåndtering.",
  passRequirement: "Du må følge prosedyren ved hver utdeling.",
  passRequirementSummary: "Følg prosedyren for legemiddelhåndtering.",
};

async function warningOf(studentUserId: number, classId = classB) {
  const [ref] = await db()
    .select({ id: studentReferences.id })
    .from(studentReferences)
    .where(and(eq(studentReferences.classId, classId), eq(studentReferences.studentUserId, studentUserId)));
  return db().select().from(warnings).where(eq(warnings.studentReferenceId, ref.id));
}

beforeAll(async () => {
  app = await startTestApp();
  classA = await classIdOf(db(), "SYK2001");
  classB = await classIdOf(db(), "SYK2002");
  cookies = {
    admin: await cookieActingAs(db(), "admin@example.org", ROLE.Teacher),
    laerer3: await cookieActingAs(db(), "laerer3@example.org", ROLE.Teacher),
    laerer1: await cookieActingAs(db(), "laerer1@example.org", ROLE.Teacher),
    veileder3: await cookieActingAs(db(), "veileder3@example.org", ROLE.Supervisor),
    veileder4: await cookieActingAs(db(), "veileder4@example.org", ROLE.Supervisor),
    student15: await cookieActingAs(db(), "student15@example.org", ROLE.Student),
  };
  ids = Object.fromEntries(
    await Promise.all(
      ["student01", "student15", "student16", "student17", "student19", "student20"].map(async (s) => [
        s,
        await userIdOf(db(), `${s}@example.org`),
      ]),
    ),
  );
});

afterAll(async () => {
  await stopTestApp(app);
});

beforeEach(() => {
  silenceMailLog();
});

const pagePath = (studentUserId: number, classId = classB) =>
  `/teacher/class/${classId}/student/${studentUserId}/warning`;
const params = (studentUserId: number, classId = classB) => ({
  classId: String(classId),
  studentUserId: String(studentUserId),
});
const open = (cookie: string, studentUserId: number, classId = classB) =>
  callLoader(warningPage, getPage(pagePath(studentUserId, classId), { cookie }), params(studentUserId, classId));
const post = (
  cookie: string,
  studentUserId: number,
  fields: Record<string, string>,
  options: { origin?: string | null; classId?: number } = {},
) =>
  callAction(
    warningPage,
    postForm(pagePath(studentUserId, options.classId), fields, { cookie, origin: options.origin }),
    params(studentUserId, options.classId),
  );

const givePath = (studentUserId: number, classId = classB) => `${pagePath(studentUserId, classId)}/give`;
const openGive = (cookie: string, studentUserId: number) =>
  callLoader(givePage, getPage(givePath(studentUserId), { cookie }), params(studentUserId));
const confirmGive = (cookie: string, studentUserId: number, fields: Record<string, string>) =>
  callAction(givePage, postForm(givePath(studentUserId), fields, { cookie }), params(studentUserId));

interface GivePageData {
  studentName: string;
  teacherName: string;
  warning: { id: number; version: string; text: typeof FULL; complete: boolean };
  warningPage: string;
}

/** "Gi varsel" (which saves the draft and shows it), then "Gi varselet nå" on the page it leads to: the answer of the last. */
async function giveWarning(cookie: string, studentUserId: number, fields: Record<string, string>): Promise<Response> {
  const first = await post(cookie, studentUserId, { ...fields, intent: "submit" });
  expect(first.status).toBe(303);
  expect(first.headers.get("Location")).toBe(givePath(studentUserId));
  const shown = (await (await openGive(cookie, studentUserId)).json()) as GivePageData;
  return confirmGive(cookie, studentUserId, {
    intent: "give",
    warningId: String(shown.warning.id),
    version: shown.warning.version,
  });
}

interface PageData {
  studentName: string;
  warning: null | {
    id: number;
    state: string;
    text: typeof FULL;
    teacherName: string;
    createdText: string;
    givenText: string | null;
    confirmedText: string | null;
  };
  paths: Record<string, string>;
}

interface Reply {
  result: { initialValue: Record<string, string>; error: Record<string, string[] | null> };
  seenId?: number | null;
  unsaved: typeof FULL | null;
}

describe("the teacher's warning page", () => {
  test("every teacher of the class opens it; with no warning, there is none to show", async () => {
    for (const cookie of [cookies.admin, cookies.laerer3]) {
      const response = await open(cookie, ids.student15);
      expect(response.status).toBe(200);
      const body = (await response.json()) as PageData;
      expect(body.studentName).toBe("Olivia Jacobsen");
      expect(body.warning).toBeNull();
      expect(body.paths).toEqual({
        student: `/teacher/class/${classB}/student/${ids.student15}`,
        delete: `${pagePath(ids.student15)}/delete`,
        autosave: `/api/classes/${classB}/students/${ids.student15}/warning`,
        pdf: `/api/classes/${classB}/students/${ids.student15}/warning/pdf`,
      });
    }
  });

  test("anyone else: a teacher of another class, another class's student, an unknown one get 404; other roles go to the role chooser", async () => {
    expect((await open(cookies.laerer1, ids.student15)).status).toBe(404);
    expect((await open(cookies.admin, ids.student01)).status).toBe(404);
    expect((await open(cookies.admin, ids.student01, classA)).status).toBe(404);
    expect((await open(cookies.admin, 999_999)).status).toBe(404);
    expect(
      (await callLoader(warningPage, getPage("/x", { cookie: cookies.admin }), { classId: "abc", studentUserId: "1" }))
        .status,
    ).toBe(404);
    for (const cookie of [cookies.veileder3, cookies.student15]) {
      const response = await open(cookie, ids.student15);
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toMatch(/^\/role\?redirectTo=/);
    }
  });

  test("'Lagre utkast' saves a partial draft and comes back to the page, which shows it with its dates", async () => {
    const response = await post(cookies.admin, ids.student15, {
      intent: "save",
      warningId: "",
      comment: "Første\r\nutkast",
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe(pagePath(ids.student15));
    expect(await flashOf(response)).toEqual({ type: "success", key: "warnings:teacher.saved" });
    const [row] = await warningOf(ids.student15);
    expect(row).toMatchObject({ comment: "Første\nutkast", passRequirement: "", submittedAt: null });

    const body = (await (await open(cookies.laerer3, ids.student15)).json()) as PageData;
    expect(body.warning).toMatchObject({
      id: row.id,
      state: "draft",
      teacherName: "Ada Administrator",
      givenText: null,
      confirmedText: null,
    });
    expect(body.warning!.createdText).toMatch(/^\d{1,2}\.\d{1,2}\.\d{4} kl\. \d{2}:\d{2}$/);
  });

  test("'Gi varsel' without all three texts is refused with a message per missing one, and keeps what was typed", async () => {
    const [row] = await warningOf(ids.student15);
    const response = await post(cookies.admin, ids.student15, {
      intent: "submit",
      warningId: String(row.id),
      comment: "Første\r\nutkast",
      passRequirementSummary: "Kort",
    });
    expect(response.status).toBe(400);
    const reply = (await response.json()) as Reply;
    expect(reply.result.error).toEqual({
      passRequirement: ["warnings:errors.passRequirementRequired"],
    });
    expect(reply.result.initialValue).toMatchObject({ comment: "Første\r\nutkast", passRequirementSummary: "Kort" });
    expect((await warningOf(ids.student15))[0]).toEqual(row);
  });

  test("10 001 characters are refused, to save or to give, with how many too many, and the text comes back whole", async () => {
    const [row] = await warningOf(ids.student15);
    const long = "æ".repeat(WARNING_TEXT_LIMIT + 1);
    for (const intent of ["save", "submit"]) {
      const response = await post(cookies.admin, ids.student15, {
        intent,
        warningId: String(row.id),
        ...FULL,
        comment: long,
      });
      expect(response.status, intent).toBe(400);
      const reply = (await response.json()) as Reply;
      expect(reply.result.error).toEqual({ comment: ["warnings:errors.commentTooLong?over=1"] });
      expect(reply.result.initialValue.comment).toBe(long);
    }
    // 10 000 emoji are 10 000 characters (20 000 UTF-16 units): allowed.
    const emoji = await post(cookies.admin, ids.student15, {
      intent: "save",
      warningId: String(row.id),
      ...FULL,
      comment: "🙂".repeat(WARNING_TEXT_LIMIT),
    });
    expect(emoji.status).toBe(303);
  });

  test("'Gi varsel' gives nothing yet: it saves the draft and shows it as the student will see it; 'Gi varselet nå' gives it and mails the student, once", async () => {
    const [row] = await warningOf(ids.student15);
    const fields = { intent: "submit", warningId: String(row.id), ...FULL };
    const response = await post(cookies.laerer3, ids.student15, fields);
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe(givePath(ids.student15));
    const [draft] = await warningOf(ids.student15);
    expect(draft).toMatchObject({ ...FULL, id: row.id, submittedAt: null });
    expect(await mailsTo("student15@example.org")).toHaveLength(0);

    const shown = await openGive(cookies.laerer3, ids.student15);
    expect(shown.status).toBe(200);
    const page = (await shown.json()) as GivePageData;
    expect(page).toMatchObject({
      studentName: "Olivia Jacobsen",
      teacherName: "Siri Lunde",
      warning: { id: row.id, text: FULL, complete: true },
      warningPage: pagePath(ids.student15),
    });
    // Only the draft it showed, as it was shown: a changed one is shown again, nothing given.
    const stale = await confirmGive(cookies.laerer3, ids.student15, {
      intent: "give",
      warningId: String(row.id),
      version: String(Number(page.warning.version) - 1),
    });
    expect(stale.headers.get("Location")).toBe(givePath(ids.student15));
    expect(await flashOf(stale)).toEqual({ type: "error", key: "confirmSteps:give.changed" });
    expect(
      (await confirmGive(cookies.laerer3, ids.student15, { intent: "give", warningId: String(row.id) })).status,
    ).toBe(400);
    expect((await warningOf(ids.student15))[0].submittedAt).toBeNull();
    expect(await mailsTo("student15@example.org")).toHaveLength(0);

    const given = await confirmGive(cookies.laerer3, ids.student15, {
      intent: "give",
      warningId: String(row.id),
      version: page.warning.version,
    });
    expect(given.status).toBe(303);
    expect(given.headers.get("Location")).toBe(pagePath(ids.student15));
    expect(await flashOf(given)).toEqual({
      type: "success",
      key: "warnings:teacher.given",
      values: { name: "Olivia Jacobsen" },
    });
    const [row2] = await warningOf(ids.student15);
    expect(row2).toMatchObject({ ...FULL, id: row.id });
    expect(row2.submittedAt).not.toBeNull();
    const mails = await mailsTo("student15@example.org");
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain("http://localhost:3000/student/warning");

    const again = await confirmGive(cookies.laerer3, ids.student15, {
      intent: "give",
      warningId: String(row.id),
      version: page.warning.version,
    });
    expect(again.status).toBe(303);
    expect(await flashOf(again)).toEqual({ type: "info", key: "warnings:teacher.givenAgain" });
    expect(await warningOf(ids.student15)).toEqual([row2]);
    expect(await mailsTo("student15@example.org")).toHaveLength(1);
    // Given, the confirmation page leads back to the warning.
    expect((await openGive(cookies.laerer3, ids.student15)).headers.get("Location")).toBe(pagePath(ids.student15));

    const body = (await (await open(cookies.admin, ids.student15)).json()) as PageData;
    expect(body.warning).toMatchObject({ state: "given", text: FULL, teacherName: "Siri Lunde", confirmedText: null });
    expect(body.warning!.givenText).toMatch(/kl\./);
  });

  test("the confirmation page is guarded like the warning page: a teacher of another class 404, other roles to the role chooser or 403", async () => {
    expect((await openGive(cookies.laerer1, ids.student15)).status).toBe(404);
    expect((await openGive(cookies.veileder3, ids.student15)).status).toBe(302);
    expect(
      (await confirmGive(cookies.laerer1, ids.student20, { intent: "give", warningId: "1", version: "1" })).status,
    ).toBe(404);
    expect(
      (await confirmGive(cookies.student15, ids.student15, { intent: "give", warningId: "1", version: "1" })).status,
    ).toBe(403);
  });

  test("a change to a given warning (a tab left open) is refused, and the page gives back what was typed", async () => {
    const [given] = await warningOf(ids.student15);
    const changed = { ...FULL, comment: "Endret i en gammel fane" };
    for (const intent of ["save", "submit"]) {
      const response = await post(cookies.admin, ids.student15, { intent, warningId: String(given.id), ...changed });
      expect(response.status, intent).toBe(409);
      const reply = (await response.json()) as Reply;
      expect(reply.unsaved).toEqual(changed);
      expect(reply.result.error).toEqual({ "": ["warnings:errors.alreadyGiven"] });
    }
    expect(await warningOf(ids.student15)).toEqual([given]);
  });

  test("a save from a page whose warning was deleted meanwhile is refused (not brought back), keeps the text and starts over", async () => {
    const response = await post(cookies.admin, ids.student19, { intent: "save", warningId: "4242", ...FULL });
    expect(response.status).toBe(409);
    const reply = (await response.json()) as Reply;
    expect(reply.seenId).toBeNull();
    expect(reply.result.error).toEqual({ "": ["warnings:errors.gone"] });
    expect(reply.result.initialValue).toMatchObject(FULL);
    expect(await warningOf(ids.student19)).toEqual([]);
    // The next press of "Lagre utkast" comes from the page as it now is.
    expect((await post(cookies.admin, ids.student19, { intent: "save", warningId: "", ...FULL })).status).toBe(303);
    expect(await warningOf(ids.student19)).toHaveLength(1);
  });

  test("posts from others are refused: other roles 403, a teacher of another class 404, another site 403, a broken id 400", async () => {
    const fields = { intent: "save", warningId: "", ...FULL };
    expect((await post(cookies.veileder4, ids.student20, fields)).status).toBe(403);
    expect((await post(cookies.student15, ids.student15, fields)).status).toBe(403);
    expect((await post(cookies.laerer1, ids.student20, fields)).status).toBe(404);
    expect((await post(cookies.admin, ids.student20, fields, { origin: "https://evil.example" })).status).toBe(403);
    expect((await post(cookies.admin, ids.student20, { ...fields, warningId: "1; drop" })).status).toBe(400);
    expect(await warningOf(ids.student20)).toEqual([]);
  });
});

describe("the autosave endpoint", () => {
  const endpoint = (studentUserId: number) => `/api/classes/${classB}/students/${studentUserId}/warning`;
  const save = (cookie: string, studentUserId: number, fields: Record<string, string>, origin?: string) =>
    callAction(api, postForm(endpoint(studentUserId), fields, { cookie, origin }), params(studentUserId));

  test("saves the draft and answers with its id; the next save continues it", async () => {
    const first = await save(cookies.admin, ids.student16, { warningId: "", comment: "Utkast" });
    expect(first.status).toBe(200);
    expect(first.headers.get("Cache-Control")).toBe("no-store");
    const { warningId, savedAt } = (await first.json()) as { warningId: number; savedAt: string };
    expect(typeof savedAt).toBe("string");
    const second = await save(cookies.laerer3, ids.student16, { warningId: String(warningId), ...FULL });
    expect(await second.json()).toMatchObject({ warningId });
    expect(await warningOf(ids.student16)).toEqual([
      expect.objectContaining({ id: warningId, ...FULL, submittedAt: null }),
    ]);
  });

  test("refusals in JSON: too long 400, deleted meanwhile 409 with the warning there is now, given 409", async () => {
    const [row] = await warningOf(ids.student16);
    const long = await save(cookies.admin, ids.student16, {
      warningId: String(row.id),
      ...FULL,
      passRequirement: "x".repeat(WARNING_TEXT_LIMIT + 1),
    });
    expect(long.status).toBe(400);
    expect(await long.json()).toEqual({ error: "invalid", fieldErrors: { passRequirement: "tooLong" } });
    const stale = await save(cookies.admin, ids.student16, { warningId: String(row.id + 999), ...FULL });
    expect(stale.status).toBe(409);
    expect(await stale.json()).toEqual({ error: "gone", currentId: row.id });
    expect((await save(cookies.admin, ids.student16, { warningId: "x" })).status).toBe(400);

    expect((await giveWarning(cookies.admin, ids.student16, { warningId: String(row.id), ...FULL })).status).toBe(303);
    const given = await save(cookies.admin, ids.student16, {
      warningId: String(row.id),
      ...FULL,
      comment: "Sent endring",
    });
    expect(given.status).toBe(409);
    expect(await given.json()).toEqual({ error: "alreadyGiven" });
    expect((await warningOf(ids.student16))[0].comment).toBe(FULL.comment);
  });

  test("guarded like the page, answered in JSON: logged out 401, other roles 403, a teacher of another class 404, another site 403, GET 405", async () => {
    const anonymous = await save("", ids.student20, FULL);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("Location")).toBeNull();
    expect(await anonymous.json()).toEqual({ error: "loggedOut" });
    const supervisor = await save(cookies.veileder4, ids.student20, FULL);
    expect(supervisor.status).toBe(403);
    expect(await supervisor.json()).toEqual({ error: "forbidden" });
    // A student the teacher may not see: 404 as on the page, which hides whether there is one.
    const foreign = await save(cookies.laerer1, ids.student20, FULL);
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ error: "notFound" });
    expect((await save(cookies.admin, ids.student20, FULL, "https://evil.example")).status).toBe(403);
    const get = await callLoader(
      api,
      getPage(endpoint(ids.student20), { cookie: cookies.admin }),
      params(ids.student20),
    );
    expect(get.status).toBe(405);
    expect(await get.json()).toEqual({ error: "methodNotAllowed" });
    expect(await warningOf(ids.student20)).toEqual([]);
  });
});

describe("deleting, with a confirmation page", () => {
  const deletePath = (studentUserId: number) => `${pagePath(studentUserId)}/delete`;
  const openDelete = (cookie: string, studentUserId: number) =>
    callLoader(deletePage, getPage(deletePath(studentUserId), { cookie }), params(studentUserId));
  const confirmDelete = (cookie: string, studentUserId: number, fields: Record<string, string>) =>
    callAction(deletePage, postForm(deletePath(studentUserId), fields, { cookie }), params(studentUserId));

  test("the page shows what is deleted; with nothing to delete it goes to the warning page", async () => {
    const none = await openDelete(cookies.admin, ids.student17);
    expect(none.status).toBe(302);
    expect(none.headers.get("Location")).toBe(pagePath(ids.student17));
    expect((await giveWarning(cookies.admin, ids.student17, { warningId: "", ...FULL })).status).toBe(303);
    const response = await openDelete(cookies.laerer3, ids.student17);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      studentName: "Frida Sæther",
      warning: { state: "given", text: FULL },
    });
    expect((await openDelete(cookies.laerer1, ids.student17)).status).toBe(404);
  });

  test("only the warning the page showed is deleted; then none is left, and the trail says so", async () => {
    const [row] = await warningOf(ids.student17);
    expect((await confirmDelete(cookies.veileder3, ids.student17, { warningId: String(row.id) })).status).toBe(403);
    expect((await confirmDelete(cookies.admin, ids.student17, {})).status).toBe(400);
    const stale = await confirmDelete(cookies.admin, ids.student17, { warningId: String(row.id + 999) });
    expect(stale.status).toBe(303);
    expect(stale.headers.get("Location")).toBe(pagePath(ids.student17));
    expect(await flashOf(stale)).toEqual({ type: "error", key: "warnings:delete.changed" });
    expect(await warningOf(ids.student17)).toHaveLength(1);

    const response = await confirmDelete(cookies.admin, ids.student17, { warningId: String(row.id) });
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe(`/teacher/class/${classB}/student/${ids.student17}`);
    expect(await flashOf(response)).toEqual({
      type: "success",
      key: "warnings:delete.deleted",
      values: { name: "Frida Sæther" },
    });
    expect(await warningOf(ids.student17)).toEqual([]);
    const trail = await db().select().from(auditEvents).where(eq(auditEvents.action, "warning.deleted"));
    expect(trail.filter((e) => e.subjectUserId === ids.student17)).toHaveLength(1);

    // Pressed twice: the second finds nothing to delete.
    const twice = await confirmDelete(cookies.admin, ids.student17, { warningId: String(row.id) });
    expect(await flashOf(twice)).toEqual({ type: "info", key: "warnings:delete.nothing" });
  });
});

describe("the warning on the staff's student pages", () => {
  const teacherStudent = (cookie: string, studentUserId: number) =>
    callLoader(studentPage, getPage(`/teacher/class/${classB}/student/${studentUserId}`, { cookie }), {
      classId: String(classB),
      userId: String(studentUserId),
    });
  const supervisorStudent = (cookie: string, studentUserId: number) =>
    callLoader(supervisorStudentPage, getPage(`/supervisor/class/${classB}/student/${studentUserId}`, { cookie }), {
      classId: String(classB),
      userId: String(studentUserId),
    });

  test("the teacher sees the draft's state; the supervisor sees nothing of a draft", async () => {
    await post(cookies.admin, ids.student20, { intent: "save", warningId: "", comment: "Utkast om Mathias" });
    const teacher = (await (await teacherStudent(cookies.admin, ids.student20)).json()) as PageData;
    expect(teacher.warning).toMatchObject({ state: "draft", text: { comment: "Utkast om Mathias" } });
    const supervisor = (await (await supervisorStudent(cookies.veileder4, ids.student20)).json()) as PageData;
    expect(supervisor.warning).toBeNull();
    expect(JSON.stringify(supervisor)).not.toContain("Utkast om Mathias");
  });

  test("once given, the supervisor reads it; a student with no warning has none", async () => {
    const [row] = await warningOf(ids.student20);
    expect((await giveWarning(cookies.admin, ids.student20, { warningId: String(row.id), ...FULL })).status).toBe(303);
    const supervisor = (await (await supervisorStudent(cookies.veileder4, ids.student20)).json()) as PageData;
    expect(supervisor.warning).toMatchObject({ state: "given", text: FULL, teacherName: "Ada Administrator" });
    const teacher = (await (await teacherStudent(cookies.laerer3, ids.student17)).json()) as PageData;
    expect(teacher.warning).toBeNull();
  });
});

describe("when the notice cannot be mailed", () => {
  test("the SMTP server refusing it: the warning is given, the teacher is told to tell the student, one warning in the log", async () => {
    const peer = await startSmtpPeer({ refuse: "rcpt" });
    process.env.SMTP_URL = peer.url;
    resetEnvForTests();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const student22 = await userIdOf(db(), "student22@example.org");
      expect(await warningOf(student22)).toEqual([]);
      const response = await giveWarning(cookies.admin, student22, { warningId: "", ...FULL });
      expect(response.status).toBe(303);
      expect(await flashOf(response)).toMatchObject({ type: "info", key: "warnings:teacher.givenMailFailed" });
      const [given] = await warningOf(student22);
      expect(given.submittedAt).not.toBeNull();
      expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
        expect.stringMatching(/^\[mail\] not sent \(warning notice\): refused: /),
      ]);
    } finally {
      delete process.env.SMTP_URL;
      resetEnvForTests();
      await peer.close();
    }
  });
});
