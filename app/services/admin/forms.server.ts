import { and, asc, count, eq, gte, inArray, isNull } from "drizzle-orm";
import { audit } from "~/services/platform/audit.server";
import type { Db } from "~/services/platform/db/client.server";
import {
  answers,
  schemeForms,
  schemes,
  classes,
  expectations,
  formQuestionGroups,
  formQuestions,
  forms,
  semesters,
} from "~/services/platform/db/schema";
import {
  DEFAULT_GRADING_LABELS,
  GRADING,
  TEXT_INPUT,
  normalised,
  numbered,
  type FieldErrors,
  type FormDraft,
} from "./form-draft";
import { validateDraft } from "./form-draft.schema";
import { osloDate } from "~/services/platform/semesters";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface FormListItem {
  id: number;
  name: string;
  isMainForm: boolean;
  groupCount: number;
  questionCount: number;
  /** Used by a response scheme of a current or future semester. */
  inUse: boolean;
}

/** The forms that are not deleted, by name, with their size and whether a running semester uses them. */
export async function listForms(db: Db, today = osloDate(new Date())): Promise<FormListItem[]> {
  const rows = await db
    .select({ id: forms.id, name: forms.name, isMainForm: forms.isMainForm })
    .from(forms)
    .where(isNull(forms.deletedAt))
    .orderBy(asc(forms.name), asc(forms.id));
  const groupCounts = await db
    .select({ formId: formQuestionGroups.formId, groups: count() })
    .from(formQuestionGroups)
    .where(isNull(formQuestionGroups.deletedAt))
    .groupBy(formQuestionGroups.formId);
  const questionCounts = await db
    .select({ formId: formQuestionGroups.formId, questions: count() })
    .from(formQuestions)
    .innerJoin(formQuestionGroups, eq(formQuestionGroups.id, formQuestions.groupId))
    .where(and(isNull(formQuestionGroups.deletedAt), isNull(formQuestions.deletedAt)))
    .groupBy(formQuestionGroups.formId);
  const inUse = await db
    .selectDistinct({ formId: schemeForms.formId })
    .from(schemeForms)
    .innerJoin(schemes, eq(schemes.id, schemeForms.schemeId))
    .innerJoin(classes, eq(classes.id, schemes.classId))
    .innerJoin(semesters, eq(semesters.id, classes.semesterId))
    .where(gte(semesters.endDate, today));
  const groupsOf = new Map(groupCounts.map((r) => [r.formId, r.groups]));
  const questionsOf = new Map(questionCounts.map((r) => [r.formId, r.questions]));
  const used = new Set(inUse.map((r) => r.formId));
  return rows.map((form) => ({
    ...form,
    groupCount: groupsOf.get(form.id) ?? 0,
    questionCount: questionsOf.get(form.id) ?? 0,
    inUse: used.has(form.id),
  }));
}

/** Question ids with answers or expected levels: the ones whose meaning must not change under them. */
async function questionsWithAnswers(db: Db | Tx, questionIds: number[]): Promise<Set<number>> {
  if (questionIds.length === 0) return new Set();
  const answered = await db
    .selectDistinct({ id: answers.questionId })
    .from(answers)
    .where(inArray(answers.questionId, questionIds));
  const expected = await db
    .selectDistinct({ id: expectations.questionId })
    .from(expectations)
    .where(inArray(expectations.questionId, questionIds));
  return new Set([...answered, ...expected].map((row) => row.id));
}

export interface StoredForm {
  id: number;
  draft: FormDraft;
  /** Live questions that have answers; the editor marks them. */
  answeredQuestionIds: number[];
  /** Groups with answers on any of their questions, removed ones included; their type is fixed. */
  answeredGroupIds: number[];
}

/** A stored form as the editor's draft, or null when there is no such form (or it is deleted). */
export async function loadForm(db: Db, formId: number): Promise<StoredForm | null> {
  const [form] = await db
    .select({ id: forms.id, name: forms.name, isMainForm: forms.isMainForm })
    .from(forms)
    .where(and(eq(forms.id, formId), isNull(forms.deletedAt)));
  if (!form) return null;
  const groups = await db
    .select()
    .from(formQuestionGroups)
    .where(and(eq(formQuestionGroups.formId, formId), isNull(formQuestionGroups.deletedAt)))
    .orderBy(asc(formQuestionGroups.order), asc(formQuestionGroups.id));
  const groupIds = groups.map((g) => g.id);
  const questions = groupIds.length
    ? await db
        .select()
        .from(formQuestions)
        .where(inArray(formQuestions.groupId, groupIds))
        .orderBy(asc(formQuestions.order), asc(formQuestions.id))
    : [];
  const answered = await questionsWithAnswers(
    db,
    questions.map((q) => q.id),
  );
  const live = questions.filter((q) => q.deletedAt === null);
  return {
    id: form.id,
    draft: {
      name: form.name,
      isMainForm: form.isMainForm,
      groups: groups.map((group) => ({
        key: `g${group.id}`,
        id: group.id,
        name: group.name,
        type: group.type === TEXT_INPUT ? TEXT_INPUT : GRADING,
        // A text group stores no labels; offer the defaults should the admin switch it to grading.
        options: group.type === TEXT_INPUT && group.options.length === 0 ? [...DEFAULT_GRADING_LABELS] : group.options,
        audience: group.audience,
        questions: live
          .filter((q) => q.groupId === group.id)
          .map((q) => ({ key: `q${q.id}`, id: q.id, text: q.text, helpText: q.helpText ?? "" })),
      })),
    },
    answeredQuestionIds: live.filter((q) => answered.has(q.id)).map((q) => q.id),
    answeredGroupIds: groups
      .filter((g) => questions.some((q) => q.groupId === g.id && answered.has(q.id)))
      .map((g) => g.id),
  };
}

