import { and, count, eq, inArray, isNull, max, ne, or, isNotNull } from "drizzle-orm";
import type { Language } from "~/locales";
import { classHeader, type ClassHeader } from "~/services/admin/index.server";
import { audit } from "~/services/platform/audit.server";
import { logFor } from "~/services/platform/log.server";
import type { Db } from "~/services/platform/db/client.server";
import {
  answers,
  answerSets,
  schemeForms,
  schemes,
  formQuestionGroups,
  formQuestions,
  forms,
  QUESTION_GROUP_TYPE,
  signingFormArchive,
  signingForms,
  users,
  type SigningForm,
} from "~/services/platform/db/schema";
import { notFound } from "~/services/platform/ids";
import { requireStudentAccess, type StudentRelation, type Viewer } from "~/services/placements/index.server";
import { databaseExporter, type ResultExporter, type SignedResult } from "./result-exporter.server";
import { ROLE } from "~/services/identity";
import { formatDay, formatDayTime, osloDate } from "~/services/platform/semesters";
import {
  cardState,
  factsOf,
  NEW_FORM_ID,
  planCancel,
  planEndSave,
  planMidSave,
  planResultSubmission,
  planSign,
  rightsOf,
  signerOf,
  type CardState,
  type EndPartInput,
  type MidPartInput,
  type Refusal,
  type Signer,
  type SigningRights,
} from "./signing-form";
import { choiceOf, END_QUESTIONS, MID_QUESTIONS, type Choice, type EndQuestion, type MidQuestion } from "./questions";
import { acknowledgedForAudit, sendingDecision, unsentForms, type SendingStep, type UnsentForm } from "./sending";
import { requireSentForms, sendingFacts } from "./sending.server";

/**
 * The signing form of a student in a class (docs/rules/signing.md; ADR 0009): reading it, the teacher's
 * saves, the three signatures, cancelling, and the result's hand-over. Every change runs in a
 * transaction that holds the form's row (`FOR UPDATE`) and decides by the rules of signing-form.ts
 * against the row as it is then, so two people acting at once are applied one after the other and
 * the second sees the first: no signature is lost, and a locked form stays locked.
 */

export interface SigningPlace {
  referenceId: number;
  classId: number;
  studentUserId: number;
  relation: StudentRelation;
  header: ClassHeader;
}

/** The viewer's place at the student's signing form, or a 404 (unknown, or not theirs to see). */
export async function signingPlace(
  db: Db,
  viewer: Viewer,
  classId: number,
  studentUserId: number,
): Promise<SigningPlace> {
  const access = await requireStudentAccess(db, viewer, classId, studentUserId);
  const header = (await classHeader(db, classId)) ?? notFound();
  return { referenceId: access.referenceId, classId, studentUserId, relation: access.relation, header };
}

export interface Actor {
  userId: number;
  ip?: string | null;
}

export async function storedForm(db: Db, referenceId: number): Promise<SigningForm | null> {
  const [row] = await db.select().from(signingForms).where(eq(signingForms.studentReferenceId, referenceId));
  return row ?? null;
}

/** The form's row, held until the transaction ends; null when there is none (then nothing is held). */
async function lockedForm(tx: Db, referenceId: number): Promise<SigningForm | null> {
  const [row] = await tx
    .select()
    .from(signingForms)
    .where(eq(signingForms.studentReferenceId, referenceId))
    .for("update");
  return row ?? null;
}

function auditBase(place: SigningPlace, actor: Actor) {
  return {
    actorUserId: actor.userId,
    subjectUserId: place.studentUserId,
    classId: place.classId,
    ip: actor.ip ?? null,
  };
}

// ─── The teacher's saves ─────────────────────────────────────────────────────

/**
 * Forms not sent before a step (sending.ts): none, or acknowledged by the teacher, lets it go on;
 * otherwise the refusal says why (the acknowledgement is missing, or the institution requires
 * every form sent). The forms acknowledged go into the step's audit row.
 */
