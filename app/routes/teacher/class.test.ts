import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  answerSets,
  schemeForms,
  schemes,
  auditEvents,
  classes,
  classTeachers,
  forms,
  semesters,
  studentReferences,
  subjects,
  users,
} from "~/services/platform/db/schema";
import { ROLE } from "~/services/identity";
import { cookieActingAs, startTestApp, stopTestApp, userIdOf, classIdOf } from "~/test/app";
import { callAction, callLoader, getPage, postForm, flashOf } from "~/test/route";
import * as classPage from "./class";
import { calendar, dateText, halfOf } from "~/test/calendar";

let app: Awaited<ReturnType<typeof startTestApp>>;
let queries = 0;
let laerer1: string;
let laerer2: string;
let laerer3: string;
let student: string;
let supervisor: string;
let syk2001: number;
let syk2002: number;
let syk1002: number;

const db = () => app.database.db;

beforeAll(async () => {
  app = await startTestApp({}, { logger: { logQuery: () => queries++ } });
  laerer1 = await cookieActingAs(db(), "laerer1@example.org", ROLE.Teacher);
  laerer2 = await cookieActingAs(db(), "laerer2@example.org", ROLE.Teacher);
  laerer3 = await cookieActingAs(db(), "laerer3@example.org", ROLE.Teacher);
  student = await cookieActingAs(db(), "student01@example.org", ROLE.Student);
  supervisor = await cookieActingAs(db(), "veileder1@example.org", ROLE.Supervisor);
  syk2001 = await classIdOf(db(), "SYK2001");
  syk2002 = await classIdOf(db(), "SYK2002");
  syk1002 = await classIdOf(db(), "SYK1002");
});

afterAll(async () => {
  await stopTestApp(app);
});

const open = (classId: number | string, cookie: string, query = "") =>
  callLoader(classPage, getPage(`/teacher/class/${classId}${query}`, { cookie }), { classId: String(classId) });
const post = (classId: number | string, fields: Record<string, string>, cookie: string) =>
  callAction(classPage, postForm(`/teacher/class/${classId}`, fields, { cookie }), { classId: String(classId) });

interface Row {
  displayName: string;
  teacherName: string | null;
  supervisorName: string | null;
  mid: { counts: { student: number; supervisor: number; teacher: number }; state: string };
  end: { counts: { student: number; supervisor: number; teacher: number }; state: string };
}

describe("the class page", () => {
  test("a teacher of the class sees the header, own students, supervisors and the progress of every student", async () => {
    const response = await open(syk2001, laerer1);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.header).toMatchObject({
      subjectCode: "SYK2001",
      semesterName: calendar.current.name,
      semesterStartText: dateText(calendar.current.startDate),
      midSemesterText: dateText(calendar.classes.SYK2001.midSemesterDate),
      endSemesterText: dateText(calendar.classes.SYK2001.endSemesterDate),
    });
    // The mid-semester date until it has passed, the end-semester date after.
    expect(body.deadline).toEqual({ half: halfOf("SYK2001").half, text: dateText(halfOf("SYK2001").deadline) });
    expect(body.formCount).toEqual({ mid: 2, end: 2 });
    expect(body.members.myStudents).toHaveLength(5);
    expect(body.members.supervisors.map((s: { displayName: string }) => s.displayName)).toEqual([
      "Marte Solberg",
      "Ole Kristiansen",
    ]);
    const rows = body.members.progress.rows as Row[];
    expect(rows).toHaveLength(12);
    const emma = rows.find((r) => r.displayName === "Emma Andersen")!;
    expect(emma).toMatchObject({
      teacherName: "Ingrid Haugen",
      supervisorName: "Marte Solberg",
      mid: { counts: { student: 1, supervisor: 1, teacher: 1 }, state: "behind" },
      end: { counts: { student: 0, supervisor: 0, teacher: 0 }, state: "open" },
    });
  });

  test("sorts the overview by the column and direction asked for; anything else is by name", async () => {
    const names = async (query: string) =>
      ((await (await open(syk2001, laerer1, query)).json()).members.progress.rows as Row[]).map((r) => r.displayName);
    const byName = await names("");
    expect(byName[0]).toBe("Ella Olsen");
    expect(await names("?sort=name&dir=desc")).toEqual(byName.toReversed());
    expect(await names("?sort=bogus&dir=up")).toEqual(byName);
    // Most sent at mid-semester first: Emma (3), Noah (2), Nora (1).
    expect((await names("?sort=mid&dir=desc")).slice(0, 3)).toEqual(["Emma Andersen", "Noah Johansen", "Nora Hansen"]);
    // By supervisor: Marte Solberg's students first, those without one last.
    const bySupervisor = (await (await open(syk2001, laerer1, "?sort=supervisor&dir=asc")).json()).members.progress
      .rows as Row[];
    expect(bySupervisor[0].supervisorName).toBe("Marte Solberg");
    expect(bySupervisor.at(-1)!.supervisorName).toBeNull();
    const body = await (await open(syk2001, laerer1, "?sort=teacher&dir=desc")).json();
    expect(body).toMatchObject({ sort: "teacher", dir: "desc" });
  });

  test("a teacher not in the class sees its header and schemes, and nothing about its people", async () => {
    const response = await open(syk2001, laerer3);
    expect(response.status).toBe(200);
    const text = await response.text();
    const body = JSON.parse(text);
    expect(body.members).toBeNull();
    expect(body.header.subjectCode).toBe("SYK2001");
    expect(body.schemes).toHaveLength(2);
    for (const leak of ["Emma Andersen", "student01@", "Marte Solberg", "veileder1@", "Ingrid Haugen"])
      expect(text).not.toContain(leak);
  });

  test("an unknown or malformed class is not found", async () => {
    for (const classId of ["999999", "abc", "0", "1.5"]) {
      expect((await open(classId, laerer1)).status, classId).toBe(404);
    }
  });

  test("other roles are sent to the role chooser; their posts are forbidden", async () => {
    for (const cookie of [student, supervisor]) {
      const response = await open(syk2001, cookie);
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toMatch(/^\/role\?redirectTo=/);
      expect((await post(syk2002, { intent: "join" }, cookie)).status).toBe(403);
    }
    expect((await open(syk2001, "")).status).toBe(302);
  });
});

