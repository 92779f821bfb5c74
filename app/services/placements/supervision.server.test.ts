import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Database, Db } from "~/services/platform/db/client.server";
import { seedDemo } from "~/services/demo/index.server";
import {
  auditEvents,
  classSupervisors,
  studentExtraSupervisors,
  studentReferences,
  userRoles,
  users,
} from "~/services/platform/db/schema";
import { openTestDatabase } from "~/test/db";
import { placementOf } from "./placement.server";
import { ROLE } from "~/services/identity";
import {
  addExtraSupervisor,
  classesOfSupervisor,
  placementForView,
  removeExtraSupervisor,
  setAssignedSupervisor,
  supervisorClassPage,
  supervisorsOfClass,
  takeStudents,
} from "./supervision.server";
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

async function referenceOf(classId: number, email: string) {
  const studentUserId = await userIdOf(db, email);
  const [row] = await db
    .select()
    .from(studentReferences)
    .where(and(eq(studentReferences.classId, classId), eq(studentReferences.studentUserId, studentUserId)));
  return row;
}

async function extrasOf(referenceId: number): Promise<number[]> {
  const rows = await db
    .select({ userId: studentExtraSupervisors.userId, roleId: studentExtraSupervisors.roleId })
    .from(studentExtraSupervisors)
    .where(eq(studentExtraSupervisors.studentReferenceId, referenceId));
  for (const row of rows) expect(row.roleId).toBe(ROLE.Supervisor);
  return rows.map((r) => r.userId).toSorted((a, b) => a - b);
}

async function lastAudit(action: string, subjectUserId: number) {
  const rows = await db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.action, action), eq(auditEvents.subjectUserId, subjectUserId)));
  return rows.at(-1);
}

/** A new supervisor user attached to the class (or not), so tests that change data do not meet. */
async function newSupervisor(name: string, classId: number | null, active = true): Promise<number> {
  const [user] = await db
    .insert(users)
    .values({ displayName: name, email: `${name.toLowerCase().replace(/\W/g, "")}@example.org`, isActive: active })
    .returning();
  await db.insert(userRoles).values({ userId: user.id, roleId: ROLE.Supervisor });
  if (classId !== null) await db.insert(classSupervisors).values({ classId, userId: user.id });
  return user.id;
}

/** A new student in the class with no teacher and no supervisor. */
async function newStudent(name: string, classId: number): Promise<{ userId: number; referenceId: number }> {
  const [user] = await db
    .insert(users)
    .values({ displayName: name, email: `${name.toLowerCase().replace(/\W/g, "")}@example.org` })
    .returning();
  await db.insert(userRoles).values({ userId: user.id, roleId: ROLE.Student });
  const [ref] = await db.insert(studentReferences).values({ classId, studentUserId: user.id }).returning();
  return { userId: user.id, referenceId: ref.id };
}

describe("the supervisors a teacher may choose", () => {
  test("are the active supervisors attached to the class, by name", async () => {
    const classA = await classIdOf(db, "SYK2001");
    expect((await supervisorsOfClass(db, classA)).map((s) => s.displayName)).toEqual([
      "Marte Solberg",
      "Ole Kristiansen",
    ]);
    const classB = await classIdOf(db, "SYK2002");
    expect((await supervisorsOfClass(db, classB)).map((s) => s.displayName)).toEqual(["Hanne Berg", "Jonas Eriksen"]);
  });
});

