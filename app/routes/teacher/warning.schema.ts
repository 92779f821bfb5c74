// The validation of warning.tsx, its own module so the page loads zod only once it is interactive (ADR 0012).
import { z } from "zod";
import { errorMessage } from "~/components/form-errors";
import { characters } from "~/services/answering";
import {
  normaliseWarning,
  WARNING_FIELDS,
  WARNING_TEXT_LIMIT,
  warningErrors,
  type WarningField,
  type WarningFieldError,
} from "~/services/warnings";

export const text = z.string().optional();

/** A refused text's message, as an i18n key (with how far over the limit it is). */
export function messageOf(field: WarningField, error: WarningFieldError, value: string): string {
  if (error === "required") return `warnings:errors.${field}Required`;
  return errorMessage(`warnings:errors.${field}TooLong`, { over: String(characters(value) - WARNING_TEXT_LIMIT) });
}

/**
 * "Lagre utkast" (save) takes a partial draft; "Gi varsel" (submit) needs all three texts. Shared
 * by the browser's checks and the server's; without an intent (a field's check on blur) as a draft.
 */
export const schema = z
  .object({
    intent: z.enum(["save", "submit"]).default("save"),
    warningId: z.string().optional(),
    comment: text,
    passRequirement: text,
    passRequirementSummary: text,
  })
  .superRefine((value, ctx) => {
    const posted = normaliseWarning(value);
    const errors = warningErrors(posted, value.intent === "submit" ? "submit" : "draft");
    for (const field of WARNING_FIELDS) {
      const error = errors[field];
      if (error) ctx.addIssue({ code: "custom", path: [field], message: messageOf(field, error, posted[field]) });
    }
  });
