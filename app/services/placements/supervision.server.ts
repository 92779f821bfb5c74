import { and, eq, inArray, isNotNull, isNull, or, sql } from "drizzle-orm";
import { byDisplayName, classHeader, schemesOfClass } from "~/services/admin/index.server";
import { audit } from "~/services/platform/audit.server";
import {
  claimStudents,
  placeConflict,
  studiesInClass,
  type ClaimedStudent,
  type PlaceConflict,
} from "./placement-roles.server";
import type { Db } from "~/services/platform/db/client.server";
import {
  answerSets,
  classSupervisors,
  classes,
  semesters,
  signingForms,
  studentExtraSupervisors,
  studentReferences,
  subjects,
  users,
  warnings,
} from "~/services/platform/db/schema";
import {
  signingColumns,
  signingSummary,
  warningSummary,
  type ProgressRow,
  type SigningSummary,
} from "./class-progress.server";
import { currentHalf, deadlineText, type SemesterHalf } from "./deadline";
import type { SupervisorClassSummary } from "./overview.server";
import type { Placement } from "./placement.server";
import { ROLE } from "~/services/identity";
import { formatDay, osloDate } from "~/services/platform/semesters";

/**
 * Who supervises whom: the teacher chooses a student's supervisor and extra supervisors (role id 4),
 * a supervisor attached to a class takes students who have none yet, and the supervisor's own view
 * of a class. Callers check access first (permissions.server.ts); the rules here are about which
 * people may fill which place.
 */

type Language = "nb" | "en";

// ─── The placement as a page shows it ────────────────────────────────────────

/** Placement with its instants and dates as text for the reader's language (see StudentPlacement). */
export function placementForView(placement: Placement, language: Language) {
  const day = (at: Date | null) => (at ? formatDay(osloDate(at), language) : null);
  const { header, half, schemes, ...people } = placement;
  return {
    ...people,
    header,
    half: {
      half: half.half,
      deadline: half.deadline,
      deadlineText: half.deadline ? deadlineText(half.deadline) : null,
    },
    schemes: schemes.map((scheme) => ({
      schemeId: scheme.schemeId,
      isMidSemester: scheme.isMidSemester,
      forms: scheme.forms.map((form) => ({
        schemeId: form.schemeId,
        formId: form.formId,
        name: form.name,
        isMainForm: form.isMainForm,
        isMidSemester: form.isMidSemester,
        own: { state: form.own.state, atText: day(form.own.at) },
        sentBy: {
          student: day(form.sentBy.student),
          supervisor: day(form.sentBy.supervisor),
          teacher: day(form.sentBy.teacher),
        },
      })),
    })),
  };
}

export type PlacementView = ReturnType<typeof placementForView>;

// ─── The teacher chooses supervisors ─────────────────────────────────────────

export interface SupervisorChoice {
  userId: number;
  displayName: string;
  email: string;
}

/** The active supervisors attached to the class (class_advisors), by name: who a teacher may choose. */
export async function supervisorsOfClass(db: Db, classId: number): Promise<SupervisorChoice[]> {
  const rows = await db
    .select({ userId: users.id, displayName: users.displayName, email: users.email })
    .from(classSupervisors)
    .innerJoin(users, eq(users.id, classSupervisors.userId))
    .where(and(eq(classSupervisors.classId, classId), eq(users.isActive, true)));
  return byDisplayName(rows);
}

/** A person's display name for a message; empty for an unknown id. */
export async function displayNameOf(db: Db, userId: number): Promise<string> {
  const [row] = await db.select({ displayName: users.displayName }).from(users).where(eq(users.id, userId));
  return row?.displayName ?? "";
}

/** An active supervisor of the class; the membership row stays locked until commit, so a detachment waits. */
async function isChoosableSupervisor(tx: Db, classId: number, userId: number): Promise<boolean> {
  const [row] = await tx
    .select({ userId: classSupervisors.userId })
    .from(classSupervisors)
    .innerJoin(users, eq(users.id, classSupervisors.userId))
    .where(and(eq(classSupervisors.classId, classId), eq(classSupervisors.userId, userId), eq(users.isActive, true)))
    .for("share", { of: classSupervisors });
  return row !== undefined;
}

