// The validation of login.tsx, its own module so the page loads zod only once it is interactive (ADR 0012).
import { z } from "zod";

export const schema = z.object({
  email: z
    .string({ error: "auth:errors.emailRequired" })
    .trim()
    .max(254, { error: "auth:errors.emailInvalid" })
    .pipe(z.email({ error: "auth:errors.emailInvalid" })),
  redirectTo: z.string().optional(),
});
