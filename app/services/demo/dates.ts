// Calendar helpers for placing the demo in the semester it is started in.
import type { Semester } from "~/services/platform/semesters";

/** Mid-semester date about halfway through, end-semester date two weeks before the end. */
export function classDates(semester: Semester, offsetDays: number) {
  const length = (Date.parse(semester.endDate) - Date.parse(semester.startDate)) / 86_400_000;
  return {
    midSemesterDate: addDays(semester.startDate, Math.floor(length / 2) + offsetDays),
    endSemesterDate: addDays(semester.endDate, -14 + offsetDays),
  };
}

export function addDays(isoDate: string, days: number): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** An instant on a calendar day; the hour is UTC, which is daytime in Norway either way. */
export function instant(isoDate: string, hourUtc: number): Date {
  return new Date(`${isoDate}T${String(hourUtc).padStart(2, "0")}:00:00Z`);
}

export function latest(a: Date, b: Date): Date {
  return a.getTime() > b.getTime() ? a : b;
}