describe("joining and leaving", () => {
  test("a teacher joins another class of the semester, then sees its students", async () => {
    const response = await post(syk2002, { intent: "join" }, laerer2);
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe(`/teacher/class/${syk2002}`);
    expect(await flashOf(response)).toEqual({
      type: "success",
      key: "teacher:class.joined",
      values: { subject: "SYK2002 Praksis i spesialisthelsetjenesten" },
    });
    const body = await (await open(syk2002, laerer2)).json();
    expect(body.members.progress.rows).toHaveLength(12);
    expect(body.members.myStudents).toEqual([]);
    // Joining twice is harmless.
    const again = await post(syk2002, { intent: "join" }, laerer2);
    expect(again.status).toBe(303);
    expect((await flashOf(again))?.key).toBe("teacher:class.alreadyJoined");
  });

  test("leaving releases the teacher's students and goes home; posting to the class afterwards is not found", async () => {
    const laerer2Id = await userIdOf(db(), "laerer2@example.org");
    const ida = await userIdOf(db(), "student23@example.org");
    await db()
      .update(studentReferences)
      .set({ teacherUserId: laerer2Id })
      .where(and(eq(studentReferences.classId, syk2002), eq(studentReferences.studentUserId, ida)));
    const page = await (await open(syk2002, laerer2)).json();
    expect(page.members.myStudents.map((s: { displayName: string }) => s.displayName)).toEqual(["Ida Ødegård"]);

    const response = await post(syk2002, { intent: "leave" }, laerer2);
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/teacher");
    expect(await flashOf(response)).toEqual({
      type: "success",
      key: "teacher:class.leftReleased",
      values: { subject: "SYK2002 Praksis i spesialisthelsetjenesten", count: 1, names: "Ida Ødegård" },
    });
    const [ref] = await db()
      .select({ teacher: studentReferences.teacherUserId })
      .from(studentReferences)
      .where(and(eq(studentReferences.classId, syk2002), eq(studentReferences.studentUserId, ida)));
    expect(ref.teacher).toBeNull();
    const [event] = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "class.left"), eq(auditEvents.actorUserId, laerer2Id)));
    expect(event).toMatchObject({ classId: syk2002, details: { releasedStudentUserIds: [ida] } });

    expect((await post(syk2002, { intent: "leave" }, laerer2)).status).toBe(404);
    expect((await open(syk2002, laerer2)).status).toBe(200);
    expect((await (await open(syk2002, laerer2)).json()).members).toBeNull();
  });

  test("a teacher cannot leave a class they are not in", async () => {
    const response = await post(syk2001, { intent: "leave" }, laerer3);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain("Emma");
    const teachers = await db().select().from(classTeachers).where(eq(classTeachers.classId, syk2001));
    expect(teachers).toHaveLength(2);
  });

  test("a class whose semester has ended cannot be joined; an unknown intent or class is refused", async () => {
    const ended = await post(syk1002, { intent: "join" }, laerer2);
    expect(ended.status).toBe(400);
    expect(await ended.json()).toEqual({ error: "teacher:errors.ended" });
    expect((await post(syk2002, { intent: "delete" }, laerer2)).status).toBe(400);
    expect((await post(syk2002, {}, laerer2)).status).toBe(400);
    expect((await post(999_999, { intent: "join" }, laerer2)).status).toBe(404);
  });
});

