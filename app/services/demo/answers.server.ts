// The demo's answers, signing forms and warnings: this semester's work under way, and last semester's finished.
import { osloDate, type Semester } from "~/services/platform/semesters";
import type { Db } from "~/services/platform/db/client.server";
import {
  answers,
  answerSets,
  QUESTION_GROUP_TYPE,
  ROLE,
  signingForms,
  warnings,
  type RoleId,
} from "~/services/platform/db/schema";
import { SELF_ASSESSMENT_TEXTS, STUDENT_COMMENTS, SUPERVISOR_COMMENTS } from "./forms";
import { addDays, instant } from "./dates";
import type { SeededForm, SeededQuestion } from "./forms";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** Mid-semester the admin expects "Veiledet" (some "Delvis selvstendig"), at the end one step more. */
export function expectationRows(classId: number, form: SeededForm, setByUserId: number) {
  return gradingQuestions(form).flatMap((q) => {
    const mid = q.index % 3 === 0 ? 1 : 2;
    return [
      { classId, formId: form.id, questionId: q.id, isMidSemester: true, value: String(mid), setByUserId },
      { classId, formId: form.id, questionId: q.id, isMidSemester: false, value: String(mid - 1), setByUserId },
    ];
  });
}

export function gradingQuestions(form: SeededForm): SeededQuestion[] {
  return form.groups.filter((g) => g.type === QUESTION_GROUP_TYPE.Grading).flatMap((g) => g.questions);
}

/** A plausible, repeatable grade index: mostly "Delvis selvstendig" to "Assistert", now and then "Ikke relevant". */
export function grade(seed: number, questionIndex: number, isMidSemester: boolean): string {
  if ((seed + questionIndex) % 11 === 10) return "5";
  const step = [1, 2, 1, 3, 2, 1, 2][(seed * 3 + questionIndex) % 7];
  return String(isMidSemester ? step : Math.max(0, step - 1));
}

export async function insertAnswerSet(
  tx: Tx,
  form: SeededForm,
  set: {
    schemeId: number;
    studentUserId: number;
    authorUserId: number;
    authorRoleId: RoleId;
    isMidSemester: boolean;
    sentAt: Date | null;
    at: Date;
    seed: number;
    groupLimit?: number;
  },
): Promise<void> {
  const [row] = await tx
    .insert(answerSets)
    .values({
      formId: form.id,
      schemeId: set.schemeId,
      studentUserId: set.studentUserId,
      authorUserId: set.authorUserId,
      authorRoleId: set.authorRoleId,
      isMidSemester: set.isMidSemester,
      sentAt: set.sentAt,
      createdAt: set.at,
      updatedAt: set.at,
    })
    .returning({ id: answerSets.id });

  const isStudent = set.authorRoleId === ROLE.Student;
  const rows = form.groups.slice(0, set.groupLimit).flatMap((group) => {
    // The text group is the student's own reflection; supervisors and teachers grade only.
    if (group.type === QUESTION_GROUP_TYPE.TextInput) {
      if (!isStudent) return [];
      return group.questions.map((q, i) => ({
        answerSetId: row.id,
        questionId: q.id,
        value: SELF_ASSESSMENT_TEXTS[i % SELF_ASSESSMENT_TEXTS.length][set.seed % 4],
        updatedAt: set.at,
      }));
    }
    return group.questions.map((q) => {
      const comment = commentFor(isStudent, set.seed, q.index);
      return {
        answerSetId: row.id,
        questionId: q.id,
        value: grade(set.seed, q.index, set.isMidSemester),
        comment,
        commentedAt: comment ? set.at : null,
        updatedAt: set.at,
      };
    });
  });
  if (rows.length > 0) await tx.insert(answers).values(rows);
}

export function commentFor(isStudent: boolean, seed: number, questionIndex: number): string | null {
  if ((seed + questionIndex) % 5 !== 3) return null;
  const comments = isStudent ? STUDENT_COMMENTS : SUPERVISOR_COMMENTS;
  return comments[(seed + questionIndex) % comments.length];
}

/** Every form of one half sent about a student by the student, their supervisor and their teacher. */
export async function insertCompleteHalf(
  tx: Tx,
  ref: { studentUserId: number; teacherUserId: number | null; supervisorUserId: number | null },
  halfForms: SeededForm[],
  schemeId: number,
  daysAgo: (days: number) => Date,
): Promise<void> {
  if (ref.teacherUserId === null || ref.supervisorUserId === null)
    throw new Error("the demo student has no teacher or supervisor");
  const authors = [
    { userId: ref.studentUserId, roleId: ROLE.Student, days: 12 },
    { userId: ref.supervisorUserId, roleId: ROLE.Supervisor, days: 11 },
    { userId: ref.teacherUserId, roleId: ROLE.Teacher, days: 10 },
  ];
  for (const [f, form] of halfForms.entries()) {
    for (const [a, author] of authors.entries()) {
      const at = daysAgo(author.days);
      await insertAnswerSet(tx, form, {
        schemeId,
        studentUserId: ref.studentUserId,
        authorUserId: author.userId,
        authorRoleId: author.roleId,
        isMidSemester: true,
        sentAt: at,
        at,
        seed: f + a + 3,
      });
    }
  }
}

/**
 * Student 19 (SYK2002, followed by laerer3 and veileder3) has had the mid-semester assessment: the
 * teacher has confirmed the signing form's mid-semester part, so the demo shows a form in progress.
 * Confirmed on the class's mid-semester date, or today while that is still ahead.
 */
