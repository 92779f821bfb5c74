/**
 * The form editor's draft and its rules, free of the database and of React so both the action and
 * the page use them. The editor works as one plain form post: the whole draft travels in the post,
 * the pressed button names the change (`intent`), and the server answers with the changed draft.
 * Nothing is stored until "save".
 */
import type { GroupAudience, QuestionGroupType } from "~/services/platform/db/schema";

/** The editable group types (the database's `form_question_groups.type`: 1 text input, 2 grading; 0 is unused). */
export type DraftGroupType = Extract<QuestionGroupType, 1 | 2>;
export const TEXT_INPUT: DraftGroupType = 1;
export const GRADING: DraftGroupType = 2;

/** Who answers a group: everyone (the default), the student only (staff read the answers), or the staff only. */
export const AUDIENCES: readonly GroupAudience[] = ["all", "student", "staff"];

/**
 * The five independence levels plus "not relevant" at index 5 (docs/rules/answering.md): the defaults of a new
 * grading group in the editor, and the seed's scale. Plain data, so the editor page can use it.
 */
export const DEFAULT_GRADING_LABELS: readonly string[] = [
  "Selvstendig",
  "Delvis selvstendig",
  "Veiledet",
  "Assistert",
  "Uselvstendig",
  "Ikke relevant",
];

/** The names new items get, until the admin types their own. */
export const NEW_GROUP_NAME = "Ny gruppe";
export const NEW_QUESTION_TEXT = "Nytt spørsmål";

export const LIMITS = {
  formName: 200,
  groupName: 200,
  questionText: 1000,
  helpText: 2000,
  label: 100,
  labels: 10,
  groups: 50,
  questionsPerGroup: 100,
} as const;

export interface DraftQuestion {
  /** Stable across moves so the page keeps each item's input while it moves: "q<id>" or "n<k>". */
  key: string;
  /** The stored question's id; null until saved. */
  id: number | null;
  text: string;
  helpText: string;
}

export interface DraftGroup {
  key: string;
  id: number | null;
  name: string;
  type: DraftGroupType;
  /** Grading labels; kept while the type is text input so switching back loses nothing. */
  options: string[];
  audience: GroupAudience;
  questions: DraftQuestion[];
}

export interface FormDraft {
  name: string;
  isMainForm: boolean;
  groups: DraftGroup[];
}

export type EditorMode = "edit" | "preview";

export type DraftIntent =
  | { type: "edit" }
  | { type: "preview" }
  | { type: "save" }
  | { type: "add-group" }
  | { type: "remove-group" | "move-group-up" | "move-group-down"; group: number }
  | { type: "add-question"; group: number }
  | { type: "remove-question" | "move-question-up" | "move-question-down"; group: number; question: number };

/** Field names as the editor posts them; errors are keyed by the same names. */
export const fieldName = {
  name: "name",
  isMainForm: "isMainForm",
  group: (g: number, field: "key" | "id" | "name" | "type" | "options" | "audience") => `groups[${g}].${field}`,
  question: (g: number, q: number, field: "key" | "id" | "text" | "helpText") =>
    `groups[${g}].questions[${q}].${field}`,
};

/** A DOM id for a posted field name: `groups[1].questions[0].text` → `groups-1-questions-0-text`. */
export function fieldId(name: string): string {
  return name.replace(/[[\].]+/g, "-").replace(/-$/, "");
}

export function emptyDraft(): FormDraft {
  return { name: "", isMainForm: false, groups: [] };
}

