import { and, eq } from "drizzle-orm";
import i18next from "i18next";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import resources from "~/locales";
import { openTestDatabase } from "~/test/db";
import { userIdOf, classIdOf } from "~/test/app";
import type { Database } from "~/services/platform/db/client.server";
import { seedDemo } from "~/services/demo/index.server";
import {
  answerSets,
  schemes,
  auditEvents,
  classSupervisors,
  classTeachers,
  forms,
  semesters,
  studentReferences,
  userRoles,
  users,
} from "~/services/platform/db/schema";
import { ROLE } from "~/services/identity";
import {
  joinClassAsTeacher,
  leaveClass,
  otherClassesThisSemester,
  supervisorsOfClass,
  teacherClassPage,
} from "./teacher-class.server";
import { addSupervisor, studentPicker, takeStudentsAsTeacher, welcomeMail } from "./class-staffing.server";
import {
  halfProgress,
  progressOverview,
  progressPage,
  readSort,
  sortProgress,
  type ProgressRow,
} from "./class-progress.server";

let database: Database;
const today = "2026-11-22";
const db = () => database.db;
let syk2001: number;
let syk2002: number;
let syk1002: number;

const id = (email: string) => userIdOf(db(), email);

async function teacherOf(classId: number, studentEmail: string): Promise<number | null> {
  const [row] = await db()
    .select({ teacher: studentReferences.teacherUserId })
    .from(studentReferences)
    .where(and(eq(studentReferences.classId, classId), eq(studentReferences.studentUserId, await id(studentEmail))));
  return row.teacher;
}

beforeAll(async () => {
  database = await openTestDatabase();
  await seedDemo(db(), new Date("2026-11-22T12:00:00Z"));
  syk2001 = await classIdOf(db(), "SYK2001");
  syk2002 = await classIdOf(db(), "SYK2002");
  syk1002 = await classIdOf(db(), "SYK1002");
});
afterAll(() => database.close());

describe("other classes of the semester", () => {
  test("lists this semester's classes the teacher has not joined, not earlier ones", async () => {
    const laerer2 = await otherClassesThisSemester(db(), await id("laerer2@example.org"), today);
    expect(laerer2.map((c) => c.subjectCode)).toEqual(["SYK2002"]);
    expect(laerer2[0]).toMatchObject({ semesterName: "Høst 2026", studentCount: 12 });
    // laerer1 taught SYK1002 last semester; it is not "another subject this semester".
    const laerer1 = await otherClassesThisSemester(db(), await id("laerer1@example.org"), today);
    expect(laerer1.map((c) => c.subjectCode)).toEqual(["SYK2002"]);
  });
});

describe("joining and leaving", () => {
  test("a teacher joins a class of this semester once; it is audited", async () => {
    const laerer3 = await id("laerer3@example.org");
    expect(await joinClassAsTeacher(db(), { classId: syk2001, userId: laerer3, ip: "192.0.2.9", today })).toEqual({
      ok: true,
    });
    expect(await joinClassAsTeacher(db(), { classId: syk2001, userId: laerer3, today })).toEqual({
      ok: false,
      error: "already",
    });
    const events = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "class.joined"), eq(auditEvents.actorUserId, laerer3)));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ classId: syk2001, ip: "192.0.2.9" });
  });

  test("a class whose semester has ended cannot be joined; an unknown class is not found", async () => {
    const laerer2 = await id("laerer2@example.org");
    expect(await joinClassAsTeacher(db(), { classId: syk1002, userId: laerer2, today })).toEqual({
      ok: false,
      error: "ended",
    });
    expect(await joinClassAsTeacher(db(), { classId: 999_999, userId: laerer2, today })).toEqual({
      ok: false,
      error: "notFound",
    });
    // The last day of the semester still counts.
    const [semester] = await db()
      .select({ end: semesters.endDate })
      .from(semesters)
      .where(eq(semesters.name, "Vår 2026"));
    expect(await joinClassAsTeacher(db(), { classId: syk1002, userId: laerer2, today: semester.end })).toEqual({
      ok: true,
    });
    expect((await leaveClass(db(), { classId: syk1002, userId: laerer2 })).ok).toBe(true);
  });

  test("leaving releases the teacher's students, names them in the audit entry, and may happen once", async () => {
    const laerer3 = await id("laerer3@example.org");
    // laerer3 joined SYK2001 above; give them two students, then leave.
    const taken = await takeStudentsAsTeacher(db(), {
      classId: syk2001,
      teacherUserId: laerer3,
      studentUserIds: [await id("student11@example.org"), await id("student12@example.org")],
    });
    expect(taken.ok && taken.assigned.map((s) => s.displayName)).toEqual(["Filip Halvorsen", "Maja Moen"]);
    const outcome = await leaveClass(db(), { classId: syk2001, userId: laerer3, ip: "192.0.2.9" });
    expect(outcome).toEqual({
      ok: true,
      released: [
        { userId: await id("student12@example.org"), displayName: "Filip Halvorsen" },
        { userId: await id("student11@example.org"), displayName: "Maja Moen" },
      ],
    });
    expect(await teacherOf(syk2001, "student11@example.org")).toBeNull();
    expect(await teacherOf(syk2001, "student12@example.org")).toBeNull();
    // Other teachers' students are untouched.
    expect(await teacherOf(syk2001, "student01@example.org")).toBe(await id("laerer1@example.org"));
    const [event] = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "class.left"), eq(auditEvents.actorUserId, laerer3)));
    expect(event).toMatchObject({
      classId: syk2001,
      details: { releasedStudentUserIds: [await id("student12@example.org"), await id("student11@example.org")] },
    });
    expect(await leaveClass(db(), { classId: syk2001, userId: laerer3 })).toEqual({ ok: false, error: "notMember" });
    const still = await db()
      .select()
      .from(classTeachers)
      .where(and(eq(classTeachers.classId, syk2001), eq(classTeachers.userId, laerer3)));
    expect(still).toEqual([]);
  });
});

