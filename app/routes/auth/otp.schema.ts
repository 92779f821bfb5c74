// The validation of otp.tsx, its own module so the page loads zod only once it is interactive (ADR 0012).
import { z } from "zod";

export const schema = z.object({
  code: z
    .string({ error: "auth:errors.codeRequired" })
    .transform((v) => v.replace(/\s/g, ""))
    .pipe(z.string().regex(/^\d{6}$/, { error: "auth:errors.codeFormat" })),
});
