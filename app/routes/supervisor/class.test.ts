import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { auditEvents, studentReferences, userRoles, users } from "~/services/platform/db/schema";
import { ROLE } from "~/services/identity";
import { cookieActingAs, startTestApp, stopTestApp, userIdOf, classIdOf } from "~/test/app";
import { callAction, callLoader, getPage, TEST_ORIGIN, flashOf } from "~/test/route";
import * as classPage from "./class";
import * as homePage from "./home";
import { calendar, dateText, halfOf } from "~/test/calendar";

let app: Awaited<ReturnType<typeof startTestApp>>;
let marte: string;
let jonas: string;
let hanne: string;
let classA: number;
let classB: number;

const db = () => app.database.db;

async function supervisorOf(classId: number, email: string): Promise<number | null> {
  const studentUserId = await userIdOf(db(), email);
  const [row] = await db()
    .select({ supervisorUserId: studentReferences.supervisorUserId })
    .from(studentReferences)
    .where(and(eq(studentReferences.classId, classId), eq(studentReferences.studentUserId, studentUserId)));
  return row.supervisorUserId;
}

/** A form post with repeated fields (several checkboxes of one name), as a browser sends it. */
function postPairs(path: string, pairs: [string, string][], cookie: string): Request {
  return new Request(new URL(path, TEST_ORIGIN), {
    method: "POST",
    headers: { Origin: TEST_ORIGIN, Cookie: cookie, "x-test-client-address": "192.0.2.5" },
    body: new URLSearchParams(pairs),
  });
}

interface Reply {
  result: { status: string; initialValue: Record<string, unknown>; error: Record<string, string[] | null> };
}

beforeAll(async () => {
  app = await startTestApp();
  marte = await cookieActingAs(db(), "veileder1@example.org", ROLE.Supervisor);
  jonas = await cookieActingAs(db(), "veileder4@example.org", ROLE.Supervisor);
  hanne = await cookieActingAs(db(), "veileder3@example.org", ROLE.Supervisor);
  classA = await classIdOf(db(), "SYK2001");
  classB = await classIdOf(db(), "SYK2002");
});

afterAll(async () => {
  await stopTestApp(app);
});

const load = (cookie: string, classId: number) =>
  callLoader(classPage, getPage(`/supervisor/class/${classId}`, { cookie }), { classId: String(classId) });
const take = (cookie: string, classId: number, studentIds: (number | string)[], intent = "take") =>
  callAction(
    classPage,
    postPairs(
      `/supervisor/class/${classId}`,
      [["intent", intent], ...studentIds.map((id): [string, string] => ["studentUserIds", String(id)])],
      cookie,
    ),
    { classId: String(classId) },
  );

describe("the supervisor's home", () => {
  test("lists the classes the supervisor is attached to, with their own students", async () => {
    const response = await callLoader(homePage, getPage("/supervisor", { cookie: marte }));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.current.map((c: { subjectCode: string }) => c.subjectCode)).toEqual(["SYK2001"]);
    // Five assigned students and one followed as an extra supervisor.
    expect(body.current[0].ownStudentCount).toBe(6);
    expect(body.earlier.map((c: { subjectCode: string }) => c.subjectCode)).toEqual(["SYK1002"]);
  });
});

describe("the supervisor's class page", () => {
  test("an attached supervisor sees the class, the schemes, their students and those without a supervisor", async () => {
    const response = await load(marte, classA);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.header).toMatchObject({
      subjectCode: "SYK2001",
      semesterName: calendar.current.name,
      endSemesterText: dateText(calendar.classes.SYK2001.endSemesterDate),
    });
    expect(body.classHalf).toEqual({ half: halfOf("SYK2001").half, text: dateText(halfOf("SYK2001").deadline) });
    expect(body.schemes).toHaveLength(2);
    expect(body.attached).toBe(true);
    expect(body.students.map((s: { displayName: string; relation: string }) => [s.displayName, s.relation])).toEqual(
      [
        ["Emma Andersen", "assigned"],
        ["Ingrid Jensen", "assigned"],
        ["Nora Hansen", "assigned"],
        ["Noah Johansen", "extra"],
        ["Sofie Nilsen", "assigned"],
        ["Ella Olsen", "assigned"],
      ].toSorted((a, b) => a[0].localeCompare(b[0], "nb")),
    );
    expect(body.unassigned).toEqual([
      { userId: await userIdOf(db(), "student12@example.org"), displayName: "Filip Halvorsen" },
      { userId: await userIdOf(db(), "student11@example.org"), displayName: "Maja Moen" },
      { userId: await userIdOf(db(), "student10@example.org"), displayName: "Oskar Dahl" },
    ]);
    // Nothing about the other supervisor's students.
    expect(JSON.stringify(body)).not.toMatch(/William Karlsen|student08/);
  });

  test("a supervisor of another class gets a 404 with nothing of the class's students", async () => {
    const response = await load(jonas, classA);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toMatch(/Emma Andersen|Filip Halvorsen|SYK2001/);
    expect((await load(jonas, 999_999)).status).toBe(404);
    const malformed = await callLoader(classPage, getPage("/supervisor/class/abc", { cookie: jonas }), {
      classId: "abc",
    });
    expect(malformed.status).toBe(404);
  });

  test("a teacher gets the role chooser; a teacher, student or admin posting is forbidden", async () => {
    const teacher = await cookieActingAs(db(), "laerer1@example.org", ROLE.Teacher);
    const asTeacher = await load(teacher, classA);
    expect(asTeacher.status).toBe(302);
    expect(asTeacher.headers.get("Location")).toMatch(/^\/role\?redirectTo=/);
    const student = await cookieActingAs(db(), "student12@example.org", ROLE.Student);
    const admin = await cookieActingAs(db(), "admin@example.org", ROLE.Admin);
    const filip = await userIdOf(db(), "student12@example.org");
    for (const cookie of [teacher, student, admin]) expect((await take(cookie, classA, [filip])).status).toBe(403);
    expect(await supervisorOf(classA, "student12@example.org")).toBeNull();
  });
});

