// The records domain's public surface for any code, the browser's included (no server-only module).
export {
  ALLOWED,
  DEFAULT_RULES,
  ERASED_NAME,
  RECORD_KINDS,
  cutoff,
  keptUntil,
  noCounts,
  retentionRules,
  ruleFor,
  ruleProblems,
} from "./retention";
export type { CountedFrom, RecordKind, RetentionAction, RetentionRule } from "./retention";
