import { useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { z, ZodObject } from "zod";

/**
 * The house form: the same zod schema on client and server, checked on blur and re-checked as
 * the user corrects a field; without JS the server's reply alone drives the messages.
 */
export function useValidatedForm<Schema extends ZodObject>(schema: Schema, lastResult: SubmissionResult<string[]> | null | undefined) {
  return useForm<z.input<Schema>, z.output<Schema>>({
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
}

/** What a reply kept of a repeated field (checkboxes, multi-select): nothing, one value or several. */
export function listValue(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === "string" && v !== "");
}
