import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Database, Db } from "~/services/platform/db/client.server";
import { seedDemo } from "~/services/demo/index.server";
import { classTeachers, studentReferences, userRoles, users } from "~/services/platform/db/schema";
import { openTestDatabase } from "~/test/db";
import { claimStudents, placeConflict, studiesInClass, type Place } from "./placement-roles.server";
import { ROLE } from "~/services/identity";
import { leaveClass } from "./teacher-class.server";
import { takeStudentsAsTeacher } from "./class-staffing.server";
import { classIdOf, userIdOf } from "~/test/app";

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

async function newStudentIn(
  classId: number,
  name: string,
  fields: Partial<typeof studentReferences.$inferInsert> = {},
) {
  const [user] = await db
    .insert(users)
    .values({ displayName: name, email: `${name.toLowerCase().replace(/\W/g, ".")}@example.org` })
    .returning();
  await db.insert(userRoles).values({ userId: user.id, roleId: ROLE.Student });
  const [ref] = await db
    .insert(studentReferences)
    .values({ classId, studentUserId: user.id, ...fields })
    .returning();
  return { userId: user.id, referenceId: ref.id };
}

describe("placeConflict: who may hold which place", () => {
  const ref = { studentUserId: 1, teacherUserId: 2, supervisorUserId: 3 };
  type Person = Parameters<typeof placeConflict>[1];
  const person = (userId: number, studiesInClass = false, isExtraSupervisor = false): Person => ({
    userId,
    studiesInClass,
    isExtraSupervisor,
  });
  const cases: [Place, Person, ReturnType<typeof placeConflict>][] = [
    // The student themself, for either place.
    ["supervisor", person(1, true), "isTheStudent"],
    ["teacher", person(1, true), "isTheStudent"],
    // A classmate.
    ["supervisor", person(9, true), "studentInClass"],
    ["teacher", person(9, true), "studentInClass"],
    // The student's teacher as supervisor; the supervisor, assigned or extra, as teacher.
    ["supervisor", person(2), "isTeacher"],
    ["teacher", person(3), "isSupervisor"],
    ["teacher", person(9, false, true), "isSupervisor"],
    // Holding the same place again, an extra supervisor becoming the assigned one, or anyone else: fine.
    ["supervisor", person(3), null],
    ["teacher", person(2), null],
    ["supervisor", person(9, false, true), null],
    ["supervisor", person(9), null],
    ["teacher", person(9), null],
  ];
  test.each(cases)("%s, %o → %s", (place, who, expected) => {
    expect(placeConflict(place, who, ref)).toBe(expected);
  });

  test("a place nobody holds yet conflicts with nothing but the student and classmates", () => {
    const open = { studentUserId: 1, teacherUserId: null, supervisorUserId: null };
    expect(
      placeConflict("supervisor", { userId: 2, studiesInClass: false, isExtraSupervisor: false }, open),
    ).toBeNull();
    expect(placeConflict("teacher", { userId: 3, studiesInClass: false, isExtraSupervisor: false }, open)).toBeNull();
  });
});

describe("claimStudents", () => {
  test("takes only free places, reports who held the others, and refuses unknown or deactivated students", async () => {
    const classId = await classIdOf(db, "SYK2002");
    const teacher = await userIdOf(db, "laerer3@example.org");
    const other = await userIdOf(db, "admin@example.org");
    const free = await newStudentIn(classId, "Fri Frida");
    const held = await newStudentIn(classId, "Holdt Harald", { teacherUserId: other });
    const outcome = await db.transaction((tx) =>
      claimStudents(tx, {
        classId,
        studentUserIds: [free.userId, held.userId, free.userId],
        place: "teacher",
        userId: teacher,
      }),
    );
    expect(outcome).toEqual({
      ok: true,
      students: expect.arrayContaining([
        { referenceId: free.referenceId, userId: free.userId, displayName: "Fri Frida", heldBy: null },
        { referenceId: held.referenceId, userId: held.userId, displayName: "Holdt Harald", heldBy: other },
      ]),
    });
    const [after] = await db.select().from(studentReferences).where(eq(studentReferences.id, held.referenceId));
    expect(after.teacherUserId).toBe(other);

    const gone = await newStudentIn(classId, "Borte Berit");
    await db.update(users).set({ isActive: false }).where(eq(users.id, gone.userId));
    const otherClass = await newStudentIn(await classIdOf(db, "SYK2001"), "Annen Klasse");
    for (const ids of [[gone.userId], [otherClass.userId], [free.userId, 999_999]]) {
      const refused = await db.transaction((tx) =>
        claimStudents(tx, { classId, studentUserIds: ids, place: "supervisor", userId: teacher }),
      );
      expect(refused, JSON.stringify(ids)).toEqual({ ok: false, error: "unknownStudent" });
    }
    const [untouched] = await db.select().from(studentReferences).where(eq(studentReferences.id, gone.referenceId));
    expect(untouched.supervisorUserId).toBeNull();
  });

  test("a classmate, or the student's supervisor taking the teacher's place, is refused by name and nothing changes", async () => {
    const classId = await classIdOf(db, "SYK2002");
    const supervisor = await userIdOf(db, "veileder4@example.org");
    const followed = await newStudentIn(classId, "Fulgt Fredrik", { supervisorUserId: supervisor });
    const open = await newStudentIn(classId, "Åpen Åse");
    const asTeacher = await db.transaction((tx) =>
      claimStudents(tx, {
        classId,
        studentUserIds: [open.userId, followed.userId],
        place: "teacher",
        userId: supervisor,
      }),
    );
    expect(asTeacher).toEqual({ ok: false, error: "isSupervisor", names: ["Fulgt Fredrik"] });
    const [openAfter] = await db.select().from(studentReferences).where(eq(studentReferences.id, open.referenceId));
    expect(openAfter.teacherUserId).toBeNull();

    const classmate = await newStudentIn(classId, "Medstudent Mia");
    expect(await studiesInClass(db, classId, classmate.userId)).toBe(true);
    const byClassmate = await db.transaction((tx) =>
      claimStudents(tx, { classId, studentUserIds: [open.userId], place: "supervisor", userId: classmate.userId }),
    );
    expect(byClassmate).toEqual({ ok: false, error: "studentInClass", names: ["Åpen Åse"] });
  });

  test("a teacher taking students while leaving the class: the students end up with no teacher, never a departed one", async () => {
    const classId = await classIdOf(db, "SYK2002");
    const teacher = await userIdOf(db, "laerer2@example.org");
    await db.insert(classTeachers).values({ classId, userId: teacher }).onConflictDoNothing();
    const student = await newStudentIn(classId, "Kappløp Kari");
    await Promise.all([
      takeStudentsAsTeacher(db, { classId, teacherUserId: teacher, studentUserIds: [student.userId] }),
      leaveClass(db, { classId, userId: teacher }),
    ]);
    const [after] = await db.select().from(studentReferences).where(eq(studentReferences.id, student.referenceId));
    expect(after.teacherUserId).toBeNull();
    expect(
      await takeStudentsAsTeacher(db, { classId, teacherUserId: teacher, studentUserIds: [student.userId] }),
    ).toEqual({
      ok: false,
      error: "notMember",
    });
  });
});