describe("the progress overview", () => {
  test("counts per half what student, supervisor and teacher have sent, from the demo data", async () => {
    const rows = await progressOverview(db(), syk2001);
    expect(rows).toHaveLength(12);
    const row = (name: string) => rows.find((r) => r.displayName === name)!;
    // Student 01: all three sent the main form at mid-semester (the medication form not yet).
    expect(row("Emma Andersen")).toMatchObject({
      teacherName: "Ingrid Haugen",
      supervisorName: "Marte Solberg",
      mid: { student: 1, supervisor: 1, teacher: 1 },
      end: { student: 0, supervisor: 0, teacher: 0 },
    });
    // Student 02: student and supervisor sent; student 03: the supervisor's is a draft; 04 a draft of their own.
    expect(row("Noah Johansen").mid).toEqual({ student: 1, supervisor: 1, teacher: 0 });
    expect(row("Nora Hansen").mid).toEqual({ student: 1, supervisor: 0, teacher: 0 });
    expect(row("Jakob Pedersen").mid).toEqual({ student: 0, supervisor: 0, teacher: 0 });
    expect(row("Maja Moen")).toMatchObject({ teacherName: null, supervisorName: null });
    // By name, numerically and the Norwegian way.
    expect(rows.map((r) => r.displayName)).toEqual(
      rows.map((r) => r.displayName).toSorted((a, b) => a.localeCompare(b, "nb")),
    );
  });

  test("a form sent by two supervisors counts once; forms deleted or of another class do not count", async () => {
    const emma = await id("student01@example.org");
    const [midScheme] = await db()
      .select({ id: schemes.id })
      .from(schemes)
      .where(and(eq(schemes.classId, syk2001), eq(schemes.isMidSemester, true)));
    const [medication] = await db().select({ id: forms.id }).from(forms).where(eq(forms.name, "Legemiddelhåndtering"));
    const [main] = await db()
      .select({ id: forms.id })
      .from(forms)
      .where(eq(forms.name, "Vurdering av kliniske kompetanser"));
    const sentAt = new Date("2026-11-01T10:00:00Z");
    // veileder2 (not Emma's supervisor) sends the main form too; and a supervisor sends the medication form.
    await db()
      .insert(answerSets)
      .values([
        {
          formId: main.id,
          schemeId: midScheme.id,
          studentUserId: emma,
          authorUserId: await id("veileder2@example.org"),
          authorRoleId: ROLE.Supervisor,
          isMidSemester: true,
          sentAt,
        },
        {
          formId: medication.id,
          schemeId: midScheme.id,
          studentUserId: emma,
          authorUserId: await id("veileder1@example.org"),
          authorRoleId: ROLE.Supervisor,
          isMidSemester: true,
          sentAt,
        },
      ]);
    const emmaRow = async () => (await progressOverview(db(), syk2001)).find((r) => r.userId === emma)!;
    expect((await emmaRow()).mid).toEqual({ student: 1, supervisor: 2, teacher: 1 });
    await db().update(forms).set({ deletedAt: sentAt }).where(eq(forms.id, medication.id));
    expect((await emmaRow()).mid).toEqual({ student: 1, supervisor: 1, teacher: 1 });
    await db().update(forms).set({ deletedAt: null }).where(eq(forms.id, medication.id));
    // Emma's answers in last semester's class are not this class's.
    expect((await emmaRow()).end).toEqual({ student: 0, supervisor: 0, teacher: 0 });
  });

  test("a half is done when all three sent every form; otherwise as its forms stand for the student (formDue)", () => {
    expect(halfProgress({ student: 2, supervisor: 2, teacher: 2 }, 2, "behind")).toBe("done");
    expect(halfProgress({ student: 2, supervisor: 2, teacher: 2 }, 2, "closed")).toBe("done");
    expect(halfProgress({ student: 2, supervisor: 1, teacher: 2 }, 2, "behind")).toBe("behind");
    expect(halfProgress({ student: 2, supervisor: 1, teacher: 2 }, 2, "open")).toBe("open");
    // Not behind once the teacher has confirmed the mid-semester part, nor before the half has begun.
    expect(halfProgress({ student: 2, supervisor: 1, teacher: 2 }, 2, "closed")).toBe("closed");
    expect(halfProgress({ student: 0, supervisor: 0, teacher: 0 }, 2, "later")).toBe("open");
    expect(halfProgress({ student: 0, supervisor: 0, teacher: 0 }, 0, "behind")).toBe("none");
  });

  test("sorts by name, teacher, supervisor or progress, either way; unknown parameters mean by name", () => {
    const row = (displayName: string, teacherName: string | null, mid: number, userId: number): ProgressRow => ({
      userId,
      displayName,
      email: `${userId}@example.org`,
      isActive: true,
      teacherUserId: teacherName ? 1 : null,
      teacherName,
      supervisorUserId: null,
      supervisorName: null,
      mid: { student: mid, supervisor: 0, teacher: 0 },
      end: { student: 0, supervisor: 0, teacher: 0 },
      midConfirmed: false,
      warning: "none",
      signing: { state: "none", waitingFor: [] },
    });
    const rows = [
      row("Student 10", "Åse", 2, 1),
      row("Student 2", null, 0, 2),
      row("Øyvind", "Berit", 1, 3),
      row("Anne", "Berit", 2, 4),
    ];
    const names = (sorted: ProgressRow[]) => sorted.map((r) => r.displayName);
    expect(names(sortProgress(rows, "name", "asc"))).toEqual(["Anne", "Student 2", "Student 10", "Øyvind"]);
    expect(names(sortProgress(rows, "name", "desc"))).toEqual(["Øyvind", "Student 10", "Student 2", "Anne"]);
    // Without a teacher: last either way; ties by name.
    expect(names(sortProgress(rows, "teacher", "asc"))).toEqual(["Anne", "Øyvind", "Student 10", "Student 2"]);
    expect(names(sortProgress(rows, "teacher", "desc"))).toEqual(["Student 10", "Anne", "Øyvind", "Student 2"]);
    expect(names(sortProgress(rows, "mid", "asc"))).toEqual(["Student 2", "Øyvind", "Anne", "Student 10"]);
    expect(names(sortProgress(rows, "mid", "desc"))).toEqual(["Anne", "Student 10", "Øyvind", "Student 2"]);
    expect(readSort(new URLSearchParams("sort=mid&dir=desc"))).toEqual({ sort: "mid", dir: "desc" });
    expect(readSort(new URLSearchParams("sort=drop table&dir=sideways"))).toEqual({ sort: "name", dir: "asc" });
  });

  test("the class page: a member sees their students, the supervisors and the overview; an outsider none of it", async () => {
    const laerer1 = await id("laerer1@example.org");
    const page = await teacherClassPage(db(), { classId: syk2001, viewerUserId: laerer1, access: "members", today });
    expect(page!.header.subjectCode).toBe("SYK2001");
    expect(page!.formCount).toEqual({ mid: 2, end: 2 });
    expect(page!.deadlinePassed).toEqual({ mid: true, end: false });
    expect(page!.half.half).toBe("end");
    expect(page!.members!.myStudents.map((s) => s.displayName)).toEqual([
      "Ella Olsen",
      "Emma Andersen",
      "Ingrid Jensen",
      "Nora Hansen",
      "Sofie Nilsen",
    ]);
    expect(page!.members!.progress).toHaveLength(12);
    expect(page!.members!.supervisors.map((s) => [s.displayName, s.studentCount, s.attached])).toEqual([
      ["Marte Solberg", 6, true],
      ["Ole Kristiansen", 4, true],
    ]);
    const outsider = await teacherClassPage(db(), {
      classId: syk2001,
      viewerUserId: await id("laerer3@example.org"),
      access: "outsider",
      today,
    });
    expect(outsider!.members).toBeNull();
    expect(outsider!.schemes).toHaveLength(2);
    expect(
      await teacherClassPage(db(), { classId: 999_999, viewerUserId: laerer1, access: "members", today }),
    ).toBeNull();
  });

  test("a supervisor who only follows a student (invited) is a supervisor of the class too", async () => {
    const [invited] = await db()
      .insert(users)
      .values({ displayName: "Invitert Veileder", email: "invitert.pv@example.org" })
      .returning();
    await db()
      .update(studentReferences)
      .set({ supervisorUserId: invited.id })
      .where(
        and(
          eq(studentReferences.classId, syk2002),
          eq(studentReferences.studentUserId, await id("student22@example.org")),
        ),
      );
    const supervisors = await supervisorsOfClass(db(), syk2002);
    expect(supervisors.find((s) => s.userId === invited.id)).toMatchObject({ attached: false, studentCount: 1 });
  });
});