describe("setting a student's supervisor", () => {
  test("a supervisor of the class is set, audited with from and to; setting none clears it", async () => {
    const classA = await classIdOf(db, "SYK2001");
    const teacher = await userIdOf(db, "laerer1@example.org");
    const supervisor = await newSupervisor("Sara Setvik", classA);
    const student = await newStudent("Set Student", classA);
    const input = {
      referenceId: student.referenceId,
      classId: classA,
      studentUserId: student.userId,
      actorUserId: teacher,
    };

    expect(await setAssignedSupervisor(db, { ...input, supervisorUserId: supervisor })).toEqual({
      ok: true,
      changed: true,
    });
    expect((await referenceOf(classA, "setstudent@example.org")).supervisorUserId).toBe(supervisor);
    expect(await lastAudit("student.advisor_assigned", student.userId)).toMatchObject({
      actorUserId: teacher,
      classId: classA,
      details: { from: null, to: supervisor },
    });

    expect(await setAssignedSupervisor(db, { ...input, supervisorUserId: supervisor })).toEqual({
      ok: true,
      changed: false,
    });

    expect(await setAssignedSupervisor(db, { ...input, supervisorUserId: null })).toEqual({ ok: true, changed: true });
    expect((await referenceOf(classA, "setstudent@example.org")).supervisorUserId).toBeNull();
    expect(await lastAudit("student.advisor_assigned", student.userId)).toMatchObject({
      details: { from: supervisor, to: null },
    });
  });

  test("a supervisor of another class, a deactivated supervisor, a student or a stranger is refused", async () => {
    const classA = await classIdOf(db, "SYK2001");
    const teacher = await userIdOf(db, "laerer1@example.org");
    const student = await newStudent("Refused Student", classA);
    const input = {
      referenceId: student.referenceId,
      classId: classA,
      studentUserId: student.userId,
      actorUserId: teacher,
    };
    const inactive = await newSupervisor("Inaktiv Veileder", classA, false);
    for (const supervisorUserId of [
      await userIdOf(db, "veileder3@example.org"),
      inactive,
      await userIdOf(db, "student13@example.org"),
      await newSupervisor("Uten Klasse", null),
      999_999,
    ]) {
      expect(await setAssignedSupervisor(db, { ...input, supervisorUserId }), String(supervisorUserId)).toEqual({
        ok: false,
        error: "notClassSupervisor",
      });
    }
    expect((await referenceOf(classA, "refusedstudent@example.org")).supervisorUserId).toBeNull();
  });

  test("a reference of another class is not found", async () => {
    const classA = await classIdOf(db, "SYK2001");
    const classB = await classIdOf(db, "SYK2002");
    const ref = await referenceOf(classB, "student13@example.org");
    const result = await setAssignedSupervisor(db, {
      referenceId: ref.id,
      classId: classA,
      studentUserId: ref.studentUserId,
      actorUserId: 1,
      supervisorUserId: null,
    });
    expect(result).toEqual({ ok: false, error: "notFound" });
    expect((await referenceOf(classB, "student13@example.org")).supervisorUserId).toBe(ref.supervisorUserId);
  });

  test("an extra supervisor who becomes the assigned one is no longer an extra", async () => {
    const classA = await classIdOf(db, "SYK2001");
    const teacher = await userIdOf(db, "laerer1@example.org");
    const supervisor = await newSupervisor("Ekstra Blir Fast", classA);
    const student = await newStudent("Promoted Student", classA);
    const input = {
      referenceId: student.referenceId,
      classId: classA,
      studentUserId: student.userId,
      actorUserId: teacher,
    };
    expect(await addExtraSupervisor(db, { ...input, userId: supervisor })).toEqual({ ok: true });
    expect(await extrasOf(student.referenceId)).toEqual([supervisor]);
    expect(await setAssignedSupervisor(db, { ...input, supervisorUserId: supervisor })).toEqual({
      ok: true,
      changed: true,
    });
    expect(await extrasOf(student.referenceId)).toEqual([]);
  });
});

