import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { auditEvents, classTeachers, studentReferences, users } from "~/services/platform/db/schema";
import { leaveClass } from "~/services/placements/index.server";
import { ROLE } from "~/services/identity";
import { cookieActingAs, startTestApp, stopTestApp, userIdOf, classIdOf } from "~/test/app";
import { callAction, callLoader, getPage, postForm, TEST_ORIGIN, flashOf } from "~/test/route";
import * as addStudents from "./add-students";

let app: Awaited<ReturnType<typeof startTestApp>>;
let laerer1: string;
let laerer2: string;
let laerer3: string;
let student: string;
let supervisor: string;
let syk2001: number;
let syk2002: number;

const db = () => app.database.db;

async function teacherOf(classId: number, studentEmail: string): Promise<number | null> {
  const [row] = await db()
    .select({ teacher: studentReferences.teacherUserId })
    .from(studentReferences)
    .where(
      and(
        eq(studentReferences.classId, classId),
        eq(studentReferences.studentUserId, await userIdOf(db(), studentEmail)),
      ),
    );
  return row.teacher;
}

beforeAll(async () => {
  app = await startTestApp();
  laerer1 = await cookieActingAs(db(), "laerer1@example.org", ROLE.Teacher);
  laerer2 = await cookieActingAs(db(), "laerer2@example.org", ROLE.Teacher);
  laerer3 = await cookieActingAs(db(), "laerer3@example.org", ROLE.Teacher);
  student = await cookieActingAs(db(), "student01@example.org", ROLE.Student);
  supervisor = await cookieActingAs(db(), "veileder1@example.org", ROLE.Supervisor);
  syk2001 = await classIdOf(db(), "SYK2001");
  syk2002 = await classIdOf(db(), "SYK2002");
});

afterAll(async () => {
  await stopTestApp(app);
});

const path = (classId: number) => `/teacher/class/${classId}/students/add`;
const open = (classId: number, cookie: string, query = "") =>
  callLoader(addStudents, getPage(`${path(classId)}${query}`, { cookie }), { classId: String(classId) });
/** Several checkboxes of one name, as a browser sends them. */
const post = (classId: number, ids: (number | string)[], cookie: string) =>
  callAction(
    addStudents,
    new Request(new URL(path(classId), TEST_ORIGIN), {
      method: "POST",
      headers: { Origin: TEST_ORIGIN, Cookie: cookie, "x-test-client-address": "192.0.2.5" },
      body: new URLSearchParams(ids.map((id) => ["studentIds", String(id)])),
    }),
    { classId: String(classId) },
  );

interface Choice {
  userId: number;
  displayName: string;
  teacherName: string | null;
  mine: boolean;
}

describe("the picker", () => {
  test("lists the class's students with their teacher; the teacher's own are marked", async () => {
    const response = await open(syk2001, laerer1);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ subject: "SYK2001 Praksis i sykehjem", total: 12, q: "", moreHref: null });
    const students = body.students as Choice[];
    expect(students).toHaveLength(12);
    expect(students.find((s) => s.displayName === "Emma Andersen")).toMatchObject({
      teacherName: "Ingrid Haugen",
      mine: true,
    });
    expect(students.find((s) => s.displayName === "Noah Johansen")).toMatchObject({
      teacherName: "Lars Bakken",
      mine: false,
    });
    expect(students.find((s) => s.displayName === "Maja Moen")).toMatchObject({ teacherName: null });
  });

  test("searches name or e-mail in any case", async () => {
    const byName = await (await open(syk2001, laerer1, "?q=MAJA")).json();
    expect(byName.students.map((s: Choice) => s.displayName)).toEqual(["Maja Moen"]);
    const byEmail = await (await open(syk2001, laerer1, "?q=student12%40")).json();
    expect(byEmail.students.map((s: Choice) => s.displayName)).toEqual(["Filip Halvorsen"]);
    const overlong = await open(syk2001, laerer1, `?q=${"x".repeat(5000)}`);
    expect(overlong.status).toBe(200);
    expect((await overlong.json()).students).toEqual([]);
    // PostgreSQL text cannot hold NUL; a search with one is simply a search without it.
    const withNul = await open(syk2001, laerer1, "?q=MA%00JA");
    expect(withNul.status).toBe(200);
    expect((await withNul.json()).students.map((s: Choice) => s.displayName)).toEqual(["Maja Moen"]);
  });

  test("shows 20 at a time, with a link to show more", async () => {
    const classId = syk2001;
    const extra = await db()
      .insert(users)
      .values(
        Array.from({ length: 25 }, (_, i) => ({
          displayName: `Picker Student ${i + 1}`,
          email: `picker${i + 1}@example.org`,
        })),
      )
      .returning();
    await db()
      .insert(studentReferences)
      .values(extra.map((u) => ({ classId, studentUserId: u.id })));
    const first = await (await open(classId, laerer1)).json();
    expect(first.students).toHaveLength(20);
    expect(first.total).toBe(37);
    expect(first.moreHref).toBe(`${path(classId)}?offset=20#students-21`);
    const more = await (await open(classId, laerer1, "?offset=20")).json();
    expect(more.students).toHaveLength(37);
    expect(more.moreHref).toBeNull();
    const searched = await (await open(classId, laerer1, "?q=picker")).json();
    expect(searched.moreHref).toBe(`${path(classId)}?q=picker&offset=20#students-21`);
  });

  test("is only for a teacher of the class: others get 404, other roles the role chooser", async () => {
    const foreign = await open(syk2001, laerer3);
    expect(foreign.status).toBe(404);
    expect(await foreign.text()).not.toContain("Emma");
    expect((await open(999_999, laerer1)).status).toBe(404);
    for (const cookie of [student, supervisor]) {
      const response = await open(syk2001, cookie);
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toMatch(/^\/role\?/);
    }
  });
});

