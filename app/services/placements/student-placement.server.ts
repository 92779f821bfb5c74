import { and, asc, eq, gte, lte } from "drizzle-orm";
import { href, redirect } from "react-router";
import { audit } from "~/services/platform/audit.server";
import type { Db } from "~/services/platform/db/client.server";
import { classes, semesters, signingForms, studentReferences, subjects, users } from "~/services/platform/db/schema";
import { matchingClasses } from "~/services/identity/index.server";
import type { FormProgress, Placement } from "./placement.server";

/**
 * The student's own placement: which class they are in this semester, joining one, and how their
 * forms page groups the forms. Access checks stay in permissions.server.ts; these functions are
 * only ever asked about the signed-in student themself.
 */

export interface CurrentReference {
  referenceId: number;
  classId: number;
  subjectCode: string;
  subjectName: string;
}

/** The student's class this semester: a reference in a class whose semester contains `today` (Oslo date). */
export async function currentReferenceOf(
  db: Db,
  studentUserId: number,
  today: string,
): Promise<CurrentReference | null> {
  const [row] = await db
    .select({
      referenceId: studentReferences.id,
      classId: studentReferences.classId,
      subjectCode: subjects.subjectCode,
      subjectName: subjects.name,
    })
    .from(studentReferences)
    .innerJoin(classes, eq(classes.id, studentReferences.classId))
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .innerJoin(semesters, eq(semesters.id, classes.semesterId))
    .where(
      and(
        eq(studentReferences.studentUserId, studentUserId),
        lte(semesters.startDate, today),
        gte(semesters.endDate, today),
      ),
    )
    .orderBy(asc(studentReferences.id))
    .limit(1);
  return row ?? null;
}

/**
 * For the student pages that need a class (docs/rules/placements.md): the class, or a redirect to /student. A GET
 * is sent on with 302; a form post with 303, so the browser follows with a GET.
 */
export async function requireCurrentReference(
  db: Db,
  request: Request,
  studentUserId: number,
  today: string,
): Promise<CurrentReference> {
  const reference = await currentReferenceOf(db, studentUserId, today);
  if (reference) return reference;
  const isRead = request.method === "GET" || request.method === "HEAD";
  throw redirect("/student", isRead ? 302 : 303);
}

export type JoinOutcome =
  | { ok: true; referenceId: number; classId: number; subjectCode: string; subjectName: string }
  | { ok: false; error: "notMatching" }
  | { ok: false; error: "alreadyInClass"; subjectCode: string };

/**
 * Joins a class of this semester. Re-checked inside the transaction: the class must be one the
 * student's course memberships match (docs/rules/placements.md), and the student must not have a class this
 * semester yet. The student's user row is locked first, so two posts at once are applied one after
 * the other and the second sees the first's class.
 */
export async function joinClass(
  db: Db,
  input: { studentUserId: number; classId: number; today: string; ip?: string | null },
): Promise<JoinOutcome> {
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, input.studentUserId)).for("update");
    const existing = await currentReferenceOf(tx, input.studentUserId, input.today);
    if (existing) return { ok: false, error: "alreadyInClass", subjectCode: existing.subjectCode };
    const chosen = (await matchingClasses(tx, input.studentUserId, input.today)).find(
      (c) => c.classId === input.classId,
    );
    if (!chosen) return { ok: false, error: "notMatching" };
    const [reference] = await tx
      .insert(studentReferences)
      .values({ classId: chosen.classId, studentUserId: input.studentUserId })
      .returning({ id: studentReferences.id });
    await audit(tx, {
      action: "student.joined_class",
      actorUserId: input.studentUserId,
      subjectUserId: input.studentUserId,
      classId: chosen.classId,
      ip: input.ip ?? null,
      details: { subjectCode: chosen.subjectCode, periodName: chosen.semesterName }, // stored name
    });
    return {
      ok: true,
      referenceId: reference.id,
      classId: chosen.classId,
      subjectCode: chosen.subjectCode,
      subjectName: chosen.subjectName,
    };
  });
}

/** Whether someone supervises the student: an active assigned supervisor or an active extra one. */
export function hasSupervisor(placement: Pick<Placement, "supervisor" | "extraSupervisors">): boolean {
  return placement.supervisor?.isActive === true || placement.extraSupervisors.some((p) => p.isActive);
}

export interface FormsByHalf {
  /** The half the student is in now: its main forms and its specific-competency forms. */
  current: { half: "mid" | "end"; mainForms: FormProgress[]; specificForms: FormProgress[] };
  /** The other half's forms: the mid-semester ones as done with, or the end-semester ones as coming. */
  other: { half: "mid" | "end"; forms: FormProgress[] };
}

/** The forms of the student's placement as the forms page shows them. */
export function formsByHalf(placement: Pick<Placement, "half" | "schemes">): FormsByHalf {
  const half = placement.half.half;
  const isCurrent = (isMidSemester: boolean) => (half === "mid") === isMidSemester;
  const currentForms = placement.schemes.filter((s) => isCurrent(s.isMidSemester)).flatMap((s) => s.forms);
  const otherForms = placement.schemes.filter((s) => !isCurrent(s.isMidSemester)).flatMap((s) => s.forms);
  return {
    current: {
      half,
      mainForms: currentForms.filter((f) => f.isMainForm),
      specificForms: currentForms.filter((f) => !f.isMainForm),
    },
    other: { half: half === "mid" ? "end" : "mid", forms: otherForms },
  };
}

/** The student's form-answering page (app/routes.ts: the shared form page under /student). */
export function studentFormPath(
  studentUserId: number,
  form: { formId: number; schemeId: number },
  classId: number,
): string {
  return href("/student/:studentUserId/form/:formId/class/:classId/assignment/:schemeId", {
    studentUserId: String(studentUserId),
    formId: String(form.formId),
    classId: String(classId),
    schemeId: String(form.schemeId),
  });
}

/** Where a student sees their results for a form, both halves side by side. */
export function studentResultsPath(studentUserId: number, formId: number, classId: number): string {
  return href("/student/:studentUserId/form/:formId/class/:classId/results", {
    studentUserId: String(studentUserId),
    formId: String(formId),
    classId: String(classId),
  });
}

/**
 * The documents of a student's placement. The signing form's only once there is one: its PDF
 * answers 404 until then, and a button that leads nowhere is worse than none.
 */
export function documentPaths(
  classId: number,
  studentUserId: number,
  hasSigningForm: boolean,
): { fullPdf: string; signingFormPdf: string | null } {
  const params = { classId: String(classId), studentUserId: String(studentUserId) };
  return {
    fullPdf: href("/api/classes/:classId/students/:studentUserId/full/pdf", params),
    signingFormPdf: hasSigningForm
      ? href("/api/classes/:classId/students/:studentUserId/signingform/pdf", params)
      : null,
  };
}

/** The classes in which the student has a signing form (saved at least once). */
export async function classesWithSigningForm(db: Db, studentUserId: number): Promise<Set<number>> {
  const rows = await db
    .select({ classId: studentReferences.classId })
    .from(signingForms)
    .innerJoin(studentReferences, eq(studentReferences.id, signingForms.studentReferenceId))
    .where(eq(studentReferences.studentUserId, studentUserId));
  return new Set(rows.map((r) => r.classId));
}
