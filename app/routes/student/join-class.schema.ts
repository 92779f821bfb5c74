// The validation of join-class.tsx, its own module so the page loads zod only once it is interactive (ADR 0012).
import { z } from "zod";

export const schema = z.object({
  classId: z
    .string({ error: "student:errors.chooseClass" })
    .regex(/^\d{1,10}$/, { error: "student:errors.notMatching" }),
});
