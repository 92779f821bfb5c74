// The validation of subjects.tsx, its own module so the page loads zod only once it is interactive (ADR 0012).
import { z } from "zod";
import { SUBJECT_CODE_MAX, SUBJECT_NAME_MAX } from "~/services/admin";

export const schema = z.object({
  intent: z.enum(["create", "update"]),
  id: z.coerce.number().int().positive().optional(),
  subjectCode: z
    .string({ error: "adminUsers:subjects.errors.codeRequired" })
    .trim()
    .min(1, { error: "adminUsers:subjects.errors.codeRequired" })
    .max(SUBJECT_CODE_MAX, { error: "adminUsers:subjects.errors.codeTooLong" }),
  name: z
    .string({ error: "adminUsers:subjects.errors.nameRequired" })
    .trim()
    .min(1, { error: "adminUsers:subjects.errors.nameRequired" })
    .max(SUBJECT_NAME_MAX, { error: "adminUsers:subjects.errors.nameTooLong" }),
});