const referenceColumns = {
  studentUserId: studentReferences.studentUserId,
  teacherUserId: studentReferences.teacherUserId,
  supervisorUserId: studentReferences.supervisorUserId,
};

interface ReferenceInput {
  referenceId: number;
  classId: number;
  studentUserId: number;
  actorUserId: number;
  ip?: string | null;
}

export type SetSupervisorResult =
  { ok: true; changed: boolean } | { ok: false; error: "notClassSupervisor" | "notFound" | PlaceConflict };

/** Whether the person may follow the student as a supervisor (placement-roles.server.ts). */
async function supervisorConflict(
  tx: Db,
  classId: number,
  userId: number,
  reference: { studentUserId: number; teacherUserId: number | null; supervisorUserId: number | null },
): Promise<PlaceConflict | null> {
  const person = { userId, studiesInClass: await studiesInClass(tx, classId, userId), isExtraSupervisor: false };
  return placeConflict("supervisor", person, reference);
}

/**
 * Sets (or with null, clears) the student's assigned supervisor. The new one must be an active
 * supervisor attached to the class; keeping the current one is always allowed (an invited
 * supervisor follows the student without being attached). Someone who followed the student as an
 * extra supervisor stops being one: they now follow as the assigned supervisor.
 */
export async function setAssignedSupervisor(
  db: Db,
  input: ReferenceInput & { supervisorUserId: number | null },
): Promise<SetSupervisorResult> {
  return db.transaction(async (tx) => {
    const [ref] = await tx
      .select(referenceColumns)
      .from(studentReferences)
      .where(and(eq(studentReferences.id, input.referenceId), eq(studentReferences.classId, input.classId)))
      .for("update");
    if (!ref) return { ok: false as const, error: "notFound" as const };
    if (ref.supervisorUserId === input.supervisorUserId) return { ok: true as const, changed: false };
    if (input.supervisorUserId !== null) {
      if (!(await isChoosableSupervisor(tx, input.classId, input.supervisorUserId))) {
        return { ok: false as const, error: "notClassSupervisor" as const };
      }
      const conflict = await supervisorConflict(tx, input.classId, input.supervisorUserId, ref);
      if (conflict) return { ok: false as const, error: conflict };
    }
    await tx
      .update(studentReferences)
      .set({ supervisorUserId: input.supervisorUserId })
      .where(eq(studentReferences.id, input.referenceId));
    if (input.supervisorUserId !== null) {
      await tx
        .delete(studentExtraSupervisors)
        .where(
          and(
            eq(studentExtraSupervisors.studentReferenceId, input.referenceId),
            eq(studentExtraSupervisors.userId, input.supervisorUserId),
          ),
        );
    }
    await audit(tx, {
      action: "student.advisor_assigned",
      actorUserId: input.actorUserId,
      subjectUserId: input.studentUserId,
      classId: input.classId,
      details: { from: ref.supervisorUserId, to: input.supervisorUserId },
      ip: input.ip,
    });
    return { ok: true as const, changed: true };
  });
}

export type AddExtraResult =
  | { ok: true }
  | { ok: false; error: "notClassSupervisor" | "isAssigned" | "alreadyExtra" | "notFound" | PlaceConflict };

