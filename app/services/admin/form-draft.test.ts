import { parseWithZod } from "@conform-to/zod/v4";
import { expect, test } from "vitest";
import {
  addGroup,
  addQuestion,
  applyIntent,
  DEFAULT_GRADING_LABELS,
  emptyDraft,
  fieldId,
  GRADING,
  LIMITS,
  moveItem,
  NEW_GROUP_NAME,
  NEW_QUESTION_TEXT,
  numbered,
  parseIntent,
  TEXT_INPUT,
  type FormDraft,
} from "./form-draft";
import { postedDraftSchema, validateDraft } from "./form-draft.schema";

function draftWith(...groups: { name: string; questions: string[]; type?: 1 | 2 }[]): FormDraft {
  let n = 0;
  return {
    name: "Skjema",
    isMainForm: false,
    groups: groups.map((g) => ({
      key: `n${++n}`,
      id: null,
      name: g.name,
      type: g.type ?? GRADING,
      options: [...DEFAULT_GRADING_LABELS],
      audience: "all" as const,
      questions: g.questions.map((text) => ({ key: `n${++n}`, id: null, text, helpText: "" })),
    })),
  };
}

const texts = (draft: FormDraft, g: number) => draft.groups[g].questions.map((q) => q.text);

test("the default labels are the five independence levels, then 'Ikke relevant' at index 5", () => {
  expect(DEFAULT_GRADING_LABELS).toEqual([
    "Selvstendig",
    "Delvis selvstendig",
    "Veiledet",
    "Assistert",
    "Uselvstendig",
    "Ikke relevant",
  ]);
});

test("a new group is 'Ny gruppe', graded on the default labels; a new question is 'Nytt spørsmål'", () => {
  const draft = addQuestion(addGroup(emptyDraft()), 0);
  expect(draft.groups).toHaveLength(1);
  expect(draft.groups[0]).toMatchObject({
    name: NEW_GROUP_NAME,
    type: GRADING,
    id: null,
    options: DEFAULT_GRADING_LABELS,
    audience: "all",
  });
  expect(NEW_GROUP_NAME).toBe("Ny gruppe");
  expect(texts(draft, 0)).toEqual([NEW_QUESTION_TEXT]);
  expect(NEW_QUESTION_TEXT).toBe("Nytt spørsmål");
});

test("every new item gets a key no other item has", () => {
  let draft = addGroup(emptyDraft());
  draft = addQuestion(draft, 0);
  draft = addGroup(draft);
  draft = addQuestion(draft, 1);
  draft = addQuestion(draft, 0);
  const keys = draft.groups.flatMap((g) => [g.key, ...g.questions.map((q) => q.key)]);
  expect(new Set(keys).size).toBe(keys.length);
});

test("orders are renumbered from 1, for groups and for the questions in each group", () => {
  const draft = applyIntent(draftWith({ name: "A", questions: ["a1", "a2", "a3"] }, { name: "B", questions: ["b1"] }), {
    type: "remove-question",
    group: 0,
    question: 0,
  });
  const groups = numbered(draft);
  expect(groups.map((g) => g.order)).toEqual([1, 2]);
  expect(groups[0].questions.map((q) => [q.text, q.order])).toEqual([
    ["a2", 1],
    ["a3", 2],
  ]);
  expect(groups[1].questions.map((q) => q.order)).toEqual([1]);
});

test("moving up and down swaps neighbours; at the edges nothing changes", () => {
  expect(moveItem(["a", "b", "c"], 1, -1)).toEqual(["b", "a", "c"]);
  expect(moveItem(["a", "b", "c"], 1, 1)).toEqual(["a", "c", "b"]);
  expect(moveItem(["a", "b", "c"], 0, -1)).toEqual(["a", "b", "c"]);
  expect(moveItem(["a", "b", "c"], 2, 1)).toEqual(["a", "b", "c"]);
  expect(moveItem(["a", "b", "c"], 7, -1)).toEqual(["a", "b", "c"]);
  expect(moveItem([], 0, 1)).toEqual([]);
});

