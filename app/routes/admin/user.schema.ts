// The validation of user.tsx, its own module so the page loads zod only once it is interactive (ADR 0012).
import { z } from "zod";
import { DISPLAY_NAME_MAX_LENGTH } from "~/services/admin";

export const classId = z.coerce
  .number({ error: "adminUsers:user.errors.classUnknown" })
  .int({ error: "adminUsers:user.errors.classUnknown" })
  .positive({ error: "adminUsers:user.errors.classUnknown" });

export const schema = z.object({
  intent: z.literal("save"),
  displayName: z
    .string({ error: "adminUsers:user.errors.nameRequired" })
    .trim()
    .min(1, { error: "adminUsers:user.errors.nameRequired" })
    .max(DISPLAY_NAME_MAX_LENGTH, { error: "adminUsers:user.errors.nameTooLong" }),
  roles: z
    .array(z.enum(["1", "2", "3", "4"], { error: "adminUsers:user.errors.roleUnknown" }), {
      error: "adminUsers:user.errors.rolesRequired",
    })
    .min(1, { error: "adminUsers:user.errors.rolesRequired" }),
  // One select per semester; "Ingen klasse" posts an empty value.
  studentClasses: z.array(classId.optional()).optional(),
  teacherClasses: z.array(classId).optional(),
  supervisorClasses: z.array(classId).optional(),
});