async function sendingRefusal(
  db: Db,
  place: SigningPlace,
  actor: Actor,
  step: SendingStep,
  input: { acknowledged: boolean; requireSentForms?: boolean },
): Promise<{ ok: true; unsent: UnsentForm[] } | Refusal> {
  const unsent = unsentForms(await sendingFacts(db, place, actor.userId), step);
  const decision = sendingDecision(unsent, {
    acknowledged: input.acknowledged,
    requireSentForms: input.requireSentForms ?? requireSentForms(),
  });
  if (decision.ok) return decision;
  return decision.why === "formsNotSent"
    ? { ok: false, error: "state", reason: "formsNotSent" }
    : { ok: false, error: "invalid", fieldErrors: { unsentAcknowledged: "acknowledgeUnsent" } };
}

function acknowledgement(unsent: UnsentForm[]) {
  return unsent.length > 0 ? { unsentAcknowledged: acknowledgedForAudit(unsent) } : {};
}

/** What the teacher is about to confirm (the step before `saveMidPart`): the same checks, nothing written. */
export async function checkMidPart(
  db: Db,
  place: SigningPlace,
  actor: Actor,
  input: MidPartInput,
  options: { now?: Date; requireSentForms?: boolean } = {},
): Promise<{ ok: true; unsent: UnsentForm[]; requireSentForms: boolean } | Refusal> {
  const plan = planMidSave(
    await storedForm(db, place.referenceId),
    place.relation,
    input,
    osloDate(options.now ?? new Date()),
  );
  if (!plan.ok) return plan;
  const unsent = unsentForms(await sendingFacts(db, place, actor.userId), "mid");
  return { ok: true, unsent, requireSentForms: options.requireSentForms ?? requireSentForms() };
}

/**
 * The teacher confirms the mid-semester part; the first save creates the form. Mid-semester forms
 * not sent need `unsentAcknowledged` (or are refused where the institution requires them sent).
 */
export async function saveMidPart(
  db: Db,
  place: SigningPlace,
  actor: Actor,
  input: MidPartInput & { unsentAcknowledged?: boolean },
  options: { now?: Date; requireSentForms?: boolean } = {},
): Promise<{ ok: true; created: boolean } | Refusal> {
  const now = options.now ?? new Date();
  const today = osloDate(now);
  const { unsentAcknowledged, ...mid } = input;
  return db.transaction(async (tx) => {
    let form = await lockedForm(tx, place.referenceId);
    let plan = planMidSave(form, place.relation, mid, today);
    if (!plan.ok) return plan;
    const sending = await sendingRefusal(tx, place, actor, "mid", {
      acknowledged: unsentAcknowledged === true,
      requireSentForms: options.requireSentForms,
    });
    if (!sending.ok) return sending;
    if (!form) {
      const [created] = await tx
        .insert(signingForms)
        .values({ studentReferenceId: place.referenceId, ...plan.changes, createdAt: now, updatedAt: now })
        .onConflictDoNothing({ target: signingForms.studentReferenceId })
        .returning({ id: signingForms.id });
      if (created) {
        await auditSigning(tx, {
          action: "signing_form.created",
          ...auditBase(place, actor),
          details: {
            signingFormId: created.id,
            part: "mid",
            midSemesterCompletedDate: mid.midSemesterCompletedDate,
            ...acknowledgement(sending.unsent),
          },
        });
        return { ok: true as const, created: true };
      }
      // Another request created it meanwhile (its insert held ours until it committed): decide again against theirs.
      form = await lockedForm(tx, place.referenceId);
      plan = planMidSave(form, place.relation, mid, today);
      if (!plan.ok) return plan;
    }
    await tx
      .update(signingForms)
      .set({ ...plan.changes, updatedAt: now })
      .where(eq(signingForms.id, form!.id));
    await auditSigning(tx, {
      action: "signing_form.saved",
      ...auditBase(place, actor),
      details: {
        signingFormId: form!.id,
        part: "mid",
        midSemesterCompletedDate: mid.midSemesterCompletedDate,
        ...acknowledgement(sending.unsent),
      },
    });
    return { ok: true as const, created: false };
  });
}