test("questions move within their group; groups move with their questions", () => {
  const start = draftWith({ name: "A", questions: ["a1", "a2", "a3"] }, { name: "B", questions: ["b1", "b2"] });
  expect(texts(applyIntent(start, { type: "move-question-down", group: 0, question: 0 }), 0)).toEqual([
    "a2",
    "a1",
    "a3",
  ]);
  expect(texts(applyIntent(start, { type: "move-question-up", group: 0, question: 2 }), 0)).toEqual(["a1", "a3", "a2"]);
  expect(texts(applyIntent(start, { type: "move-question-up", group: 1, question: 0 }), 1)).toEqual(["b1", "b2"]);
  expect(texts(applyIntent(start, { type: "move-question-down", group: 1, question: 1 }), 1)).toEqual(["b1", "b2"]);

  const swapped = applyIntent(start, { type: "move-group-up", group: 1 });
  expect(swapped.groups.map((g) => g.name)).toEqual(["B", "A"]);
  expect(texts(swapped, 0)).toEqual(["b1", "b2"]);
  expect(applyIntent(start, { type: "move-group-up", group: 0 })).toEqual(start);
  expect(applyIntent(start, { type: "move-group-down", group: 1 })).toEqual(start);
});

test("removing a group or a question removes only that one; an unknown index changes nothing", () => {
  const start = draftWith({ name: "A", questions: ["a1", "a2"] }, { name: "B", questions: ["b1"] });
  expect(applyIntent(start, { type: "remove-group", group: 0 }).groups.map((g) => g.name)).toEqual(["B"]);
  expect(texts(applyIntent(start, { type: "remove-question", group: 0, question: 1 }), 0)).toEqual(["a1"]);
  expect(applyIntent(start, { type: "remove-group", group: 5 })).toEqual(start);
  expect(applyIntent(start, { type: "remove-question", group: 3, question: 0 })).toEqual(start);
  expect(applyIntent(start, { type: "add-question", group: 3 })).toEqual(start);
});

test("adding stops at the limits", () => {
  let draft = emptyDraft();
  for (let i = 0; i < LIMITS.groups + 3; i++) draft = addGroup(draft);
  expect(draft.groups).toHaveLength(LIMITS.groups);
  for (let i = 0; i < LIMITS.questionsPerGroup + 3; i++) draft = addQuestion(draft, 0);
  expect(draft.groups[0].questions).toHaveLength(LIMITS.questionsPerGroup);
});

test("the intent names the page sends are understood; anything else is not", () => {
  expect(parseIntent("save")).toEqual({ type: "save" });
  expect(parseIntent("preview")).toEqual({ type: "preview" });
  expect(parseIntent("add-group")).toEqual({ type: "add-group" });
  expect(parseIntent("remove-group:2")).toEqual({ type: "remove-group", group: 2 });
  expect(parseIntent("add-question:0")).toEqual({ type: "add-question", group: 0 });
  expect(parseIntent("move-question-down:1:3")).toEqual({ type: "move-question-down", group: 1, question: 3 });
  for (const bad of [
    undefined,
    "",
    "delete",
    "remove-group",
    "remove-group:x",
    "move-question-up:1",
    "add-group:1:2",
    "save:1",
  ]) {
    expect(parseIntent(bad)).toBeNull();
  }
});

test("a posted draft is read with its ids, keys, types and one label per line", () => {
  const form = new FormData();
  form.set("name", "Mitt skjema");
  form.set("isMainForm", "on");
  form.set("groups[0].key", "g12");
  form.set("groups[0].id", "12");
  form.set("groups[0].name", "Gruppe");
  form.set("groups[0].type", "2");
  form.set("groups[0].options", "Bra\r\n\r\n  Dårlig  \r\n");
  form.set("groups[0].questions[0].key", "q40");
  form.set("groups[0].questions[0].id", "40");
  form.set("groups[0].questions[0].text", "Spørsmål");
  form.set("groups[0].questions[1].key", "n1");
  form.set("groups[0].questions[1].text", "");
  form.set("groups[1].key", "n2");
  form.set("groups[1].type", "1");
  form.set("groups[1].audience", "student");
  const submission = parseWithZod(form, { schema: postedDraftSchema });
  expect(submission.status).toBe("success");
  if (submission.status !== "success") return;
  expect(submission.value).toEqual({
    name: "Mitt skjema",
    isMainForm: true,
    groups: [
      {
        key: "g12",
        id: 12,
        name: "Gruppe",
        type: GRADING,
        options: ["Bra", "Dårlig"],
        audience: "all",
        questions: [
          { key: "q40", id: 40, text: "Spørsmål", helpText: "" },
          { key: "n1", id: null, text: "", helpText: "" },
        ],
      },
      { key: "n2", id: null, name: "", type: TEXT_INPUT, options: [], audience: "student", questions: [] },
    ],
  });
});

