// The signing domain's public surface for any code, the browser's included (no server-only module).
export { END_QUESTIONS, MID_QUESTIONS, TEACHER_COMMENT_LIMIT, choiceOf, choicesOf } from "./questions";
export type { Choice, MidQuestion, Question } from "./questions";
export { INTENTS, NEW_FORM_ID, mayAttempt } from "./signing-form";
export type { CardState, Intent, Refusal } from "./signing-form";
export { PARTIES, missingParties, sendingDecision, unsentForms } from "./sending";
export type { FormSending, Party, SendingFacts, UnsentForm } from "./sending";
