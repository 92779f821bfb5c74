/**
 * A page post (a plain form, JavaScript off) that met the database's outage, given back on the 503
 * page to be sent again (kept-post.server.ts keeps it; the root error boundary shows it). Shared by
 * the server and the page, so no server code here.
 */

/** The fields as posted: name and value, in order, repeats and all. */
export type PostedFields = [name: string, value: string][];

/** What the 503 carries (as `data`) when it keeps the post. */
export interface UnavailableWithPost {
  kind: "unavailable";
  resend: { fields: PostedFields };
}

/** The kept fields of an error's data, or null when it keeps none (or is not ours). */
export function keptFields(errorData: unknown): PostedFields | null {
  if (typeof errorData !== "object" || errorData === null) return null;
  const { kind, resend } = errorData as Partial<UnavailableWithPost>;
  if (kind !== "unavailable" || typeof resend !== "object" || resend === null || !Array.isArray(resend.fields))
    return null;
  const fields = resend.fields.filter(
    (field): field is [string, string] =>
      Array.isArray(field) && field.length === 2 && typeof field[0] === "string" && typeof field[1] === "string",
  );
  return fields.length === resend.fields.length ? fields : null;
}

// A value no one typed: one word of letters, digits and separators with a digit in it (the form
// page's answer fingerprints, ids, numbers).
const MACHINE_VALUE = /^(?=.*\d)[\p{L}\d._:+/=-]+$/u;

/**
 * The texts among the fields that a person wrote, to show them readably: not the pressed button's
 * `intent`, not blank, with a letter in it, and not a fingerprint or id. The hidden inputs carry
 * every field regardless; this is only what is shown.
 */
export function typedTexts(fields: PostedFields): string[] {
  return fields
    .filter(
      ([name, value]) => name !== "intent" && value.trim() !== "" && /\p{L}/u.test(value) && !MACHINE_VALUE.test(value),
    )
    .map(([, value]) => value);
}
