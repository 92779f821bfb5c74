// The validation of subjects.tsx, its own module so the page loads zod only once it is interactive (ADR 0012).
import { z } from "zod";

export const schema = z.object({
  intent: z.enum(["create", "update"]),
  id: z.coerce.number().int().positive().optional(),
  subjectCode: z
    .string({ error: "adminUsers:subjects.errors.codeRequired" })
    .trim()
    .min(1, { error: "adminUsers:subjects.errors.codeRequired" })
    .max(20, { error: "adminUsers:subjects.errors.codeTooLong" }),
  name: z
    .string({ error: "adminUsers:subjects.errors.nameRequired" })
    .trim()
    .min(1, { error: "adminUsers:subjects.errors.nameRequired" })
    .max(200, { error: "adminUsers:subjects.errors.nameTooLong" }),
});
