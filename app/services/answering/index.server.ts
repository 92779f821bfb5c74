// The answering domain's public surface for server code: loaders, actions and other domains' services.
export { answeringPlace, formForAnswering, saveAnswers } from "./answers.server";
export type { FormForAnswering } from "./answers.server";
export { POST_INTENTS, formPageView, submitFormPage } from "./form-page.server";
export type { FormPageView, PostIntent, PostResult } from "./form-page.server";
export { formResults, resultsForView } from "./results.server";
export type { FormResults, ResultsView } from "./results.server";
