import { DEFAULT_GRADING_LABELS } from "~/services/admin";
import { sql } from "drizzle-orm";
import type { Semester } from "~/services/platform/semesters";
import type { Database, Db } from "~/services/platform/db/client.server";
import { env } from "~/services/platform/env.server";
import { phoneDigits } from "~/services/identity";
import {
  schemeForms,
  schemes,
  classSupervisors,
  classes,
  classTeachers,
  expectations,
  formQuestionGroups,
  formQuestions,
  forms,
  semesters,
  QUESTION_GROUP_TYPE,
  ROLE,
  studentExtraSupervisors,
  studentReferences,
  subjects,
  userAffiliations,
  userRoles,
  users,
} from "~/services/platform/db/schema";
import {
  ADMIN,
  DEMO_LOGINS,
  type DemoLogin,
  type DemoPerson,
  PEOPLE,
  STUDENTS,
  STUDENT_WITHOUT_CLASS,
  SUPERVISORS,
  TEACHERS,
} from "./people";
import { MAIN_FORM, MEDICATION_FORM, SUBJECTS, WOUND_CARE_FORM, type DemoForm, type SeededForm } from "./forms";
import { instant, latest } from "./dates";
import { demoCalendar } from "./calendar";
import {
  expectationRows,
  insertAnswerSet,
  insertCompleteHalf,
  insertGivenWarning,
  insertHistory,
  insertMidConfirmedSigningForm,
} from "./answers.server";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** The default independence scale (docs/rules/answering.md); index 5 is "not relevant". */
export const DEFAULT_GRADING_OPTIONS = DEFAULT_GRADING_LABELS;

// Any fixed number: two app instances starting on an empty PostgreSQL must not both seed.
const SEED_LOCK = 7_290_413;

export async function seedDemo(db: Db, today = new Date()): Promise<{ seeded: boolean; logins: DemoLogin[] }> {
  const seeded = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    const [existing] = await tx.select({ id: users.id }).from(users).limit(1);
    if (existing) return false;
    await insertDemo(tx, today);
    return true;
  });
  return { seeded, logins: DEMO_LOGINS };
}

/** The demo's rows, step by step; the order of the inserts gives the ids the tests read. */
async function insertDemo(tx: Tx, today: Date): Promise<void> {
  const id = await insertPeople(tx);
  const staff = {
    admin: id(ADMIN),
    teachers: TEACHERS.map(id),
    supervisors: SUPERVISORS.map(id),
  };
  const studentIds = STUDENTS.map(id);
  const calendar = demoCalendar(today);
  const { current, previous } = calendar;

  const classRows = await insertClasses(tx, calendar, staff);
  const refs = await insertPlacements(tx, classRows, studentIds, staff, previous);
  await insertMemberships(tx, { studentIds, withoutClass: id(STUDENT_WITHOUT_CLASS), calendar, today });

  const mainForm = await insertForm(tx, MAIN_FORM);
  const medicationForm = await insertForm(tx, MEDICATION_FORM);
  const woundCareForm = await insertForm(tx, WOUND_CARE_FORM);
  const { classA, classB, classOld } = classRows;
  const schemesA = await insertSchemes(tx, classA.id, [mainForm.id, medicationForm.id], instant(current.startDate, 8));
  const schemesB = await insertSchemes(tx, classB.id, [mainForm.id, woundCareForm.id], instant(current.startDate, 8));
  const schemesOld = await insertSchemes(tx, classOld.id, [mainForm.id], instant(previous.startDate, 8));
  await tx
    .insert(expectations)
    .values([
      ...expectationRows(classA.id, mainForm, staff.admin),
      ...expectationRows(classB.id, mainForm, staff.admin),
      ...expectationRows(classOld.id, mainForm, staff.admin),
    ]);

  // Never before the semester began, and never after the seed's own moment (on a semester's first
  // morning the semester's first hours may still be ahead).
  const earliest = instant(current.startDate, 8);
  const daysAgo = (days: number) =>
    new Date(Math.min(today.getTime(), latest(earliest, new Date(today.getTime() - days * 86_400_000)).getTime()));
  await insertMidAnswersOfClassA(tx, refs.refsA, mainForm, schemesA.mid, daysAgo);

  // Student 20 (SYK2002) has had everything sent at mid-semester, by all three: the class's
  // progress shows a finished half beside those behind.
  await insertCompleteHalf(tx, refs.refsB[7], [mainForm, woundCareForm], schemesB.mid, daysAgo);

  await insertMidConfirmedSigningForm(tx, refs.refsB[6].id, classB.midSemesterDate, today);
  await insertGivenWarning(tx, refs.refsB[5], daysAgo(3), daysAgo(2));

  await insertHistory(tx, {
    previous,
    classOld,
    refsOld: refs.refsOld,
    mainForm,
    schemes: schemesOld,
    teacherUserId: staff.teachers[0],
    supervisorUserId: staff.supervisors[0],
  });
}

