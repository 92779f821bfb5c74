// Shared by the browser's checks and the server's (so not from a .server module).
import { EMAIL_MAX, PERSON_NAME_MAX } from "~/services/platform/field-limits";

export const SUPERVISOR_NAME_MAX = PERSON_NAME_MAX;

export const SUPERVISOR_EMAIL_MAX = EMAIL_MAX;

export const SUPERVISOR_PHONE_MAX = 32;

/** A Norwegian or international mobile number: 8 to 15 digits, with spaces, dashes or a leading +. */
export function plausiblePhone(value: string): boolean {
  const digits = value.replace(/\D/g, "");
  return /^\+?[\d\s().-]+$/.test(value) && digits.length >= 8 && digits.length <= 15;
}
