import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Database, Db } from "~/services/platform/db/client.server";
import { seedDemo } from "~/services/demo/index.server";
import {
  auditEvents,
  classes,
  semesters,
  studentReferences,
  subjects,
  userAffiliations,
  userRoles,
  users,
} from "~/services/platform/db/schema";
import { openTestDatabase } from "~/test/db";
import { placementOf, type FormProgress, type Placement } from "./placement.server";
import { ROLE } from "~/services/identity";
import {
  currentReferenceOf,
  documentPaths,
  formsByHalf,
  hasSupervisor,
  joinClass,
  requireCurrentReference,
  studentFormPath,
} from "./student-placement.server";
import { classIdOf, userIdOf } from "~/test/app";

const TODAY = "2026-11-22";
let database: Database;
let db: Db;

beforeAll(async () => {
  database = await openTestDatabase();
  db = database.db;
  await seedDemo(db, new Date("2026-11-22T12:00:00Z"));
});

afterAll(async () => {
  await database.close();
});

async function referencesOf(userId: number) {
  return db.select().from(studentReferences).where(eq(studentReferences.studentUserId, userId));
}

/** A new student with Feide course memberships of the current semester for the given subjects. */
async function newStudent(email: string, subjectCodes: string[]): Promise<number> {
  const [user] = await db.insert(users).values({ displayName: email, email }).returning({ id: users.id });
  await db.insert(userRoles).values({ userId: user.id, roleId: ROLE.Student });
  for (const code of subjectCodes) {
    await db.insert(userAffiliations).values({
      userId: user.id,
      groupId: `fc:fs:fs:emne:example.org:${code}:1`,
      groupType: "fc:fs:emne",
      subjectCode: code,
      subjectVersion: "1",
      displayName: code,
      active: true,
      fsRoles: ["student"],
    });
  }
  return user.id;
}

describe("currentReferenceOf", () => {
  test("is the student's class in the semester that contains the day", async () => {
    const student01 = await userIdOf(db, "student01@example.org");
    expect(await currentReferenceOf(db, student01, TODAY)).toMatchObject({
      classId: await classIdOf(db, "SYK2001"),
      subjectCode: "SYK2001",
      subjectName: "Praksis i sykehjem",
    });
    expect(await currentReferenceOf(db, student01, "2026-03-01")).toMatchObject({
      classId: await classIdOf(db, "SYK1002", "Vår 2026"),
    });
  });

  test("is null for a student without a class that semester, including on the days around it", async () => {
    expect(await currentReferenceOf(db, await userIdOf(db, "student25@example.org"), TODAY)).toBeNull();
    const student05 = await userIdOf(db, "student05@example.org");
    expect(await currentReferenceOf(db, student05, "2026-03-01")).toBeNull();
    expect(await currentReferenceOf(db, student05, "2026-07-01")).not.toBeNull();
    expect(await currentReferenceOf(db, student05, "2026-12-31")).not.toBeNull();
    expect(await currentReferenceOf(db, student05, "2027-01-01")).toBeNull();
  });

  test("requireCurrentReference sends a student without a class to /student: 302 for a GET, 303 for a post", async () => {
    const student25 = await userIdOf(db, "student25@example.org");
    const get = await requireCurrentReference(
      db,
      new Request("http://localhost/student/forms"),
      student25,
      TODAY,
    ).catch((e) => e);
    expect(get).toBeInstanceOf(Response);
    expect([get.status, get.headers.get("Location")]).toEqual([302, "/student"]);
    const post = await requireCurrentReference(
      db,
      new Request("http://localhost/student/supervisor/invite", { method: "POST" }),
      student25,
      TODAY,
    ).catch((e) => e);
    expect([post.status, post.headers.get("Location")]).toEqual([303, "/student"]);
    const student01 = await userIdOf(db, "student01@example.org");
    expect(
      await requireCurrentReference(db, new Request("http://localhost/student/forms"), student01, TODAY),
    ).toMatchObject({
      subjectCode: "SYK2001",
    });
  });
});

