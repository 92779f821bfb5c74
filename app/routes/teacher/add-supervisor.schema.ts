// The validation of add-supervisor.tsx, its own module so the page loads zod only once it is interactive (ADR 0012).
import { z } from "zod";
import {
  plausiblePhone,
  SUPERVISOR_EMAIL_MAX,
  SUPERVISOR_NAME_MAX,
  SUPERVISOR_PHONE_MAX,
} from "./add-supervisor.limits";

export const schema = z.object({
  name: z
    .string({ error: "teacher:errors.nameRequired" })
    .trim()
    .min(1, { error: "teacher:errors.nameRequired" })
    .max(SUPERVISOR_NAME_MAX, { error: "teacher:errors.nameTooLong" }),
  email: z
    .string({ error: "teacher:errors.emailRequired" })
    .trim()
    .max(SUPERVISOR_EMAIL_MAX, { error: "teacher:errors.emailTooLong" })
    .pipe(z.email({ error: "teacher:errors.emailInvalid" })),
  phone: z
    .string()
    .trim()
    .max(SUPERVISOR_PHONE_MAX, { error: "teacher:errors.phoneInvalid", abort: true })
    .refine(plausiblePhone, { error: "teacher:errors.phoneInvalid" })
    .optional(),
});