describe("who may follow a student (placement-roles.server.ts)", () => {
  test("a classmate or the student's own teacher, though supervisors of the class, is refused as assigned or extra", async () => {
    const classA = await classIdOf(db, "SYK2001");
    const teacher = await userIdOf(db, "laerer1@example.org");
    const student = await newStudent("Fulgt Fiona", classA);
    // Someone an admin made a supervisor of the class who is also a student in it.
    const classmate = await newStudent("Medstudent Marius", classA);
    await db.insert(userRoles).values({ userId: classmate.userId, roleId: ROLE.Supervisor });
    await db.insert(classSupervisors).values({ classId: classA, userId: classmate.userId });
    // The student's practice teacher, also a supervisor of the class.
    const both = await newSupervisor("Dobbel Dina", classA);
    await db
      .update(studentReferences)
      .set({ teacherUserId: both })
      .where(eq(studentReferences.id, student.referenceId));

    const input = {
      referenceId: student.referenceId,
      classId: classA,
      studentUserId: student.userId,
      actorUserId: teacher,
    };
    expect(await setAssignedSupervisor(db, { ...input, supervisorUserId: classmate.userId })).toEqual({
      ok: false,
      error: "studentInClass",
    });
    expect(await setAssignedSupervisor(db, { ...input, supervisorUserId: both })).toEqual({
      ok: false,
      error: "isTeacher",
    });
    expect(await addExtraSupervisor(db, { ...input, userId: classmate.userId })).toEqual({
      ok: false,
      error: "studentInClass",
    });
    expect(await addExtraSupervisor(db, { ...input, userId: both })).toEqual({ ok: false, error: "isTeacher" });
    expect((await referenceOf(classA, "fulgtfiona@example.org")).supervisorUserId).toBeNull();
    expect(await extrasOf(student.referenceId)).toEqual([]);

    // Taking students: the teacher-supervisor is told which of them are their own students.
    expect(
      await takeStudents(db, { classId: classA, supervisorUserId: both, studentUserIds: [student.userId] }),
    ).toEqual({
      ok: false,
      error: "isTeacher",
      names: ["Fulgt Fiona"],
    });
    expect((await referenceOf(classA, "fulgtfiona@example.org")).supervisorUserId).toBeNull();
  });
});

describe("extra supervisors", () => {
  test("are added and removed, each audited; role id 4", async () => {
    const classA = await classIdOf(db, "SYK2001");
    const teacher = await userIdOf(db, "laerer2@example.org");
    const supervisor = await newSupervisor("Ekstra Eva", classA);
    const student = await newStudent("Extra Student", classA);
    const input = {
      referenceId: student.referenceId,
      classId: classA,
      studentUserId: student.userId,
      actorUserId: teacher,
    };

    expect(await addExtraSupervisor(db, { ...input, userId: supervisor })).toEqual({ ok: true });
    expect(await extrasOf(student.referenceId)).toEqual([supervisor]);
    expect(await lastAudit("student.extra_supervisor_added", student.userId)).toMatchObject({
      actorUserId: teacher,
      details: { supervisorUserId: supervisor },
    });

    expect(await removeExtraSupervisor(db, { ...input, userId: supervisor })).toEqual({ ok: true });
    expect(await extrasOf(student.referenceId)).toEqual([]);
    expect(await lastAudit("student.extra_supervisor_removed", student.userId)).toMatchObject({
      details: { supervisorUserId: supervisor },
    });
    expect(await removeExtraSupervisor(db, { ...input, userId: supervisor })).toEqual({ ok: false, error: "notExtra" });
  });

  test("the assigned supervisor, one already extra, or a supervisor of another class is refused", async () => {
    const classA = await classIdOf(db, "SYK2001");
    const teacher = await userIdOf(db, "laerer1@example.org");
    const assigned = await newSupervisor("Fast Frida", classA);
    const extra = await newSupervisor("Ekstra Erik", classA);
    const student = await newStudent("Busy Student", classA);
    const input = {
      referenceId: student.referenceId,
      classId: classA,
      studentUserId: student.userId,
      actorUserId: teacher,
    };
    await setAssignedSupervisor(db, { ...input, supervisorUserId: assigned });
    expect(await addExtraSupervisor(db, { ...input, userId: extra })).toEqual({ ok: true });

    expect(await addExtraSupervisor(db, { ...input, userId: assigned })).toEqual({ ok: false, error: "isAssigned" });
    expect(await addExtraSupervisor(db, { ...input, userId: extra })).toEqual({ ok: false, error: "alreadyExtra" });
    expect(await addExtraSupervisor(db, { ...input, userId: await userIdOf(db, "veileder4@example.org") })).toEqual({
      ok: false,
      error: "notClassSupervisor",
    });
    expect(await extrasOf(student.referenceId)).toEqual([extra]);
  });
});

