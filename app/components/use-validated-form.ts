import { useForm, type Submission, type SubmissionResult } from "@conform-to/react";
import { useEffect, useState } from "react";
import type { z, ZodObject } from "zod";

type Validate<Schema extends ZodObject> = (
  formData: FormData,
) => Submission<z.input<Schema>, string[], z.output<Schema>>;

/**
 * The house form: the same zod schema on client and server, checked on blur and re-checked as
 * the user corrects a field; without JS the server's reply alone drives the messages.
 *
 * The schema comes from a loader (`() => import("./x.schema").then((m) => m.schema)`): zod and
 * the schemas are a chunk of their own, fetched right after the page is interactive rather than
 * with the page (ADR 0012, the 150 KiB first-load budget). Until it has arrived the form validates
 * on the server only, as without JS: a submit goes to the action, which validates with the same
 * schema.
 */
export function useValidatedForm<Schema extends ZodObject>(
  loadSchema: () => Promise<Schema>,
  lastResult: SubmissionResult<string[]> | null | undefined,
) {
  const [validate, setValidate] = useState<{ run: Validate<Schema> } | null>(null);
  useEffect(() => {
    let live = true;
    void Promise.all([loadSchema(), import("@conform-to/zod/v4")]).then(([schema, { parseWithZod }]) => {
      if (live) setValidate({ run: (formData) => parseWithZod(formData, { schema }) });
    });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the loader is a new function each render; the schema it gives is the same
  }, []);
  return useForm<z.input<Schema>, z.output<Schema>>({
    lastResult,
    shouldValidate: validate ? "onBlur" : "onSubmit",
    shouldRevalidate: validate ? "onInput" : "onSubmit",
    onValidate: validate ? ({ formData }) => validate.run(formData) : undefined,
  });
}

/** What a reply kept of a repeated field (checkboxes, multi-select): nothing, one value or several. */
export function listValue(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === "string" && v !== "");
}