describe("taking students", () => {
  test("the picker searches name or e-mail in any case, shows each student's teacher, and pages by 20", async () => {
    const all = await studentPicker(db(), { classId: syk2002 });
    expect(all.total).toBe(12);
    expect(all.rows[0]).toMatchObject({ displayName: "Aksel Lie", teacherName: expect.any(String) });
    const byName = await studentPicker(db(), { classId: syk2002, search: "MAGNUS" });
    expect(byName.rows).toEqual([expect.objectContaining({ displayName: "Magnus Knutsen", teacherName: null })]);
    const byEmail = await studentPicker(db(), { classId: syk2002, search: "student23@" });
    expect(byEmail.rows.map((r) => r.displayName)).toEqual(["Ida Ødegård"]);
    // LIKE wildcards are taken literally.
    expect((await studentPicker(db(), { classId: syk2002, search: "%" })).total).toBe(0);
    const second = await studentPicker(db(), { classId: syk2002, offset: 10, limit: 20 });
    expect(second.rows).toHaveLength(2);
  });

  test("takes students without a teacher; a student of another teacher is never moved; audited", async () => {
    const laerer2 = await id("laerer2@example.org");
    const ida = await id("student23@example.org");
    const leah = await id("student13@example.org"); // laerer3's
    expect(await joinClassAsTeacher(db(), { classId: syk2002, userId: laerer2, today })).toEqual({ ok: true });
    const outcome = await takeStudentsAsTeacher(db(), {
      classId: syk2002,
      teacherUserId: laerer2,
      studentUserIds: [ida, leah, ida],
      ip: "192.0.2.7",
    });
    expect(outcome).toEqual({
      ok: true,
      assigned: [{ userId: ida, displayName: "Ida Ødegård" }],
      taken: [{ userId: leah, displayName: "Leah Strand" }],
      alreadyYours: [],
    });
    expect(await teacherOf(syk2002, "student13@example.org")).toBe(await id("laerer3@example.org"));
    const again = await takeStudentsAsTeacher(db(), {
      classId: syk2002,
      teacherUserId: laerer2,
      studentUserIds: [ida],
    });
    expect(again).toMatchObject({ ok: true, assigned: [], taken: [], alreadyYours: [{ userId: ida }] });
    const events = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "student.teacher_assigned"), eq(auditEvents.subjectUserId, ida)));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorUserId: laerer2, classId: syk2002, ip: "192.0.2.7" });
  });

  test("two teachers taking the same student at once: exactly one wins, the other is told by name", async () => {
    const magnus = await id("student24@example.org");
    const [a, b] = await Promise.all([
      takeStudentsAsTeacher(db(), {
        classId: syk2002,
        teacherUserId: await id("laerer3@example.org"),
        studentUserIds: [magnus],
      }),
      takeStudentsAsTeacher(db(), {
        classId: syk2002,
        teacherUserId: await id("laerer2@example.org"),
        studentUserIds: [magnus],
      }),
    ]);
    const winners = [a, b].filter((o) => o.ok && o.assigned.length === 1);
    const losers = [a, b].filter((o) => o.ok && o.taken.length === 1);
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(1);
    expect(losers[0]).toMatchObject({ taken: [{ displayName: "Magnus Knutsen" }] });
  });

  test("none chosen, or a student who is not in the class, is refused and changes nothing", async () => {
    const laerer2 = await id("laerer2@example.org");
    expect(await takeStudentsAsTeacher(db(), { classId: syk2002, teacherUserId: laerer2, studentUserIds: [] })).toEqual(
      { ok: false, error: "noStudents" },
    );
    const maja = await id("student11@example.org"); // SYK2001, no teacher
    const stranger = await takeStudentsAsTeacher(db(), {
      classId: syk2002,
      teacherUserId: laerer2,
      studentUserIds: [maja, 999_999],
    });
    expect(stranger).toEqual({ ok: false, error: "unknownStudent" });
    expect(await teacherOf(syk2001, "student11@example.org")).toBeNull();
  });
});