/** The grading labels as typed in the editor: one per line, blank lines ignored. */
export function labelsFromText(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

export function labelsToText(labels: readonly string[]): string {
  return labels.join("\n");
}

// Parsing a posted draft and the rules before saving (zod) are in form-draft.schema.ts, used by
// the server only, so the editor page does not load zod (ADR 0012).

/** Reads the `intent` button value; null for anything the page does not send. */
export function parseIntent(value: unknown): DraftIntent | null {
  if (typeof value !== "string") return null;
  if (value === "edit" || value === "preview" || value === "save" || value === "add-group") return { type: value };
  const match = /^([a-z-]+):(\d{1,4})(?::(\d{1,4}))?$/.exec(value);
  if (!match) return null;
  const [, type, first, second] = match;
  const group = Number(first);
  if (second === undefined) {
    if (type === "remove-group" || type === "move-group-up" || type === "move-group-down" || type === "add-question") {
      return { type, group };
    }
    return null;
  }
  if (type === "remove-question" || type === "move-question-up" || type === "move-question-down") {
    return { type, group, question: Number(second) };
  }
  return null;
}

// ─── Structural changes ──────────────────────────────────────────────────────

/** Moves one item up (-1) or down (+1); at either edge, or for an unknown index, nothing changes. */
export function moveItem<T>(items: readonly T[], index: number, delta: -1 | 1): T[] {
  const target = index + delta;
  if (index < 0 || index >= items.length || target < 0 || target >= items.length) return [...items];
  const moved = [...items];
  [moved[index], moved[target]] = [moved[target], moved[index]];
  return moved;
}

export function removeItem<T>(items: readonly T[], index: number): T[] {
  return items.filter((_, i) => i !== index);
}

/** A key no item of the draft has yet, for a new group or question. */
export function nextKey(draft: FormDraft): string {
  let highest = 0;
  for (const group of draft.groups) {
    for (const key of [group.key, ...group.questions.map((q) => q.key)]) {
      const match = /^n(\d+)$/.exec(key);
      if (match) highest = Math.max(highest, Number(match[1]));
    }
  }
  return `n${highest + 1}`;
}

export function addGroup(draft: FormDraft): FormDraft {
  if (draft.groups.length >= LIMITS.groups) return draft;
  const group: DraftGroup = {
    key: nextKey(draft),
    id: null,
    name: NEW_GROUP_NAME,
    type: GRADING,
    options: [...DEFAULT_GRADING_LABELS],
    audience: "all",
    questions: [],
  };
  return { ...draft, groups: [...draft.groups, group] };
}

export function addQuestion(draft: FormDraft, g: number): FormDraft {
  const group = draft.groups[g];
  if (!group || group.questions.length >= LIMITS.questionsPerGroup) return draft;
  const question: DraftQuestion = { key: nextKey(draft), id: null, text: NEW_QUESTION_TEXT, helpText: "" };
  return withGroup(draft, g, { ...group, questions: [...group.questions, question] });
}

function withGroup(draft: FormDraft, g: number, group: DraftGroup): FormDraft {
  return { ...draft, groups: draft.groups.map((existing, i) => (i === g ? group : existing)) };
}

function withQuestions(
  draft: FormDraft,
  g: number,
  change: (questions: DraftQuestion[]) => DraftQuestion[],
): FormDraft {
  const group = draft.groups[g];
  return group ? withGroup(draft, g, { ...group, questions: change(group.questions) }) : draft;
}

/** The draft after a structural button; "edit", "preview" and "save" leave it as posted. */
export function applyIntent(draft: FormDraft, intent: DraftIntent): FormDraft {
  switch (intent.type) {
    case "add-group":
      return addGroup(draft);
    case "remove-group":
      return { ...draft, groups: removeItem(draft.groups, intent.group) };
    case "move-group-up":
      return { ...draft, groups: moveItem(draft.groups, intent.group, -1) };
    case "move-group-down":
      return { ...draft, groups: moveItem(draft.groups, intent.group, 1) };
    case "add-question":
      return addQuestion(draft, intent.group);
    case "remove-question":
      return withQuestions(draft, intent.group, (qs) => removeItem(qs, intent.question));
    case "move-question-up":
      return withQuestions(draft, intent.group, (qs) => moveItem(qs, intent.question, -1));
    case "move-question-down":
      return withQuestions(draft, intent.group, (qs) => moveItem(qs, intent.question, 1));
    default:
      return draft;
  }
}

/** Orders are the positions, renumbered from 1 (groups in the form, questions in each group). */
export function numbered(draft: FormDraft) {
  return draft.groups.map((group, g) => ({
    ...group,
    order: g + 1,
    questions: group.questions.map((question, q) => ({ ...question, order: q + 1 })),
  }));
}

/** The trimmed draft that is stored; text-input groups store no labels. */
export function normalised(draft: FormDraft): FormDraft {
  return {
    name: draft.name.trim(),
    isMainForm: draft.isMainForm,
    groups: draft.groups.map((group) => ({
      ...group,
      name: group.name.trim(),
      options: group.type === GRADING ? group.options.map((o) => o.trim()).filter(Boolean) : [],
      questions: group.questions.map((q) => ({ ...q, text: q.text.trim(), helpText: q.helpText.trim() })),
    })),
  };
}

// ─── Validation before saving ────────────────────────────────────────────────

/** Field name → i18n keys of its messages; empty when the draft can be saved. */
export type FieldErrors = Record<string, string[]>;
