/** A phone number as digits with country code ("+47 987 65 432", "98765432" → "4798765432"). */
export function phoneDigits(value: string): string {
  let digits = value.replace(/\D/g, "");
  if (digits.startsWith("00")) digits = digits.slice(2);
  if (digits.length === 8) digits = `47${digits}`;
  return digits;
}
