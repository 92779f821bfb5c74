import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import { classHeader, type ClassHeader } from "~/services/admin/index.server";
import {
  answerError,
  EMPTY,
  ownGroups,
  missingGrades,
  NOT_RELEVANT,
  planWrites,
  questionIndex,
  type AnswerContent,
  type AnswerError,
  type AnswererKind,
  type AnsweringGroup,
  type Conflict,
  type PostedAnswer,
} from "./answering";
import { audit } from "~/services/platform/audit.server";
import type { Db } from "~/services/platform/db/client.server";
import {
  answers,
  answerSets,
  schemeForms,
  schemes,
  expectations,
  formQuestionGroups,
  formQuestions,
  forms,
  QUESTION_GROUP_TYPE,
  signingForms,
  studentReferences,
  users,
} from "~/services/platform/db/schema";
import { notFound } from "~/services/platform/ids";
import { requireStudentAccess, type StudentRelation, type Viewer } from "~/services/placements/index.server";
import { ROLE, type RoleId } from "~/services/identity";

/**
 * Answering a competence form and reading the answers (docs/rules/answering.md, "Drafts and
 * sending"; ADR 0007). Access is checked here, from the viewer and the URL's ids,
 * before anything of the student is read.
 */

export interface FormForAnswering {
  formId: number;
  name: string;
  isMainForm: boolean;
  /** Live groups that have live questions, in order: the pages of the form page. */
  groups: AnsweringGroup[];
}

/** A form's live groups and questions in order; null for an unknown or deleted form. */
export async function formForAnswering(db: Db, formId: number): Promise<FormForAnswering | null> {
  const [form] = await db
    .select({ id: forms.id, name: forms.name, isMainForm: forms.isMainForm })
    .from(forms)
    .where(and(eq(forms.id, formId), isNull(forms.deletedAt)));
  if (!form) return null;
  const rows = await db
    .select({
      groupId: formQuestionGroups.id,
      groupName: formQuestionGroups.name,
      groupType: formQuestionGroups.type,
      options: formQuestionGroups.options,
      audience: formQuestionGroups.audience,
      questionId: formQuestions.id,
      text: formQuestions.text,
      helpText: formQuestions.helpText,
    })
    .from(formQuestionGroups)
    .innerJoin(formQuestions, and(eq(formQuestions.groupId, formQuestionGroups.id), isNull(formQuestions.deletedAt)))
    .where(and(eq(formQuestionGroups.formId, formId), isNull(formQuestionGroups.deletedAt)))
    .orderBy(
      asc(formQuestionGroups.order),
      asc(formQuestionGroups.id),
      asc(formQuestions.order),
      asc(formQuestions.id),
    );
  const groups: AnsweringGroup[] = [];
  for (const row of rows) {
    let group = groups.at(-1);
    if (!group || group.id !== row.groupId) {
      const grading = row.groupType === QUESTION_GROUP_TYPE.Grading;
      group = {
        id: row.groupId,
        name: row.groupName,
        type: grading ? "grading" : "text",
        options: grading ? row.options : [],
        audience: row.audience,
        questions: [],
      };
      groups.push(group);
    }
    (group.questions as AnsweringGroup["questions"][number][]).push({
      id: row.questionId,
      text: row.text,
      helpText: row.helpText,
    });
  }
  return { formId: form.id, name: form.name, isMainForm: form.isMainForm, groups };
}

/** Where an answer is given: a form of a class's response scheme, about a student (none for the admin's expectations). */
export interface AnsweringPlace {
  header: ClassHeader;
  schemeId: number;
  isMidSemester: boolean;
  form: FormForAnswering;
  /** The student answered about; null on the admin's expectations page. */
  student: { userId: number; displayName: string; referenceId: number } | null;
  relation: StudentRelation;
  /** The student's signing form is locked (all have signed): nothing more is answered. */
  locked: boolean;
}

/**
 * The place the URL names, if the viewer may answer there; otherwise a 404 (a form not in the
 * scheme, a scheme of another class, a student the viewer may not see). Who may answer (ADR 0007):
 * the student about themself, the student's assigned and extra supervisors, the teachers of the
 * class, and the admin (the expected levels). A supervisor of the class who does not follow the
 * student may not see them, so may not answer either.
 */