describe("joinClass", () => {
  test("refuses a class the student's memberships do not match, and an unknown class, changing nothing", async () => {
    const student25 = await userIdOf(db, "student25@example.org");
    for (const classId of [await classIdOf(db, "SYK2001"), await classIdOf(db, "SYK1002", "Vår 2026"), 999_999]) {
      expect(await joinClass(db, { studentUserId: student25, classId, today: TODAY })).toEqual({
        ok: false,
        error: "notMatching",
      });
    }
    expect(await referencesOf(student25)).toEqual([]);
  });

  test("joins a matching class once, with an audit event; a second class this semester is refused", async () => {
    const student25 = await userIdOf(db, "student25@example.org");
    const syk2002 = await classIdOf(db, "SYK2002");
    const outcome = await joinClass(db, { studentUserId: student25, classId: syk2002, today: TODAY, ip: "192.0.2.9" });
    expect(outcome).toMatchObject({ ok: true, classId: syk2002, subjectCode: "SYK2002" });
    const refs = await referencesOf(student25);
    expect(refs).toHaveLength(1);
    expect(refs[0]).toMatchObject({ classId: syk2002, teacherUserId: null, supervisorUserId: null });
    const [event] = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "student.joined_class"), eq(auditEvents.actorUserId, student25)));
    expect(event).toMatchObject({ classId: syk2002, subjectUserId: student25, ip: "192.0.2.9" });
    // The row keeps the name it has always been stored under: the semester is "periodName" there.
    expect(event.details).toMatchObject({
      subjectCode: "SYK2002",
      periodName: expect.stringMatching(/^(Vår|Høst) \d{4}$/),
    });
    expect(event.details).not.toHaveProperty("semesterName");

    expect(await joinClass(db, { studentUserId: student25, classId: syk2002, today: TODAY })).toEqual({
      ok: false,
      error: "alreadyInClass",
      subjectCode: "SYK2002",
    });
    expect(await referencesOf(student25)).toHaveLength(1);
  });

  test("a student already in a class cannot join another, even one their memberships match", async () => {
    const student13 = await userIdOf(db, "student13@example.org");
    await db.insert(userAffiliations).values({
      userId: student13,
      groupId: "fc:fs:fs:emne:example.org:SYK2001:1",
      groupType: "fc:fs:emne",
      subjectCode: "SYK2001",
      displayName: "SYK2001",
      fsRoles: ["student"],
    });
    const outcome = await joinClass(db, {
      studentUserId: student13,
      classId: await classIdOf(db, "SYK2001"),
      today: TODAY,
    });
    expect(outcome).toMatchObject({ ok: false, error: "alreadyInClass", subjectCode: "SYK2002" });
    expect(await referencesOf(student13)).toHaveLength(1);
  });

  test("two joins at once, to two matching classes, leave the student in exactly one", async () => {
    const [homeCare] = await db.select({ id: subjects.id }).from(subjects).where(eq(subjects.subjectCode, "SYK1002"));
    const [autumn] = await db.select({ id: semesters.id }).from(semesters).where(eq(semesters.name, "Høst 2026"));
    const [extraClass] = await db
      .insert(classes)
      .values({ subjectId: homeCare.id, semesterId: autumn.id })
      .returning({ id: classes.id });
    const student = await newStudent("to.klasser@example.org", ["SYK2002", "SYK1002"]);
    const outcomes = await Promise.all([
      joinClass(db, { studentUserId: student, classId: await classIdOf(db, "SYK2002"), today: TODAY }),
      joinClass(db, { studentUserId: student, classId: extraClass.id, today: TODAY }),
    ]);
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    expect(outcomes.filter((o) => !o.ok && o.error === "alreadyInClass")).toHaveLength(1);
    expect(await referencesOf(student)).toHaveLength(1);
  });
});