/** Adds an extra supervisor (role id 4): an active supervisor of the class, not already following the student. */
export async function addExtraSupervisor(db: Db, input: ReferenceInput & { userId: number }): Promise<AddExtraResult> {
  return db.transaction(async (tx) => {
    const [ref] = await tx
      .select(referenceColumns)
      .from(studentReferences)
      .where(and(eq(studentReferences.id, input.referenceId), eq(studentReferences.classId, input.classId)))
      .for("update");
    if (!ref) return { ok: false as const, error: "notFound" as const };
    if (!(await isChoosableSupervisor(tx, input.classId, input.userId))) {
      return { ok: false as const, error: "notClassSupervisor" as const };
    }
    if (ref.supervisorUserId === input.userId) return { ok: false as const, error: "isAssigned" as const };
    const conflict = await supervisorConflict(tx, input.classId, input.userId, ref);
    if (conflict) return { ok: false as const, error: conflict };
    const inserted = await tx
      .insert(studentExtraSupervisors)
      .values({ studentReferenceId: input.referenceId, userId: input.userId, roleId: ROLE.Supervisor })
      .onConflictDoNothing()
      .returning({ userId: studentExtraSupervisors.userId });
    if (inserted.length === 0) return { ok: false as const, error: "alreadyExtra" as const };
    await audit(tx, {
      action: "student.extra_supervisor_added",
      actorUserId: input.actorUserId,
      subjectUserId: input.studentUserId,
      classId: input.classId,
      details: { supervisorUserId: input.userId },
      ip: input.ip,
    });
    return { ok: true as const };
  });
}

/** Removes an extra supervisor; refused when the person is not one of the student's extra supervisors. */
export async function removeExtraSupervisor(
  db: Db,
  input: ReferenceInput & { userId: number },
): Promise<{ ok: true } | { ok: false; error: "notExtra" }> {
  return db.transaction(async (tx) => {
    const removed = await tx
      .delete(studentExtraSupervisors)
      .where(
        and(
          eq(studentExtraSupervisors.studentReferenceId, input.referenceId),
          eq(studentExtraSupervisors.userId, input.userId),
        ),
      )
      .returning({ userId: studentExtraSupervisors.userId });
    if (removed.length === 0) return { ok: false as const, error: "notExtra" as const };
    await audit(tx, {
      action: "student.extra_supervisor_removed",
      actorUserId: input.actorUserId,
      subjectUserId: input.studentUserId,
      classId: input.classId,
      details: { supervisorUserId: input.userId },
      ip: input.ip,
    });
    return { ok: true as const };
  });
}

// ─── The supervisor's view of a class ────────────────────────────────────────

export interface OwnStudent {
  userId: number;
  displayName: string;
  email: string;
  isActive: boolean;
  relation: "assigned" | "extra";
  teacherName: string | null;
  /** The half the student is in now, and how many of its forms the supervisor has sent. */
  half: SemesterHalf;
  formsSent: number;
  formsTotal: number;
  warning: ProgressRow["warning"];
  signing: SigningSummary;
}

/** A teacher's draft is no warning to a supervisor (the warnings domain's rule of who reads what). */
function visibleWarning(state: ProgressRow["warning"]): ProgressRow["warning"] {
  return state === "draft" ? "none" : state;
}

/**
 * Whether the supervisor may take students of the class: attached to it by a teacher or an admin.
 * One who came through a student's invitation follows that student only (ADR 0006).
 */
export async function isAttachedSupervisor(db: Db, classId: number, userId: number, lock?: "share"): Promise<boolean> {
  const query = db
    .select({ userId: classSupervisors.userId })
    .from(classSupervisors)
    .where(
      and(
        eq(classSupervisors.classId, classId),
        eq(classSupervisors.userId, userId),
        eq(classSupervisors.viaInvitation, false),
      ),
    );
  const [row] = lock ? await query.for(lock) : await query;
  return row !== undefined;
}

/**
 * What a supervisor sees of a class: its header, schemes, their own students (assigned or extra)
 * with how far they are with the current half's forms, and — when attached to the class — the
 * students who have no supervisor yet (names only). Null for an unknown class.
 */