describe("taking students", () => {
  test("assigns the chosen students to the teacher and goes back to the class page", async () => {
    const maja = await userIdOf(db(), "student11@example.org");
    const filip = await userIdOf(db(), "student12@example.org");
    const response = await post(syk2001, [maja, filip], laerer2);
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe(`/teacher/class/${syk2001}`);
    expect(await flashOf(response)).toEqual({
      type: "success",
      key: "teacher:addStudents.added",
      values: { count: 2, names: "Filip Halvorsen, Maja Moen" },
    });
    const laerer2Id = await userIdOf(db(), "laerer2@example.org");
    expect(await teacherOf(syk2001, "student11@example.org")).toBe(laerer2Id);
    const events = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "student.teacher_assigned"), eq(auditEvents.actorUserId, laerer2Id)));
    expect(events.map((e) => e.subjectUserId).sort()).toEqual([maja, filip].sort());
  });

  test("a student taken by another teacher meanwhile is named, not moved", async () => {
    const [picker1, picker2] = await Promise.all([
      userIdOf(db(), "picker1@example.org"),
      userIdOf(db(), "picker2@example.org"),
    ]);
    // laerer2 takes picker 1 first; laerer1 then posts both from an older page.
    expect((await post(syk2001, [picker1], laerer2)).status).toBe(303);
    const response = await post(syk2001, [picker1, picker2], laerer1);
    expect(response.status).toBe(303);
    expect(await flashOf(response)).toEqual({
      type: "success",
      key: "teacher:addStudents.addedSomeTaken",
      values: { added: "Picker Student 2", taken: "Picker Student 1" },
    });
    expect(await teacherOf(syk2001, "picker1@example.org")).toBe(await userIdOf(db(), "laerer2@example.org"));

    // When every chosen student is taken, the page says who, and keeps the choice.
    const refused = await post(syk2001, [picker1], laerer1);
    expect(refused.status).toBe(400);
    const reply = await refused.json();
    expect(reply.error.studentIds).toEqual(["teacher:errors.allTaken?names=Picker+Student+1"]);
    expect(reply.initialValue.studentIds).toEqual(String(picker1));
  });

  test("nothing chosen, a student of another class, or a malformed id is a clear 400", async () => {
    const none = await post(syk2001, [], laerer1);
    expect(none.status).toBe(400);
    expect((await none.json()).error.studentIds).toEqual(["teacher:errors.noStudents"]);
    const leah = await userIdOf(db(), "student13@example.org"); // SYK2002
    const foreign = await post(syk2001, [leah], laerer1);
    expect(foreign.status).toBe(400);
    expect((await foreign.json()).error.studentIds).toEqual(["teacher:errors.unknownStudent"]);
    for (const bad of ["abc", "0", "99999999999", "-1"]) {
      const response = await post(syk2001, [bad], laerer1);
      expect(response.status, bad).toBe(400);
    }
    const garbage = await callAction(
      addStudents,
      new Request(new URL(path(syk2001), TEST_ORIGIN), {
        method: "POST",
        headers: { Origin: TEST_ORIGIN, Cookie: laerer1, "Content-Type": "multipart/form-data; boundary=x" },
        body: "not multipart",
      }),
      { classId: String(syk2001) },
    );
    expect(garbage.status).toBe(400);
  });

  test("a teacher not in the class, or who has left it, gets 404 and changes nothing", async () => {
    const ida = await userIdOf(db(), "student23@example.org");
    const response = await post(syk2002, [ida], laerer2);
    expect(response.status).toBe(404);
    expect(await teacherOf(syk2002, "student23@example.org")).toBeNull();
    // laerer2 joins SYK2002 and leaves again: the page and the post are closed once more.
    const laerer2Id = await userIdOf(db(), "laerer2@example.org");
    await db().insert(classTeachers).values({ classId: syk2002, userId: laerer2Id });
    expect((await open(syk2002, laerer2)).status).toBe(200);
    expect((await leaveClass(db(), { classId: syk2002, userId: laerer2Id })).ok).toBe(true);
    expect((await open(syk2002, laerer2)).status).toBe(404);
    expect((await post(syk2002, [ida], laerer2)).status).toBe(404);
    expect(await teacherOf(syk2002, "student23@example.org")).toBeNull();
    const roles = await post(syk2002, [ida], student);
    expect(roles.status).toBe(403);
    expect(
      (
        await callAction(addStudents, postForm(path(syk2002), { studentIds: String(ida) }, { cookie: supervisor }), {
          classId: String(syk2002),
        })
      ).status,
    ).toBe(403);
  });
});
