// The warnings domain's public surface for any code, the browser's included (no server-only module).
export {
  WARNING_FIELDS,
  WARNING_TEXT_LIMIT,
  isComplete,
  normaliseWarning,
  postedWarningId,
  postedWarningText,
  warningErrors,
} from "./warnings";
export type { WarningField, WarningFieldError, WarningState, WarningText } from "./warnings";