export type SaveResult =
  | { status: "saved"; formId: number }
  | { status: "invalid"; errors: FieldErrors }
  | { status: "not-found" }
  /** The post names a group or question that is not this form's (or the same one twice). */
  | { status: "foreign-ids" };

interface Actor {
  userId: number;
  ip?: string | null;
}

/**
 * Saves the editor's draft: a new form when `formId` is null, else an update in one transaction.
 * Groups and questions are matched by id and changed in place, so an answer keeps pointing at the
 * question it was given to; new ones are inserted; ones left out are soft-deleted (`deletedAt`),
 * never deleted, so their answers stay. Ids are never reused, and a posted id that is not the
 * form's own (or sits under another group) refuses the whole save: a tampered post must not be
 * able to move answers from one question to another.
 */
export async function saveForm(
  db: Db,
  formId: number | null,
  posted: FormDraft,
  actor: Actor,
  now = new Date(),
): Promise<SaveResult> {
  const errors = validateDraft(posted);
  if (Object.keys(errors).length > 0) return { status: "invalid", errors };
  const draft = normalised(posted);
  return formId === null ? createForm(db, draft, actor) : updateForm(db, formId, draft, actor, now);
}

async function insertGroups(tx: Tx, formId: number, groups: ReturnType<typeof numbered>) {
  for (const group of groups) {
    const [row] = await tx
      .insert(formQuestionGroups)
      .values({
        formId,
        name: group.name,
        order: group.order,
        type: group.type,
        options: group.options,
        audience: group.audience,
      })
      .returning({ id: formQuestionGroups.id });
    await insertQuestions(tx, row.id, group.questions);
  }
}

async function insertQuestions(tx: Tx, groupId: number, questions: ReturnType<typeof numbered>[number]["questions"]) {
  if (questions.length === 0) return;
  await tx
    .insert(formQuestions)
    .values(questions.map((q) => ({ groupId, text: q.text, order: q.order, helpText: q.helpText || null })));
}

async function createForm(db: Db, draft: FormDraft, actor: Actor): Promise<SaveResult> {
  // Ids in a new form's post would be other forms' rows.
  if (draft.groups.some((g) => g.id !== null || g.questions.some((q) => q.id !== null)))
    return { status: "foreign-ids" };
  return db.transaction(async (tx) => {
    const [form] = await tx
      .insert(forms)
      .values({ name: draft.name, isMainForm: draft.isMainForm })
      .returning({ id: forms.id });
    await insertGroups(tx, form.id, numbered(draft));
    await audit(tx, {
      action: "form.created",
      actorUserId: actor.userId,
      ip: actor.ip,
      details: { formId: form.id, name: draft.name, isMainForm: draft.isMainForm },
    });
    return { status: "saved", formId: form.id };
  });
}

