// The validation of student.tsx, its own module so the page loads zod only once it is interactive (ADR 0012).
import { z } from "zod";

export const userIdField = (required: string) =>
  z.string({ error: required }).regex(/^\d{1,10}$/, { error: "placement:errors.notClassSupervisor" });

export const supervisorSchema = z.object({
  supervisorUserId: z
    .string({ error: "placement:errors.supervisorRequired" })
    .regex(/^(none|\d{1,10})$/, { error: "placement:errors.notClassSupervisor" }),
});

export const addExtraSchema = z.object({ extraUserId: userIdField("placement:errors.extraRequired") });

export const removeExtraSchema = z.object({ removeUserId: userIdField("placement:errors.notExtra") });
