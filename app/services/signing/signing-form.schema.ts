// What the signing form posts, checked on the server and (loaded after the page) in the browser.
import { z } from "zod";
import { choicesOf, isCalendarDate, TEACHER_COMMENT_LIMIT, type Choice, type Question } from "./questions";

const choice = (question: Question) =>
  z.enum(choicesOf(question) as [Choice, ...Choice[]], { error: `signing:errors.required.${question}` });

const day = (required: string) =>
  z.string({ error: required }).trim().refine(isCalendarDate, { error: "signing:errors.dateInvalid" });

/** The teacher confirms the mid-semester part: both questions and the date are required. */
export const midPartSchema = z.object({
  intent: z.literal("saveMid"),
  midSemesterSpecificCompetenceAreasBegun: choice("midSemesterSpecificCompetenceAreasBegun"),
  midSemesterStudentHasGivenFeedback: choice("midSemesterStudentHasGivenFeedback"),
  midSemesterCompletedDate: day("signing:errors.required.midSemesterCompletedDate"),
});

/** The end-semester part: every question; the comment is optional; the date defaults to today. */
export const endPartSchema = z.object({
  intent: z.literal("saveEnd"),
  attendancePassed: choice("attendancePassed"),
  workRequirementsPassed: choice("workRequirementsPassed"),
  specificCompetenceAreasPassed: choice("specificCompetenceAreasPassed"),
  generalCompetenceAreasPassed: choice("generalCompetenceAreasPassed"),
  teacherComment: z.string().max(TEACHER_COMMENT_LIMIT, { error: "signing:errors.commentTooLong" }).optional(),
  endSemesterCompletedDate: day("signing:errors.dateInvalid").optional(),
});

/** Whether the confirmation is needed is the form's state, decided by `planSign`. */
export const signSchema = z.object({
  intent: z.literal("sign"),
  signWithoutSupervisorConfirmed: z.literal("yes", { error: "signing:errors.confirmWithoutSupervisor" }).optional(),
  /** The teacher signs though not every form is sent (sending.ts decides whether it is needed). */
  unsentAcknowledged: z.literal("yes", { error: "signingCheck:errors.acknowledgeUnsent" }).optional(),
});

export type MidPartInput = Omit<z.output<typeof midPartSchema>, "intent">;
export type EndPartInput = Omit<z.output<typeof endPartSchema>, "intent">;