async function updateForm(db: Db, formId: number, draft: FormDraft, actor: Actor, now: Date): Promise<SaveResult> {
  return db.transaction(async (tx) => {
    const [form] = await tx
      .select({ id: forms.id })
      .from(forms)
      .where(and(eq(forms.id, formId), isNull(forms.deletedAt)))
      .for("update");
    if (!form) return { status: "not-found" } as const;

    const storedGroups = await tx
      .select()
      .from(formQuestionGroups)
      .where(and(eq(formQuestionGroups.formId, formId), isNull(formQuestionGroups.deletedAt)));
    const storedQuestions = storedGroups.length
      ? await tx
          .select({ id: formQuestions.id, groupId: formQuestions.groupId })
          .from(formQuestions)
          .where(
            and(
              inArray(
                formQuestions.groupId,
                storedGroups.map((g) => g.id),
              ),
              isNull(formQuestions.deletedAt),
            ),
          )
      : [];
    const groupById = new Map(storedGroups.map((g) => [g.id, g]));
    const groupOfQuestion = new Map(storedQuestions.map((q) => [q.id, q.groupId]));

    const postedGroupIds = draft.groups.flatMap((g) => (g.id === null ? [] : [g.id]));
    const postedQuestionIds = draft.groups.flatMap((g) => g.questions.flatMap((q) => (q.id === null ? [] : [q.id])));
    const ownIds =
      postedGroupIds.every((id) => groupById.has(id)) &&
      draft.groups.every((g) => g.questions.every((q) => q.id === null || groupOfQuestion.get(q.id) === g.id)) &&
      new Set(postedGroupIds).size === postedGroupIds.length &&
      new Set(postedQuestionIds).size === postedQuestionIds.length;
    if (!ownIds) return { status: "foreign-ids" } as const;

    // A grading answer is a label's index; read as typed text (or back) it would be nonsense.
    const typeErrors: FieldErrors = {};
    for (const [g, group] of draft.groups.entries()) {
      const stored = group.id === null ? undefined : groupById.get(group.id);
      if (!stored || stored.type === group.type) continue;
      const everAsked = await tx
        .select({ id: formQuestions.id })
        .from(formQuestions)
        .where(eq(formQuestions.groupId, stored.id));
      const answered = await questionsWithAnswers(
        tx,
        everAsked.map((q) => q.id),
      );
      if (answered.size > 0) typeErrors[`groups[${g}].type`] = ["adminForms:errors.typeLockedByAnswers"];
    }
    if (Object.keys(typeErrors).length > 0) return { status: "invalid", errors: typeErrors } as const;

    await tx.update(forms).set({ name: draft.name, isMainForm: draft.isMainForm }).where(eq(forms.id, formId));

    const keptGroups = new Set(postedGroupIds);
    const keptQuestions = new Set(postedQuestionIds);
    const removedGroups = storedGroups.filter((g) => !keptGroups.has(g.id)).map((g) => g.id);
    const removedQuestions = storedQuestions.filter((q) => !keptQuestions.has(q.id)).map((q) => q.id);
    if (removedQuestions.length) {
      await tx.update(formQuestions).set({ deletedAt: now }).where(inArray(formQuestions.id, removedQuestions));
    }
    if (removedGroups.length) {
      await tx.update(formQuestionGroups).set({ deletedAt: now }).where(inArray(formQuestionGroups.id, removedGroups));
    }

    let added = 0;
    for (const group of numbered(draft)) {
      if (group.id === null) {
        await insertGroups(tx, formId, [group]);
        added += 1 + group.questions.length;
        continue;
      }
      await tx
        .update(formQuestionGroups)
        .set({
          name: group.name,
          order: group.order,
          type: group.type,
          options: group.options,
          audience: group.audience,
        })
        .where(eq(formQuestionGroups.id, group.id));
      for (const question of group.questions) {
        if (question.id === null) continue;
        await tx
          .update(formQuestions)
          .set({ text: question.text, order: question.order, helpText: question.helpText || null })
          .where(eq(formQuestions.id, question.id));
      }
      const fresh = group.questions.filter((q) => q.id === null);
      await insertQuestions(tx, group.id, fresh);
      added += fresh.length;
    }

    await audit(tx, {
      action: "form.updated",
      actorUserId: actor.userId,
      ip: actor.ip,
      details: {
        formId,
        name: draft.name,
        isMainForm: draft.isMainForm,
        added,
        removedGroupIds: removedGroups,
        removedQuestionIds: removedQuestions,
      },
    });
    return { status: "saved", formId } as const;
  });
}

export type DeleteResult = { status: "deleted" } | { status: "not-found" } | { status: "in-use"; semesters: string[] };

/**
 * Deleting is a soft delete (`deletedAt`) and keeps every answer: the form leaves the lists and the
 * scheme pickers, while past semesters' answers and reports still find it. It is refused while a
 * response scheme of a current or future semester uses the form, because students and supervisors
 * are (or will be) answering it.
 */
export async function deleteForm(db: Db, formId: number, actor: Actor, now = new Date()): Promise<DeleteResult> {
  const today = osloDate(now);
  return db.transaction(async (tx) => {
    const [form] = await tx
      .select({ id: forms.id, name: forms.name })
      .from(forms)
      .where(and(eq(forms.id, formId), isNull(forms.deletedAt)))
      .for("update");
    if (!form) return { status: "not-found" } as const;
    const usedBy = await tx
      .selectDistinct({ name: semesters.name, startDate: semesters.startDate })
      .from(schemeForms)
      .innerJoin(schemes, eq(schemes.id, schemeForms.schemeId))
      .innerJoin(classes, eq(classes.id, schemes.classId))
      .innerJoin(semesters, eq(semesters.id, classes.semesterId))
      .where(and(eq(schemeForms.formId, formId), gte(semesters.endDate, today)))
      .orderBy(asc(semesters.startDate));
    if (usedBy.length > 0) return { status: "in-use", semesters: usedBy.map((p) => p.name) } as const;
    await tx.update(forms).set({ deletedAt: now }).where(eq(forms.id, formId));
    await audit(tx, {
      action: "form.deleted",
      actorUserId: actor.userId,
      ip: actor.ip,
      details: { formId, name: form.name },
    });
    return { status: "deleted" } as const;
  });
}
