// The signing domain's public surface for server code: loaders, actions and other domains' services.
export {
  cancelForm,
  resubmitResult,
  saveEndPart,
  saveMidPart,
  signForm,
  signingFormCard,
  signingFormView,
  signingPlace,
  validationSummary,
} from "./signing-form.server";
export type { SigningCard, SigningFormView, Submission, TeacherAnswerCount } from "./signing-form.server";
export { checkMidPart } from "./signing-form.server";
export { midStep } from "./mid-steps.server";
export type { MidCheck, MidStepOutcome } from "./mid-steps.server";
export { requireSentForms, sendingFacts } from "./sending.server";
