import { eq } from "drizzle-orm";
import type { TFunction } from "i18next";
import { audit } from "~/services/platform/audit.server";
import type { Db } from "~/services/platform/db/client.server";
import { classes, studentReferences, subjects, users, warnings, type Warning } from "~/services/platform/db/schema";
import { MailNotSent, sendMail, type Mail } from "~/services/platform/email.server";
import type { Language } from "~/locales";
import type { StudentAccess } from "~/services/placements/index.server";
import { formatDayTime } from "~/services/platform/semesters";
import {
  normaliseWarning,
  sameText,
  visibleState,
  warningDecision,
  warningErrors,
  warningState,
  type WarningField,
  type WarningFieldError,
  type WarningState,
  type WarningText,
} from "./warnings";

/**
 * A student's warning in a class (ADR 0008): at most one per student reference (the table's unique
 * key), read and changed by the rules of warnings.ts. Every change runs in a transaction that first
 * locks the student's reference row, so two tabs, two teachers or a double post are applied one
 * after the other and never make two warnings; every transition is in the audit log.
 */

export interface WarningView {
  id: number;
  state: Exclude<WarningState, "none">;
  text: WarningText;
  /** The teacher who wrote it, or who gave it once given. */
  teacherName: string;
  createdAt: Date;
  updatedAt: Date;
  submittedAt: Date | null;
  confirmedAt: Date | null;
}

type Access = Pick<StudentAccess, "referenceId" | "classId" | "studentUserId" | "relation">;

function textOf(row: Pick<Warning, "comment" | "passRequirement" | "passRequirementSummary">): WarningText {
  return {
    comment: row.comment,
    passRequirement: row.passRequirement,
    passRequirementSummary: row.passRequirementSummary,
  };
}

async function rowOf(db: Db, referenceId: number): Promise<Warning | null> {
  const [row] = await db.select().from(warnings).where(eq(warnings.studentReferenceId, referenceId));
  return row ?? null;
}

/** The state of the student's warning, for the student's alert (one small query). */
export async function warningStateOf(db: Db, referenceId: number): Promise<WarningState> {
  const [row] = await db
    .select({ submittedAt: warnings.submittedAt, studentConfirmedWarningAt: warnings.studentConfirmedWarningAt })
    .from(warnings)
    .where(eq(warnings.studentReferenceId, referenceId));
  return warningState(row);
}

/** The warning as the viewer may see it; null when there is none, or only a draft the viewer may not see. */
export async function warningFor(
  db: Db,
  access: Pick<Access, "referenceId" | "relation">,
): Promise<WarningView | null> {
  const [row] = await db
    .select({ warning: warnings, teacherName: users.displayName })
    .from(warnings)
    .innerJoin(users, eq(users.id, warnings.teacherUserId))
    .where(eq(warnings.studentReferenceId, access.referenceId));
  if (!row) return null;
  const state = visibleState(access.relation, warningState(row.warning));
  if (state === "none") return null;
  const w = row.warning;
  return {
    id: w.id,
    state,
    text: textOf(w),
    teacherName: row.teacherName,
    createdAt: w.createdAt,
    updatedAt: w.updatedAt,
    submittedAt: w.submittedAt,
    confirmedAt: w.studentConfirmedWarningAt,
  };
}

/** The warning as pages show it: dates as people read them, in the page's language. */
export function warningForView(warning: WarningView, language: Language) {
  const at = (date: Date | null) => (date ? formatDayTime(date, language) : null);
  return {
    id: warning.id,
    state: warning.state,
    text: warning.text,
    teacherName: warning.teacherName,
    createdText: at(warning.createdAt)!,
    updatedText: at(warning.updatedAt)!,
    givenText: at(warning.submittedAt),
    confirmedText: at(warning.confirmedAt),
  };
}

export type WarningForView = ReturnType<typeof warningForView>;

interface ChangeInput {
  access: Access;
  actorUserId: number;
  ip?: string | null;
  now?: Date;
}

/**
 * A refusal says why. notAllowed: not this person's to do; alreadyGiven: the warning has been
 * given, so it is not edited; gone: the warning the page was showing has been deleted (or replaced)
 * meanwhile; none: there is no warning (to confirm); invalid: see fieldErrors.
 */
export type SaveOutcome =
  | { ok: true; warningId: number; created: boolean; updatedAt: Date }
  | { ok: false; error: "notAllowed" | "alreadyGiven"; state: WarningState }
  /** `currentId`: the warning there is now, if any, for the page to continue from. */
  | { ok: false; error: "gone"; state: WarningState; currentId: number | null }
  | { ok: false; error: "invalid"; fieldErrors: Partial<Record<WarningField, WarningFieldError>>; state: WarningState };

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** Locks the student's reference row, then reads the warning: the order every change takes. */
async function lockedWarning(tx: Tx, referenceId: number): Promise<Warning | null> {
  await tx
    .select({ id: studentReferences.id })
    .from(studentReferences)
    .where(eq(studentReferences.id, referenceId))
    .for("update");
  return rowOf(tx, referenceId);
}

