// The validation of class.tsx, its own module so the page loads zod only once it is interactive (ADR 0012).
import { z } from "zod";

export const takeSchema = z.object({
  // Each id is checked in the action, so a bad one is reported on the group, not on a hidden item.
  studentUserIds: z
    .array(z.string(), { error: "supervisor:errors.noStudents" })
    .min(1, { error: "supervisor:errors.noStudents" })
    .max(500, { error: "supervisor:errors.unknownStudent" }),
});