export async function supervisorClassPage(
  db: Db,
  classId: number,
  supervisorUserId: number,
  today = osloDate(new Date()),
) {
  const header = await classHeader(db, classId);
  if (!header) return null;
  const schemes = (await schemesOfClass(db, classId)).map((s) => ({ ...s, forms: s.forms.filter((f) => !f.deleted) }));
  const attached = await isAttachedSupervisor(db, classId, supervisorUserId);

  const teacherName = sql<
    string | null
  >`(select ${users.displayName} from ${users} where ${users.id} = ${studentReferences.teacherUserId})`;
  const isExtra = sql<boolean>`exists (select 1 from ${studentExtraSupervisors} where ${studentExtraSupervisors.studentReferenceId} = ${studentReferences.id} and ${studentExtraSupervisors.userId} = ${supervisorUserId})`;
  const rows = await db
    .select({
      userId: users.id,
      displayName: users.displayName,
      email: users.email,
      isActive: users.isActive,
      supervisorUserId: studentReferences.supervisorUserId,
      teacherName,
      midConfirmed: signingForms.midSemesterCompletedDate,
      warningExists: sql<boolean>`(${warnings.id} is not null)`,
      warningGiven: sql<boolean>`(${warnings.submittedAt} is not null)`,
      warningConfirmed: sql<boolean>`(${warnings.studentConfirmedWarningAt} is not null)`,
      signingColumns: signingColumns,
    })
    .from(studentReferences)
    .innerJoin(users, eq(users.id, studentReferences.studentUserId))
    .leftJoin(signingForms, eq(signingForms.studentReferenceId, studentReferences.id))
    .leftJoin(warnings, eq(warnings.studentReferenceId, studentReferences.id))
    .where(
      and(
        eq(studentReferences.classId, classId),
        or(eq(studentReferences.supervisorUserId, supervisorUserId), isExtra),
      ),
    );

  const schemeIds = schemes.map((s) => s.schemeId);
  const sent =
    rows.length === 0 || schemeIds.length === 0
      ? []
      : await db
          .select({
            studentUserId: answerSets.studentUserId,
            schemeId: answerSets.schemeId,
            formId: answerSets.formId,
          })
          .from(answerSets)
          .where(
            and(
              eq(answerSets.authorUserId, supervisorUserId),
              isNotNull(answerSets.sentAt),
              inArray(answerSets.schemeId, schemeIds),
              inArray(
                answerSets.studentUserId,
                rows.map((r) => r.userId),
              ),
            ),
          );

  const formsOfHalf = (half: SemesterHalf) =>
    schemes
      .filter((s) => s.isMidSemester === (half === "mid"))
      .flatMap((s) => s.forms.map((f) => ({ schemeId: s.schemeId, formId: f.formId })));

  const students: OwnStudent[] = byDisplayName(
    rows.map(
      ({
        supervisorUserId: assignedUserId,
        midConfirmed,
        warningExists,
        warningGiven,
        warningConfirmed,
        signingColumns: signing,
        ...row
      }) => {
        const { half } = currentHalf(header, midConfirmed !== null, today);
        const due = formsOfHalf(half);
        const formsSent = due.filter((f) =>
          sent.some((s) => s.studentUserId === row.userId && s.schemeId === f.schemeId && s.formId === f.formId),
        ).length;
        return {
          ...row,
          relation: assignedUserId === supervisorUserId ? ("assigned" as const) : ("extra" as const),
          half,
          formsSent,
          formsTotal: due.length,
          // A supervisor sees a warning once given (a teacher's draft is the teacher's), as on the student's page.
          warning: visibleWarning(
            warningSummary({ exists: warningExists, given: warningGiven, confirmed: warningConfirmed }),
          ),
          signing: signingSummary(signing),
        };
      },
    ),
  );

  const unassigned = attached
    ? byDisplayName(
        await db
          .select({ userId: users.id, displayName: users.displayName })
          .from(studentReferences)
          .innerJoin(users, eq(users.id, studentReferences.studentUserId))
          .where(
            and(
              eq(studentReferences.classId, classId),
              isNull(studentReferences.supervisorUserId),
              eq(users.isActive, true),
            ),
          ),
      )
    : [];

  return { header, classHalf: currentHalf(header, false, today), schemes, attached, students, unassigned };
}

export type TakeStudentsResult =
  | { ok: true; taken: string[]; missed: string[] }
  | { ok: false; error: "notAttached" | "noStudents" | "unknownStudent" }
  | { ok: false; error: PlaceConflict; names: string[] };