/**
 * The page showed the warning `seenId` (null: none). A warning deleted since, or deleted and
 * written anew, is not the one the person was editing: their post must not bring it back.
 */
function stale(row: Warning | null, seenId: number | null): boolean {
  return seenId !== null && row?.id !== seenId;
}

/** Saves the draft: creates it, or changes it while it is still a draft. Drafts may be partly empty. */
export async function saveWarningDraft(
  db: Db,
  input: ChangeInput & { text: WarningText; seenId: number | null },
): Promise<SaveOutcome> {
  const text = normaliseWarning(input.text);
  return db.transaction(async (tx) => {
    const row = await lockedWarning(tx, input.access.referenceId);
    const state = warningState(row);
    const refused = refusal(input.access, "save", state);
    if (refused) return { ok: false, error: refused, state };
    if (stale(row, input.seenId)) return { ok: false, error: "gone", state, currentId: row?.id ?? null };
    const fieldErrors = warningErrors(text, "draft");
    if (Object.keys(fieldErrors).length > 0) return { ok: false, error: "invalid", fieldErrors, state };
    const now = input.now ?? new Date();
    if (row) {
      if (sameText(textOf(row), text)) return { ok: true, warningId: row.id, created: false, updatedAt: row.updatedAt };
      const [updated] = await tx
        .update(warnings)
        .set({ ...text, updatedAt: now })
        .where(eq(warnings.id, row.id))
        .returning({ updatedAt: warnings.updatedAt });
      return { ok: true, warningId: row.id, created: false, updatedAt: updated.updatedAt };
    }
    const [created] = await tx
      .insert(warnings)
      .values({
        studentReferenceId: input.access.referenceId,
        teacherUserId: input.actorUserId,
        ...text,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: warnings.id, updatedAt: warnings.updatedAt });
    await audit(tx, {
      action: "warning.created",
      actorUserId: input.actorUserId,
      subjectUserId: input.access.studentUserId,
      classId: input.access.classId,
      ip: input.ip ?? null,
      details: { warningId: created.id },
    });
    return { ok: true, warningId: created.id, created: true, updatedAt: created.updatedAt };
  });
}

export type SubmitOutcome =
  { ok: true; warningId: number; changed: boolean; mailSent: boolean } | Extract<SaveOutcome, { ok: false }>;

/** What the mail to the student needs from the caller: texts in the student's language, and the app's address. */
export interface WarningMailContext {
  t: TFunction;
  origin: string;
  appName: string;
}

/**
 * Gives the warning: all three texts required. The student is told by e-mail (without the text:
 * they log in to read it). A second post of the same warning (a double click, a reload) changes
 * nothing and mails nobody.
 */
export async function submitWarning(
  db: Db,
  input: ChangeInput & { text: WarningText; seenId: number | null; mail: WarningMailContext },
): Promise<SubmitOutcome> {
  const text = normaliseWarning(input.text);
  const now = input.now ?? new Date();
  const outcome = await db.transaction(async (tx): Promise<SubmitOutcome> => {
    const row = await lockedWarning(tx, input.access.referenceId);
    const state = warningState(row);
    if (row && (state === "given" || state === "confirmed") && input.access.relation === "teacher") {
      const repeated = (input.seenId === null || input.seenId === row.id) && sameText(textOf(row), text);
      return repeated
        ? { ok: true, warningId: row.id, changed: false, mailSent: false }
        : { ok: false, error: "alreadyGiven", state };
    }
    const refused = refusal(input.access, "submit", state);
    if (refused) return { ok: false, error: refused, state };
    if (stale(row, input.seenId)) return { ok: false, error: "gone", state, currentId: row?.id ?? null };
    const fieldErrors = warningErrors(text, "submit");
    if (Object.keys(fieldErrors).length > 0) return { ok: false, error: "invalid", fieldErrors, state };
    // The teacher who gives the warning answers for it, whoever began the draft.
    const values = { ...text, teacherUserId: input.actorUserId, submittedAt: now, updatedAt: now };
    const [saved] = row
      ? await tx.update(warnings).set(values).where(eq(warnings.id, row.id)).returning({ id: warnings.id })
      : await tx
          .insert(warnings)
          .values({ studentReferenceId: input.access.referenceId, createdAt: now, ...values })
          .returning({ id: warnings.id });
    await audit(tx, {
      action: "warning.submitted",
      actorUserId: input.actorUserId,
      subjectUserId: input.access.studentUserId,
      classId: input.access.classId,
      ip: input.ip ?? null,
      // The text as the student received it: it stays in the trail if the warning is deleted later.
      details: { warningId: saved.id, created: row === null, ...text },
    });
    return { ok: true, warningId: saved.id, changed: true, mailSent: false };
  });
  if (!outcome.ok || !outcome.changed) return outcome;
  return { ...outcome, mailSent: await mailStudent(db, input.access, input.mail) };
}

