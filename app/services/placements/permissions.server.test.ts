import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { and, eq } from "drizzle-orm";
import type { Database } from "~/services/platform/db/client.server";
import { classes, semesters, studentReferences, subjects } from "~/services/platform/db/schema";
import { seedDemo } from "~/services/demo/index.server";
import {
  accessToClass,
  classAccess,
  requireClassAccess,
  requireClassTeacher,
  requireStudentAccess,
  studentAccess,
  studentRelation,
  type ClassFacts,
  type StudentFacts,
} from "./permissions.server";
import { ROLE } from "~/services/identity";
import { openTestDatabase } from "~/test/db";
import { userIdOf } from "~/test/app";

describe("studentRelation (pure)", () => {
  const student = 10;
  const facts = (over: Partial<StudentFacts> = {}): StudentFacts => ({
    studentUserId: student,
    teacherUserId: 20,
    supervisorUserId: 30,
    viewerTeachesClass: false,
    viewerIsExtraSupervisor: false,
    ...over,
  });

  test("a student sees only themself", () => {
    expect(studentRelation({ userId: student, role: ROLE.Student }, facts())).toBe("self");
    expect(studentRelation({ userId: 11, role: ROLE.Student }, facts())).toBeNull();
  });

  test("a teacher sees every student of a class they teach, and none of another class", () => {
    expect(studentRelation({ userId: 20, role: ROLE.Teacher }, facts({ viewerTeachesClass: true }))).toBe("teacher");
    // Not the assigned teacher, but a teacher of the class: the class's teachers share its students.
    expect(studentRelation({ userId: 21, role: ROLE.Teacher }, facts({ viewerTeachesClass: true }))).toBe("teacher");
    // The assigned teacher who has left the class sees the student no more.
    expect(studentRelation({ userId: 20, role: ROLE.Teacher }, facts())).toBeNull();
  });

  test("a supervisor sees their assigned students and those they follow as extra supervisor, nobody else", () => {
    expect(studentRelation({ userId: 30, role: ROLE.Supervisor }, facts())).toBe("supervisor");
    expect(studentRelation({ userId: 31, role: ROLE.Supervisor }, facts({ viewerIsExtraSupervisor: true }))).toBe(
      "extraSupervisor",
    );
    expect(studentRelation({ userId: 31, role: ROLE.Supervisor }, facts())).toBeNull();
    // Teaching the class gives a supervisor nothing: the active role decides.
    expect(studentRelation({ userId: 31, role: ROLE.Supervisor }, facts({ viewerTeachesClass: true }))).toBeNull();
  });

  test("the same person sees what the role they act in allows", () => {
    // A teacher who is also the student's supervisor: as Teacher only if they teach the class.
    expect(studentRelation({ userId: 30, role: ROLE.Teacher }, facts())).toBeNull();
    expect(studentRelation({ userId: 30, role: ROLE.Supervisor }, facts())).toBe("supervisor");
  });

  test("an admin sees every student", () => {
    expect(studentRelation({ userId: 1, role: ROLE.Admin }, facts())).toBe("admin");
  });
});

describe("classAccess (pure)", () => {
  const none: ClassFacts = {
    viewerTeachesClass: false,
    viewerAdvisesClass: false,
    viewerFollowsStudentInClass: false,
    viewerStudiesInClass: false,
  };

  test.each([
    ["Admin", ROLE.Admin, none, "members"],
    ["Teacher in the class", ROLE.Teacher, { ...none, viewerTeachesClass: true }, "members"],
    ["Teacher outside the class", ROLE.Teacher, none, "outsider"],
    ["Supervisor attached", ROLE.Supervisor, { ...none, viewerAdvisesClass: true }, "members"],
    [
      "Supervisor following a student (invited)",
      ROLE.Supervisor,
      { ...none, viewerFollowsStudentInClass: true },
      "members",
    ],
    ["Supervisor of another class", ROLE.Supervisor, { ...none, viewerTeachesClass: true }, null],
    ["Student of the class", ROLE.Student, { ...none, viewerStudiesInClass: true }, "members"],
    ["Student of another class", ROLE.Student, { ...none, viewerAdvisesClass: true }, null],
  ] as const)("%s → %s", (_name, role, facts, expected) => {
    expect(classAccess({ userId: 5, role }, facts)).toBe(expected);
  });
});

