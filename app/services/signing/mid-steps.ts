import type { Refusal } from "./signing-form";

/**
 * The teacher's confirmation of the mid-semester part takes two posts, as cancelling does: the first
 * (`check`) shows what will be confirmed and keeps nothing, the second (`confirmed=yes`) confirms it;
 * `step=back` brings the form back with what was typed.
 */
export type MidStep = "check" | "confirm" | "back";

/** The step a post of the mid-semester form asks for (its `step` and `confirmed` fields). */
export function midStepOf(posted: { step: unknown; confirmed: unknown }): MidStep {
  if (posted.step === "back") return "back";
  return posted.confirmed === "yes" ? "confirm" : "check";
}

/**
 * What follows a confirming post's save: saved; or, refused for forms not sent (the acknowledgement
 * missing, or the institution requiring them sent), the confirmation again, saying why; or any other
 * refusal as it is.
 */
export function afterMidSave(
  outcome: { ok: true } | Refusal,
): { next: "saved" } | { next: "confirmAgain"; unacknowledged: boolean } | { next: "refused"; refusal: Refusal } {
  if (outcome.ok) return { next: "saved" };
  const unacknowledged = outcome.error === "invalid" && outcome.fieldErrors.unsentAcknowledged !== undefined;
  const notSent = outcome.error === "state" && outcome.reason === "formsNotSent";
  if (unacknowledged || notSent) return { next: "confirmAgain", unacknowledged };
  return { next: "refused", refusal: outcome };
}