test("a post the page never sends is refused: bad keys, ids or types", () => {
  for (const [name, value] of [
    ["groups[0].key", "<script>"],
    ["groups[0].id", "-3"],
    ["groups[0].id", "abc"],
    ["groups[0].type", "0"],
    ["groups[0].audience", "teacher"],
  ]) {
    const form = new FormData();
    form.set("groups[0].key", "n1");
    form.set(name, value);
    expect(parseWithZod(form, { schema: postedDraftSchema }).status, `${name}=${value}`).toBe("error");
  }
});

test("a savable draft has no errors", () => {
  expect(
    validateDraft(draftWith({ name: "A", questions: ["a1"] }, { name: "B", questions: [], type: TEXT_INPUT })),
  ).toEqual({});
  expect(validateDraft({ ...emptyDraft(), name: "Tomt skjema" })).toEqual({});
});

test("the form's name is required (blank is empty) and at most 200 characters", () => {
  expect(validateDraft({ ...emptyDraft(), name: "   " })).toEqual({ name: ["adminForms:errors.nameRequired"] });
  expect(validateDraft({ ...emptyDraft(), name: "x".repeat(LIMITS.formName) })).toEqual({});
  expect(validateDraft({ ...emptyDraft(), name: "x".repeat(LIMITS.formName + 1) })).toEqual({
    name: ["adminForms:errors.nameTooLong"],
  });
});

test("group names and question texts are required, with maximum lengths; errors are keyed by field name", () => {
  const draft = draftWith(
    { name: "", questions: ["ok", " "] },
    { name: "y".repeat(LIMITS.groupName + 1), questions: ["z".repeat(LIMITS.questionText + 1)] },
  );
  draft.groups[0].questions[0].helpText = "h".repeat(LIMITS.helpText + 1);
  expect(validateDraft(draft)).toEqual({
    "groups[0].name": ["adminForms:errors.groupNameRequired"],
    "groups[0].questions[0].helpText": ["adminForms:errors.helpTextTooLong"],
    "groups[0].questions[1].text": ["adminForms:errors.questionTextRequired"],
    "groups[1].name": ["adminForms:errors.groupNameTooLong"],
    "groups[1].questions[0].text": ["adminForms:errors.questionTextTooLong"],
  });
});

test("a grading group needs at least one label, at most ten, each at most 100 characters; a text group needs none", () => {
  const draft = draftWith(
    { name: "A", questions: [] },
    { name: "B", questions: [] },
    { name: "C", questions: [] },
    { name: "D", questions: [], type: TEXT_INPUT },
  );
  draft.groups[0].options = ["  ", ""];
  draft.groups[1].options = Array.from({ length: LIMITS.labels + 1 }, (_, i) => `L${i}`);
  draft.groups[2].options = ["ok", "l".repeat(LIMITS.label + 1)];
  draft.groups[3].options = [];
  expect(validateDraft(draft)).toEqual({
    "groups[0].options": ["adminForms:errors.labelsRequired"],
    "groups[1].options": ["adminForms:errors.tooManyLabels"],
    "groups[2].options": ["adminForms:errors.labelTooLong"],
  });
});

test("field names become DOM ids the error summary can link to", () => {
  expect(fieldId("groups[1].questions[0].text")).toBe("groups-1-questions-0-text");
  expect(fieldId("name")).toBe("name");
});
