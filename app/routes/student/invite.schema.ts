// The validation of invite.tsx, its own module so the page loads zod only once it is interactive (ADR 0012).
import { z } from "zod";
import { EMAIL_MAX } from "~/services/platform/field-limits";

export const schema = z.object({
  email: z
    .string({ error: "student:errors.emailRequired" })
    .trim()
    .max(EMAIL_MAX, { error: "student:errors.emailInvalid" })
    .pipe(z.email({ error: "student:errors.emailInvalid" })),
});
