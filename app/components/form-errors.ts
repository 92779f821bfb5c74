import type { TFunction } from "i18next";

/**
 * Validation messages travel as i18n keys ("auth:errors.emailInvalid"). One that needs values
 * carries them as a query: "adminClass:errors.alreadyInMidScheme?form=Hovedskjema".
 */
export function errorMessage(key: string, values: Record<string, string>): string {
  return `${key}?${new URLSearchParams(values).toString()}`;
}

/** The text of a message made by errorMessage (or a plain key). */
export function translateError(t: TFunction, message: string): string {
  const [key, query] = message.split("?", 2);
  return t(key, query ? Object.fromEntries(new URLSearchParams(query)) : undefined);
}

/** The first of a field's messages, translated. */
export function firstError(t: TFunction, errors: readonly string[] | undefined): string | undefined {
  const first = errors?.[0];
  return first ? translateError(t, first) : undefined;
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
  for (const message of form?.errors ?? []) items.push({ fieldId: form!.fieldId, message: translateError(t, message) });
  return items;
}
