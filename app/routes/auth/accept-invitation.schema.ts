// The validation of accept-invitation.tsx, its own module so the page loads zod only once it is interactive (ADR 0012).
import { z } from "zod";
import { INVITED_PHONE_MAX } from "~/services/placements";
import { PERSON_NAME_MAX } from "~/services/platform/field-limits";

// Digits, spaces and a leading +; 8 to 15 digits (E.164). The service applies the same rule.
export const phonePattern = /^\+?\d{8,15}$/;

// Not "name": a control of that name shadows the form element's own `name` property in the DOM.
export const newSupervisorSchema = z.object({
  fullName: z
    .string({ error: "student:errors.nameRequired" })
    .trim()
    .min(1, { error: "student:errors.nameRequired" })
    .max(PERSON_NAME_MAX, { error: "student:errors.nameTooLong" }),
  phone: z
    .string({ error: "student:errors.phoneRequired" })
    .trim()
    .min(1, { error: "student:errors.phoneRequired" })
    .max(INVITED_PHONE_MAX, { error: "student:errors.phoneInvalid", abort: true })
    .refine((value) => phonePattern.test(value.replace(/\s+/g, "")), { error: "student:errors.phoneInvalid" }),
});

export const existingSupervisorSchema = newSupervisorSchema.partial();