export async function insertMidConfirmedSigningForm(
  tx: Tx,
  studentReferenceId: number,
  midSemesterDate: string | null,
  today: Date,
): Promise<void> {
  const todayIso = osloDate(today);
  const confirmedOn = midSemesterDate !== null && midSemesterDate < todayIso ? midSemesterDate : todayIso;
  const at = new Date(Math.min(instant(confirmedOn, 9).getTime(), today.getTime()));
  await tx.insert(signingForms).values({
    studentReferenceId,
    midSemesterCompletedDate: confirmedOn,
    midSemesterSpecificCompetenceAreasBegun: true,
    midSemesterStudentHasGivenFeedback: true,
    createdAt: at,
    updatedAt: at,
  });
}

/** The previous semester, finished: everything answered and sent, signing forms signed and locked. */
export async function insertHistory(
  tx: Tx,
  h: {
    previous: Semester;
    classOld: { midSemesterDate: string | null; endSemesterDate: string | null };
    refsOld: { id: number; studentUserId: number }[];
    mainForm: SeededForm;
    schemes: { mid: number; end: number };
    teacherUserId: number;
    supervisorUserId: number;
  },
): Promise<void> {
  const midDate = h.classOld.midSemesterDate ?? h.previous.startDate;
  const endDate = h.classOld.endSemesterDate ?? h.previous.endDate;
  for (const [i, ref] of h.refsOld.entries()) {
    for (const isMidSemester of [true, false]) {
      const day = isMidSemester ? midDate : endDate;
      const authors: { userId: number; roleId: RoleId; daysBefore: number }[] = [
        { userId: ref.studentUserId, roleId: ROLE.Student, daysBefore: 3 },
        { userId: h.supervisorUserId, roleId: ROLE.Supervisor, daysBefore: 2 },
        { userId: h.teacherUserId, roleId: ROLE.Teacher, daysBefore: 1 },
      ];
      for (const [a, author] of authors.entries()) {
        const at = instant(addDays(day, -author.daysBefore), 10 + a);
        await insertAnswerSet(tx, h.mainForm, {
          schemeId: isMidSemester ? h.schemes.mid : h.schemes.end,
          studentUserId: ref.studentUserId,
          authorUserId: author.userId,
          authorRoleId: author.roleId,
          isMidSemester,
          sentAt: at,
          at,
          seed: i + a,
        });
      }
    }
  }

  await tx.insert(signingForms).values(
    h.refsOld.map((ref, i) => ({
      studentReferenceId: ref.id,
      attendancePassed: true,
      workRequirementsPassed: true,
      specificCompetenceAreasPassed: true,
      generalCompetenceAreasPassed: true,
      teacherComment:
        i === 2
          ? "Studenten fikk varsel ved midtvurderingen, arbeidet godt med læringsmålene og har bestått praksis."
          : "Studenten har vist god faglig progresjon gjennom hele praksisperioden.",
      overallPassed: true,
      isLocked: true,
      midSemesterCompletedDate: midDate,
      endSemesterCompletedDate: endDate,
      midSemesterSpecificCompetenceAreasBegun: true,
      midSemesterStudentHasGivenFeedback: true,
      signedByStudentUserId: ref.studentUserId,
      signedByStudentDate: instant(endDate, 9),
      signedBySupervisorUserId: h.supervisorUserId,
      signedBySupervisorDate: instant(endDate, 11),
      signedByTeacherUserId: h.teacherUserId,
      signedByTeacherDate: instant(endDate, 13),
      createdAt: instant(midDate, 9),
      updatedAt: instant(endDate, 13),
    })),
  );

  const warned = h.refsOld[2];
  const givenAt = instant(addDays(midDate, 3), 12);
  await tx.insert(warnings).values({
    studentReferenceId: warned.id,
    teacherUserId: h.teacherUserId,
    comment:
      "Ved midtvurderingen er det bekymring for at du ikke når læringsutbyttet innen legemiddelhåndtering og dokumentasjon.",
    passRequirement:
      "Du må vise at du selvstendig kan beregne doser, kontrollere legemidler og dokumentere administrering korrekt.",
    passRequirementSummary:
      "Legemiddelhåndtering og dokumentasjon må vurderes som minst «Delvis selvstendig» ved sluttvurderingen.",
    createdAt: instant(addDays(midDate, 2), 14),
    updatedAt: givenAt,
    submittedAt: givenAt,
    studentConfirmedWarningAt: instant(addDays(midDate, 5), 8),
  });
}

/**
 * This semester, student 18 (Aksel Lie, SYK2002, followed by the admin as teacher and by Jonas
 * Eriksen) has been given a warning and has not confirmed it yet: the demo shows the student's alert.
 */
export async function insertGivenWarning(
  tx: Tx,
  ref: { id: number; teacherUserId: number | null },
  createdAt: Date,
  givenAt: Date,
): Promise<void> {
  if (ref.teacherUserId === null) throw new Error("the warned demo student has no teacher");
  await tx.insert(warnings).values({
    studentReferenceId: ref.id,
    teacherUserId: ref.teacherUserId,
    comment:
      "Du kommer ofte for sent til vakt og har flere ganger ikke meldt fra om endringer i pasientenes tilstand. Det er fare for at du ikke når læringsutbyttet om pasientsikkerhet.",
    passRequirement:
      "Du må møte presis til alle vakter resten av perioden, rapportere endringer i pasientens tilstand til veileder med en gang, og bruke NEWS2 ved hver observasjon.",
    passRequirementSummary: "Presis oppmøte og fortløpende rapportering av endringer i pasientens tilstand.",
    createdAt,
    updatedAt: givenAt,
    submittedAt: givenAt,
  });
}
