import type { SigningForm } from "~/services/platform/db/schema";
import type { EndPartInput, MidPartInput } from "./signing-form.schema";
import { overallPassed, type Choice } from "./questions";
import type { StudentRelation } from "~/services/placements/index.server";

/**
 * The signing form's rules (docs/rules/signing.md; ADR 0009), free of the database and of React: who may
 * do what in which state, what a save or a signature changes, and why one is refused. The service
 * (signing-form.server.ts) applies a plan to the row it holds locked, so every rule here is decided
 * against the form as it is at that moment.
 */

/** The stored form as the rules need it; `null` is a form not created yet (the page's id −1). */
export type StoredSigningForm = Pick<
  SigningForm,
  | "id"
  | "attendancePassed"
  | "workRequirementsPassed"
  | "specificCompetenceAreasPassed"
  | "generalCompetenceAreasPassed"
  | "teacherComment"
  | "overallPassed"
  | "isLocked"
  | "midSemesterCompletedDate"
  | "endSemesterCompletedDate"
  | "midSemesterSpecificCompetenceAreasBegun"
  | "midSemesterStudentHasGivenFeedback"
  | "signedByTeacherUserId"
  | "signedByTeacherDate"
  | "signedByStudentUserId"
  | "signedByStudentDate"
  | "signedBySupervisorUserId"
  | "signedBySupervisorDate"
  | "signWithoutSupervisorConfirmedDate"
  | "resultSubmittedAt"
>;

/** The id a form has while it exists only on the page (nothing stored yet). */
export const NEW_FORM_ID = -1;

// The schemas of what is posted are in signing-form.schema.ts (zod stays out of the pages' first
// load, ADR 0012).
export type { EndPartInput, MidPartInput } from "./signing-form.schema";

function storedOf(choice: Choice): boolean | null {
  return choice === "yes" ? true : choice === "no" ? false : null;
}

// ─── Where a form stands ─────────────────────────────────────────────────────

/** Who signs for which side: the teacher, the student, the assigned supervisor. */
export type Signer = "teacher" | "student" | "supervisor";
export const SIGNERS: readonly Signer[] = ["student", "supervisor", "teacher"];

/**
 * "The teacher" is any teacher of the class (a colleague may stand in, as for answering); the
 * supervisor who signs is the student's assigned one. Extra supervisors and admins only read.
 */
export function signerOf(relation: StudentRelation | null): Signer | null {
  switch (relation) {
    case "teacher":
      return "teacher";
    case "self":
      return "student";
    case "supervisor":
      return "supervisor";
    default:
      return null;
  }
}

const SIGNATURE = {
  teacher: { user: "signedByTeacherUserId", date: "signedByTeacherDate" },
  student: { user: "signedByStudentUserId", date: "signedByStudentDate" },
  supervisor: { user: "signedBySupervisorUserId", date: "signedBySupervisorDate" },
} as const;

export interface SigningFacts {
  exists: boolean;
  midConfirmed: boolean;
  endSaved: boolean;
  /** What signing needs: the end-semester date and the general and specific competence results. */
  resultsComplete: boolean;
  signed: Record<Signer, boolean>;
  /** The teacher signed without the supervisor, confirming it. */
  withoutSupervisor: boolean;
  anySigned: boolean;
  allSigned: boolean;
  locked: boolean;
  resultSubmitted: boolean;
}

export function factsOf(form: StoredSigningForm | null): SigningFacts {
  const signed = {
    teacher: form?.signedByTeacherDate != null,
    student: form?.signedByStudentDate != null,
    supervisor: form?.signedBySupervisorDate != null,
  };
  const withoutSupervisor = form?.signWithoutSupervisorConfirmedDate != null;
  const allSigned = signed.teacher && signed.student && (signed.supervisor || withoutSupervisor);
  return {
    exists: form !== null,
    midConfirmed: form?.midSemesterCompletedDate != null,
    endSaved: form?.endSemesterCompletedDate != null,
    resultsComplete:
      form !== null &&
      form.endSemesterCompletedDate !== null &&
      form.generalCompetenceAreasPassed !== null &&
      form.specificCompetenceAreasPassed !== null,
    signed,
    withoutSupervisor,
    anySigned: signed.teacher || signed.student || signed.supervisor,
    allSigned,
    locked: form?.isLocked === true || allSigned,
    resultSubmitted: form?.resultSubmittedAt != null,
  };
}

/** The card's summary (student's forms page, the teacher's and supervisor's student pages). */
export type CardState =
  "notCreated" | "started" | "midConfirmed" | "endSaved" | "partlySigned" | "signed" | "submitted";

