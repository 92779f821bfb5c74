/**
 * What has been assessed before the teacher confirms the mid-semester part or signs: for each form
 * of the class's schemes, whether the student, the supervisor and the teachers have sent theirs,
 * and how many of its questions the teachers have answered. Free of the database and of React; the
 * service (sending.server.ts) gathers the facts, the signing service applies the decision inside
 * its transaction, and the page shows the same list above the buttons.
 */

/** Who sends a form about the student. */
export type Party = "student" | "supervisor" | "teacher";
export const PARTIES: readonly Party[] = ["student", "supervisor", "teacher"];

export interface FormSending {
  schemeId: number;
  formId: number;
  name: string;
  isMidSemester: boolean;
  /** Whether the student, a supervisor (assigned or extra) and a teacher of the class have sent it. */
  sent: Record<Party, boolean>;
  /** The form's questions the teachers have answered (sent answers, and the viewer's own draft), of all. */
  teacherAnswers: { answered: number; questions: number };
}

export interface SendingFacts {
  forms: FormSending[];
  /**
   * The student has a supervisor (an active assigned or extra one). Without one nobody can send
   * the supervisor's part, so it is not waited for (the teacher may sign without a supervisor).
   */
  hasSupervisor: boolean;
}

/** A form someone has not sent, and who. */
export interface UnsentForm {
  schemeId: number;
  formId: number;
  name: string;
  isMidSemester: boolean;
  missing: Party[];
}

/** Which forms a step looks at: confirming the mid-semester part, its half; signing, every form. */
export type SendingStep = "mid" | "sign";

/** The parties whose part of the form is not sent; the supervisor's only when the student has one. */
export function missingParties(form: FormSending, hasSupervisor: boolean): Party[] {
  return PARTIES.filter((party) => !form.sent[party] && (party !== "supervisor" || hasSupervisor));
}

/** The forms of the step with a part not sent, in the order of the facts (mid-semester first). */
export function unsentForms(facts: SendingFacts, step: SendingStep): UnsentForm[] {
  return facts.forms
    .filter((form) => step === "sign" || form.isMidSemester)
    .map((form) => ({
      schemeId: form.schemeId,
      formId: form.formId,
      name: form.name,
      isMidSemester: form.isMidSemester,
      missing: missingParties(form, facts.hasSupervisor),
    }))
    .filter((form) => form.missing.length > 0);
}

/**
 * Whether the step may go on. With every form sent, it may. With forms not sent, the teacher must
 * say they go on all the same (`acknowledged`), unless the institution requires every form sent
 * (`requireSentForms`, the institution's file), in which case it is refused until they are.
 */
export type SendingDecision =
  { ok: true; unsent: UnsentForm[] } | { ok: false; why: "formsNotSent" | "acknowledgeUnsent"; unsent: UnsentForm[] };

export function sendingDecision(
  unsent: UnsentForm[],
  input: { acknowledged: boolean; requireSentForms: boolean },
): SendingDecision {
  if (unsent.length === 0) return { ok: true, unsent };
  if (input.requireSentForms) return { ok: false, why: "formsNotSent", unsent };
  if (!input.acknowledged) return { ok: false, why: "acknowledgeUnsent", unsent };
  return { ok: true, unsent };
}

/**
 * What the audit row keeps of forms acknowledged as not sent: ids, half and who had not sent. The
 * scheme's id is stored as `assignmentId`, the name rows written before the code said scheme carry.
 */
export function acknowledgedForAudit(
  unsent: UnsentForm[],
): { formId: number; assignmentId: number; half: "mid" | "end"; missing: Party[] }[] {
  return unsent.map((form) => ({
    formId: form.formId,
    assignmentId: form.schemeId, // stored name
    half: form.isMidSemester ? "mid" : "end",
    missing: form.missing,
  }));
}
