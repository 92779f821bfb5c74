// The validation of add-students.tsx, its own module so the page loads zod only once it is interactive (ADR 0012).
import { z } from "zod";

/** "Show more" grows the list 20 at a time (as every long list in the app) up to this many, so one form holds every choice. */
export const MAX_LISTED = 500;

export const schema = z.object({
  studentIds: z
    .array(z.string().regex(/^\d{1,10}$/, { error: "teacher:errors.unknownStudent" }), {
      error: "teacher:errors.noStudents",
    })
    .min(1, { error: "teacher:errors.noStudents" })
    .max(MAX_LISTED, { error: "teacher:errors.unknownStudent" }),
});