/** A short notice without the warning's text, which belongs behind the log-in. */
export function warningGivenMail(
  t: TFunction,
  input: { to: string; studentName: string; subject: string; origin: string; appName: string },
): Mail {
  const values = {
    name: input.studentName,
    subject: input.subject,
    link: `${input.origin}/student/warning`,
    appName: input.appName,
  };
  return {
    to: input.to,
    subject: t("mail.subject", values),
    text: [
      t("mail.greeting", values),
      "",
      t("mail.given", values),
      "",
      t("mail.howTo", values),
      values.link,
      "",
      t("mail.signature", values),
    ].join("\n"),
  };
}

async function mailStudent(db: Db, access: Access, mail: WarningMailContext): Promise<boolean> {
  const [student] = await db
    .select({
      email: users.email,
      name: users.displayName,
      subjectCode: subjects.subjectCode,
      subjectName: subjects.name,
    })
    .from(studentReferences)
    .innerJoin(users, eq(users.id, studentReferences.studentUserId))
    .innerJoin(classes, eq(classes.id, studentReferences.classId))
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .where(eq(studentReferences.id, access.referenceId));
  try {
    await sendMail(
      warningGivenMail(mail.t, {
        to: student.email,
        studentName: student.name,
        subject: `${student.subjectCode} ${student.subjectName}`,
        origin: mail.origin,
        appName: mail.appName,
      }),
      { purpose: "warning notice" },
    );
    return true;
  } catch (error) {
    if (!(error instanceof MailNotSent)) throw error;
    // The warning is given either way (the mail service logged why the mail was not); the teacher
    // is told to let the student know themself.
    return false;
  }
}

/** `deleted`: the state of the warning the delete took away; null when there was none. */
export type DeleteOutcome =
  { ok: true; deleted: WarningState | null } | { ok: false; error: "notAllowed" | "gone"; state: WarningState };

/**
 * Deletes the warning, in any state: none is left (docs/rules/warnings.md). The trail keeps who deleted
 * what, and when it had been given and confirmed. Deleting what is already gone is done.
 */
export async function deleteWarning(db: Db, input: ChangeInput & { seenId: number }): Promise<DeleteOutcome> {
  return db.transaction(async (tx) => {
    const row = await lockedWarning(tx, input.access.referenceId);
    const state = warningState(row);
    if (warningDecision(input.access.relation, "delete", state) === "notAllowed")
      return { ok: false, error: "notAllowed", state };
    if (!row) return { ok: true, deleted: null };
    // Another warning than the one confirmed for deletion (deleted and written anew meanwhile).
    if (row.id !== input.seenId) return { ok: false, error: "gone", state };
    await tx.delete(warnings).where(eq(warnings.id, row.id));
    await audit(tx, {
      action: "warning.deleted",
      actorUserId: input.actorUserId,
      subjectUserId: input.access.studentUserId,
      classId: input.access.classId,
      ip: input.ip ?? null,
      details: {
        warningId: row.id,
        state,
        createdAt: row.createdAt.toISOString(),
        submittedAt: row.submittedAt?.toISOString() ?? null,
        confirmedAt: row.studentConfirmedWarningAt?.toISOString() ?? null,
      },
    });
    return { ok: true, deleted: state };
  });
}

export type ConfirmOutcome =
  { ok: true; changed: boolean } | { ok: false; error: "notAllowed" | "none" | "gone"; state: WarningState };

/**
 * The student confirms having read the given warning — the one their page showed (`seenId`): a
 * warning deleted and given anew meanwhile is not the one they read. Confirming twice is done.
 */
export async function confirmWarning(db: Db, input: ChangeInput & { seenId: number }): Promise<ConfirmOutcome> {
  return db.transaction(async (tx) => {
    const row = await lockedWarning(tx, input.access.referenceId);
    const state = warningState(row);
    const decision = warningDecision(input.access.relation, "confirm", state);
    if (decision === "notAllowed") return { ok: false, error: "notAllowed", state };
    if (!row || state === "draft") return { ok: false, error: "none", state };
    if (row.id !== input.seenId) return { ok: false, error: "gone", state };
    if (state === "confirmed") return { ok: true, changed: false };
    const now = input.now ?? new Date();
    // updatedAt stays the teacher's last change of the text.
    await tx
      .update(warnings)
      .set({ studentConfirmedWarningAt: now, updatedAt: row.updatedAt })
      .where(eq(warnings.id, row.id));
    await audit(tx, {
      action: "warning.confirmed",
      actorUserId: input.actorUserId,
      subjectUserId: input.access.studentUserId,
      classId: input.access.classId,
      ip: input.ip ?? null,
      details: { warningId: row.id },
    });
    return { ok: true, changed: true };
  });
}

/** Why `action` is refused for the viewer in `state`, in the terms of the outcomes above; null when allowed. */
function refusal(access: Access, action: "save" | "submit", state: WarningState): "notAllowed" | "alreadyGiven" | null {
  const decision = warningDecision(access.relation, action, state);
  if (decision === "ok") return null;
  return decision === "notAllowed" ? "notAllowed" : "alreadyGiven";
}