export async function answeringPlace(
  db: Db,
  viewer: Viewer,
  ids: { classId: number; formId: number; schemeId: number; studentUserId: number | null },
): Promise<AnsweringPlace> {
  const [scheme] = await db
    .select({ schemeId: schemes.id, isMidSemester: schemes.isMidSemester })
    .from(schemes)
    .innerJoin(schemeForms, and(eq(schemeForms.schemeId, schemes.id), eq(schemeForms.formId, ids.formId)))
    .where(and(eq(schemes.id, ids.schemeId), eq(schemes.classId, ids.classId)));
  if (!scheme) notFound();

  let relation: StudentRelation = "admin";
  let student: AnsweringPlace["student"] = null;
  let locked = false;
  if (viewer.role === ROLE.Admin) {
    if (ids.studentUserId !== null) notFound();
  } else {
    if (ids.studentUserId === null) notFound();
    const access = await requireStudentAccess(db, viewer, ids.classId, ids.studentUserId);
    relation = access.relation;
    const [row] = await db
      .select({ displayName: users.displayName, locked: signingForms.isLocked })
      .from(studentReferences)
      .innerJoin(users, eq(users.id, studentReferences.studentUserId))
      .leftJoin(signingForms, eq(signingForms.studentReferenceId, studentReferences.id))
      .where(eq(studentReferences.id, access.referenceId));
    student = { userId: ids.studentUserId, displayName: row.displayName, referenceId: access.referenceId };
    locked = row.locked === true;
  }

  const [header, form] = await Promise.all([classHeader(db, ids.classId), formForAnswering(db, ids.formId)]);
  if (!header || !form) notFound();
  return {
    header,
    schemeId: scheme.schemeId,
    isMidSemester: scheme.isMidSemester,
    form,
    student,
    relation,
    locked,
  };
}

// ─── One author's answers ────────────────────────────────────────────────────

export interface StoredAnswer extends AnswerContent {
  commentedAt: Date | null;
}

export interface OwnAnswers {
  sentAt: Date | null;
  updatedAt: Date | null;
  answers: Map<number, StoredAnswer>;
}

/** The author's answer set for the place (empty when they have not begun). */
export async function ownAnswers(db: Db, place: AnsweringPlace, authorUserId: number): Promise<OwnAnswers> {
  const student = place.student ?? notFound();
  const [set] = await db
    .select({ id: answerSets.id, sentAt: answerSets.sentAt, updatedAt: answerSets.updatedAt })
    .from(answerSets)
    .where(
      and(
        eq(answerSets.formId, place.form.formId),
        eq(answerSets.schemeId, place.schemeId),
        eq(answerSets.studentUserId, student.userId),
        eq(answerSets.authorUserId, authorUserId),
      ),
    );
  if (!set) return { sentAt: null, updatedAt: null, answers: new Map() };
  const rows = await db
    .select({
      questionId: answers.questionId,
      value: answers.value,
      comment: answers.comment,
      commentedAt: answers.commentedAt,
    })
    .from(answers)
    .where(eq(answers.answerSetId, set.id));
  return {
    sentAt: set.sentAt,
    updatedAt: set.updatedAt,
    answers: new Map(rows.map(({ questionId, ...answer }) => [questionId, answer])),
  };
}

/** The admin's expected levels for the place's class, form and half; a question without one has none. */
export async function storedExpectations(db: Db, place: AnsweringPlace): Promise<Map<number, StoredAnswer>> {
  const rows = await db
    .select({ questionId: expectations.questionId, value: expectations.value })
    .from(expectations)
    .where(
      and(
        eq(expectations.classId, place.header.classId),
        eq(expectations.formId, place.form.formId),
        eq(expectations.isMidSemester, place.isMidSemester),
      ),
    );
  return new Map(rows.map((row) => [row.questionId, { value: row.value, comment: null, commentedAt: null }]));
}

// ─── Saving and sending ──────────────────────────────────────────────────────