/** The teacher saves the end-semester part (until someone has signed). */
export async function saveEndPart(
  db: Db,
  place: SigningPlace,
  actor: Actor,
  input: EndPartInput,
  options: { now?: Date } = {},
): Promise<{ ok: true } | Refusal> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const form = await lockedForm(tx, place.referenceId);
    const plan = planEndSave(form, place.relation, input, osloDate(now));
    if (!plan.ok) return plan;
    await tx
      .update(signingForms)
      .set({ ...plan.changes, updatedAt: now })
      .where(eq(signingForms.id, form!.id));
    await auditSigning(tx, {
      action: "signing_form.saved",
      ...auditBase(place, actor),
      details: { signingFormId: form!.id, part: "end", overallPassed: plan.changes.overallPassed },
    });
    return { ok: true as const };
  });
}

// ─── Signatures and the result ───────────────────────────────────────────────

/** What became of the result's hand-over: done, failed (the signatures stand; the teacher may try again), or not due. */
export type Submission = "submitted" | "failed" | "skipped";

function signedResultOf(place: SigningPlace, form: SigningForm): SignedResult {
  return {
    signingFormId: form.id,
    studentReferenceId: place.referenceId,
    classId: place.classId,
    studentUserId: place.studentUserId,
    subjectCode: place.header.subjectCode,
    semesterName: place.header.semesterName,
    overallPassed: form.overallPassed,
    attendancePassed: form.attendancePassed,
    workRequirementsPassed: form.workRequirementsPassed,
    specificCompetenceAreasPassed: form.specificCompetenceAreasPassed,
    generalCompetenceAreasPassed: form.generalCompetenceAreasPassed,
    midSemesterCompletedDate: form.midSemesterCompletedDate,
    endSemesterCompletedDate: form.endSemesterCompletedDate,
    signedByTeacherDate: form.signedByTeacherDate?.toISOString() ?? null,
  };
}

/** Hands a complete form's result over, after its signatures are committed; a failure is logged and audited, never thrown. */
async function handOver(
  db: Db,
  place: SigningPlace,
  form: SigningForm,
  actor: Actor,
  exporter: ResultExporter,
): Promise<Submission> {
  try {
    return (await exporter.submit(db, signedResultOf(place, form), actor)) ? "submitted" : "skipped";
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    logFor("result").error(`submission to ${exporter.name} failed: ${message}`);
    await auditSigning(db, {
      action: "result.submission_failed",
      ...auditBase(place, actor),
      details: { exporter: exporter.name, signingFormId: form.id, error: message },
    });
    return "failed";
  }
}

export type SignOutcome = { ok: true; signer: Signer; allSigned: boolean; submission: Submission } | Refusal;

/**
 * A signature for the viewer's side. The signature that completes the form locks it in the same
 * transaction; the result is handed over once that has committed. The teacher's signature (the
 * result) with forms not sent needs `unsentAcknowledged`, or is refused where the institution
 * requires every form sent.
 */
export async function signForm(
  db: Db,
  place: SigningPlace,
  actor: Actor,
  input: { withoutSupervisor: boolean; unsentAcknowledged?: boolean },
  options: { now?: Date; exporter?: ResultExporter; requireSentForms?: boolean } = {},
): Promise<SignOutcome> {
  const now = options.now ?? new Date();
  const signed = await db.transaction(async (tx) => {
    const form = await lockedForm(tx, place.referenceId);
    const plan = planSign(form, place.relation, actor.userId, input, now);
    if (!plan.ok && plan.error !== "invalid") return plan;
    const sending =
      signerOf(place.relation) === "teacher"
        ? await sendingRefusal(tx, place, actor, "sign", {
            acknowledged: input.unsentAcknowledged === true,
            requireSentForms: options.requireSentForms,
          })
        : { ok: true as const, unsent: [] as UnsentForm[] };
    if (!plan.ok) {
      // Both boxes missing: both are named at once.
      if (sending.ok || sending.error === "notAllowed") return plan;
      return sending.error === "invalid"
        ? { ...plan, fieldErrors: { ...plan.fieldErrors, ...sending.fieldErrors } }
        : sending;
    }
    if (!sending.ok) return sending;
    const [updated] = await tx
      .update(signingForms)
      .set({ ...plan.changes, updatedAt: now })
      .where(eq(signingForms.id, form!.id))
      .returning();
    await auditSigning(tx, {
      action: "signing_form.signed",
      ...auditBase(place, actor),
      details: {
        signingFormId: updated.id,
        as: plan.signer,
        withoutSupervisor: plan.withoutSupervisor,
        allSigned: plan.allSigned,
        ...acknowledgement(sending.unsent),
      },
    });
    return { ok: true as const, signer: plan.signer, allSigned: plan.allSigned, form: updated };
  });
  if (!signed.ok) return signed;
  const submission = signed.allSigned
    ? await handOver(db, place, signed.form, actor, options.exporter ?? databaseExporter)
    : "skipped";
  return { ok: true, signer: signed.signer, allSigned: signed.allSigned, submission };
}

