/**
 * The semester rule (docs/rules/placements.md): Vår runs 1 Jan – 30 Jun, Høst 1 Jul – 31 Dec. Dates are
 * calendar days in Norway, so "today" is always taken in Europe/Oslo: at 23:30 UTC on 30 June
 * it is already 1 July in Norway.
 */

export const SEMESTER_TIME_ZONE = "Europe/Oslo";

export type SemesterSeason = "Vår" | "Høst";
export type SemesterStatus = "future" | "current" | "past";

export interface Semester {
  name: string;
  /** yyyy-mm-dd */
  startDate: string;
  /** yyyy-mm-dd */
  endDate: string;
}

const osloDateFormat = new Intl.DateTimeFormat("en-CA", {
  timeZone: SEMESTER_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** The calendar date (yyyy-mm-dd) in Norway at the given instant. */
export function osloDate(date: Date): string {
  const parts = Object.fromEntries(osloDateFormat.formatToParts(date).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

export function semester(season: SemesterSeason, year: number): Semester {
  return season === "Vår"
    ? { name: `Vår ${year}`, startDate: `${year}-01-01`, endDate: `${year}-06-30` }
    : { name: `Høst ${year}`, startDate: `${year}-07-01`, endDate: `${year}-12-31` };
}

/** Reads "Høst 2026" / "Vår 2027"; null for a name that does not follow the convention. */
export function parseSemesterName(name: string): { season: SemesterSeason; year: number } | null {
  const match = /^\s*(Vår|Høst)\s+(\d{4})\s*$/iu.exec(name.normalize("NFC"));
  if (!match) return null;
  const season: SemesterSeason = match[1].toLowerCase() === "vår" ? "Vår" : "Høst";
  return { season, year: Number(match[2]) };
}

/** Inclusive at both ends: the last day of a semester is still current. */
export function semesterStatus(dates: { startDate: string; endDate: string }, today: Date): SemesterStatus {
  const day = osloDate(today);
  if (day < dates.startDate) return "future";
  if (day > dates.endDate) return "past";
  return "current";
}

/** The semester whose dates contain the given instant's Norwegian calendar day. */
export function semesterFor(today: Date): Semester {
  const day = osloDate(today);
  const year = Number(day.slice(0, 4));
  const month = Number(day.slice(5, 7));
  return semester(month >= 7 ? "Høst" : "Vår", year);
}

/**
 * The semester the admin's "create next semester" button creates. After Høst comes Vår of the
 * following year; after anything else, Høst of the current semester's year. Without a current
 * semester it is the one containing today (Høst from July, Vår before).
 */
export function nextSemester(current: { name: string } | null, today: Date): Semester {
  if (!current) return semesterFor(today);
  const parsed = parseSemesterName(current.name);
  const year = parsed?.year ?? Number(osloDate(today).slice(0, 4));
  return parsed?.season === "Høst" ? semester("Vår", year + 1) : semester("Høst", year);
}

/** The semester before the named one (Høst YYYY → Vår YYYY, Vår YYYY → Høst YYYY−1). */
export function previousSemester(current: { name: string }): Semester | null {
  const parsed = parseSemesterName(current.name);
  if (!parsed) return null;
  return parsed.season === "Høst" ? semester("Vår", parsed.year) : semester("Høst", parsed.year - 1);
}

/**
 * The semester that runs today. Semesters created by the rule never overlap; should two do
 * anyway, the one that started last is taken as current.
 */
export function currentSemesterOf<T extends { startDate: string; endDate: string }>(
  semesters: readonly T[],
  today: Date,
): T | null {
  const running = semesters.filter((p) => semesterStatus(p, today) === "current");
  return running.reduce<T | null>((best, p) => (best === null || p.startDate > best.startDate ? p : best), null);
}

/**
 * What "create next semester" creates today (docs/rules/admin.md), or null when a future semester already
 * exists — then the button is hidden and a create is refused.
 */
export function semesterToCreate(
  semesters: readonly { name: string; startDate: string; endDate: string }[],
  today: Date,
): Semester | null {
  if (semesters.some((p) => semesterStatus(p, today) === "future")) return null;
  return nextSemester(currentSemesterOf(semesters, today), today);
}

function addDays(isoDate: string, days: number): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/**
 * A new class's dates until the admin changes the end date: the mid-semester evaluation halfway
 * through the semester (rounded down), the end-semester evaluation on its last day.
 */
export function defaultClassDates(dates: { startDate: string; endDate: string }): {
  midSemesterDate: string;
  endSemesterDate: string;
} {
  const days = Math.round((Date.parse(dates.endDate) - Date.parse(dates.startDate)) / 86_400_000);
  return { midSemesterDate: addDays(dates.startDate, Math.floor(days / 2)), endSemesterDate: dates.endDate };
}

const dayFormats = {
  nb: new Intl.DateTimeFormat("nb-NO", { timeZone: "UTC", day: "numeric", month: "numeric", year: "numeric" }),
  en: new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", day: "numeric", month: "short", year: "numeric" }),
};

/** A calendar date (yyyy-mm-dd) as people read it: 1.7.2026 in Norwegian, 1 Jul 2026 in English. */
export function formatDay(isoDate: string, language: "nb" | "en"): string {
  return dayFormats[language].format(new Date(`${isoDate}T00:00:00Z`));
}

const timeFormat = new Intl.DateTimeFormat("en-GB", {
  timeZone: SEMESTER_TIME_ZONE,
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/** An instant as a day and a time in Norway: "25.11.2026 kl. 14:03", "25 Nov 2026 at 14:03". */
export function formatDayTime(at: Date, language: "nb" | "en"): string {
  return `${formatDay(osloDate(at), language)} ${language === "nb" ? "kl." : "at"} ${timeFormat.format(at)}`;
}