/**
 * A supervisor attached to the class takes students who have no supervisor (placement-roles.server.ts):
 * when two supervisors take the same student at once exactly one wins; the other learns by name
 * which students were taken meanwhile (`missed`). A student already theirs counts as taken.
 */
export async function takeStudents(
  db: Db,
  input: { classId: number; supervisorUserId: number; studentUserIds: number[]; ip?: string | null },
): Promise<TakeStudentsResult> {
  if (input.studentUserIds.length === 0) return { ok: false, error: "noStudents" };
  return db.transaction(async (tx) => {
    // Held until commit, so a detachment from the class waits for this and then clears these too.
    if (!(await isAttachedSupervisor(tx, input.classId, input.supervisorUserId, "share"))) {
      return { ok: false as const, error: "notAttached" as const };
    }
    const claim = await claimStudents(tx, { ...input, place: "supervisor", userId: input.supervisorUserId });
    if (!claim.ok) return claim;
    const won = claim.students.filter((s) => s.heldBy === null);
    if (won.length > 0) {
      // The assigned supervisor is no longer also an extra one.
      await tx.delete(studentExtraSupervisors).where(
        and(
          inArray(
            studentExtraSupervisors.studentReferenceId,
            won.map((s) => s.referenceId),
          ),
          eq(studentExtraSupervisors.userId, input.supervisorUserId),
        ),
      );
    }
    for (const student of won) {
      await audit(tx, {
        action: "student.advisor_assigned",
        actorUserId: input.supervisorUserId,
        subjectUserId: student.userId,
        classId: input.classId,
        details: { from: null, to: input.supervisorUserId, self: true },
        ip: input.ip,
      });
    }
    const names = (list: ClaimedStudent[]) => byDisplayName(list).map((s) => s.displayName);
    const theirs = (s: ClaimedStudent) => s.heldBy === null || s.heldBy === input.supervisorUserId;
    return {
      ok: true as const,
      taken: names(claim.students.filter(theirs)),
      missed: names(claim.students.filter((s) => !theirs(s))),
    };
  });
}

// ─── The supervisor's start page ─────────────────────────────────────────────

/**
 * The classes a supervisor is attached to or follows a student in (an invited supervisor follows
 * a student without being attached), newest semester first, with how many students are theirs
 * (assigned or extra).
 */
export async function classesOfSupervisor(
  db: Db,
  userId: number,
  today = osloDate(new Date()),
): Promise<SupervisorClassSummary[]> {
  const follows = sql`(${studentReferences.supervisorUserId} = ${userId} or exists (select 1 from ${studentExtraSupervisors} where ${studentExtraSupervisors.studentReferenceId} = ${studentReferences.id} and ${studentExtraSupervisors.userId} = ${userId}))`;
  return db
    .select({
      classId: classes.id,
      subjectCode: subjects.subjectCode,
      subjectName: subjects.name,
      semesterName: semesters.name,
      startDate: semesters.startDate,
      endDate: semesters.endDate,
      isCurrent: sql<boolean>`(${semesters.startDate} <= ${today} and ${semesters.endDate} >= ${today})`,
      studentCount: sql<number>`(select count(*)::int from ${studentReferences} where ${studentReferences.classId} = ${classes.id})`,
      ownStudentCount: sql<number>`(select count(*)::int from ${studentReferences} where ${studentReferences.classId} = ${classes.id} and ${follows})`,
    })
    .from(classes)
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .innerJoin(semesters, eq(semesters.id, classes.semesterId))
    .where(
      or(
        sql`exists (select 1 from ${classSupervisors} where ${classSupervisors.classId} = ${classes.id} and ${classSupervisors.userId} = ${userId})`,
        sql`exists (select 1 from ${studentReferences} where ${studentReferences.classId} = ${classes.id} and ${follows})`,
      ),
    )
    .orderBy(sql`${semesters.startDate} desc`, subjects.subjectCode);
}
