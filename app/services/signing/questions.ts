/**
 * The signing form's questions and the answers they allow: shared by the rules (signing-form.ts)
 * and the schemas of what is posted (signing-form.schema.ts), which both import this file.
 */

export const TEACHER_COMMENT_LIMIT = 2000;

// ─── Questions ───────────────────────────────────────────────────────────────

export type Choice = "yes" | "no" | "notRelevant";

export const MID_QUESTIONS = ["midSemesterSpecificCompetenceAreasBegun", "midSemesterStudentHasGivenFeedback"] as const;
export const END_QUESTIONS = [
  "attendancePassed",
  "workRequirementsPassed",
  "specificCompetenceAreasPassed",
  "generalCompetenceAreasPassed",
] as const;
export type MidQuestion = (typeof MID_QUESTIONS)[number];
export type EndQuestion = (typeof END_QUESTIONS)[number];
export type Question = MidQuestion | EndQuestion;

/**
 * Which questions offer "Ikke relevant" (stored as null). The mid-semester questions do: a short
 * placement may not have begun on the specific areas, or have had no feedback talk yet. So do the
 * work requirements, which not every subject has. Attendance and the two competence results are
 * the pass/fail result itself: always yes or no.
 */
export const ALLOWS_NOT_RELEVANT: Record<Question, boolean> = {
  midSemesterSpecificCompetenceAreasBegun: true,
  midSemesterStudentHasGivenFeedback: true,
  attendancePassed: false,
  workRequirementsPassed: true,
  specificCompetenceAreasPassed: false,
  generalCompetenceAreasPassed: false,
};

export function choicesOf(question: Question): Choice[] {
  return ALLOWS_NOT_RELEVANT[question] ? ["yes", "no", "notRelevant"] : ["yes", "no"];
}

/**
 * A stored answer as a choice. Null is "Ikke relevant" once its part has been saved (a save needs
 * every question answered), and not answered before that.
 */
export function choiceOf(question: Question, stored: boolean | null, partSaved: boolean): Choice | null {
  if (stored === true) return "yes";
  if (stored === false) return "no";
  return partSaved && ALLOWS_NOT_RELEVANT[question] ? "notRelevant" : null;
}

/**
 * Passed overall when attendance, both competence results and (where there are any) the work
 * requirements are passed: the parts are the result, so it is derived rather than typed a second time.
 */
export function overallPassed(answers: Record<EndQuestion, Choice>): boolean {
  return (
    answers.attendancePassed === "yes" &&
    answers.workRequirementsPassed !== "no" &&
    answers.specificCompetenceAreasPassed === "yes" &&
    answers.generalCompetenceAreasPassed === "yes"
  );
}

// ─── What is posted ──────────────────────────────────────────────────────────

/** yyyy-mm-dd naming a real day. */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}