export function cardState(form: StoredSigningForm | null): { state: CardState; signedBy: Signer[] } {
  const facts = factsOf(form);
  const signedBy = SIGNERS.filter((s) => facts.signed[s]);
  const state: CardState = !facts.exists
    ? "notCreated"
    : facts.allSigned
      ? facts.resultSubmitted
        ? "submitted"
        : "signed"
      : facts.anySigned
        ? "partlySigned"
        : facts.endSaved
          ? "endSaved"
          : facts.midConfirmed
            ? "midConfirmed"
            : "started";
  return { state, signedBy };
}

// ─── Refusals ────────────────────────────────────────────────────────────────

/** Why an action cannot be done now; each has a message (signing:refused.*). */
export type StateRefusal =
  | "notCreated"
  | "midConfirmed"
  | "midNotConfirmed"
  | "endFrozen"
  | "locked"
  | "alreadySigned"
  | "endNotSaved"
  | "resultsMissing"
  | "studentNotSigned"
  | "notAllSigned"
  | "alreadySubmitted"
  /** The institution requires every form sent first (sending.ts). */
  | "formsNotSent";

export type FieldError = "dateInFuture" | "endBeforeMid" | "confirmWithoutSupervisor" | "acknowledgeUnsent";

export type Refusal =
  /** The viewer's role never may (a supervisor cancelling, a student saving): 403. */
  | { ok: false; error: "notAllowed" }
  /** The form's state does not allow it now (another person acted first, or it is too early): 409. */
  | { ok: false; error: "state"; reason: StateRefusal }
  /** What was posted cannot be saved: 400, with a message at the field. */
  | { ok: false; error: "invalid"; fieldErrors: Partial<Record<string, FieldError>> };

const notAllowed: Refusal = { ok: false, error: "notAllowed" };
const refused = (reason: StateRefusal): Refusal => ({ ok: false, error: "state", reason });
const invalid = (field: string, error: FieldError): Refusal => ({
  ok: false,
  error: "invalid",
  fieldErrors: { [field]: error },
});

// ─── Plans ───────────────────────────────────────────────────────────────────

/** The page's posts. */
export type Intent = "saveMid" | "saveEnd" | "sign" | "cancel" | "submitResult";
export const INTENTS: readonly Intent[] = ["saveMid", "saveEnd", "sign", "cancel", "submitResult"];

/**
 * Whether the viewer's relation may ever post this, whatever the form's state: checked before the
 * post is read, so a forbidden post is a 403 however it is filled in. The plans check it again.
 */
export function mayAttempt(intent: Intent, relation: StudentRelation | null): boolean {
  return intent === "sign" ? signerOf(relation) !== null : relation === "teacher";
}

export type FormChanges = Partial<Omit<StoredSigningForm, "id" | "resultSubmittedAt">>;

/**
 * The teacher confirms the mid-semester part: saving it with its date confirms and locks it, and
 * opens the end-semester part. The first save creates the form.
 */
export function planMidSave(
  form: StoredSigningForm | null,
  relation: StudentRelation | null,
  input: MidPartInput,
  today: string,
): { ok: true; creates: boolean; changes: FormChanges } | Refusal {
  if (relation !== "teacher") return notAllowed;
  const facts = factsOf(form);
  if (facts.locked) return refused("locked");
  if (facts.midConfirmed) return refused("midConfirmed");
  if (input.midSemesterCompletedDate > today) return invalid("midSemesterCompletedDate", "dateInFuture");
  return {
    ok: true,
    creates: form === null,
    changes: {
      midSemesterSpecificCompetenceAreasBegun: storedOf(input.midSemesterSpecificCompetenceAreasBegun),
      midSemesterStudentHasGivenFeedback: storedOf(input.midSemesterStudentHasGivenFeedback),
      midSemesterCompletedDate: input.midSemesterCompletedDate,
    },
  };
}

/**
 * The teacher saves the end-semester part, as often as needed until someone signs: from then on
 * the content is what was signed, and changing it would make a signature vouch for something else.
 */
export function planEndSave(
  form: StoredSigningForm | null,
  relation: StudentRelation | null,
  input: EndPartInput,
  today: string,
): { ok: true; changes: FormChanges } | Refusal {
  if (relation !== "teacher") return notAllowed;
  const facts = factsOf(form);
  if (!form) return refused("notCreated");
  if (facts.locked) return refused("locked");
  if (!facts.midConfirmed) return refused("midNotConfirmed");
  if (facts.anySigned) return refused("endFrozen");
  const endDate = input.endSemesterCompletedDate ?? today;
  if (endDate > today) return invalid("endSemesterCompletedDate", "dateInFuture");
  if (endDate < form.midSemesterCompletedDate!) return invalid("endSemesterCompletedDate", "endBeforeMid");
  const comment = input.teacherComment?.trim() ?? "";
  return {
    ok: true,
    changes: {
      attendancePassed: storedOf(input.attendancePassed),
      workRequirementsPassed: storedOf(input.workRequirementsPassed),
      specificCompetenceAreasPassed: storedOf(input.specificCompetenceAreasPassed),
      generalCompetenceAreasPassed: storedOf(input.generalCompetenceAreasPassed),
      teacherComment: comment === "" ? null : comment,
      overallPassed: overallPassed(input),
      endSemesterCompletedDate: endDate,
    },
  };
}

