import { characters } from "~/services/answering";
import { parseId } from "~/services/platform/ids";
import type { StudentRelation } from "~/services/placements/index.server";

/**
 * The rules of a written warning to a student at risk of failing the placement (docs/rules/warnings.md;
 * ADR 0008), free of the database and of React: its states, who may do what in
 * each, and what a valid text is. warnings.server.ts applies them inside its transactions.
 */

/** Each text at most 10 000 characters, counted as the database counts them. */
export const WARNING_TEXT_LIMIT = 10_000;

export const WARNING_FIELDS = ["comment", "passRequirement", "passRequirementSummary"] as const;
export type WarningField = (typeof WARNING_FIELDS)[number];
export type WarningText = Record<WarningField, string>;

/** none → draft (the teacher writes) → given (submitted) → confirmed (the student has read it). */
export type WarningState = "none" | "draft" | "given" | "confirmed";
export const WARNING_STATES: readonly WarningState[] = ["none", "draft", "given", "confirmed"];

export function warningState(
  warning: { submittedAt: Date | null; studentConfirmedWarningAt: Date | null } | null | undefined,
): WarningState {
  if (!warning) return "none";
  if (warning.studentConfirmedWarningAt) return "confirmed";
  return warning.submittedAt ? "given" : "draft";
}

/**
 * read: see the warning's content. save: create or change the draft. submit: give it to the
 * student. delete: take it away (none is left). confirm: the student says they have read it.
 */
export const WARNING_ACTIONS = ["read", "save", "submit", "delete", "confirm"] as const;
export type WarningAction = (typeof WARNING_ACTIONS)[number];

export const WARNING_RELATIONS: readonly StudentRelation[] = [
  "teacher",
  "self",
  "supervisor",
  "extraSupervisor",
  "admin",
];

/**
 * Who may do each action, and in which states. Only the class's teachers write, give and delete
 * (supervisors never send warnings: the teacher is answerable for one); a draft is theirs alone to see. A given
 * warning is not edited: the student confirms the text they read, so a teacher who wants to say
 * something else deletes it and writes a new one.
 */
const RULES: Record<WarningAction, Partial<Record<StudentRelation, readonly WarningState[]>>> = {
  read: {
    teacher: ["draft", "given", "confirmed"],
    self: ["given", "confirmed"],
    supervisor: ["given", "confirmed"],
    extraSupervisor: ["given", "confirmed"],
    admin: ["given", "confirmed"],
  },
  save: { teacher: ["none", "draft"] },
  submit: { teacher: ["none", "draft"] },
  delete: { teacher: ["draft", "given", "confirmed"] },
  confirm: { self: ["given"] },
};

/** ok; notAllowed: never for this person; wrongState: not while the warning is as it is. */
export type WarningDecision = "ok" | "notAllowed" | "wrongState";

export function warningDecision(
  relation: StudentRelation,
  action: WarningAction,
  state: WarningState,
): WarningDecision {
  const states = RULES[action][relation];
  if (!states) return "notAllowed";
  return states.includes(state) ? "ok" : "wrongState";
}

/** What the viewer may see of the warning: its state as far as they may know it (a draft is no warning to them). */
export function visibleState(relation: StudentRelation, state: WarningState): WarningState {
  return state !== "none" && warningDecision(relation, "read", state) === "ok" ? state : "none";
}

/** Text as kept: line breaks as \n (a browser posts \r\n); blank is empty. */
export function normaliseWarningText(text: string | null | undefined): string {
  if (text === null || text === undefined || text.trim() === "") return "";
  return text.replace(/\r\n?/g, "\n");
}

export function normaliseWarning(input: Partial<Record<WarningField, string | null | undefined>>): WarningText {
  return {
    comment: normaliseWarningText(input.comment),
    passRequirement: normaliseWarningText(input.passRequirement),
    passRequirementSummary: normaliseWarningText(input.passRequirementSummary),
  };
}

export type WarningFieldError = "required" | "tooLong";

/**
 * A draft may be partly (or wholly) empty, but no text may pass the limit; giving the warning
 * needs all three texts.
 */
export function warningErrors(
  text: WarningText,
  purpose: "draft" | "submit",
): Partial<Record<WarningField, WarningFieldError>> {
  const errors: Partial<Record<WarningField, WarningFieldError>> = {};
  for (const field of WARNING_FIELDS) {
    if (characters(text[field]) > WARNING_TEXT_LIMIT) errors[field] = "tooLong";
    else if (purpose === "submit" && text[field].trim() === "") errors[field] = "required";
  }
  return errors;
}

/** All three texts are written (the condition for offering "Gi varsel"). */
export function isComplete(text: WarningText): boolean {
  return WARNING_FIELDS.every((field) => text[field].trim() !== "");
}

export function sameText(a: WarningText, b: WarningText): boolean {
  return WARNING_FIELDS.every((field) => a[field] === b[field]);
}

/**
 * The id of the warning a page was showing, as posted (`warningId`): null for none (empty), or
 * undefined when it is no id at all (a malformed post).
 */
export function postedWarningId(value: FormDataEntryValue | null | undefined): number | null | undefined {
  if (value === null || value === undefined || value === "") return null;
  return typeof value === "string" ? (parseId(value) ?? undefined) : undefined;
}

/** The three texts as posted; a missing field is empty. */
export function postedWarningText(form: FormData): WarningText {
  const value = (field: WarningField) => {
    const posted = form.get(field);
    return typeof posted === "string" ? posted : "";
  };
  return normaliseWarning({
    comment: value("comment"),
    passRequirement: value("passRequirement"),
    passRequirementSummary: value("passRequirementSummary"),
  });
}
