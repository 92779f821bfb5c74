// The records schedule's rules: what each kind of record is, how long it is kept, counted from which
// event, and what happens then. Pure (no database): the admin's pages and the privacy page read it.
import type { Institution } from "~/services/platform/institution.server";

/**
 * The kinds of record the retention run removes or anonymises:
 * - answers: a form's answers and comments about a student (one answer set: one author, one form);
 * - warnings: a written warning (draft or given);
 * - signingForms: the signing form, with its cancelled copies (the archive);
 * - resultSubmissions: each hand-over of a result to the student administration system;
 * - recordOpenings: who opened a page or document about a student;
 * - auditEvents: the audit log's rows;
 * - invitations: a student's invitations to a supervisor;
 * - codes: e-mailed log-in codes;
 * - people: a person with no log-in and no class within the period (never an admin): anonymised.
 */
export type RecordKind =
  | "answers"
  | "warnings"
  | "signingForms"
  | "resultSubmissions"
  | "recordOpenings"
  | "auditEvents"
  | "invitations"
  | "codes"
  | "people";

/** The event a period is counted from: the class's end date, the person's last log-in, the record's creation. */
export type CountedFrom = "classEnd" | "lastLogIn" | "created";

export type RetentionAction = "delete" | "anonymise";

export interface RetentionRule {
  kind: RecordKind;
  keepDays: number;
  from: CountedFrom;
  action: RetentionAction;
}

export const RECORD_KINDS: readonly RecordKind[] = [
  "answers",
  "warnings",
  "signingForms",
  "resultSubmissions",
  "recordOpenings",
  "auditEvents",
  "invitations",
  "codes",
  "people",
];

/**
 * What the institution's file may choose per kind (the file's schema, institution.server.ts, holds
 * the same; a test keeps them equal). A record is deleted, never anonymised: its content (free-text
 * comments, the signing form's assessment) names its student whatever is done to its columns. A
 * person is anonymised, never deleted: their id stays in the reports' counts and the audit trail.
 */
export const ALLOWED: Readonly<
  Record<RecordKind, { from: readonly CountedFrom[]; action: readonly RetentionAction[] }>
> = {
  answers: { from: ["classEnd", "created"], action: ["delete"] },
  warnings: { from: ["classEnd", "created"], action: ["delete"] },
  signingForms: { from: ["classEnd", "created"], action: ["delete"] },
  resultSubmissions: { from: ["classEnd", "created"], action: ["delete"] },
  recordOpenings: { from: ["created"], action: ["delete"] },
  auditEvents: { from: ["created"], action: ["delete"] },
  invitations: { from: ["created", "classEnd"], action: ["delete"] },
  codes: { from: ["created"], action: ["delete"] },
  people: { from: ["lastLogIn"], action: ["anonymise"] },
};

/** The defaults, for a kind the institution's file leaves out (docs/rules/records.md says why each). */
export const DEFAULT_RULES: readonly RetentionRule[] = [
  { kind: "answers", keepDays: 365, from: "classEnd", action: "delete" },
  { kind: "warnings", keepDays: 365, from: "classEnd", action: "delete" },
  { kind: "signingForms", keepDays: 365, from: "classEnd", action: "delete" },
  { kind: "resultSubmissions", keepDays: 365, from: "classEnd", action: "delete" },
  { kind: "recordOpenings", keepDays: 365, from: "created", action: "delete" },
  { kind: "auditEvents", keepDays: 730, from: "created", action: "delete" },
  { kind: "invitations", keepDays: 90, from: "created", action: "delete" },
  { kind: "codes", keepDays: 7, from: "created", action: "delete" },
  { kind: "people", keepDays: 730, from: "lastLogIn", action: "anonymise" },
];

/**
 * The name an anonymised person carries, in both languages: it is stored in place of their name
 * (what every page, PDF and CSV shows for them), so it is data, not a text of the interface.
 */
export const ERASED_NAME = "Slettet bruker";

/** The rules in effect: the institution file's `retention` section, each kind it leaves out (or a field of it) from the defaults. */
export function retentionRules(institution: Pick<Institution, "retention">): RetentionRule[] {
  const own = institution.retention ?? {};
  return DEFAULT_RULES.map((rule) => {
    const set = own[rule.kind];
    return set
      ? { kind: rule.kind, keepDays: set.keepDays, from: set.from ?? rule.from, action: set.action ?? rule.action }
      : { ...rule };
  });
}

/** The rule for one kind (the list holds every kind; a list without it answers the default). */
export function ruleFor(rules: readonly RetentionRule[], kind: RecordKind): RetentionRule {
  return rules.find((rule) => rule.kind === kind) ?? DEFAULT_RULES.find((rule) => rule.kind === kind)!;
}

/** Whether a rule is one the file may hold (days a whole number ≥ 0, an allowed event and action for its kind). */
export function ruleProblems(rule: RetentionRule): string[] {
  const problems: string[] = [];
  if (!Number.isInteger(rule.keepDays) || rule.keepDays < 0) problems.push(`${rule.kind}.keepDays: a whole number ≥ 0`);
  if (!ALLOWED[rule.kind].from.includes(rule.from))
    problems.push(`${rule.kind}.from: one of ${ALLOWED[rule.kind].from.join(", ")}`);
  if (!ALLOWED[rule.kind].action.includes(rule.action))
    problems.push(`${rule.kind}.action: one of ${ALLOWED[rule.kind].action.join(", ")}`);
  return problems;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The instant before which a rule's event must lie for its record to be due: now − keepDays. */
export function cutoff(rule: Pick<RetentionRule, "keepDays">, now: Date): Date {
  return new Date(now.getTime() - rule.keepDays * DAY_MS);
}

/** The calendar day (YYYY-MM-DD, UTC) a record counted from `event` may go: event + keepDays. */
export function keptUntil(rule: Pick<RetentionRule, "keepDays">, event: Date | string): string {
  const start = typeof event === "string" ? new Date(`${event.slice(0, 10)}T00:00:00Z`) : event;
  return new Date(start.getTime() + rule.keepDays * DAY_MS).toISOString().slice(0, 10);
}

/** Zero for every kind: the start of a run's or a preview's counts. */
export function noCounts(): Record<RecordKind, number> {
  return Object.fromEntries(RECORD_KINDS.map((kind) => [kind, 0])) as Record<RecordKind, number>;
}