describe("adding a supervisor", () => {
  const actor = () => id("laerer1@example.org");

  test("an unknown address becomes a new supervisor, attached to the class; audited", async () => {
    const outcome = await addSupervisor(db(), {
      classId: syk2001,
      name: "  Per Hansen ",
      email: " Per.Hansen@Example.org ",
      phone: "987 65 432",
      actorUserId: await actor(),
      ip: "192.0.2.3",
    });
    expect(outcome).toMatchObject({
      ok: true,
      created: true,
      user: { displayName: "Per Hansen", email: "per.hansen@example.org", phoneNumber: "+4798765432" },
    });
    if (!outcome.ok) return;
    const roles = await db().select().from(userRoles).where(eq(userRoles.userId, outcome.user.userId));
    expect(roles.map((r) => r.roleId)).toEqual([ROLE.Supervisor]);
    const attached = await db()
      .select()
      .from(classSupervisors)
      .where(and(eq(classSupervisors.classId, syk2001), eq(classSupervisors.userId, outcome.user.userId)));
    expect(attached).toHaveLength(1);
    const [event] = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "advisor.added_to_class"), eq(auditEvents.subjectUserId, outcome.user.userId)));
    expect(event).toMatchObject({ actorUserId: await actor(), classId: syk2001, details: { created: true } });
  });

  test("a known supervisor (any case) is attached as they are; twice in a class is refused", async () => {
    // veileder3 is a supervisor of SYK2002: attached to SYK2001 too, keeping name and phone number.
    const before = (await db().select().from(users).where(eq(users.email, "veileder3@example.org")))[0];
    const v3 = await addSupervisor(db(), {
      classId: syk2001,
      name: "Hanne",
      email: "VEILEDER3@example.org",
      phone: "400 00 003",
      actorUserId: await actor(),
    });
    expect(v3).toMatchObject({
      ok: true,
      created: false,
      user: { displayName: "Hanne Berg", phoneNumber: before.phoneNumber },
    });
    expect((await db().select().from(users).where(eq(users.id, before.id)))[0]).toEqual(before);
    expect(
      await addSupervisor(db(), {
        classId: syk2001,
        name: "Marte",
        email: "veileder1@example.org",
        actorUserId: await actor(),
      }),
    ).toEqual({
      ok: false,
      error: "alreadyAttached",
    });
  });

  test("a supervisor who came through a student's invitation becomes attached by the teacher, and may then take students", async () => {
    const [invited] = await db()
      .insert(users)
      .values({ displayName: "Invitert Ivar", email: "invitert.ivar@example.org" })
      .returning();
    await db().insert(userRoles).values({ userId: invited.id, roleId: ROLE.Supervisor });
    await db().insert(classSupervisors).values({ classId: syk2002, userId: invited.id, viaInvitation: true });
    const before = (await supervisorsOfClass(db(), syk2002)).find((s) => s.userId === invited.id);
    expect(before?.attached).toBe(false);
    const outcome = await addSupervisor(db(), {
      classId: syk2002,
      name: "Ivar",
      email: "invitert.ivar@example.org",
      actorUserId: await actor(),
    });
    expect(outcome).toMatchObject({ ok: true, created: false, user: { displayName: "Invitert Ivar" } });
    expect(await db().select().from(classSupervisors).where(eq(classSupervisors.userId, invited.id))).toEqual([
      { classId: syk2002, userId: invited.id, viaInvitation: false },
    ]);
    expect((await supervisorsOfClass(db(), syk2002)).find((s) => s.userId === invited.id)?.attached).toBe(true);
    expect(
      await addSupervisor(db(), {
        classId: syk2002,
        name: "Ivar",
        email: "invitert.ivar@example.org",
        actorUserId: await actor(),
      }),
    ).toEqual({
      ok: false,
      error: "alreadyAttached",
    });
  });

  test("a known user who is not a supervisor is refused: no role, no phone number, no class", async () => {
    // Vipps logs supervisors in by phone number: a number typed here must never land on someone else's account.
    const admin = (await db().select().from(users).where(eq(users.email, "admin@example.org")))[0];
    const outcome = await addSupervisor(db(), {
      classId: syk2002,
      name: "Someone",
      email: "ADMIN@example.org",
      phone: "+47 999 88 777",
      actorUserId: await actor(),
    });
    expect(outcome).toEqual({ ok: false, error: "notSupervisor" });
    expect((await db().select().from(users).where(eq(users.id, admin.id)))[0]).toEqual(admin);
    const roles = await db().select().from(userRoles).where(eq(userRoles.userId, admin.id));
    expect(roles.map((r) => r.roleId)).not.toContain(ROLE.Supervisor);
    const attached = await db().select().from(classSupervisors).where(eq(classSupervisors.userId, admin.id));
    expect(attached).toEqual([]);
  });

  test("a deactivated user is refused and not attached; an unknown class is not found", async () => {
    const outcome = await addSupervisor(db(), {
      classId: syk2001,
      name: "Dina",
      email: "deaktivert@example.org",
      actorUserId: await actor(),
    });
    expect(outcome).toEqual({ ok: false, error: "deactivated" });
    const attached = await db()
      .select()
      .from(classSupervisors)
      .where(
        and(eq(classSupervisors.classId, syk2001), eq(classSupervisors.userId, await id("deaktivert@example.org"))),
      );
    expect(attached).toEqual([]);
    expect(
      await addSupervisor(db(), { classId: 999_999, name: "X", email: "x@example.org", actorUserId: await actor() }),
    ).toEqual({
      ok: false,
      error: "notFound",
    });
    const [created] = await db().select().from(users).where(eq(users.email, "x@example.org"));
    expect(created).toBeUndefined();
  });

  test("the welcome mail tells how to log in with an e-mail code, and with Vipps", async () => {
    const i18n = i18next.createInstance();
    await i18n.init({ resources, lng: "nb", interpolation: { escapeValue: false } });
    const t = i18n.getFixedT("nb", "teacher");
    const mail = welcomeMail(t, {
      to: "per.hansen@example.org",
      name: "Per Hansen",
      teacherName: "Ingrid Haugen",
      header: { subjectCode: "SYK2001", subjectName: "Praksis i sykehjem", semesterName: "Høst 2026" },
      origin: "https://praksis.example.org",
      appName: "Praksis Fjordbyen",
      phoneNumber: "+4798765432",
    });
    expect(mail.to).toBe("per.hansen@example.org");
    expect(mail.subject).toContain("SYK2001");
    expect(mail.text).toContain("https://praksis.example.org/login");
    expect(mail.text).toContain("per.hansen@example.org");
    expect(mail.text).toContain("Ingrid Haugen");
    expect(mail.text).toContain("Vipps");
    expect(mail.text).toContain("+4798765432");
  });
});

describe("a page of the progress overview", () => {
  const rows = Array.from({ length: 120 }, (_, i) => i + 1);
  const page = (query: string) => progressPage(rows, new URLSearchParams(query), 50);

  test("the first page without ?page, the asked page, the last for a page past the end", () => {
    expect(page("")).toMatchObject({ page: 1, pages: 3, total: 120, from: 1, to: 50 });
    expect(page("").rows).toEqual(rows.slice(0, 50));
    expect(page("page=3")).toMatchObject({ page: 3, from: 101, to: 120, rows: rows.slice(100) });
    expect(page("page=9").page).toBe(3);
  });

  test.each(["page=0", "page=-2", "page=1.5", "page=x", "page="])("%s is the first page", (query) => {
    expect(page(query).page).toBe(1);
  });

  test("no rows: one empty page", () => {
    expect(progressPage([], new URLSearchParams("page=4"))).toEqual({
      rows: [],
      page: 1,
      pages: 1,
      total: 0,
      from: 0,
      to: 0,
    });
  });
});
