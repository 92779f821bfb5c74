// The demo's semesters and dates as the e2e specs expect them: taken from the same clock as the seed of
// the servers they test (the machine's), never written out, so the specs pass on any date. Move the
// whole run, servers and browser included, with libfaketime to try another day:
// `faketime '2027-01-04 09:00:00' npx playwright test`.
import { addDays, calendar, dateText } from "~/test/calendar";

export {
  addDays,
  asciiName,
  calendar,
  dateText,
  encodedSlug,
  englishDateText,
  fileSlug,
  halfOf,
} from "~/test/calendar";

/** The current semester's year, as the pages write dates in it ("Sendt 3.10.2026"). */
export const currentYear = calendar.current.startDate.slice(0, 4);

/** A semester as the admin's semester page sums it up: "Vår 2027, 1.1.2027–30.6.2027". */
export function semesterText(semester: { name: string; startDate: string; endDate: string }): string {
  return `${semester.name}, ${dateText(semester.startDate)}–${dateText(semester.endDate)}`;
}

/**
 * Matches an element whose whole text is the date, written the Norwegian way: "24.12.2026" must not
 * also find "4.12.2026", nor the semester's "1.7.2026–31.12.2026" when the class ends on its last day.
 */
export function exactDate(isoDate: string): RegExp {
  return new RegExp(`^\\s*${dateText(isoDate).replaceAll(".", "\\.")}\\s*$`);
}

/**
 * The new end-semester date admin-class.spec gives SYK2002: the day before the seeded one. That is
 * inside the semester and not before the mid-semester date (which is at latest yesterday), and still
 * ahead, so the end-semester deadline has not passed, except on the semester's last day, when no
 * other date in the semester is.
 */
export const movedSyk2002End = addDays(calendar.classes.SYK2002.endSemesterDate, -1);