describe("the supervisor's class page", () => {
  test("own students, assigned and extra, with the forms they have sent this half", async () => {
    const classA = await classIdOf(db, "SYK2001");
    const marte = await userIdOf(db, "veileder1@example.org");
    // Before the mid-semester date: Marte sent the main form for Emma (one of the two mid forms).
    const page = await supervisorClassPage(db, classA, marte, "2026-09-01");
    expect(page).not.toBeNull();
    expect(page!.header.subjectCode).toBe("SYK2001");
    expect(page!.attached).toBe(true);
    expect(page!.classHalf).toEqual({ half: "mid", deadline: "2026-09-30" });
    expect(page!.schemes.map((s) => s.isMidSemester)).toEqual([true, false]);
    const byName = new Map(page!.students.map((s) => [s.displayName, s]));
    expect(byName.get("Emma Andersen")).toMatchObject({
      relation: "assigned",
      half: "mid",
      formsSent: 1,
      formsTotal: 2,
      teacherName: "Ingrid Haugen",
    });
    expect(byName.get("Noah Johansen")).toMatchObject({ relation: "extra", formsSent: 0, formsTotal: 2 });
    expect(byName.get("Nora Hansen")).toMatchObject({ relation: "assigned", formsSent: 0 });
    expect(page!.students.some((s) => s.displayName === "Maja Moen")).toBe(false);
    // The students with no supervisor yet, names only.
    expect(page!.unassigned.map((s) => s.displayName)).toEqual(
      expect.arrayContaining(["Oskar Dahl", "Maja Moen", "Filip Halvorsen"]),
    );
    expect(Object.keys(page!.unassigned[0]).toSorted()).toEqual(["displayName", "userId"]);

    const later = await supervisorClassPage(db, classA, marte, "2026-11-22");
    expect(later!.classHalf.half).toBe("end");
    expect(later!.students.find((s) => s.displayName === "Emma Andersen")).toMatchObject({
      half: "end",
      formsSent: 0,
      formsTotal: 2,
    });
  });

  test("a supervisor who only follows a student sees them but no students to take", async () => {
    const classB = await classIdOf(db, "SYK2002");
    const invited = await newSupervisor("Invitert Ingvild", null);
    const student = await newStudent("Invited Student", classB);
    await db
      .update(studentReferences)
      .set({ supervisorUserId: invited })
      .where(eq(studentReferences.id, student.referenceId));
    const page = await supervisorClassPage(db, classB, invited);
    expect(page!.attached).toBe(false);
    expect(page!.students.map((s) => s.displayName)).toEqual(["Invited Student"]);
    expect(page!.unassigned).toEqual([]);
    expect((await classesOfSupervisor(db, invited)).map((c) => [c.subjectCode, c.ownStudentCount])).toEqual([
      ["SYK2002", 1],
    ]);
  });

  test("an unknown class has none", async () => {
    expect(await supervisorClassPage(db, 999_999, 1)).toBeNull();
  });
});