interface DemoStaff {
  admin: number;
  teachers: number[];
  supervisors: number[];
}

type DemoCalendar = ReturnType<typeof demoCalendar>;
type DemoClasses = Awaited<ReturnType<typeof insertClasses>>;

/** The two semesters, the three subjects, and the classes with their teachers and supervisors. */
async function insertClasses(tx: Tx, { current, previous, classes: dates }: DemoCalendar, staff: DemoStaff) {
  const { admin } = staff;
  const [teacher1, teacher2, teacher3] = staff.teachers;
  const [supervisor1, supervisor2, supervisor3, supervisor4] = staff.supervisors;
  const [currentSemester, previousSemester] = await tx
    .insert(semesters)
    .values([current, previous])
    .returning({ id: semesters.id });

  const [nursingHome, specialist, homeCare] = await tx
    .insert(subjects)
    .values([SUBJECTS.nursingHome, SUBJECTS.specialist, SUBJECTS.homeCare])
    .returning({ id: subjects.id });

  const [classA, classB, classOld] = await tx
    .insert(classes)
    .values([
      { subjectId: nursingHome.id, semesterId: currentSemester.id, ...dates.SYK2001 },
      { subjectId: specialist.id, semesterId: currentSemester.id, ...dates.SYK2002 },
      { subjectId: homeCare.id, semesterId: previousSemester.id, ...dates.SYK1002 },
    ])
    .returning();

  await tx.insert(classTeachers).values([
    { classId: classA.id, userId: teacher1 },
    { classId: classA.id, userId: teacher2 },
    { classId: classB.id, userId: teacher3 },
    { classId: classB.id, userId: admin },
    { classId: classOld.id, userId: teacher1 },
  ]);
  await tx.insert(classSupervisors).values([
    { classId: classA.id, userId: supervisor1 },
    { classId: classA.id, userId: supervisor2 },
    { classId: classB.id, userId: supervisor3 },
    { classId: classB.id, userId: supervisor4 },
    { classId: classOld.id, userId: supervisor1 },
  ]);
  return { classA, classB, classOld };
}