/** Why the viewer cannot sign the form now; null when they can. */
export function signRefusal(form: StoredSigningForm | null, relation: StudentRelation | null): Refusal | null {
  const signer = signerOf(relation);
  if (!signer) return notAllowed;
  const facts = factsOf(form);
  if (!facts.exists) return refused("notCreated");
  if (facts.signed[signer]) return refused("alreadySigned");
  if (facts.locked) return refused("locked");
  // The teacher's save comes first: everyone signs what the teacher has saved.
  if (!facts.endSaved) return refused("endNotSaved");
  if (!facts.resultsComplete) return refused("resultsMissing");
  if (signer === "teacher" && !facts.signed.student) return refused("studentNotSigned");
  return null;
}

/**
 * A signature. The teacher signs last of the three: after the student, and after the supervisor
 * or with the confirmation that they sign without them (recorded with its date). The signature
 * that completes the form locks it.
 */
export function planSign(
  form: StoredSigningForm | null,
  relation: StudentRelation | null,
  viewerUserId: number,
  input: { withoutSupervisor: boolean },
  now: Date,
): { ok: true; signer: Signer; changes: FormChanges; withoutSupervisor: boolean; allSigned: boolean } | Refusal {
  const refusal = signRefusal(form, relation);
  if (refusal) return refusal;
  const signer = signerOf(relation)!;
  const facts = factsOf(form);
  const withoutSupervisor = signer === "teacher" && !facts.signed.supervisor;
  if (withoutSupervisor && !input.withoutSupervisor)
    return invalid("signWithoutSupervisorConfirmed", "confirmWithoutSupervisor");
  const changes: FormChanges = {
    [SIGNATURE[signer].user]: viewerUserId,
    [SIGNATURE[signer].date]: now,
    ...(withoutSupervisor ? { signWithoutSupervisorConfirmedDate: now } : {}),
  };
  const allSigned = factsOf({ ...form!, ...changes }).allSigned;
  if (allSigned) changes.isLocked = true;
  return { ok: true, signer, changes, withoutSupervisor, allSigned };
}

/** Cancelling is the teacher's, at any stage, and cannot be undone: the form is archived and starts over empty. */
export function planCancel(form: StoredSigningForm | null, relation: StudentRelation | null): { ok: true } | Refusal {
  if (relation !== "teacher") return notAllowed;
  if (!form) return refused("notCreated");
  return { ok: true };
}

/** Sending the result again, after the exporter failed when the last signature landed. */
export function planResultSubmission(
  form: StoredSigningForm | null,
  relation: StudentRelation | null,
): { ok: true } | Refusal {
  if (relation !== "teacher") return notAllowed;
  const facts = factsOf(form);
  if (!facts.exists) return refused("notCreated");
  if (!facts.allSigned) return refused("notAllSigned");
  if (facts.resultSubmitted) return refused("alreadySubmitted");
  return { ok: true };
}

// ─── What the viewer sees ────────────────────────────────────────────────────

export interface SigningRights {
  /** The teacher may create the form (its first save). */
  create: boolean;
  saveMid: boolean;
  saveEnd: boolean;
  /** The viewer's side, when they sign for one. */
  signAs: Signer | null;
  /** The viewer may sign now. */
  sign: boolean;
  /** Why a signer cannot sign now (null when they can, or sign for no side). */
  signBlocked: StateRefusal | null;
  /** The teacher signs and the supervisor has not: the confirmation is asked for. */
  confirmWithoutSupervisor: boolean;
  cancel: boolean;
  submitResult: boolean;
  banner: "signedByAll" | "youHaveSigned" | null;
}

export function rightsOf(
  form: StoredSigningForm | null,
  relation: StudentRelation | null,
  viewerUserId: number,
): SigningRights {
  const facts = factsOf(form);
  const signAs = signerOf(relation);
  const refusal = signRefusal(form, relation);
  const teacher = relation === "teacher";
  const ownSignature = signAs !== null && form?.[SIGNATURE[signAs].user] === viewerUserId && facts.signed[signAs];
  return {
    create: teacher && !facts.exists,
    saveMid: teacher && !facts.midConfirmed && !facts.locked,
    saveEnd: teacher && facts.midConfirmed && !facts.anySigned && !facts.locked,
    signAs,
    sign: refusal === null,
    signBlocked: refusal?.error === "state" ? refusal.reason : null,
    confirmWithoutSupervisor: refusal === null && signAs === "teacher" && !facts.signed.supervisor,
    cancel: teacher && facts.exists,
    submitResult: teacher && facts.allSigned && !facts.resultSubmitted,
    banner: facts.allSigned ? "signedByAll" : ownSignature ? "youHaveSigned" : null,
  };
}