export type PostedCheck =
  | { ok: true }
  | { ok: false; error: "unknownQuestion" }
  | { ok: false; error: "invalid"; fieldErrors: Map<number, AnswerError> };

/** Posted answers must all be questions of this form (else the post is bad: 400) and valid (else field errors). */
export function checkPosted(
  groups: readonly AnsweringGroup[],
  posted: readonly PostedAnswer[],
  options: { expectations?: boolean } = {},
): PostedCheck {
  const index = questionIndex(groups);
  const fieldErrors = new Map<number, AnswerError>();
  for (const answer of posted) {
    const group = index.get(answer.questionId);
    // The expected level is a grade; a text question has none.
    if (!group || (options.expectations && group.type !== "grading")) return { ok: false, error: "unknownQuestion" };
    const error =
      answerError(group, answer) ??
      // An expected level is a level of the scale, without comment; "Ikke relevant" (index 5) is not one.
      (options.expectations &&
      (answer.comment !== null || (answer.value === String(NOT_RELEVANT) && group.options.length > NOT_RELEVANT))
        ? "invalidValue"
        : null);
    if (error) fieldErrors.set(answer.questionId, error);
  }
  return fieldErrors.size > 0 ? { ok: false, error: "invalid", fieldErrors } : { ok: true };
}

function currentOf(
  posted: readonly PostedAnswer[],
  stored: ReadonlyMap<number, AnswerContent>,
): Map<number, AnswerContent> {
  return new Map(posted.map((p) => [p.questionId, stored.get(p.questionId) ?? EMPTY]));
}

export type SaveOutcome =
  | {
      ok: true;
      /** Every posted question's token after the save, for the page to continue from. */
      tokens: Map<number, string>;
      /** Every posted question's content as stored after the save (what its token stands for). */
      current: Map<number, AnswerContent>;
      conflicts: Conflict[];
      sentAt: Date | null;
      /** This save sent the form (it had not been sent before). */
      justSent: boolean;
      /** When sending was asked for but grades are missing: the questions without one. */
      missing: number[];
    }
  | { ok: false; error: "locked" }
  | Exclude<PostedCheck, { ok: true }>;

/**
 * Saves an author's answers on the place and, with `send`, sends the form: sending needs every
 * grade given and no conflict left (the answers are saved either way). The answer set's row is
 * locked while saving, so two saves of one set (two tabs, a double click) are applied one after the
 * other and the per-question rule of `planWrites` sees the first one's answers.
 */
