// The admin domain's public surface for any code, the browser's included (no server-only module).
export {
  AUDIENCES,
  DEFAULT_GRADING_LABELS,
  GRADING,
  LIMITS,
  TEXT_INPUT,
  applyIntent,
  emptyDraft,
  fieldId,
  fieldName,
  labelsToText,
  nextKey,
  parseIntent,
} from "./form-draft";
export { DISPLAY_NAME_MAX_LENGTH, SUBJECT_CODE_MAX, SUBJECT_NAME_MAX, USER_SEARCH_MAX_LENGTH } from "./limits";
export type { DraftGroup, DraftGroupType, EditorMode, FieldErrors, FormDraft } from "./form-draft";
