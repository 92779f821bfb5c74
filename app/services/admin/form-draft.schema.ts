// The zod side of the form editor's draft: parsing a posted draft and the rules before saving.
// Used by the server (the editor's action, admin-forms.server.ts); the page does not load it.
import { z } from "zod";
import {
  GRADING,
  LIMITS,
  labelsFromText,
  normalised,
  TEXT_INPUT,
  type FieldErrors,
  type FormDraft,
} from "./form-draft";

// ─── Parsing a posted draft ──────────────────────────────────────────────────

const ITEM_KEY = /^[gqn]\d{1,9}$/;
const postedId = z.number().int().positive().max(2_147_483_647).optional();

// Lenient on purpose: a half-written draft must survive "add", "move" and "preview"; the rules
// that make a draft savable are `validateDraft`. What fails here is a post the page never sends.
const postedQuestion = z.object({
  key: z.string().regex(ITEM_KEY),
  id: postedId,
  text: z.string().default(""),
  helpText: z.string().default(""),
});

const postedGroup = z.object({
  key: z.string().regex(ITEM_KEY),
  id: postedId,
  name: z.string().default(""),
  type: z.enum(["1", "2"]).default("2"),
  options: z.string().default(""),
  audience: z.enum(["all", "student", "staff"]).default("all"),
  questions: z
    .array(postedQuestion)
    .max(LIMITS.questionsPerGroup * 2)
    .default([]),
});

/** The posted editor fields (as conform's parseWithZod reads nested names) → a draft. */
export const postedDraftSchema = z
  .object({
    name: z.string().default(""),
    isMainForm: z.boolean().default(false),
    groups: z
      .array(postedGroup)
      .max(LIMITS.groups * 2)
      .default([]),
  })
  .transform((posted): FormDraft => ({
    name: posted.name,
    isMainForm: posted.isMainForm,
    groups: posted.groups.map((g) => ({
      key: g.key,
      id: g.id ?? null,
      name: g.name,
      type: g.type === "1" ? TEXT_INPUT : GRADING,
      options: labelsFromText(g.options),
      audience: g.audience,
      questions: g.questions.map((q) => ({ key: q.key, id: q.id ?? null, text: q.text, helpText: q.helpText })),
    })),
  }));

const error = (key: string) => `adminForms:errors.${key}`;

const savableQuestion = z.object({
  text: z
    .string()
    .min(1, { error: error("questionTextRequired") })
    .max(LIMITS.questionText, { error: error("questionTextTooLong") }),
  helpText: z.string().max(LIMITS.helpText, { error: error("helpTextTooLong") }),
});

const savableGroup = z
  .object({
    name: z
      .string()
      .min(1, { error: error("groupNameRequired") })
      .max(LIMITS.groupName, { error: error("groupNameTooLong") }),
    type: z.union([z.literal(TEXT_INPUT), z.literal(GRADING)]),
    options: z.array(z.string()),
    questions: z.array(savableQuestion).max(LIMITS.questionsPerGroup, { error: error("tooManyQuestions") }),
  })
  .superRefine((group, ctx) => {
    if (group.type !== GRADING) return;
    if (group.options.length === 0)
      ctx.addIssue({ code: "custom", path: ["options"], message: error("labelsRequired") });
    if (group.options.length > LIMITS.labels)
      ctx.addIssue({ code: "custom", path: ["options"], message: error("tooManyLabels") });
    if (group.options.some((o) => o.length > LIMITS.label)) {
      ctx.addIssue({ code: "custom", path: ["options"], message: error("labelTooLong") });
    }
  });

const savableDraft = z.object({
  name: z
    .string()
    .min(1, { error: error("nameRequired") })
    .max(LIMITS.formName, { error: error("nameTooLong") }),
  isMainForm: z.boolean(),
  groups: z.array(savableGroup).max(LIMITS.groups, { error: error("tooManyGroups") }),
});

function nameOfPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((name, part) => {
    if (typeof part === "number") return `${name}[${part}]`;
    return name ? `${name}.${String(part)}` : String(part);
  }, "");
}

/** The rules a draft must meet to be saved (docs/rules/admin.md, and the limits above), after trimming. */
export function validateDraft(draft: FormDraft): FieldErrors {
  const result = savableDraft.safeParse(normalised(draft));
  if (result.success) return {};
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const name = nameOfPath(issue.path) || "name";
    (errors[name] ??= []).push(issue.message);
  }
  return errors;
}