/** The teacher hands the result over again, after the hand-over failed when the form was completed. */
export async function resubmitResult(
  db: Db,
  place: SigningPlace,
  actor: Actor,
  options: { exporter?: ResultExporter } = {},
): Promise<{ ok: true; submission: Submission } | Refusal> {
  const form = await storedForm(db, place.referenceId);
  const plan = planResultSubmission(form, place.relation);
  if (!plan.ok) return plan;
  return { ok: true, submission: await handOver(db, place, form!, actor, options.exporter ?? databaseExporter) };
}

/** The archive keeps the form's fields under the names it has always stored (docs/glossary.md). */
const ARCHIVED_NAMES: Record<string, string> = {
  signedBySupervisorUserId: "signedByAdvisorUserId", // stored name
  signedBySupervisorDate: "signedByAdvisorDate", // stored name
  signWithoutSupervisorConfirmedDate: "signWithoutAdvisorConfirmedDate", // stored name
};

function archivedData(form: Record<string, unknown>): Record<string, unknown> {
  const plain = JSON.parse(JSON.stringify(form)) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(plain).map(([key, value]) => [ARCHIVED_NAMES[key] ?? key, value]));
}

/** Signing details in audit rows keep the names they have always been stored under (docs/glossary.md). */
const AUDIT_NAMES: Record<string, string> = { supervisor: "advisor", withoutSupervisor: "withoutAdvisor" }; // stored name

function storedAuditNames(value: unknown, key = ""): unknown {
  if (value === "supervisor" && (key === "as" || key === "missing")) return AUDIT_NAMES.supervisor;
  if (Array.isArray(value)) return value.map((item) => storedAuditNames(item, key));
  if (value === null || typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [AUDIT_NAMES[k] ?? k, storedAuditNames(v, k)]));
}

function auditSigning(executor: Parameters<typeof audit>[0], entry: Parameters<typeof audit>[1]) {
  return audit(executor, { ...entry, details: storedAuditNames(entry.details) as Record<string, unknown> | undefined });
}

/** The teacher cancels: the form as it was goes to the archive, and the student's form starts over empty. */
export async function cancelForm(
  db: Db,
  place: SigningPlace,
  actor: Actor,
  options: { now?: Date } = {},
): Promise<{ ok: true } | Refusal> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const form = await lockedForm(tx, place.referenceId);
    const plan = planCancel(form, place.relation);
    if (!plan.ok) return plan;
    const { id, studentReferenceId, ...kept } = form!;
    await tx.insert(signingFormArchive).values({
      studentReferenceId,
      data: archivedData({ id, ...kept }),
      archivedAt: now,
      archivedByUserId: actor.userId,
      reason: "cancelled",
    });
    await tx.delete(signingForms).where(eq(signingForms.id, id));
    const facts = factsOf(form);
    await auditSigning(tx, {
      action: "signing_form.cancelled",
      ...auditBase(place, actor),
      details: {
        signingFormId: id,
        signed: facts.signed,
        allSigned: facts.allSigned,
        resultSubmitted: facts.resultSubmitted,
      },
    });
    return { ok: true as const };
  });
}

// ─── The teacher's validation summary ────────────────────────────────────────

export interface TeacherAnswerCount {
  formQuestionType: "grading" | "text";
  isMidSemester: boolean;
  totalAnswers: number;
  totalQuestions: number;
}

