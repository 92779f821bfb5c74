// The placements domain's public surface for any code, the browser's included (no server-only module).
export { deadlineText, formDue } from "./deadline";
export type { FormDue } from "./deadline";
export { INVITED_PHONE_MAX, STUDENT_SEARCH_MAX_LENGTH } from "./limits";