describe("the forms page's grouping", () => {
  const form = (over: Partial<FormProgress>): FormProgress => ({
    schemeId: 1,
    formId: 1,
    name: "Skjema",
    isMainForm: true,
    isMidSemester: true,
    own: { state: "none", at: null },
    sentBy: { student: null, supervisor: null, teacher: null },
    ...over,
  });
  const schemes: Placement["schemes"] = [
    {
      schemeId: 1,
      isMidSemester: true,
      forms: [form({ formId: 1, name: "Hoved midt" }), form({ formId: 2, name: "Spesifikk midt", isMainForm: false })],
    },
    {
      schemeId: 2,
      isMidSemester: false,
      forms: [form({ schemeId: 2, formId: 1, name: "Hoved slutt", isMidSemester: false })],
    },
  ];

  test("in the mid-semester half: mid forms split into main and specific; end forms are coming", () => {
    const grouped = formsByHalf({ half: { half: "mid", deadline: "2026-09-30" }, schemes });
    expect(grouped.current.half).toBe("mid");
    expect(grouped.current.mainForms.map((f) => f.name)).toEqual(["Hoved midt"]);
    expect(grouped.current.specificForms.map((f) => f.name)).toEqual(["Spesifikk midt"]);
    expect(grouped.other).toMatchObject({ half: "end" });
    expect(grouped.other.forms.map((f) => f.name)).toEqual(["Hoved slutt"]);
  });

  test("in the end half: end forms are current; mid forms are earlier", () => {
    const grouped = formsByHalf({ half: { half: "end", deadline: "2026-12-17" }, schemes });
    expect(grouped.current.mainForms.map((f) => f.name)).toEqual(["Hoved slutt"]);
    expect(grouped.current.specificForms).toEqual([]);
    expect(grouped.other.half).toBe("mid");
    expect(grouped.other.forms.map((f) => f.name)).toEqual(["Hoved midt", "Spesifikk midt"]);
  });

  test("no schemes: nothing in either half", () => {
    const grouped = formsByHalf({ half: { half: "mid", deadline: null }, schemes: [] });
    expect([grouped.current.mainForms, grouped.current.specificForms, grouped.other.forms]).toEqual([[], [], []]);
  });

  test("student01 in November: the end-semester forms are current, and their sent mid-semester form is earlier", async () => {
    const student01 = await userIdOf(db, "student01@example.org");
    const reference = (await currentReferenceOf(db, student01, TODAY))!;
    const placement = (await placementOf(db, reference.referenceId, student01, TODAY))!;
    const grouped = formsByHalf(placement);
    expect(grouped.current.half).toBe("end");
    expect(grouped.current.mainForms.map((f) => [f.name, f.own.state])).toEqual([
      ["Vurdering av kliniske kompetanser", "none"],
    ]);
    expect(grouped.other.forms.find((f) => f.isMainForm)?.own.state).toBe("sent");
  });
});

describe("small rules", () => {
  test("someone supervises the student when there is an active assigned or extra supervisor", () => {
    const person = { userId: 1, displayName: "A", email: "a@example.org", isActive: true };
    const deactivated = { ...person, userId: 2, isActive: false };
    expect(hasSupervisor({ supervisor: null, extraSupervisors: [] })).toBe(false);
    expect(hasSupervisor({ supervisor: person, extraSupervisors: [] })).toBe(true);
    expect(hasSupervisor({ supervisor: null, extraSupervisors: [person] })).toBe(true);
    // A deactivated supervisor supervises nobody, so the student may invite someone else.
    expect(hasSupervisor({ supervisor: deactivated, extraSupervisors: [deactivated] })).toBe(false);
    expect(hasSupervisor({ supervisor: deactivated, extraSupervisors: [person] })).toBe(true);
  });

  test("the paths of the form page and the documents are those app/routes.ts serves", () => {
    expect(studentFormPath(7, { formId: 3, schemeId: 5 }, 2)).toBe("/student/7/form/3/class/2/assignment/5");
    expect(documentPaths(2, 7, true)).toEqual({
      fullPdf: "/api/classes/2/students/7/full/pdf",
      signingFormPdf: "/api/classes/2/students/7/signingform/pdf",
    });
    // No signing form yet: no link to a document that is not there.
    expect(documentPaths(2, 7, false)).toEqual({ fullPdf: "/api/classes/2/students/7/full/pdf", signingFormPdf: null });
  });
});