/** Each student's place in a class (their student reference), with a teacher and a supervisor or not. */
async function insertPlacements(
  tx: Tx,
  { classA, classB, classOld }: DemoClasses,
  studentIds: number[],
  staff: DemoStaff,
  previous: Semester,
) {
  const { admin } = staff;
  const [teacher1, teacher2, teacher3] = staff.teachers;
  const [supervisor1, supervisor2, supervisor3, supervisor4] = staff.supervisors;
  // Per class: the first ten students alternate between two teachers and two supervisors, the
  // tenth has no supervisor yet (so the student can invite one), the last two have neither.
  const placements = (classId: number, students: number[], teachers: number[], supervisors: number[]) =>
    students.map((studentUserId, i) => ({
      classId,
      studentUserId,
      teacherUserId: i < 10 ? teachers[i % 2] : null,
      supervisorUserId: i < 9 ? supervisors[i % 2] : null,
    }));
  const refsA = await tx
    .insert(studentReferences)
    .values(placements(classA.id, studentIds.slice(0, 12), [teacher1, teacher2], [supervisor1, supervisor2]))
    .returning();
  const refsB = await tx
    .insert(studentReferences)
    .values(placements(classB.id, studentIds.slice(12, 24), [teacher3, admin], [supervisor3, supervisor4]))
    .returning();
  const refsOld = await tx
    .insert(studentReferences)
    .values(
      studentIds.slice(0, 4).map((studentUserId) => ({
        classId: classOld.id,
        studentUserId,
        teacherUserId: teacher1,
        supervisorUserId: supervisor1,
        createdAt: instant(previous.startDate, 14),
      })),
    )
    .returning();

  // Student 02 is followed by a second supervisor as well as the assigned one.
  await tx.insert(studentExtraSupervisors).values({
    studentReferenceId: refsA[1].id,
    userId: supervisor1,
    roleId: ROLE.Supervisor,
  });
  return { refsA, refsB, refsOld };
}

/** The students' course memberships as Feide would give them (the old class's ended with its semester). */
async function insertMemberships(
  tx: Tx,
  {
    studentIds,
    withoutClass,
    calendar: { current, previous },
    today,
  }: { studentIds: number[]; withoutClass: number; calendar: DemoCalendar; today: Date },
) {
  const membership = (
    userId: number,
    subject: { subjectCode: string; name: string },
    semester: Semester,
    active: boolean,
  ) => ({
    userId,
    groupId: `fc:fs:fs:emne:example.org:${subject.subjectCode}:1`,
    groupType: "fc:fs:emne",
    subjectCode: subject.subjectCode,
    subjectVersion: "1",
    displayName: subject.name,
    active,
    notBefore: instant(semester.startDate, 0),
    notAfter: instant(semester.endDate, 22),
    fsRoles: ["student"],
    fetchedAt: today,
  });
  await tx
    .insert(userAffiliations)
    .values([
      ...studentIds.slice(0, 12).map((userId) => membership(userId, SUBJECTS.nursingHome, current, true)),
      ...studentIds.slice(12, 24).map((userId) => membership(userId, SUBJECTS.specialist, current, true)),
      ...studentIds.slice(0, 4).map((userId) => membership(userId, SUBJECTS.homeCare, previous, false)),
      membership(withoutClass, SUBJECTS.specialist, current, true),
    ]);
}

type StudentReference = Awaited<ReturnType<typeof insertPlacements>>["refsA"][number];

/** Current semester, class A, mid-semester: some students and their supervisors have started. */
async function insertMidAnswersOfClassA(
  tx: Tx,
  refsA: StudentReference[],
  mainForm: SeededForm,
  schemeId: number,
  daysAgo: (days: number) => Date,
) {
  for (const [i, ref] of refsA.slice(0, 4).entries()) {
    const sentAt = i < 3 ? daysAgo(10 - i) : null;
    await insertAnswerSet(tx, mainForm, {
      schemeId,
      studentUserId: ref.studentUserId,
      authorUserId: ref.studentUserId,
      authorRoleId: ROLE.Student,
      isMidSemester: true,
      sentAt,
      at: sentAt ?? daysAgo(2),
      seed: i,
      // Student 04 has only begun: a draft with the first groups filled in.
      groupLimit: i < 3 ? undefined : 2,
    });
  }
  for (const [i, ref] of refsA.slice(0, 3).entries()) {
    if (ref.supervisorUserId === null) continue;
    const sentAt = i < 2 ? daysAgo(7 - i) : null;
    await insertAnswerSet(tx, mainForm, {
      schemeId,
      studentUserId: ref.studentUserId,
      authorUserId: ref.supervisorUserId,
      authorRoleId: ROLE.Supervisor,
      isMidSemester: true,
      sentAt,
      at: sentAt ?? daysAgo(1),
      seed: i + 1,
    });
  }
  const firstRef = refsA[0];
  if (firstRef.teacherUserId !== null) {
    await insertAnswerSet(tx, mainForm, {
      schemeId,
      studentUserId: firstRef.studentUserId,
      authorUserId: firstRef.teacherUserId,
      authorRoleId: ROLE.Teacher,
      isMidSemester: true,
      sentAt: daysAgo(5),
      at: daysAgo(5),
      seed: 2,
    });
  }
}