export async function saveAnswers(
  db: Db,
  place: AnsweringPlace,
  author: { userId: number; roleId: RoleId },
  posted: readonly PostedAnswer[],
  options: { send: boolean; now?: Date; ip?: string | null },
): Promise<SaveOutcome> {
  const student = place.student ?? notFound();
  if (place.locked) return { ok: false, error: "locked" };
  // Only the author's own groups are answered: a staff post to the student's own group is a bad post (400).
  const groups = ownGroups(place.form.groups, answererKind(author.roleId));
  const check = checkPosted(groups, posted);
  if (!check.ok) return check;
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const key = {
      formId: place.form.formId,
      schemeId: place.schemeId,
      studentUserId: student.userId,
      authorUserId: author.userId,
    };
    await tx
      .insert(answerSets)
      .values({
        ...key,
        authorRoleId: author.roleId,
        isMidSemester: place.isMidSemester,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing();
    const [set] = await tx
      .select({ id: answerSets.id, sentAt: answerSets.sentAt })
      .from(answerSets)
      .where(
        and(
          eq(answerSets.formId, key.formId),
          eq(answerSets.schemeId, key.schemeId),
          eq(answerSets.studentUserId, key.studentUserId),
          eq(answerSets.authorUserId, key.authorUserId),
        ),
      )
      .for("update");
    // The signing form may have been locked since the page was read.
    // Held until commit, so a signature that locks the form waits for this save, or this save sees the lock.
    const [lock] = await tx
      .select({ locked: signingForms.isLocked })
      .from(signingForms)
      .where(eq(signingForms.studentReferenceId, student.referenceId))
      .for("share");
    if (lock?.locked) return { ok: false as const, error: "locked" as const };

    const storedRows = await tx
      .select({ questionId: answers.questionId, value: answers.value, comment: answers.comment })
      .from(answers)
      .where(eq(answers.answerSetId, set.id));
    const stored = new Map<number, AnswerContent>(
      storedRows.map(({ questionId, ...content }) => [questionId, content]),
    );
    const plan = planWrites(posted, stored);
    for (const write of plan.writes) {
      const before = stored.get(write.questionId) ?? EMPTY;
      const commentedAt =
        write.content.comment === null ? null : write.content.comment !== before.comment ? now : undefined;
      await tx
        .insert(answers)
        .values({
          answerSetId: set.id,
          questionId: write.questionId,
          ...write.content,
          commentedAt: commentedAt ?? null,
          updatedAt: now,
        })
        .onConflictDoUpdate({
          target: [answers.answerSetId, answers.questionId],
          set: { ...write.content, ...(commentedAt === undefined ? {} : { commentedAt }), updatedAt: now },
        });
      stored.set(write.questionId, write.content);
    }

    let sentAt = set.sentAt;
    let justSent = false;
    const missing = options.send ? missingGrades(groups, stored) : [];
    if (options.send && missing.length === 0 && plan.conflicts.length === 0 && sentAt === null) {
      sentAt = now;
      justSent = true;
    }
    if (plan.writes.length > 0 || justSent) {
      await tx.update(answerSets).set({ sentAt, updatedAt: now }).where(eq(answerSets.id, set.id));
    }
    if (justSent) {
      await audit(tx, {
        action: "answers.sent",
        actorUserId: author.userId,
        subjectUserId: student.userId,
        classId: place.header.classId,
        ip: options.ip ?? null,
        details: { formId: place.form.formId, assignmentId: place.schemeId, isMidSemester: place.isMidSemester }, // stored name
      });
    }
    return {
      ok: true as const,
      tokens: plan.tokens,
      current: currentOf(posted, stored),
      conflicts: plan.conflicts,
      sentAt,
      justSent,
      missing,
    };
  });
}

/**
 * The admin saves expected levels for the place's class, form and half, by the same per-question
 * rule as answers (two admins, or two tabs, do not overwrite each other unknowingly). A level that
 * is cleared is removed: "none" is simply no row.
 */
export async function saveExpectations(
  db: Db,
  place: AnsweringPlace,
  adminUserId: number,
  posted: readonly PostedAnswer[],
  options: { now?: Date; ip?: string | null } = {},
): Promise<Extract<SaveOutcome, { ok: true }> | Exclude<PostedCheck, { ok: true }>> {
  const check = checkPosted(place.form.groups, posted, { expectations: true });
  if (!check.ok) return check;
  const now = options.now ?? new Date();
  const scope = and(
    eq(expectations.classId, place.header.classId),
    eq(expectations.formId, place.form.formId),
    eq(expectations.isMidSemester, place.isMidSemester),
  );
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({ questionId: expectations.questionId, value: expectations.value })
      .from(expectations)
      .where(scope)
      .for("update");
    const stored = new Map<number, AnswerContent>(
      rows.map((row) => [row.questionId, { value: row.value, comment: null }]),
    );
    const plan = planWrites(posted, stored);
    for (const write of plan.writes) {
      if (write.content.value === null) {
        await tx.delete(expectations).where(and(scope, eq(expectations.questionId, write.questionId)));
        continue;
      }
      await tx
        .insert(expectations)
        .values({
          classId: place.header.classId,
          formId: place.form.formId,
          questionId: write.questionId,
          isMidSemester: place.isMidSemester,
          value: write.content.value,
          setByUserId: adminUserId,
          updatedAt: now,
        })
        .onConflictDoUpdate({
          target: [expectations.classId, expectations.formId, expectations.questionId, expectations.isMidSemester],
          set: { value: write.content.value, setByUserId: adminUserId, updatedAt: now },
        });
    }
    if (plan.writes.length > 0) {
      await audit(tx, {
        action: "expectations.saved",
        actorUserId: adminUserId,
        classId: place.header.classId,
        ip: options.ip ?? null,
        details: {
          formId: place.form.formId,
          isMidSemester: place.isMidSemester,
          questions: plan.writes.map((w) => w.questionId),
        },
      });
    }
    for (const write of plan.writes) stored.set(write.questionId, write.content);
    return {
      ok: true as const,
      tokens: plan.tokens,
      current: currentOf(posted, stored),
      conflicts: plan.conflicts,
      sentAt: null,
      justSent: false,
      missing: [],
    };
  });
}