export interface ValidationSummary {
  teacherAnswerSummary: TeacherAnswerCount[];
  assessmentResultArchived: boolean;
  archivedCount: number;
  lastArchivedAt: Date | null;
  assessmentResultSubmitted: boolean;
  resultSubmittedAt: Date | null;
}

/**
 * The signing form's validation summary, for the teacher before signing: per half and question type,
 * how many of the questions of the class's forms the teachers have answered for this student
 * (sent answers, and the viewer's own draft: another's draft is private), whether an earlier form
 * was cancelled into the archive, and whether the result has been submitted.
 */
export async function validationSummary(db: Db, place: SigningPlace, viewerUserId: number): Promise<ValidationSummary> {
  const questions = await db
    .select({
      schemeId: schemes.id,
      isMidSemester: schemes.isMidSemester,
      formId: schemeForms.formId,
      questionId: formQuestions.id,
      type: formQuestionGroups.type,
    })
    .from(schemes)
    .innerJoin(schemeForms, eq(schemeForms.schemeId, schemes.id))
    .innerJoin(forms, and(eq(forms.id, schemeForms.formId), isNull(forms.deletedAt)))
    .innerJoin(
      formQuestionGroups,
      and(
        eq(formQuestionGroups.formId, forms.id),
        isNull(formQuestionGroups.deletedAt),
        inArray(formQuestionGroups.type, [QUESTION_GROUP_TYPE.Grading, QUESTION_GROUP_TYPE.TextInput]),
        // The student's own groups are not the teacher's to answer.
        ne(formQuestionGroups.audience, "student"),
      ),
    )
    .innerJoin(formQuestions, and(eq(formQuestions.groupId, formQuestionGroups.id), isNull(formQuestions.deletedAt)))
    .where(eq(schemes.classId, place.classId));

  const schemeIds = [...new Set(questions.map((q) => q.schemeId))];
  const answered =
    schemeIds.length === 0
      ? []
      : await db
          .select({ schemeId: answerSets.schemeId, formId: answerSets.formId, questionId: answers.questionId })
          .from(answerSets)
          .innerJoin(answers, eq(answers.answerSetId, answerSets.id))
          .where(
            and(
              eq(answerSets.studentUserId, place.studentUserId),
              eq(answerSets.authorRoleId, ROLE.Teacher),
              inArray(answerSets.schemeId, schemeIds),
              or(isNotNull(answerSets.sentAt), eq(answerSets.authorUserId, viewerUserId)),
              isNotNull(answers.value),
              ne(answers.value, ""),
            ),
          );
  const answeredKeys = new Set(answered.map((a) => `${a.schemeId}:${a.formId}:${a.questionId}`));

  const counts = new Map<string, TeacherAnswerCount>();
  for (const q of questions) {
    const formQuestionType = q.type === QUESTION_GROUP_TYPE.Grading ? "grading" : "text";
    const key = `${q.isMidSemester}:${formQuestionType}`;
    const entry = counts.get(key) ?? {
      formQuestionType,
      isMidSemester: q.isMidSemester,
      totalAnswers: 0,
      totalQuestions: 0,
    };
    entry.totalQuestions++;
    if (answeredKeys.has(`${q.schemeId}:${q.formId}:${q.questionId}`)) entry.totalAnswers++;
    counts.set(key, entry);
  }
  // Mid before end, grading before text.
  const teacherAnswerSummary = [...counts.values()].sort(
    (a, b) => Number(b.isMidSemester) - Number(a.isMidSemester) || a.formQuestionType.localeCompare(b.formQuestionType),
  );

  const [archive] = await db
    .select({ count: count(), last: max(signingFormArchive.archivedAt) })
    .from(signingFormArchive)
    .where(eq(signingFormArchive.studentReferenceId, place.referenceId));
  const form = await storedForm(db, place.referenceId);
  return {
    teacherAnswerSummary,
    assessmentResultArchived: archive.count > 0,
    archivedCount: archive.count,
    lastArchivedAt: archive.last,
    assessmentResultSubmitted: form?.resultSubmittedAt != null,
    resultSubmittedAt: form?.resultSubmittedAt ?? null,
  };
}

