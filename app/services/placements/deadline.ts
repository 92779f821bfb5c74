/**
 * Which half of the semester a class is in, and the deadline people see (docs/rules/placements.md):
 * the mid-semester evaluation lasts until the class's mid-semester date has passed, or until the
 * teacher has confirmed the mid-semester part of the student's signing form, whichever comes
 * first. The deadline shown is the mid-semester date until then, the end-semester date after.
 */
export type SemesterHalf = "mid" | "end";

export interface HalfState {
  half: SemesterHalf;
  /** yyyy-mm-dd, or null when the class has no date for that half yet. */
  deadline: string | null;
}

export function currentHalf(
  dates: { midSemesterDate: string | null; endSemesterDate: string | null },
  midConfirmed: boolean,
  today: string,
): HalfState {
  const midOver = midConfirmed || (dates.midSemesterDate !== null && today > dates.midSemesterDate);
  return midOver ? { half: "end", deadline: dates.endSemesterDate } : { half: "mid", deadline: dates.midSemesterDate };
}

/** A deadline as Norwegians write a date, d.m.yyyy, whatever the language ("1.7.2026"). */
export function deadlineText(isoDate: string): string {
  const [year, month, day] = isoDate.split("-").map(Number);
  return `${day}.${month}.${year}`;
}

/**
 * Where a form of one half stands for one student, against that student's own deadline: "closed"
 * once the teacher has confirmed the mid-semester part (a mid-semester form is no longer asked
 * for); "later" for an end-semester form while the mid-semester evaluation lasts; "behind" when
 * the half's date has passed; "open" while there is still time (or no date is set).
 */
export type FormDue = "open" | "behind" | "closed" | "later";

export function formDue(
  isMidSemester: boolean,
  dates: { midSemesterDate: string | null; endSemesterDate: string | null },
  midConfirmed: boolean,
  today: string,
): FormDue {
  const passed = (date: string | null) => date !== null && today > date;
  if (isMidSemester) {
    if (midConfirmed) return "closed";
    return passed(dates.midSemesterDate) ? "behind" : "open";
  }
  if (passed(dates.endSemesterDate)) return "behind";
  return currentHalf(dates, midConfirmed, today).half === "mid" ? "later" : "open";
}