// ─── Who sees whose answers ──────────────────────────────────────────────────

export type AuthorKind = "student" | "supervisor" | "teacher";

/** Which groups an author answers (answering.ts `ownGroups`): the student's, or the staff's. */
export function answererKind(roleId: RoleId): AnswererKind {
  return roleId === ROLE.Student ? "student" : "staff";
}

export function authorKind(roleId: RoleId): AuthorKind {
  return roleId === ROLE.Student ? "student" : roleId === ROLE.Supervisor ? "supervisor" : "teacher";
}

/**
 * An author's answers are their private draft until sent (docs/rules/answering.md). The student sees their own
 * and the supervisors' and teachers' sent answers; a teacher, a supervisor and the admin see every
 * sent answer set about the student, and their own drafts.
 */
export function maySeeSet(
  viewer: { userId: number; relation: StudentRelation },
  set: { authorUserId: number; authorRoleId: RoleId; sentAt: Date | null },
): boolean {
  if (set.authorUserId === viewer.userId) return true;
  if (set.sentAt === null) return false;
  if (viewer.relation === "self") return set.authorRoleId === ROLE.Supervisor || set.authorRoleId === ROLE.Teacher;
  return true;
}

/** Expected levels are for the staff: the teacher, the supervisors and the admin, not the student. */
export function maySeeExpectations(relation: StudentRelation): boolean {
  return relation !== "self";
}

export interface VisibleSet {
  setId: number;
  authorUserId: number;
  authorName: string;
  kind: AuthorKind;
  isMidSemester: boolean;
  schemeId: number;
  sentAt: Date | null;
  answers: Map<number, StoredAnswer>;
}

/** The answer sets about a student on a form (both halves or one scheme) that the viewer may see, with their answers. */
export async function visibleSets(
  db: Db,
  viewer: { userId: number; relation: StudentRelation },
  scope: { formId: number; studentUserId: number; schemeIds: readonly number[] },
): Promise<VisibleSet[]> {
  if (scope.schemeIds.length === 0) return [];
  const sets = await db
    .select({
      setId: answerSets.id,
      authorUserId: answerSets.authorUserId,
      authorRoleId: answerSets.authorRoleId,
      authorName: users.displayName,
      isMidSemester: answerSets.isMidSemester,
      schemeId: answerSets.schemeId,
      sentAt: answerSets.sentAt,
    })
    .from(answerSets)
    .innerJoin(users, eq(users.id, answerSets.authorUserId))
    .where(
      and(
        eq(answerSets.formId, scope.formId),
        eq(answerSets.studentUserId, scope.studentUserId),
        inArray(answerSets.schemeId, [...scope.schemeIds]),
      ),
    )
    .orderBy(asc(answerSets.id));
  const visible = sets.filter((set) => maySeeSet(viewer, set));
  if (visible.length === 0) return [];
  const rows = await db
    .select({
      setId: answers.answerSetId,
      questionId: answers.questionId,
      value: answers.value,
      comment: answers.comment,
      commentedAt: answers.commentedAt,
    })
    .from(answers)
    .where(
      inArray(
        answers.answerSetId,
        visible.map((s) => s.setId),
      ),
    );
  return visible.map(({ authorRoleId, ...set }) => ({
    ...set,
    kind: authorKind(authorRoleId),
    answers: new Map(
      rows.filter((r) => r.setId === set.setId).map(({ setId: _setId, questionId, ...answer }) => [questionId, answer]),
    ),
  }));
}