describe("the number of queries", () => {
  test("is the same for a class of 10 students and of 500", async () => {
    const [semester] = await db()
      .select({ id: semesters.id })
      .from(semesters)
      .where(eq(semesters.name, calendar.current.name));
    const [subject] = await db().insert(subjects).values({ subjectCode: "SYK9010", name: "Stor klasse" }).returning();
    const [bigClass] = await db()
      .insert(classes)
      .values({ subjectId: subject.id, semesterId: semester.id, ...calendar.classes.SYK2001 })
      .returning();
    const laerer1Id = await userIdOf(db(), "laerer1@example.org");
    await db().insert(classTeachers).values({ classId: bigClass.id, userId: laerer1Id });
    const [mid, end] = await db()
      .insert(schemes)
      .values([
        { classId: bigClass.id, isMidSemester: true },
        { classId: bigClass.id, isMidSemester: false },
      ])
      .returning();
    const [main] = await db()
      .select({ id: forms.id })
      .from(forms)
      .where(eq(forms.name, "Vurdering av kliniske kompetanser"));
    await db()
      .insert(schemeForms)
      .values([
        { schemeId: mid.id, formId: main.id },
        { schemeId: end.id, formId: main.id },
      ]);
    const addStudents = async (from: number, to: number) => {
      const people = await db()
        .insert(users)
        .values(
          Array.from({ length: to - from }, (_, i) => ({
            displayName: `Stor Student ${from + i}`,
            email: `stor${from + i}@example.org`,
          })),
        )
        .returning({ id: users.id });
      await db()
        .insert(studentReferences)
        .values(
          people.map((p, i) => ({
            classId: bigClass.id,
            studentUserId: p.id,
            teacherUserId: i % 2 === 0 ? laerer1Id : null,
          })),
        );
      await db()
        .insert(answerSets)
        .values(
          people.map((p) => ({
            formId: main.id,
            schemeId: mid.id,
            studentUserId: p.id,
            authorUserId: p.id,
            authorRoleId: ROLE.Student,
            isMidSemester: true,
            sentAt: new Date(`${calendar.current.startDate}T10:00:00Z`),
          })),
        );
    };
    const countQueries = async () => {
      queries = 0;
      const response = await open(bigClass.id, laerer1);
      expect(response.status).toBe(200);
      const count = queries;
      return { count, body: await response.json() };
    };

    await addStudents(0, 10);
    await countQueries();
    const small = await countQueries();
    expect(small.body.members.progress.rows).toHaveLength(10);
    expect(small.body.members.progress.page).toEqual({ page: 1, pages: 1, total: 10, from: 1, to: 10 });
    await addStudents(10, 500);
    const large = await countQueries();
    // One page of 50 rows, whatever the class size: the page's weight does not grow with the class.
    expect(large.body.members.progress.rows).toHaveLength(50);
    expect(large.body.members.progress.page).toEqual({ page: 1, pages: 10, total: 500, from: 1, to: 50 });
    expect(large.body.members.progress.rows[0].mid.counts.student).toBe(1);
    expect(large.count).toBe(small.count);
    // The last page, and a page past the end (which shows the last one).
    const last = await (await open(bigClass.id, laerer1, "?sort=name&dir=asc&page=10")).json();
    expect(last.members.progress.page).toEqual({ page: 10, pages: 10, total: 500, from: 451, to: 500 });
    const beyond = await (await open(bigClass.id, laerer1, "?page=99")).json();
    expect(beyond.members.progress.page.page).toBe(10);
    const names = new Set(
      [...large.body.members.progress.rows, ...last.members.progress.rows].map((r: Row) => r.displayName),
    );
    expect(names.size).toBe(100);
    // Session, access check, header, schemes, overview, supervisors: a handful, not one per student.
    expect(small.count).toBeLessThan(15);
  });
});
