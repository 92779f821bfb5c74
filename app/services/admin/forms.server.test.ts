import { and, asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { userIdOf } from "~/test/app";
import { openTestDatabase } from "~/test/db";
import { deleteForm, listForms, loadForm, saveForm } from "./forms.server";
import type { Database, Db } from "~/services/platform/db/client.server";
import {
  answers,
  auditEvents,
  expectations,
  formQuestionGroups,
  formQuestions,
  forms,
} from "~/services/platform/db/schema";
import { seedDemo } from "~/services/demo/index.server";
import {
  addGroup,
  addQuestion,
  applyIntent,
  DEFAULT_GRADING_LABELS,
  GRADING,
  TEXT_INPUT,
  type FormDraft,
} from "./form-draft";

let database: Database;
let db: Db;
let admin: { userId: number; ip: string };
const today = new Date("2026-11-22T12:00:00Z");

beforeAll(async () => {
  database = await openTestDatabase();
  db = database.db;
  await seedDemo(db, today);
  admin = { userId: await userIdOf(db, "admin@example.org"), ip: "192.0.2.9" };
});
afterAll(() => database.close());

async function formIdNamed(name: string): Promise<number> {
  const [row] = await db.select({ id: forms.id }).from(forms).where(eq(forms.name, name));
  return row.id;
}

const MAIN = "Vurdering av kliniske kompetanser";
const MEDICATION = "Legemiddelhåndtering";
const WOUND_CARE = "Sårstell og infeksjonsforebygging";

async function stored(formId: number): Promise<FormDraft> {
  const form = await loadForm(db, formId);
  if (!form) throw new Error(`no form ${formId}`);
  return form.draft;
}

function newDraft(name: string): FormDraft {
  let draft: FormDraft = { name, isMainForm: false, groups: [] };
  draft = addQuestion(addQuestion(addGroup(draft), 0), 0);
  draft = addQuestion(addGroup(draft), 1);
  draft.groups[0].name = "Første";
  draft.groups[0].questions[0].text = "Spørsmål 1";
  draft.groups[0].questions[1].text = "Spørsmål 2";
  draft.groups[0].questions[1].helpText = "Hjelp";
  draft.groups[1].name = "Andre";
  draft.groups[1].type = TEXT_INPUT;
  draft.groups[1].audience = "student";
  draft.groups[1].questions[0].text = "Fritekst";
  return draft;
}

async function answerRows(formId: number) {
  const groupIds = (
    await db.select({ id: formQuestionGroups.id }).from(formQuestionGroups).where(eq(formQuestionGroups.formId, formId))
  ).map((g) => g.id);
  const questionIds = (
    await db.select({ id: formQuestions.id }).from(formQuestions).where(inArray(formQuestions.groupId, groupIds))
  ).map((q) => q.id);
  return db
    .select({ id: answers.id, questionId: answers.questionId, value: answers.value })
    .from(answers)
    .where(inArray(answers.questionId, questionIds))
    .orderBy(asc(answers.id));
}

test("the list holds the demo's main form and two specific-competency forms, with their size, all in use", async () => {
  const list = await listForms(db, "2026-11-22");
  expect(list.map((f) => [f.name, f.isMainForm, f.groupCount, f.questionCount, f.inUse])).toEqual([
    [MEDICATION, false, 1, 4, true],
    [WOUND_CARE, false, 1, 3, true],
    [MAIN, true, 5, 15, true],
  ]);
});

test("a stored form loads as a draft in order, marking its answered questions; an unknown id loads nothing", async () => {
  const form = await loadForm(db, await formIdNamed(MAIN));
  expect(form?.draft.name).toBe(MAIN);
  expect(form?.draft.isMainForm).toBe(true);
  expect(form?.draft.groups.map((g) => g.type)).toEqual([TEXT_INPUT, GRADING, GRADING, GRADING, GRADING]);
  // The self-assessment is the student's own; the graded groups are everyone's.
  expect(form?.draft.groups.map((g) => g.audience)).toEqual(["student", "all", "all", "all", "all"]);
  expect(form?.draft.groups[0].questions[2]).toMatchObject({
    text: "Hvordan opplever du veiledningen du får?",
    helpText: "Tenk på både den daglige veiledningen og veiledningssamtalene.",
  });
  expect(form?.draft.groups[1].options).toEqual([
    "Selvstendig",
    "Delvis selvstendig",
    "Veiledet",
    "Assistert",
    "Uselvstendig",
    "Ikke relevant",
  ]);
  expect(form?.answeredQuestionIds.length).toBe(15);
  expect(form?.answeredGroupIds.length).toBe(5);
  expect(await loadForm(db, 999_999)).toBeNull();
});

test("saving without an id creates the form, its groups and questions numbered from 1, and audits it", async () => {
  const result = await saveForm(db, null, newDraft("  Nytt testskjema  "), admin);
  expect(result.status).toBe("saved");
  if (result.status !== "saved") return;
  const draft = await stored(result.formId);
  expect(draft.name).toBe("Nytt testskjema");
  expect(draft.groups.map((g) => [g.name, g.type, g.audience])).toEqual([
    ["Første", GRADING, "all"],
    ["Andre", TEXT_INPUT, "student"],
  ]);
  expect(draft.groups[0].questions.map((q) => [q.text, q.helpText])).toEqual([
    ["Spørsmål 1", ""],
    ["Spørsmål 2", "Hjelp"],
  ]);
  const groups = await db
    .select()
    .from(formQuestionGroups)
    .where(eq(formQuestionGroups.formId, result.formId))
    .orderBy(asc(formQuestionGroups.id));
  expect(groups.map((g) => [g.order, g.options.length])).toEqual([
    [1, 6],
    [2, 0],
  ]);
  // The editor offers the default labels for a text group, should it become a grading group.
  expect(draft.groups[1].options).toEqual(DEFAULT_GRADING_LABELS);
  const questions = await db
    .select()
    .from(formQuestions)
    .where(eq(formQuestions.groupId, groups[0].id))
    .orderBy(asc(formQuestions.id));
  expect(questions.map((q) => [q.order, q.helpText])).toEqual([
    [1, null],
    [2, "Hjelp"],
  ]);
  const [event] = await db.select().from(auditEvents).where(eq(auditEvents.action, "form.created"));
  expect(event).toMatchObject({
    actorUserId: admin.userId,
    ip: "192.0.2.9",
    details: { formId: result.formId, name: "Nytt testskjema" },
  });
});

test("an invalid draft is not saved: the errors come back keyed by field", async () => {
  const before = (await listForms(db)).length;
  const draft = newDraft("");
  draft.groups[0].questions[1].text = "";
  const result = await saveForm(db, null, draft, admin);
  expect(result).toEqual({
    status: "invalid",
    errors: {
      name: ["adminForms:errors.nameRequired"],
      "groups[0].questions[1].text": ["adminForms:errors.questionTextRequired"],
    },
  });
  expect((await listForms(db)).length).toBe(before);
});

test("a new form's post may not carry ids of stored groups or questions", async () => {
  const main = await stored(await formIdNamed(MAIN));
  expect((await saveForm(db, null, { ...main, name: "Kopi" }, admin)).status).toBe("foreign-ids");
});

test("editing the answered main form keeps every answer on the same question; removed ones are soft-deleted", async () => {
  const formId = await formIdNamed(MAIN);
  const answersBefore = await answerRows(formId);
  expect(answersBefore.length).toBeGreaterThan(100);
  const expectationsBefore = await db
    .select({ id: expectations.id, questionId: expectations.questionId })
    .from(expectations)
    .orderBy(asc(expectations.id));

  const original = await stored(formId);
  let draft = original;
  // Reorder: group 2 moves to the top; inside it the first question moves down.
  draft = applyIntent(draft, { type: "move-group-up", group: 1 });
  draft = applyIntent(draft, { type: "move-question-down", group: 0, question: 0 });
  // Rename a question, remove an answered one, remove a whole answered group, add a question.
  draft.groups[0].questions[0].text = "Gjenkjenner endringer i pasientens tilstand (endret tekst)";
  const removedQuestionId = draft.groups[2].questions[1].id!;
  draft = applyIntent(draft, { type: "remove-question", group: 2, question: 1 });
  const removedGroup = draft.groups[4];
  draft = applyIntent(draft, { type: "remove-group", group: 4 });
  draft = addQuestion(draft, 0);
  draft.groups[0].questions[3].text = "Et nytt spørsmål";
  // Who answers a group changes with the rest of it.
  draft.groups[0].audience = "staff";

  const result = await saveForm(db, formId, draft, admin, new Date("2026-11-23T10:00:00Z"));
  expect(result).toEqual({ status: "saved", formId });

  // Not one answer (or expected level) moved, and none is gone.
  expect(await answerRows(formId)).toEqual(answersBefore);
  expect(
    await db
      .select({ id: expectations.id, questionId: expectations.questionId })
      .from(expectations)
      .orderBy(asc(expectations.id)),
  ).toEqual(expectationsBefore);

  // The renamed question is the same row; the answers on it say so.
  const after = await stored(formId);
  const renamed = after.groups[0].questions[0];
  expect(renamed.id).toBe(original.groups[1].questions[1].id);
  expect(renamed.text).toBe("Gjenkjenner endringer i pasientens tilstand (endret tekst)");
  expect(after.groups.map((g) => g.audience)).toEqual(["staff", "student", "all", "all"]);
  expect(after.groups.map((g) => g.id)).toEqual([
    original.groups[1].id,
    original.groups[0].id,
    original.groups[2].id,
    original.groups[3].id,
  ]);
  expect(after.groups[0].questions.map((q) => q.id).slice(0, 3)).toEqual([
    original.groups[1].questions[1].id,
    original.groups[1].questions[0].id,
    original.groups[1].questions[2].id,
  ]);

  // The new question has a fresh id, never one of the form's earlier rows.
  const everQuestionIds = original.groups.flatMap((g) => g.questions.map((q) => q.id));
  const added = after.groups[0].questions[3];
  expect(added.text).toBe("Et nytt spørsmål");
  expect(everQuestionIds).not.toContain(added.id);

  // Orders renumbered from 1 in the table itself.
  const liveGroups = await db
    .select({ id: formQuestionGroups.id, order: formQuestionGroups.order })
    .from(formQuestionGroups)
    .where(and(eq(formQuestionGroups.formId, formId)))
    .orderBy(asc(formQuestionGroups.order));
  const live = liveGroups.filter((g) => after.groups.some((a) => a.id === g.id));
  expect(live.map((g) => g.order)).toEqual([1, 2, 3, 4]);
  const firstGroupOrders = await db
    .select({ order: formQuestions.order })
    .from(formQuestions)
    .where(eq(formQuestions.groupId, after.groups[0].id!))
    .orderBy(asc(formQuestions.order));
  expect(firstGroupOrders.map((q) => q.order)).toEqual([1, 2, 3, 4]);

  // Removed: still there, marked deleted, answers attached.
  const [gone] = await db.select().from(formQuestions).where(eq(formQuestions.id, removedQuestionId));
  expect(gone.deletedAt).toEqual(new Date("2026-11-23T10:00:00Z"));
  expect(answersBefore.some((a) => a.questionId === removedQuestionId)).toBe(true);
  const [goneGroup] = await db.select().from(formQuestionGroups).where(eq(formQuestionGroups.id, removedGroup.id!));
  expect(goneGroup.deletedAt).not.toBeNull();
  const goneGroupQuestions = await db.select().from(formQuestions).where(eq(formQuestions.groupId, removedGroup.id!));
  expect(goneGroupQuestions).toHaveLength(3);
  expect(goneGroupQuestions.every((q) => q.deletedAt !== null)).toBe(true);
  expect(after.groups.flatMap((g) => g.questions).some((q) => q.id === removedQuestionId)).toBe(false);

  const [event] = await db.select().from(auditEvents).where(eq(auditEvents.action, "form.updated"));
  expect(event.details).toMatchObject({ formId, removedQuestionIds: expect.arrayContaining([removedQuestionId]) });
});

test("a post naming another form's question, a question under another group, or an id twice changes nothing", async () => {
  const mainId = await formIdNamed(MAIN);
  const medicationId = await formIdNamed(MEDICATION);
  const main = await stored(mainId);
  const medication = await stored(medicationId);

  const stolen = structuredClone(main);
  stolen.groups[1].questions[0] = { ...medication.groups[0].questions[0] };
  const crossGroup = structuredClone(main);
  crossGroup.groups[1].questions.push(crossGroup.groups[2].questions.pop()!);
  const twice = structuredClone(main);
  twice.groups[1].questions.push({ ...twice.groups[1].questions[0], key: "n99" });
  const foreignGroup = structuredClone(main);
  foreignGroup.groups.push({ ...medication.groups[0], questions: [] });

  for (const draft of [stolen, crossGroup, twice, foreignGroup]) {
    expect(await saveForm(db, mainId, draft, admin)).toEqual({ status: "foreign-ids" });
  }
  expect(await stored(mainId)).toEqual(main);
  expect(await stored(medicationId)).toEqual(medication);
});

test("an answered group's type cannot change; an unanswered group's can", async () => {
  const mainId = await formIdNamed(MAIN);
  const main = await stored(mainId);
  const answeredGroup = main.groups.findIndex((g) => g.type === GRADING);
  main.groups[answeredGroup].type = TEXT_INPUT;
  expect(await saveForm(db, mainId, main, admin)).toEqual({
    status: "invalid",
    errors: { [`groups[${answeredGroup}].type`]: ["adminForms:errors.typeLockedByAnswers"] },
  });

  // A form nobody has answered (the demo's forms all have answers by now).
  const created = await saveForm(db, null, newDraft("Uten svar"), admin);
  if (created.status !== "saved") throw new Error("not saved");
  const woundId = created.formId;
  const wound = await stored(woundId);
  expect(wound.groups[0].type).not.toBe(TEXT_INPUT);
  wound.groups[0].type = TEXT_INPUT;
  expect(await saveForm(db, woundId, wound, admin)).toEqual({ status: "saved", formId: woundId });
  expect((await stored(woundId)).groups[0].type).toBe(TEXT_INPUT);
  const [row] = await db.select().from(formQuestionGroups).where(eq(formQuestionGroups.formId, woundId));
  expect(row.options).toEqual([]);
});

test("saving or deleting a form that does not exist says so", async () => {
  expect(await saveForm(db, 999_999, newDraft("Finnes ikke"), admin)).toEqual({ status: "not-found" });
  expect(await deleteForm(db, 999_999, admin, today)).toEqual({ status: "not-found" });
});

test("a form in a scheme of the current semester cannot be deleted; an unused one is soft-deleted", async () => {
  const medicationId = await formIdNamed(MEDICATION);
  expect(await deleteForm(db, medicationId, admin, today)).toEqual({ status: "in-use", semesters: ["Høst 2026"] });
  expect((await stored(medicationId)).name).toBe(MEDICATION);

  const created = await saveForm(db, null, newDraft("Skal slettes"), admin);
  if (created.status !== "saved") throw new Error("not saved");
  expect(await deleteForm(db, created.formId, admin, today)).toEqual({ status: "deleted" });
  const [row] = await db.select().from(forms).where(eq(forms.id, created.formId));
  expect(row.deletedAt).not.toBeNull();
  expect(await loadForm(db, created.formId)).toBeNull();
  expect((await listForms(db)).some((f) => f.id === created.formId)).toBe(false);
  expect(await deleteForm(db, created.formId, admin, today)).toEqual({ status: "not-found" });
  expect(await saveForm(db, created.formId, newDraft("Igjen"), admin)).toEqual({ status: "not-found" });
  const [event] = await db.select().from(auditEvents).where(eq(auditEvents.action, "form.deleted"));
  expect(event.details).toMatchObject({ formId: created.formId });
});

test("once its semesters are over, the answered main form can be deleted and keeps every answer", async () => {
  const mainId = await formIdNamed(MAIN);
  const answersBefore = await answerRows(mainId);
  const later = new Date("2027-03-01T12:00:00Z");
  expect(await deleteForm(db, mainId, admin, later)).toEqual({ status: "deleted" });
  expect(await answerRows(mainId)).toEqual(answersBefore);
});
