// The validation of invite.tsx, its own module so the page loads zod only once it is interactive (ADR 0012).
import { z } from "zod";

export const schema = z.object({
  email: z
    .string({ error: "student:errors.emailRequired" })
    .trim()
    .max(254, { error: "student:errors.emailInvalid" })
    .pipe(z.email({ error: "student:errors.emailInvalid" })),
});