describe("taking students", () => {
  test("an attached supervisor takes students without a supervisor; audited; an extra role is dropped", async () => {
    const classB = await classIdOf(db, "SYK2002");
    const supervisor = await newSupervisor("Tar Tone", classB);
    const one = await newStudent("Take One", classB);
    const two = await newStudent("Take Two", classB);
    await db
      .insert(studentExtraSupervisors)
      .values({ studentReferenceId: two.referenceId, userId: supervisor, roleId: ROLE.Supervisor });
    const result = await takeStudents(db, {
      classId: classB,
      supervisorUserId: supervisor,
      studentUserIds: [two.userId, one.userId, one.userId],
    });
    expect(result).toEqual({ ok: true, taken: ["Take One", "Take Two"], missed: [] });
    expect((await referenceOf(classB, "takeone@example.org")).supervisorUserId).toBe(supervisor);
    expect((await referenceOf(classB, "taketwo@example.org")).supervisorUserId).toBe(supervisor);
    expect(await extrasOf(two.referenceId)).toEqual([]);
    expect(await lastAudit("student.advisor_assigned", one.userId)).toMatchObject({
      actorUserId: supervisor,
      classId: classB,
      details: { from: null, to: supervisor },
    });
  });

  test("two supervisors taking the same student at once: exactly one wins, the other is told by name", async () => {
    const classB = await classIdOf(db, "SYK2002");
    const first = await newSupervisor("Race Rita", classB);
    const second = await newSupervisor("Race Rolf", classB);
    const contested = await newStudent("Contested Carl", classB);
    const free = await newStudent("Free Frida", classB);
    const [a, b] = await Promise.all([
      takeStudents(db, { classId: classB, supervisorUserId: first, studentUserIds: [contested.userId] }),
      takeStudents(db, { classId: classB, supervisorUserId: second, studentUserIds: [contested.userId, free.userId] }),
    ]);
    const outcomes = [a, b].map((r) => (r.ok ? r : null));
    const winners = outcomes.filter((r) => r?.taken.includes("Contested Carl"));
    expect(winners).toHaveLength(1);
    const losers = outcomes.filter((r) => r?.missed.includes("Contested Carl"));
    expect(losers).toHaveLength(1);
    const owner = (await referenceOf(classB, "contestedcarl@example.org")).supervisorUserId;
    expect(owner).toBe(winners[0] === outcomes[0] ? first : second);
    expect((await referenceOf(classB, "freefrida@example.org")).supervisorUserId).toBe(second);

    // Later, the student is simply taken already; for the one who has them, they stay theirs.
    const loser = owner === first ? second : first;
    const again = (supervisorUserId: number) =>
      takeStudents(db, { classId: classB, supervisorUserId, studentUserIds: [contested.userId] });
    expect(await again(loser)).toEqual({ ok: true, taken: [], missed: ["Contested Carl"] });
    expect(await again(owner!)).toEqual({ ok: true, taken: ["Contested Carl"], missed: [] });
    expect((await referenceOf(classB, "contestedcarl@example.org")).supervisorUserId).toBe(owner);
  });

  test("a supervisor not attached to the class, no students, or a student of another class is refused", async () => {
    const classA = await classIdOf(db, "SYK2001");
    const classB = await classIdOf(db, "SYK2002");
    const student = await newStudent("Not Taken", classB);
    const marte = await userIdOf(db, "veileder1@example.org");
    expect(
      await takeStudents(db, { classId: classB, supervisorUserId: marte, studentUserIds: [student.userId] }),
    ).toEqual({
      ok: false,
      error: "notAttached",
    });
    const jonas = await userIdOf(db, "veileder4@example.org");
    expect(await takeStudents(db, { classId: classB, supervisorUserId: jonas, studentUserIds: [] })).toEqual({
      ok: false,
      error: "noStudents",
    });
    const classAStudent = await userIdOf(db, "student12@example.org");
    expect(
      await takeStudents(db, {
        classId: classB,
        supervisorUserId: jonas,
        studentUserIds: [student.userId, classAStudent],
      }),
    ).toEqual({ ok: false, error: "unknownStudent" });
    expect((await referenceOf(classB, "nottaken@example.org")).supervisorUserId).toBeNull();
    expect((await referenceOf(classA, "student12@example.org")).supervisorUserId).toBeNull();
  });
});

describe("the placement as a page shows it", () => {
  test("instants become days in the reader's language; the deadline is d.m.yyyy", async () => {
    const classA = await classIdOf(db, "SYK2001");
    const ref = await referenceOf(classA, "student01@example.org");
    const marte = await userIdOf(db, "veileder1@example.org");
    const placement = await placementOf(db, ref.id, marte, "2026-09-01");
    const view = placementForView(placement!, "nb");
    expect(view.half).toEqual({ half: "mid", deadline: "2026-09-30", deadlineText: "30.9.2026" });
    const mainForm = view.schemes[0].forms[0];
    expect(mainForm.isMainForm).toBe(true);
    expect(mainForm.own.state).toBe("sent");
    expect(mainForm.own.atText).toMatch(/^\d{1,2}\.\d{1,2}\.2026$/);
    expect(mainForm.sentBy.student).toMatch(/^\d{1,2}\.\d{1,2}\.2026$/);
    expect(mainForm.sentBy.teacher).toMatch(/^\d{1,2}\.\d{1,2}\.2026$/);
    expect(view.schemes[0].forms[1].sentBy).toEqual({ student: null, supervisor: null, teacher: null });
    expect(placementForView(placement!, "en").schemes[0].forms[0].own.atText).toMatch(/^\d{1,2} [A-Z][a-z]{2} 2026$/);
  });
});