describe("against the demo data", () => {
  let database: Database;
  let classA: number;
  let classB: number;
  const id: Record<string, number> = {};

  beforeAll(async () => {
    database = await openTestDatabase();
    await seedDemo(database.db, new Date("2026-11-22T12:00:00Z"));
    const db = database.db;
    for (const name of [
      "laerer1",
      "laerer2",
      "laerer3",
      "veileder1",
      "veileder2",
      "veileder3",
      "student01",
      "student02",
      "student13",
    ]) {
      id[name] = await userIdOf(db, `${name}@example.org`);
    }
    id.admin = await userIdOf(db, "admin@example.org");
    const classOf = async (code: string) => {
      const [row] = await db
        .select({ id: classes.id })
        .from(classes)
        .innerJoin(subjects, eq(subjects.id, classes.subjectId))
        .innerJoin(semesters, eq(semesters.id, classes.semesterId))
        .where(and(eq(subjects.subjectCode, code), eq(semesters.name, "Høst 2026")));
      return row.id;
    };
    classA = await classOf("SYK2001");
    classB = await classOf("SYK2002");
  });

  afterAll(async () => {
    await database?.close();
  });

  test("teachers: own class with its students; another class as an outsider without students", async () => {
    const db = database.db;
    const laerer1 = { userId: id.laerer1, role: ROLE.Teacher };
    expect(await accessToClass(db, laerer1, classA)).toBe("members");
    expect(await accessToClass(db, laerer1, classB)).toBe("outsider");
    expect((await studentAccess(db, laerer1, classA, id.student01))?.relation).toBe("teacher");
    // student02's assigned teacher is laerer2, but laerer1 teaches the class too.
    expect((await studentAccess(db, laerer1, classA, id.student02))?.relation).toBe("teacher");
    expect(await studentAccess(db, laerer1, classB, id.student13)).toBeNull();
    // A student of class B asked for under class A's id is no student of class A.
    expect(await studentAccess(db, laerer1, classA, id.student13)).toBeNull();
    await expect(requireStudentAccess(db, laerer1, classB, id.student13)).rejects.toMatchObject({ status: 404 });
    await expect(requireClassTeacher(db, laerer1, classB)).rejects.toMatchObject({ status: 404 });
    await expect(requireClassTeacher(db, laerer1, classA)).resolves.toBeUndefined();
  });

  test("supervisors: own students only, assigned or extra; other classes are closed", async () => {
    const db = database.db;
    const veileder1 = { userId: id.veileder1, role: ROLE.Supervisor };
    const veileder2 = { userId: id.veileder2, role: ROLE.Supervisor };
    // student01 → veileder1 assigned; student02 → veileder2 assigned, veileder1 extra.
    expect((await studentAccess(db, veileder1, classA, id.student01))?.relation).toBe("supervisor");
    expect((await studentAccess(db, veileder1, classA, id.student02))?.relation).toBe("extraSupervisor");
    expect((await studentAccess(db, veileder2, classA, id.student02))?.relation).toBe("supervisor");
    expect(await studentAccess(db, veileder2, classA, id.student01)).toBeNull();
    expect(await accessToClass(db, veileder1, classA)).toBe("members");
    expect(await accessToClass(db, veileder1, classB)).toBeNull();
    await expect(requireClassAccess(db, veileder1, classB)).rejects.toMatchObject({ status: 404 });
    expect(await studentAccess(db, { userId: id.veileder3, role: ROLE.Supervisor }, classA, id.student01)).toBeNull();
  });

  test("a supervisor who follows a student without being attached to the class sees that class", async () => {
    const db = database.db;
    const [ref] = await db
      .select({ id: studentReferences.id })
      .from(studentReferences)
      .where(and(eq(studentReferences.classId, classB), eq(studentReferences.studentUserId, id.student13)));
    await db.update(studentReferences).set({ supervisorUserId: id.veileder2 }).where(eq(studentReferences.id, ref.id));
    const veileder2 = { userId: id.veileder2, role: ROLE.Supervisor };
    expect(await accessToClass(db, veileder2, classB)).toBe("members");
    expect((await studentAccess(db, veileder2, classB, id.student13))?.relation).toBe("supervisor");
    await db.update(studentReferences).set({ supervisorUserId: id.veileder3 }).where(eq(studentReferences.id, ref.id));
    expect(await accessToClass(db, veileder2, classB)).toBeNull();
  });

  test("students: only themselves, only in their own class", async () => {
    const db = database.db;
    const student01 = { userId: id.student01, role: ROLE.Student };
    expect((await studentAccess(db, student01, classA, id.student01))?.relation).toBe("self");
    expect(await studentAccess(db, student01, classA, id.student02)).toBeNull();
    expect(await studentAccess(db, student01, classB, id.student01)).toBeNull();
    expect(await accessToClass(db, student01, classA)).toBe("members");
    expect(await accessToClass(db, student01, classB)).toBeNull();
  });

  test("the role acted in decides: the admin acting as teacher is an outsider to a class they do not teach", async () => {
    const db = database.db;
    expect(await accessToClass(db, { userId: id.admin, role: ROLE.Admin }, classA)).toBe("members");
    expect(await accessToClass(db, { userId: id.admin, role: ROLE.Teacher }, classA)).toBe("outsider");
    expect(await accessToClass(db, { userId: id.admin, role: ROLE.Teacher }, classB)).toBe("members");
    expect(await studentAccess(db, { userId: id.admin, role: ROLE.Teacher }, classA, id.student01)).toBeNull();
  });

  test("an unknown class or student is nothing to anyone", async () => {
    const db = database.db;
    expect(await accessToClass(db, { userId: id.admin, role: ROLE.Admin }, 999_999)).toBeNull();
    expect(await studentAccess(db, { userId: id.admin, role: ROLE.Admin }, classA, 999_999)).toBeNull();
  });
});
