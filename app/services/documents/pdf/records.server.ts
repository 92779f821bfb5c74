import { and, desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { schemesOfClass } from "~/services/admin/index.server";
import type { Db } from "~/services/platform/db/client.server";
import {
  schemeForms,
  schemes,
  classSupervisors,
  classTeachers,
  forms,
  resultSubmissions,
  signingForms,
  studentExtraSupervisors,
  studentReferences,
  users,
  warnings,
} from "~/services/platform/db/schema";
import type { StudentAccess, Viewer } from "~/services/placements/index.server";
import { placementOf, type Placement } from "~/services/placements/index.server";
import { formResults, type FormResults } from "~/services/answering/index.server";
import { ROLE } from "~/services/identity";

/**
 * What the documents read beyond the answers: the given warning, the signing form, and whether a
 * viewer may have a form's empty copy. The warnings and signing forms are kept by their own
 * services; the documents only read them, by the rules those tables carry (a warning without
 * `submitted_at` is the teacher's private draft).
 */

export interface GivenWarning {
  comment: string;
  passRequirement: string;
  passRequirementSummary: string;
  submittedAt: Date;
  studentConfirmedWarningAt: Date | null;
  teacherName: string;
}

/** The warning given to the student of a reference; null when there is none, or only a draft. */
export async function givenWarning(db: Db, referenceId: number): Promise<GivenWarning | null> {
  const [row] = await db
    .select({
      comment: warnings.comment,
      passRequirement: warnings.passRequirement,
      passRequirementSummary: warnings.passRequirementSummary,
      submittedAt: warnings.submittedAt,
      studentConfirmedWarningAt: warnings.studentConfirmedWarningAt,
      teacherName: users.displayName,
    })
    .from(warnings)
    .innerJoin(users, eq(users.id, warnings.teacherUserId))
    .where(and(eq(warnings.studentReferenceId, referenceId), isNotNull(warnings.submittedAt)));
  return row?.submittedAt ? { ...row, submittedAt: row.submittedAt } : null;
}

export interface Signature {
  name: string | null;
  at: Date | null;
}

export interface SigningFormRecord {
  attendancePassed: boolean | null;
  workRequirementsPassed: boolean | null;
  specificCompetenceAreasPassed: boolean | null;
  generalCompetenceAreasPassed: boolean | null;
  overallPassed: boolean | null;
  teacherComment: string | null;
  isLocked: boolean;
  midSemesterCompletedDate: string | null;
  endSemesterCompletedDate: string | null;
  midSemesterSpecificCompetenceAreasBegun: boolean | null;
  midSemesterStudentHasGivenFeedback: boolean | null;
  student: Signature;
  supervisor: Signature;
  teacher: Signature;
  signWithoutSupervisorConfirmedAt: Date | null;
  /** When the result was handed to the student administration system; null when it has not been. */
  resultSubmittedAt: Date | null;
}

const studentSigner = alias(users, "student_signer");
const supervisorSigner = alias(users, "supervisor_signer");
const teacherSigner = alias(users, "teacher_signer");

/** The signing form of a reference, with the signers' names; null when none has been saved. */
export async function signingFormRecord(db: Db, referenceId: number): Promise<SigningFormRecord | null> {
  const [row] = await db
    .select({
      form: signingForms,
      studentName: studentSigner.displayName,
      supervisorName: supervisorSigner.displayName,
      teacherName: teacherSigner.displayName,
    })
    .from(signingForms)
    .leftJoin(studentSigner, eq(studentSigner.id, signingForms.signedByStudentUserId))
    .leftJoin(supervisorSigner, eq(supervisorSigner.id, signingForms.signedBySupervisorUserId))
    .leftJoin(teacherSigner, eq(teacherSigner.id, signingForms.signedByTeacherUserId))
    .where(eq(signingForms.studentReferenceId, referenceId));
  if (!row) return null;
  const [submission] = await db
    .select({ at: resultSubmissions.submittedAt })
    .from(resultSubmissions)
    .where(eq(resultSubmissions.studentReferenceId, referenceId))
    .orderBy(desc(resultSubmissions.submittedAt))
    .limit(1);
  const form = row.form;
  return {
    attendancePassed: form.attendancePassed,
    workRequirementsPassed: form.workRequirementsPassed,
    specificCompetenceAreasPassed: form.specificCompetenceAreasPassed,
    generalCompetenceAreasPassed: form.generalCompetenceAreasPassed,
    overallPassed: form.overallPassed,
    teacherComment: form.teacherComment,
    isLocked: form.isLocked,
    midSemesterCompletedDate: form.midSemesterCompletedDate,
    endSemesterCompletedDate: form.endSemesterCompletedDate,
    midSemesterSpecificCompetenceAreasBegun: form.midSemesterSpecificCompetenceAreasBegun,
    midSemesterStudentHasGivenFeedback: form.midSemesterStudentHasGivenFeedback,
    student: { name: row.studentName, at: form.signedByStudentDate },
    supervisor: { name: row.supervisorName, at: form.signedBySupervisorDate },
    teacher: { name: row.teacherName, at: form.signedByTeacherDate },
    signWithoutSupervisorConfirmedAt: form.signWithoutSupervisorConfirmedDate,
    resultSubmittedAt: submission?.at ?? form.resultSubmittedAt,
  };
}

/** The live forms of a class's schemes, each once, in the order the placement pages list them. */
export async function formsOfClass(db: Db, classId: number): Promise<{ formId: number; name: string }[]> {
  const seen = new Map<number, string>();
  for (const scheme of await schemesOfClass(db, classId)) {
    for (const form of scheme.forms) if (!form.deleted && !seen.has(form.formId)) seen.set(form.formId, form.name);
  }
  return [...seen].map(([formId, name]) => ({ formId, name }));
}

/**
 * Who may have a form's empty copy (ADR 0010): the admin, any live form; anyone else, a form that a
 * class of theirs answers — a class they teach, supervise in (attached, or following a student
 * there) or study in, this semester or an earlier one.
 */
export async function mayReadForm(db: Db, viewer: Viewer, formId: number): Promise<boolean> {
  const [form] = await db
    .select({ id: forms.id })
    .from(forms)
    .where(and(eq(forms.id, formId), isNull(forms.deletedAt)));
  if (!form) return false;
  if (viewer.role === ROLE.Admin) return true;
  const member = memberOfClass(viewer);
  if (!member) return false;
  const [row] = await db
    .select({ classId: schemes.classId })
    .from(schemeForms)
    .innerJoin(schemes, eq(schemes.id, schemeForms.schemeId))
    .where(and(eq(schemeForms.formId, formId), member))
    .limit(1);
  return row !== undefined;
}

/** The viewer's link to the class of `assignments.class_id`, as a condition; null for a role with none. */
export function memberOfClass(viewer: Viewer) {
  const classId = schemes.classId;
  switch (viewer.role) {
    case ROLE.Teacher:
      return sql`exists (select 1 from ${classTeachers} where ${classTeachers.classId} = ${classId} and ${classTeachers.userId} = ${viewer.userId})`;
    case ROLE.Student:
      return sql`exists (select 1 from ${studentReferences} where ${studentReferences.classId} = ${classId} and ${studentReferences.studentUserId} = ${viewer.userId})`;
    case ROLE.Supervisor:
      return sql`(exists (select 1 from ${classSupervisors} where ${classSupervisors.classId} = ${classId} and ${classSupervisors.userId} = ${viewer.userId})
        or exists (select 1 from ${studentReferences} sr where sr.class_id = ${classId} and (sr.advisor_user_id = ${viewer.userId}
          or exists (select 1 from ${studentExtraSupervisors} where ${studentExtraSupervisors.studentReferenceId} = sr.id and ${studentExtraSupervisors.userId} = ${viewer.userId}))))`;
    default:
      return null;
  }
}

export interface FullRecord {
  placement: Placement;
  /** Every live form of the class's schemes, with the answers the viewer may see. */
  results: FormResults[];
  warning: GivenWarning | null;
  signingForm: SigningFormRecord | null;
}

/** The student's whole placement in the class, for a viewer whose access has been checked; null when the reference is gone. */
export async function fullRecord(db: Db, viewer: Viewer, access: StudentAccess): Promise<FullRecord | null> {
  const placement = await placementOf(db, access.referenceId, viewer.userId);
  if (!placement) return null;
  const classForms = await formsOfClass(db, access.classId);
  const results: FormResults[] = [];
  // One form after the other: each reads several queries, and one download must not take many of the
  // pool's connections at once.
  for (const { formId } of classForms) {
    results.push(
      await formResults(db, viewer, { classId: access.classId, formId, studentUserId: access.studentUserId }),
    );
  }
  const [warning, signingForm] = await Promise.all([
    givenWarning(db, access.referenceId),
    signingFormRecord(db, access.referenceId),
  ]);
  return { placement, results, warning, signingForm };
}
