import { and, count, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { semesterFor, semesterStatus } from "~/services/platform/semesters";
import type { Database } from "~/services/platform/db/client.server";
import { openTestDatabase } from "~/test/db";
import {
  answerSets,
  answers,
  classes,
  formQuestionGroups,
  formQuestions,
  forms,
  semesters,
  ROLE,
  roles,
  signingForms,
  studentExtraSupervisors,
  studentReferences,
  subjects,
  userAffiliations,
  userRoles,
  users,
  warnings,
} from "~/services/platform/db/schema";
import { seedDemo } from "./seed.server";
import { DEMO_LOGINS } from "./people";

const today = new Date("2026-11-22T12:00:00Z");
let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

async function countUsersWithRole(roleId: number): Promise<number> {
  const [row] = await database.db.select({ n: count() }).from(userRoles).where(eq(userRoles.roleId, roleId));
  return row.n;
}

test("the roles migration inserts the four fixed roles", async () => {
  const rows = await database.db.select().from(roles).orderBy(roles.id);
  expect(rows).toEqual([
    { id: ROLE.Admin, name: "Admin" },
    { id: ROLE.Student, name: "Student" },
    { id: ROLE.Teacher, name: "Teacher" },
    { id: ROLE.Supervisor, name: "Advisor" },
  ]);
});

test("seeds the demo once, and a second run changes nothing", async () => {
  const first = await seedDemo(database.db, today);
  expect(first.seeded).toBe(true);
  expect(first.logins).toEqual(DEMO_LOGINS);
  const [{ n: usersAfterFirst }] = await database.db.select({ n: count() }).from(users);

  const second = await seedDemo(database.db, today);
  expect(second).toEqual({ seeded: false, logins: DEMO_LOGINS });
  const [{ n: usersAfterSecond }] = await database.db.select({ n: count() }).from(users);
  expect(usersAfterSecond).toBe(usersAfterFirst);
});

test("every demo login exists and is active", async () => {
  for (const login of DEMO_LOGINS) {
    const user = await database.db.query.users.findFirst({ where: eq(users.email, login.email) });
    expect(user?.displayName).toBe(login.name);
    expect(user?.isActive).toBe(true);
  }
  const deactivated = await database.db.query.users.findFirst({
    where: eq(users.email, "deaktivert@example.org"),
  });
  expect(deactivated?.isActive).toBe(false);
});

test("the people: one admin who also teaches, three teachers, four supervisors", async () => {
  expect(await countUsersWithRole(ROLE.Admin)).toBe(1);
  // The admin holds the Teacher role too.
  expect(await countUsersWithRole(ROLE.Teacher)).toBe(4);
  expect(await countUsersWithRole(ROLE.Supervisor)).toBe(4);
  const admin = await database.db.query.users.findFirst({
    where: eq(users.email, "admin@example.org"),
    with: { roles: true },
  });
  expect(admin?.roles.map((r) => r.roleId).toSorted()).toEqual([ROLE.Admin, ROLE.Teacher]);
  const supervisors = await database.db.query.userRoles.findMany({
    where: eq(userRoles.roleId, ROLE.Supervisor),
    with: { user: true },
  });
  for (const s of supervisors) expect(s.user.phoneNumber).toMatch(/^\+47\d{8}$/);
});

test("the current semester holds two classes with twelve students each", async () => {
  const current = semesterFor(today);
  const semester = await database.db.query.semesters.findFirst({
    where: eq(semesters.name, current.name),
    with: { classes: { with: { subject: true, studentReferences: true, teachers: true, supervisors: true } } },
  });
  expect(semester).toMatchObject({ startDate: current.startDate, endDate: current.endDate });
  expect(semester?.classes.map((c) => c.subject.subjectCode).toSorted()).toEqual(["SYK2001", "SYK2002"]);
  for (const c of semester?.classes ?? []) {
    expect(c.studentReferences).toHaveLength(12);
    expect(c.teachers.length).toBeGreaterThan(0);
    expect(c.supervisors.length).toBeGreaterThan(0);
    expect(c.midSemesterDate! > current.startDate && c.midSemesterDate! < c.endSemesterDate!).toBe(true);
    expect(c.endSemesterDate! <= current.endDate).toBe(true);
    // Most students are followed up; a few still wait for a teacher and a supervisor.
    expect(c.studentReferences.filter((r) => r.teacherUserId === null)).toHaveLength(2);
    expect(c.studentReferences.filter((r) => r.supervisorUserId === null)).toHaveLength(3);
  }
  const studentsInCurrentClasses = new Set(
    semester?.classes.flatMap((c) => c.studentReferences.map((r) => r.studentUserId)),
  );
  expect(studentsInCurrentClasses.size).toBe(24);
  const [{ n: extra }] = await database.db.select({ n: count() }).from(studentExtraSupervisors);
  expect(extra).toBe(1);
});

test("every student's course memberships match their current class", async () => {
  const rows = await database.db
    .select({ affiliation: userAffiliations.subjectCode, subject: subjects.subjectCode })
    .from(studentReferences)
    .innerJoin(classes, eq(classes.id, studentReferences.classId))
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .innerJoin(semesters, eq(semesters.id, classes.semesterId))
    .leftJoin(
      userAffiliations,
      and(
        eq(userAffiliations.userId, studentReferences.studentUserId),
        eq(userAffiliations.subjectCode, subjects.subjectCode),
        eq(userAffiliations.groupType, "fc:fs:emne"),
        eq(userAffiliations.active, true),
      ),
    )
    .where(eq(semesters.name, semesterFor(today).name));
  expect(rows).toHaveLength(24);
  for (const row of rows) expect(row.affiliation).toBe(row.subject);
});

test("a student without a class has a membership matching a current class", async () => {
  const student = await database.db.query.users.findFirst({
    where: eq(users.email, "student25@example.org"),
    with: { affiliations: true, studentReferences: true },
  });
  expect(student?.studentReferences).toEqual([]);
  expect(student?.affiliations).toHaveLength(1);
  const affiliation = student!.affiliations[0];
  expect(affiliation.groupId).toBe(`fc:fs:fs:emne:example.org:${affiliation.subjectCode}:1`);
  const matching = await database.db
    .select({ id: classes.id })
    .from(classes)
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .innerJoin(semesters, eq(semesters.id, classes.semesterId))
    .where(and(eq(subjects.subjectCode, affiliation.subjectCode!), eq(semesters.name, semesterFor(today).name)));
  expect(matching).toHaveLength(1);
});

test("one main form and two specific-competency forms, with groups and questions", async () => {
  const all = await database.db.query.forms.findMany({
    where: isNull(forms.deletedAt),
    with: { groups: { with: { questions: true } } },
  });
  expect(all.filter((f) => f.isMainForm).map((f) => f.name)).toEqual(["Vurdering av kliniske kompetanser"]);
  expect(all.filter((f) => !f.isMainForm)).toHaveLength(2);
  const main = all.find((f) => f.isMainForm)!;
  expect(main.groups.some((g) => g.type === 1)).toBe(true);
  const grading = main.groups.filter((g) => g.type === 2);
  expect(grading.length).toBeGreaterThanOrEqual(3);
  for (const g of grading) {
    expect(g.options).toEqual([
      "Selvstendig",
      "Delvis selvstendig",
      "Veiledet",
      "Assistert",
      "Uselvstendig",
      "Ikke relevant",
    ]);
    expect(g.questions.length).toBeGreaterThan(0);
  }
  const [{ n: withHelp }] = await database.db
    .select({ n: count() })
    .from(formQuestions)
    .where(isNotNull(formQuestions.helpText));
  expect(withHelp).toBeGreaterThan(0);
  const [{ n: groupCount }] = await database.db.select({ n: count() }).from(formQuestionGroups);
  expect(groupCount).toBe(main.groups.length + 2);
});

test("each current class has a mid- and an end-semester scheme with the main form and a specific form", async () => {
  const current = await database.db.query.semesters.findFirst({
    where: eq(semesters.name, semesterFor(today).name),
    with: { classes: { with: { schemes: { with: { forms: { with: { form: true } } } } } } },
  });
  for (const c of current?.classes ?? []) {
    expect(c.schemes.map((a) => a.isMidSemester).toSorted()).toEqual([false, true]);
    for (const a of c.schemes) {
      expect(a.forms.map((f) => f.form.isMainForm).toSorted()).toEqual([false, true]);
    }
  }
});

test("answers exist: sent and draft sets in the current semester, grading values are option indexes", async () => {
  const sets = await database.db.query.answerSets.findMany({ with: { answers: true } });
  const current = sets.filter((s) => s.createdAt >= new Date(`${semesterFor(today).startDate}T00:00:00Z`));
  expect(current.some((s) => s.sentAt !== null && s.authorRoleId === ROLE.Student)).toBe(true);
  expect(current.some((s) => s.sentAt !== null && s.authorRoleId === ROLE.Supervisor)).toBe(true);
  expect(current.some((s) => s.sentAt === null)).toBe(true);
  for (const s of sets) expect(s.answers.length).toBeGreaterThan(0);

  const grades = await database.db
    .select({ value: answers.value })
    .from(answers)
    .innerJoin(formQuestions, eq(formQuestions.id, answers.questionId))
    .innerJoin(formQuestionGroups, eq(formQuestionGroups.id, formQuestions.groupId))
    .where(eq(formQuestionGroups.type, 2));
  expect(grades.length).toBeGreaterThan(0);
  for (const g of grades) expect(g.value).toMatch(/^[0-5]$/);
  const [{ n: comments }] = await database.db.select({ n: count() }).from(answers).where(isNotNull(answers.comment));
  expect(comments).toBeGreaterThan(0);
});

test("the previous semester is finished: signed, locked signing forms and a confirmed warning", async () => {
  const previousSemester = await database.db.query.semesters.findFirst({
    where: eq(semesters.name, "Vår 2026"),
    with: { classes: { with: { studentReferences: true } } },
  });
  expect(previousSemester && semesterStatus(previousSemester, today)).toBe("past");
  expect(previousSemester?.classes).toHaveLength(1);
  const refIds = previousSemester!.classes[0].studentReferences.map((r) => r.id);
  expect(refIds.length).toBeGreaterThan(0);

  const signed = (await database.db.select().from(signingForms)).filter((f) => f.isLocked);
  expect(signed.map((f) => f.studentReferenceId).toSorted()).toEqual(refIds.toSorted());
  for (const f of signed) {
    expect(f).toMatchObject({
      attendancePassed: true,
      workRequirementsPassed: true,
      specificCompetenceAreasPassed: true,
      generalCompetenceAreasPassed: true,
      overallPassed: true,
      isLocked: true,
    });
    expect(f.signedByTeacherDate && f.signedByStudentDate && f.signedBySupervisorDate).toBeTruthy();
  }

  const given = (await database.db.select().from(warnings)).filter((w) => refIds.includes(w.studentReferenceId));
  expect(given).toHaveLength(1);
  expect(given[0].submittedAt).not.toBeNull();
  expect(given[0].studentConfirmedWarningAt).not.toBeNull();
});

test("this semester, student 19 in SYK2002 has a signing form with the mid-semester part confirmed, and nobody else has one", async () => {
  const open = await database.db
    .select({
      form: signingForms,
      email: users.email,
      subjectCode: subjects.subjectCode,
      midSemesterDate: classes.midSemesterDate,
    })
    .from(signingForms)
    .innerJoin(studentReferences, eq(studentReferences.id, signingForms.studentReferenceId))
    .innerJoin(users, eq(users.id, studentReferences.studentUserId))
    .innerJoin(classes, eq(classes.id, studentReferences.classId))
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .where(eq(signingForms.isLocked, false));
  expect(open).toHaveLength(1);
  const [{ form, email, subjectCode, midSemesterDate }] = open;
  expect({ email, subjectCode }).toEqual({ email: "student19@example.org", subjectCode: "SYK2002" });
  // The class's mid-semester date (7 October) has passed on 22 November: the form was confirmed that day.
  expect(midSemesterDate).toBe("2026-10-07");
  expect(form).toMatchObject({
    midSemesterCompletedDate: "2026-10-07",
    midSemesterSpecificCompetenceAreasBegun: true,
    midSemesterStudentHasGivenFeedback: true,
    endSemesterCompletedDate: null,
    signedByStudentDate: null,
    signedBySupervisorDate: null,
    signedByTeacherDate: null,
  });
});

test("a demo seeded on a semester's first morning, before its 08:00, dates nothing after that moment", async () => {
  const early = await openTestDatabase();
  try {
    const today = new Date("2027-01-01T06:00:00Z");
    await seedDemo(early.db, today);
    const [latest] = await early.db
      .select({
        sent: sql<string | null>`(select max(${answerSets.sentAt}) from ${answerSets})`,
        given: sql<string | null>`(select max(${warnings.submittedAt}) from ${warnings})`,
        confirmed: sql<string | null>`(select max(${signingForms.createdAt}) from ${signingForms})`,
      })
      .from(users)
      .limit(1);
    for (const [what, at] of Object.entries(latest)) {
      expect(at, what).not.toBeNull();
      expect(new Date(at!).getTime(), what).toBeLessThanOrEqual(today.getTime());
    }
  } finally {
    await early.close();
  }
});

test("a demo seeded before the semester's halfway point has passed its mid-semester date yesterday; the form is confirmed then, not in the future", async () => {
  const early = await openTestDatabase();
  try {
    await seedDemo(early.db, new Date("2026-09-01T10:00:00Z"));
    const dates = await early.db
      .select({ mid: classes.midSemesterDate, end: classes.endSemesterDate })
      .from(classes)
      .orderBy(classes.id);
    expect(dates.slice(0, 2)).toEqual([
      { mid: "2026-08-31", end: "2026-12-17" },
      { mid: "2026-08-31", end: "2026-12-24" },
    ]);
    const [form] = await early.db.select().from(signingForms).where(eq(signingForms.isLocked, false));
    expect(form.midSemesterCompletedDate).toBe("2026-08-31");
    expect(form.createdAt.getTime()).toBeLessThanOrEqual(new Date("2026-09-01T10:00:00Z").getTime());
  } finally {
    await early.close();
  }
});

test("this semester, one warning is given and waits for the student to confirm it: student 18's in SYK2002", async () => {
  const rows = await database.db
    .select({
      warning: warnings,
      email: users.email,
      subjectCode: subjects.subjectCode,
      semesterName: semesters.name,
      teacher: studentReferences.teacherUserId,
    })
    .from(warnings)
    .innerJoin(studentReferences, eq(studentReferences.id, warnings.studentReferenceId))
    .innerJoin(users, eq(users.id, studentReferences.studentUserId))
    .innerJoin(classes, eq(classes.id, studentReferences.classId))
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .innerJoin(semesters, eq(semesters.id, classes.semesterId))
    .where(eq(semesters.name, "Høst 2026"));
  expect(rows).toHaveLength(1);
  const [{ warning, email, subjectCode, teacher }] = rows;
  expect({ email, subjectCode }).toEqual({ email: "student18@example.org", subjectCode: "SYK2002" });
  expect(warning.teacherUserId).toBe(teacher);
  expect(warning.submittedAt).not.toBeNull();
  expect(warning.studentConfirmedWarningAt).toBeNull();
  expect(warning.submittedAt!.getTime()).toBeLessThanOrEqual(today.getTime());
  expect(warning.createdAt.getTime()).toBeLessThanOrEqual(warning.submittedAt!.getTime());
  for (const text of [warning.comment, warning.passRequirement, warning.passRequirementSummary])
    expect(text.trim()).not.toBe("");
});

test("the seed follows the calendar: in spring the previous semester is last autumn", async () => {
  const spring = await openTestDatabase();
  try {
    // 23:30 UTC on 31 December is already 1 January in Norway.
    await seedDemo(spring.db, new Date("2026-12-31T23:30:00Z"));
    const names = (await spring.db.select({ name: semesters.name }).from(semesters)).map((p) => p.name);
    expect(names.toSorted()).toEqual(["Høst 2026", "Vår 2027"]);
  } finally {
    await spring.close();
  }
});