export async function insertPeople(tx: Tx): Promise<(person: DemoPerson) => number> {
  const inserted = await tx
    .insert(users)
    .values(
      PEOPLE.map((p) => ({
        displayName: p.name,
        email: p.email,
        phoneNumber: p.phoneNumber ?? null,
        verifiedPhone: p.phoneVerified && p.phoneNumber ? phoneDigits(p.phoneNumber) : null,
        isActive: p.isActive ?? true,
      })),
    )
    .returning({ id: users.id, email: users.email });
  const ids = new Map(inserted.map((u) => [u.email, u.id]));
  const id = (person: DemoPerson) => {
    const userId = ids.get(person.email);
    if (userId === undefined) throw new Error(`Demo user ${person.email} was not inserted`);
    return userId;
  };
  await tx.insert(userRoles).values(PEOPLE.flatMap((p) => p.roles.map((roleId) => ({ userId: id(p), roleId }))));
  return id;
}

export async function insertForm(tx: Tx, form: DemoForm): Promise<SeededForm> {
  const [row] = await tx
    .insert(forms)
    .values({ name: form.name, isMainForm: form.isMainForm })
    .returning({ id: forms.id });
  const groups: SeededForm["groups"] = [];
  let questionIndex = 0;
  for (const [g, group] of form.groups.entries()) {
    const [groupRow] = await tx
      .insert(formQuestionGroups)
      .values({
        formId: row.id,
        name: group.name,
        order: g + 1,
        type: group.type,
        audience: group.audience ?? "all",
        options: group.type === QUESTION_GROUP_TYPE.Grading ? [...DEFAULT_GRADING_OPTIONS] : [],
      })
      .returning({ id: formQuestionGroups.id });
    const questionRows = await tx
      .insert(formQuestions)
      .values(
        group.questions.map((q, i) => ({
          groupId: groupRow.id,
          text: q.text,
          order: i + 1,
          helpText: q.helpText ?? null,
        })),
      )
      .returning({ id: formQuestions.id, order: formQuestions.order });
    const questions = questionRows
      .toSorted((a, b) => a.order - b.order)
      .map((q) => ({ id: q.id, index: questionIndex++ }));
    groups.push({ type: group.type, questions });
  }
  return { id: row.id, groups };
}

export async function insertSchemes(
  tx: Tx,
  classId: number,
  formIds: number[],
  createdAt: Date,
): Promise<{ mid: number; end: number }> {
  const [mid] = await tx
    .insert(schemes)
    .values({ classId, isMidSemester: true, createdAt })
    .returning({ id: schemes.id });
  const [end] = await tx
    .insert(schemes)
    .values({ classId, isMidSemester: false, createdAt })
    .returning({ id: schemes.id });
  await tx
    .insert(schemeForms)
    .values([mid.id, end.id].flatMap((schemeId) => formIds.map((formId) => ({ schemeId, formId }))));
  return { mid: mid.id, end: end.id };
}

/** At start-up, in demo mode: seeds an empty database and prints the log-ins. */
export async function seedDemoWhenAsked(database: Database): Promise<void> {
  if (!env().demoMode) return;
  const result = await seedDemo(database.db);
  if (!result.seeded) return;
  console.info(
    env().devOutbox
      ? "[db] Demo data seeded. Log in with an e-mail code (the code is shown at /dev/outbox):"
      : "[db] Demo data seeded. Log in with an e-mail code (sent through SMTP_URL):",
  );
  for (const login of result.logins) {
    console.info(`       ${login.role.padEnd(10)} ${login.email.padEnd(28)} ${login.name}`);
  }
}