// ─── What the pages show ─────────────────────────────────────────────────────

export interface SignatureView {
  signer: Signer;
  name: string | null;
  atText: string | null;
}

/** The page's data, dates as text in the reader's language. */
export async function signingFormView(db: Db, place: SigningPlace, viewerUserId: number, language: Language) {
  const form = await storedForm(db, place.referenceId);
  const facts = factsOf(form);
  const rights: SigningRights = rightsOf(form, place.relation, viewerUserId);
  const signerIds = [
    form?.signedByTeacherUserId,
    form?.signedByStudentUserId,
    form?.signedBySupervisorUserId,
    place.studentUserId,
  ].filter((id): id is number => id != null);
  const names = new Map(
    (await db.select({ id: users.id, name: users.displayName }).from(users).where(inArray(users.id, signerIds))).map(
      (u) => [u.id, u.name],
    ),
  );
  const day = (iso: string | null) => (iso ? formatDay(iso, language) : null);
  const at = (instant: Date | null | undefined) => (instant ? formatDayTime(instant, language) : null);
  const signature = (
    signer: Signer,
    userId: number | null | undefined,
    date: Date | null | undefined,
  ): SignatureView => ({
    signer,
    name: userId != null ? (names.get(userId) ?? null) : null,
    atText: at(date),
  });

  const mid = Object.fromEntries(
    MID_QUESTIONS.map((q) => [q, choiceOf(q, form?.[q] ?? null, facts.midConfirmed)]),
  ) as Record<MidQuestion, Choice | null>;
  const end = Object.fromEntries(
    END_QUESTIONS.map((q) => [q, choiceOf(q, form?.[q] ?? null, facts.endSaved)]),
  ) as Record<EndQuestion, Choice | null>;

  return {
    id: form?.id ?? NEW_FORM_ID,
    header: {
      classId: place.classId,
      subjectCode: place.header.subjectCode,
      subjectName: place.header.subjectName,
      semesterName: place.header.semesterName,
    },
    student: { userId: place.studentUserId, displayName: names.get(place.studentUserId) ?? "" },
    relation: place.relation,
    rights,
    mid: {
      confirmed: facts.midConfirmed,
      answers: mid,
      date: form?.midSemesterCompletedDate ?? null,
      dateText: day(form?.midSemesterCompletedDate ?? null),
    },
    end: {
      saved: facts.endSaved,
      answers: end,
      teacherComment: form?.teacherComment ?? null,
      date: form?.endSemesterCompletedDate ?? null,
      dateText: day(form?.endSemesterCompletedDate ?? null),
      overallPassed: form?.overallPassed ?? null,
    },
    signatures: [
      signature("student", form?.signedByStudentUserId, form?.signedByStudentDate),
      signature("supervisor", form?.signedBySupervisorUserId, form?.signedBySupervisorDate),
      signature("teacher", form?.signedByTeacherUserId, form?.signedByTeacherDate),
    ],
    withoutSupervisorText: at(form?.signWithoutSupervisorConfirmedDate),
    allSigned: facts.allSigned,
    signedByAllText: facts.allSigned ? at(form?.signedByTeacherDate) : null,
    resultSubmittedText: day(form?.resultSubmittedAt ? osloDate(form.resultSubmittedAt) : null),
  };
}

export type SigningFormView = Awaited<ReturnType<typeof signingFormView>>;

export interface SigningCard {
  state: CardState;
  signedBy: Signer[];
  midDateText: string | null;
  submittedText: string | null;
}

/** The card on the student's forms page and the teacher's and supervisor's student pages. */
export async function signingFormCard(db: Db, referenceId: number, language: Language): Promise<SigningCard> {
  const form = await storedForm(db, referenceId);
  return {
    ...cardState(form),
    midDateText: form?.midSemesterCompletedDate ? formatDay(form.midSemesterCompletedDate, language) : null,
    submittedText: form?.resultSubmittedAt ? formatDay(osloDate(form.resultSubmittedAt), language) : null,
  };
}
