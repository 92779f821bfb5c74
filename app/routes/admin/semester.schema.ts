// The validation of semester.tsx, its own module so the page loads zod only once it is interactive (ADR 0012).
import { z } from "zod";

export const schema = z.object({
  subjectIds: z
    .array(z.number({ error: "adminSemesters:errors.subjectsInvalid" }).int().positive().max(2_147_483_647), {
      error: "adminSemesters:errors.subjectsRequired",
    })
    .min(1, { error: "adminSemesters:errors.subjectsRequired" })
    .max(1000, { error: "adminSemesters:errors.subjectsInvalid" }),
});
