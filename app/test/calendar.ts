// The demo's semesters and dates as the tests expect them: taken from the same clock as the seed
// (the machine's), never written out, so the tests pass on any date. Move the whole run with
// libfaketime (`faketime '2027-01-04 09:00:00' npx vitest run`) to try another day.
import { demoCalendar } from "~/services/demo";

/** The demo's calendar today: its current, previous and next semester and its classes' dates. */
export const calendar = demoCalendar();

/** A yyyy-mm-dd date as the Norwegian pages write it: 17.12.2026, 1.7.2026. */
export function dateText(isoDate: string): string {
  const [year, month, day] = isoDate.split("-").map(Number);
  return `${day}.${month}.${year}`;
}

/** A semester name as the file names write it: "Høst 2026" → "hoest-2026". */
export function fileSlug(name: string): string {
  return name.toLowerCase().replace(/ø/g, "oe").replace(/å/g, "aa").replace(/ /g, "-");
}

const MONTHS_EN = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A yyyy-mm-dd date as the English pages write it: 1 Jan 2027. */
export function englishDateText(isoDate: string): string {
  const [year, month, day] = isoDate.split("-").map(Number);
  return `${day} ${MONTHS_EN[month - 1]} ${year}`;
}

/** A yyyy-mm-dd date so many days later (earlier when negative). */
export function addDays(isoDate: string, days: number): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** A semester name in a header's ASCII fallback file name: "Høst 2026" → "Host 2026", "Vår 2027" → "Var 2027". */
export function asciiName(name: string): string {
  return name.replace(/ø/g, "o").replace(/å/g, "a");
}

/** A semester name as the UTF-8 file names write it, percent-encoded: "Vår 2026" → "v%C3%A5r-2026". */
export function encodedSlug(name: string): string {
  return encodeURIComponent(name.toLowerCase().replace(/ /g, "-"));
}

/**
 * The half a demo class is in today for a student whose mid-semester part is not confirmed, and the
 * deadline shown: the mid-semester date until it has passed, the end-semester date after.
 */
export function halfOf(subjectCode: keyof typeof calendar.classes): { half: "mid" | "end"; deadline: string } {
  const dates = calendar.classes[subjectCode];
  return calendar.today > dates.midSemesterDate
    ? { half: "end", deadline: dates.endSemesterDate }
    : { half: "mid", deadline: dates.midSemesterDate };
}
