// The validation of class.tsx, its own module so the page loads zod only once it is interactive (ADR 0012).
import { z } from "zod";

export const endDateSchema = z.object({
  endSemesterDate: z
    .string({ error: "adminClass:errors.endDate.required" })
    .trim()
    .max(40, { error: "adminClass:errors.endDate.invalid" }),
});

export const midDateSchema = z.object({
  midSemesterDate: z
    .string({ error: "adminClass:errors.midDate.required" })
    .trim()
    .max(40, { error: "adminClass:errors.midDate.invalid" }),
});

export const copySchema = z.object({
  sourceClassId: z
    .string({ error: "adminClass:errors.sourceRequired" })
    .regex(/^\d{1,9}$/, { error: "adminClass:errors.sourceRequired" }),
});

// Main forms and specific competencies are two groups of checkboxes with one name, so that
// ticking any of them re-checks "at least one form" at once.
export const schemeSchema = z.object({
  half: z.enum(["mid", "end"], { error: "adminClass:errors.halfRequired" }),
  formIds: z
    .array(z.string().regex(/^\d{1,10}$/, { error: "adminClass:errors.unknownForm" }), {
      error: "adminClass:errors.noForms",
    })
    .min(1, { error: "adminClass:errors.noForms" })
    .max(200, { error: "adminClass:errors.unknownForm" }),
});
