// Where the demo sits in time. The demo is placed in the semester that runs on the day it is seeded,
// so every date in it follows from one instant: the seed's clock. The tests read their expected
// semesters and dates from here, from the same clock, so no test names a semester or a date that
// the calendar decides (docs/decisions/0017-tests-on-any-date.md).
import { nextSemester, osloDate, previousSemester, semesterFor, type Semester } from "~/services/platform/semesters";
import { addDays, classDates } from "./dates";

export interface DemoClassDates {
  /** yyyy-mm-dd */
  midSemesterDate: string;
  /** yyyy-mm-dd */
  endSemesterDate: string;
}

export interface DemoCalendar {
  /** The Norwegian calendar day (yyyy-mm-dd) the calendar was taken on. */
  today: string;
  /** The semester that runs today: SYK2001 and SYK2002 are in it. */
  current: Semester;
  /** The one before: SYK1002, the students' earlier class. */
  previous: Semester;
  /** The one after: what the admin's "create next semester" creates. */
  next: Semester;
  /** The demo classes' evaluation dates, by subject code. */
  classes: { SYK2001: DemoClassDates; SYK2002: DemoClassDates; SYK1002: DemoClassDates };
}

export function demoCalendar(today: Date = new Date()): DemoCalendar {
  const current = semesterFor(today);
  const previous = previousSemester(current);
  if (!previous) throw new Error(`No semester before ${current.name}`);
  return {
    today: osloDate(today),
    current,
    previous,
    next: nextSemester(current, today),
    classes: {
      SYK2001: placed(classDates(current, 0), current, osloDate(today), 7),
      SYK2002: placed(classDates(current, 7), current, osloDate(today), 14),
      SYK1002: classDates(previous, 0),
    },
  };
}

/**
 * The demo always shows a placement between its two evaluations, whatever the day: the mid-semester
 * date has passed (it is the semester's halfway point, or yesterday when that is still ahead; on a
 * semester's first day that is the last day of the one before) and the end-semester date is ahead
 * (its usual place two weeks before the semester's end, or `daysAhead` days from today, never after
 * the semester's last day).
 */
function placed(natural: DemoClassDates, semester: Semester, today: string, daysAhead: number): DemoClassDates {
  const yesterday = addDays(today, -1);
  const ahead = addDays(today, daysAhead);
  const end = natural.endSemesterDate > ahead ? natural.endSemesterDate : ahead;
  return {
    midSemesterDate: natural.midSemesterDate < yesterday ? natural.midSemesterDate : yesterday,
    endSemesterDate: end < semester.endDate ? end : semester.endDate,
  };
}