describe("taking students", () => {
  test("an attached supervisor takes students without a supervisor; audited, with a message", async () => {
    const mathias = await userIdOf(db(), "student20@example.org");
    const tobias = await userIdOf(db(), "student22@example.org");
    const page = await (await load(jonas, classB)).json();
    expect(page.unassigned.map((s: { displayName: string }) => s.displayName)).toEqual(
      ["Ida Ødegård", "Magnus Knutsen", "Tobias Myhre"].toSorted((a, b) => a.localeCompare(b, "nb")),
    );
    expect(page.unassigned.some((s: { displayName: string }) => s.displayName === "Mathias Aas")).toBe(false);

    const response = await take(jonas, classB, [tobias]);
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe(`/supervisor/class/${classB}`);
    expect(await flashOf(response)).toEqual({
      type: "success",
      key: "supervisor:take.taken",
      values: { names: "Tobias Myhre" },
    });
    const jonasId = await userIdOf(db(), "veileder4@example.org");
    expect(await supervisorOf(classB, "student22@example.org")).toBe(jonasId);
    const [event] = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "student.advisor_assigned"), eq(auditEvents.subjectUserId, tobias)));
    expect(event).toMatchObject({ actorUserId: jonasId, classId: classB, details: { from: null, to: jonasId } });

    // Another supervisor of the class, a moment later: told by name that the student was taken.
    const late = await take(hanne, classB, [tobias]);
    expect(late.status).toBe(303);
    expect(await flashOf(late)).toEqual({
      type: "error",
      key: "supervisor:take.missed",
      values: { names: "Tobias Myhre" },
    });
    expect(await supervisorOf(classB, "student22@example.org")).toBe(jonasId);

    // A student who already has a supervisor is not taken away from them.
    const mixed = await take(hanne, classB, [mathias, await userIdOf(db(), "student23@example.org")]);
    expect(await flashOf(mixed)).toEqual({
      type: "info",
      key: "supervisor:take.some",
      values: { taken: "Ida Ødegård", missed: "Mathias Aas" },
    });
    expect(await supervisorOf(classB, "student20@example.org")).toBe(jonasId);
  });

  test("nothing chosen, junk, or a student of another class is a 400 with a message, keeping the choice", async () => {
    const none = await take(jonas, classB, []);
    expect(none.status).toBe(400);
    expect(((await none.json()) as Reply).result.error.studentUserIds).toEqual(["supervisor:errors.noStudents"]);

    const magnus = await userIdOf(db(), "student24@example.org");
    const filip = await userIdOf(db(), "student12@example.org");
    for (const ids of [[magnus, filip], [magnus, "abc"], [magnus, "99999999999"], ["9".repeat(4000)]]) {
      const response = await take(jonas, classB, ids);
      expect(response.status).toBe(400);
      const body = (await response.json()) as Reply;
      expect(body.result.error.studentUserIds).toEqual(["supervisor:errors.unknownStudent"]);
      expect([body.result.initialValue.studentUserIds].flat()).toEqual(ids.map(String));
    }
    expect(await supervisorOf(classB, "student24@example.org")).toBeNull();
    expect(await supervisorOf(classA, "student12@example.org")).toBeNull();
  });

  test("an unknown intent is a bad request; a supervisor of another class is a 404", async () => {
    const magnus = await userIdOf(db(), "student24@example.org");
    expect((await take(jonas, classB, [magnus], "delete")).status).toBe(400);
    expect((await take(marte, classB, [magnus])).status).toBe(404);
    expect(await supervisorOf(classB, "student24@example.org")).toBeNull();
  });

  test("a supervisor who only follows a student (invited) sees no list and may not take students", async () => {
    const [invited] = await db()
      .insert(users)
      .values({ displayName: "Invitert Iris", email: "iris@example.org" })
      .returning();
    await db().insert(userRoles).values({ userId: invited.id, roleId: ROLE.Supervisor });
    const magnus = await userIdOf(db(), "student24@example.org");
    await db()
      .update(studentReferences)
      .set({ supervisorUserId: invited.id })
      .where(and(eq(studentReferences.classId, classB), eq(studentReferences.studentUserId, magnus)));
    const cookie = await cookieActingAs(db(), "iris@example.org", ROLE.Supervisor);

    const page = await (await load(cookie, classB)).json();
    expect(page.attached).toBe(false);
    expect(page.students.map((s: { displayName: string }) => s.displayName)).toEqual(["Magnus Knutsen"]);
    expect(page.unassigned).toEqual([]);

    const response = await take(cookie, classB, [await userIdOf(db(), "student23@example.org")]);
    expect(response.status).toBe(403);

    const home = await (await callLoader(homePage, getPage("/supervisor", { cookie }))).json();
    expect(
      home.current.map((c: { subjectCode: string; ownStudentCount: number }) => [c.subjectCode, c.ownStudentCount]),
    ).toEqual([["SYK2002", 1]]);
  });
});
