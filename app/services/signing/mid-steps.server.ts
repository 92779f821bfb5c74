import type { Db } from "~/services/platform/db/client.server";
import { afterMidSave, midStepOf } from "./mid-steps";
import type { MidPartInput, Refusal } from "./signing-form";
import { checkMidPart, saveMidPart, type Actor, type SigningPlace } from "./signing-form.server";
import type { UnsentForm } from "./sending";

/** The mid-semester part's confirmation to show: the checked part, and the forms not sent yet. */
export type MidCheck = { ok: true; unsent: UnsentForm[]; requireSentForms: boolean };

export type MidStepOutcome =
  | { next: "back" }
  | { next: "saved" }
  | { next: "refused"; refusal: Refusal }
  /** The confirmation (again, refused: `status` 400, and `unacknowledged` when the box was not ticked). */
  | { next: "confirm"; check: MidCheck; unacknowledged: boolean; status: 200 | 400 };

/**
 * One post of the teacher's mid-semester form (mid-steps.ts): back to the form, the confirmation to
 * show (nothing kept), or the confirmed save; a save refused for forms not sent shows the
 * confirmation again.
 */
export async function midStep(
  db: Db,
  place: SigningPlace,
  actor: Actor,
  input: MidPartInput,
  posted: { step: unknown; confirmed: unknown; unsentAcknowledged: unknown },
  options: { now?: Date; requireSentForms?: boolean } = {},
): Promise<MidStepOutcome> {
  const step = midStepOf(posted);
  if (step === "back") return { next: "back" };
  let unacknowledged = false;
  if (step === "confirm") {
    const saved = afterMidSave(
      await saveMidPart(
        db,
        place,
        actor,
        { ...input, unsentAcknowledged: posted.unsentAcknowledged === "yes" },
        options,
      ),
    );
    if (saved.next !== "confirmAgain") return saved;
    unacknowledged = saved.unacknowledged;
  }
  const check = await checkMidPart(db, place, actor, input, options);
  if (!check.ok) return { next: "refused", refusal: check };
  return { next: "confirm", check, unacknowledged, status: step === "confirm" ? 400 : 200 };
}
