import type { TFunction } from "i18next";

/** Validation messages travel as i18n keys ("auth:errors.emailInvalid"); this translates the first. */
export function firstError(t: TFunction, errors: readonly string[] | undefined): string | undefined {
  const first = errors?.[0];
  return first ? t(first as never) : undefined;
}

/**
 * The error-summary entries for a form: each field's first message linked to the field, then the
 * form's own messages linked to the field they concern most.
 */
export function errorSummaryItems(
  t: TFunction,
  fields: readonly { id: string; errors?: readonly string[] }[],
  form?: { errors?: readonly string[]; fieldId: string },
): { fieldId: string; message: string }[] {
  const items = fields
    .filter((f) => f.errors && f.errors.length > 0)
    .map((f) => ({ fieldId: f.id, message: firstError(t, f.errors) ?? "" }));
  for (const message of form?.errors ?? []) items.push({ fieldId: form!.fieldId, message: t(message as never) });
  return items;
}
