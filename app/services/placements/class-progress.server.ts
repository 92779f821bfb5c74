import { and, eq, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { byDisplayName } from "~/services/admin/index.server";
import type { Db } from "~/services/platform/db/client.server";
import {
  answerSets,
  schemeForms,
  schemes,
  forms,
  signingForms,
  studentReferences,
  users,
  warnings,
} from "~/services/platform/db/schema";
import { ROLE } from "~/services/identity";
import type { FormDue } from "./deadline";

/**
 * The progress overview of the teacher's class page (docs/rules/placements.md): per student and half, how many of the
 * scheme's forms each author has sent, and the sort the teacher chose.
 */

/** How many of a half's forms each author has sent. */
export interface AuthorCounts {
  student: number;
  supervisor: number;
  teacher: number;
}

export interface ProgressRow {
  userId: number;
  displayName: string;
  email: string;
  isActive: boolean;
  teacherUserId: number | null;
  teacherName: string | null;
  supervisorUserId: number | null;
  supervisorName: string | null;
  mid: AuthorCounts;
  end: AuthorCounts;
  /** The teacher has confirmed the mid-semester part of the signing form (the student's mid-semester is over). */
  midConfirmed: boolean;
  /** The student's warning in the class: none, a teacher's draft, given (not yet confirmed), confirmed. */
  warning: "none" | "draft" | "given" | "confirmed";
  signing: SigningSummary;
}

/**
 * Where the student's signing form stands, for the overviews: not begun, begun, the mid-semester part
 * confirmed, the end-semester part saved and waiting for signatures (whose), or signed by all.
 */
export interface SigningSummary {
  state: "none" | "started" | "midConfirmed" | "waiting" | "signed";
  /** Who has still to sign, while waiting: the student, the assigned supervisor, the teacher. */
  waitingFor: ("student" | "supervisor" | "teacher")[];
}

interface SigningColumns {
  exists: boolean;
  midConfirmed: boolean;
  resultsSaved: boolean;
  locked: boolean;
  studentSigned: boolean;
  supervisorSigned: boolean;
  teacherSigned: boolean;
  withoutSupervisor: boolean;
  hasSupervisor: boolean;
}

/**
 * The signing form's summary from its columns: waiting once the teacher has saved the end-semester
 * part with its results (the signing domain's condition for signing), each signer until they have;
 * the supervisor not when the teacher signed without them, or when the student has none.
 */
export function signingSummary(f: SigningColumns): SigningSummary {
  if (!f.exists) return { state: "none", waitingFor: [] };
  const allSigned = f.studentSigned && f.teacherSigned && (f.supervisorSigned || f.withoutSupervisor);
  if (f.locked || allSigned) return { state: "signed", waitingFor: [] };
  if (f.resultsSaved) {
    const waitingFor: SigningSummary["waitingFor"] = [];
    if (!f.studentSigned) waitingFor.push("student");
    if (!f.supervisorSigned && !f.withoutSupervisor && f.hasSupervisor) waitingFor.push("supervisor");
    if (!f.teacherSigned) waitingFor.push("teacher");
    return { state: "waiting", waitingFor };
  }
  return { state: f.midConfirmed ? "midConfirmed" : "started", waitingFor: [] };
}

/** The columns signingSummary reads, for a query joined to signing_forms (and student_references). */
export const signingColumns = {
  exists: sql<boolean>`(${signingForms.id} is not null)`,
  midConfirmed: sql<boolean>`(${signingForms.midSemesterCompletedDate} is not null)`,
  resultsSaved: sql<boolean>`(${signingForms.endSemesterCompletedDate} is not null and ${signingForms.generalCompetenceAreasPassed} is not null and ${signingForms.specificCompetenceAreasPassed} is not null)`,
  locked: sql<boolean>`coalesce(${signingForms.isLocked}, false)`,
  studentSigned: sql<boolean>`(${signingForms.signedByStudentDate} is not null)`,
  supervisorSigned: sql<boolean>`(${signingForms.signedBySupervisorDate} is not null)`,
  teacherSigned: sql<boolean>`(${signingForms.signedByTeacherDate} is not null)`,
  withoutSupervisor: sql<boolean>`(${signingForms.signWithoutSupervisorConfirmedDate} is not null)`,
  hasSupervisor: sql<boolean>`(${studentReferences.supervisorUserId} is not null)`,
};

/** A warning's state from its columns (null: none). */
export function warningSummary(w: { exists: boolean; given: boolean; confirmed: boolean }): ProgressRow["warning"] {
  return !w.exists ? "none" : w.confirmed ? "confirmed" : w.given ? "given" : "draft";
}

/**
 * One row per student of the class, with their teacher and supervisor and, per half, how many of
 * the class's forms (not deleted, in that half's schemes) the student, a supervisor (assigned or
 * extra) and a teacher have sent. One query, whatever the size of the class.
 */
export async function progressOverview(db: Db, classId: number): Promise<ProgressRow[]> {
  const student = alias(users, "student");
  const teacher = alias(users, "teacher");
  const supervisor = alias(users, "supervisor");
  // One row per form sent about a student by an author role: several supervisors sending the same
  // form count once.
  const sent = db
    .selectDistinct({
      studentUserId: answerSets.studentUserId,
      authorRoleId: answerSets.authorRoleId,
      isMidSemester: schemes.isMidSemester,
      schemeId: answerSets.schemeId,
      formId: answerSets.formId,
    })
    .from(answerSets)
    .innerJoin(schemes, eq(schemes.id, answerSets.schemeId))
    .innerJoin(
      schemeForms,
      and(eq(schemeForms.schemeId, answerSets.schemeId), eq(schemeForms.formId, answerSets.formId)),
    )
    .innerJoin(forms, and(eq(forms.id, answerSets.formId), isNull(forms.deletedAt)))
    .where(and(eq(schemes.classId, classId), sql`${answerSets.sentAt} is not null`))
    .as("sent");
  const counted = (roleId: number, isMid: boolean) =>
    sql<number>`(count(*) filter (where ${sent.authorRoleId} = ${roleId} and ${sent.isMidSemester} = ${isMid}))::int`;
  const rows = await db
    .select({
      userId: student.id,
      displayName: student.displayName,
      email: student.email,
      isActive: student.isActive,
      teacherUserId: studentReferences.teacherUserId,
      teacherName: teacher.displayName,
      supervisorUserId: studentReferences.supervisorUserId,
      supervisorName: supervisor.displayName,
      midStudent: counted(ROLE.Student, true),
      midSupervisor: counted(ROLE.Supervisor, true),
      midTeacher: counted(ROLE.Teacher, true),
      endStudent: counted(ROLE.Student, false),
      endSupervisor: counted(ROLE.Supervisor, false),
      endTeacher: counted(ROLE.Teacher, false),
      warningExists: sql<boolean>`(${warnings.id} is not null)`,
      warningGiven: sql<boolean>`(${warnings.submittedAt} is not null)`,
      warningConfirmed: sql<boolean>`(${warnings.studentConfirmedWarningAt} is not null)`,
      ...signingColumns,
    })
    .from(studentReferences)
    .innerJoin(student, eq(student.id, studentReferences.studentUserId))
    .leftJoin(teacher, eq(teacher.id, studentReferences.teacherUserId))
    .leftJoin(supervisor, eq(supervisor.id, studentReferences.supervisorUserId))
    .leftJoin(sent, eq(sent.studentUserId, studentReferences.studentUserId))
    .leftJoin(warnings, eq(warnings.studentReferenceId, studentReferences.id))
    .leftJoin(signingForms, eq(signingForms.studentReferenceId, studentReferences.id))
    .where(eq(studentReferences.classId, classId))
    .groupBy(studentReferences.id, student.id, teacher.id, supervisor.id, warnings.id, signingForms.id);
  return byDisplayName(
    rows.map((r) => ({
      userId: r.userId,
      displayName: r.displayName,
      email: r.email,
      isActive: r.isActive,
      teacherUserId: r.teacherUserId,
      teacherName: r.teacherName,
      supervisorUserId: r.supervisorUserId,
      supervisorName: r.supervisorName,
      mid: { student: r.midStudent, supervisor: r.midSupervisor, teacher: r.midTeacher },
      end: { student: r.endStudent, supervisor: r.endSupervisor, teacher: r.endTeacher },
      midConfirmed: r.midConfirmed,
      warning: warningSummary({ exists: r.warningExists, given: r.warningGiven, confirmed: r.warningConfirmed }),
      signing: signingSummary(r),
    })),
  );
}

/**
 * A student's state in one half: "done" when student, supervisor and teacher have all sent every
 * form; otherwise as the half's forms stand for this student (deadline.ts, formDue): "closed" when
 * the teacher has confirmed the mid-semester part, "behind" only when the student's own deadline for
 * the half has passed, "open" while there is still time (or the half has not begun); "none" when
 * the half has no forms.
 */
export type HalfProgress = "done" | "behind" | "open" | "closed" | "none";

export function halfProgress(counts: AuthorCounts, formCount: number, due: FormDue): HalfProgress {
  if (formCount === 0) return "none";
  if (counts.student >= formCount && counts.supervisor >= formCount && counts.teacher >= formCount) return "done";
  if (due === "closed") return "closed";
  return due === "behind" ? "behind" : "open";
}

export const SORT_KEYS = ["name", "teacher", "supervisor", "mid", "end"] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortDirection = "asc" | "desc";

/** The overview's order from the query string; anything unknown falls back to name, ascending. */
export function readSort(params: URLSearchParams): { sort: SortKey; dir: SortDirection } {
  const sort = params.get("sort");
  return {
    sort: (SORT_KEYS as readonly string[]).includes(sort ?? "") ? (sort as SortKey) : "name",
    dir: params.get("dir") === "desc" ? "desc" : "asc",
  };
}

/**
 * Rows per page of the progress overview: the page costs the same for a class of 20 or of 500
 * (a 500-student table was 1.1 MiB of HTML and 110 ms; docs/performance.md).
 */
export const PROGRESS_PAGE_SIZE = 50;

export interface ProgressPage<T> {
  rows: T[];
  /** 1-based; a page past the end shows the last one. */
  page: number;
  pages: number;
  total: number;
  /** 1-based positions of the first and last row shown (0 and 0 when there are none). */
  from: number;
  to: number;
}

/** The `?page=` of the overview (1 when missing or not a whole number ≥ 1), and that page of the sorted rows. */
export function progressPage<T>(
  rows: readonly T[],
  params: URLSearchParams,
  size = PROGRESS_PAGE_SIZE,
): ProgressPage<T> {
  const asked = Number(params.get("page"));
  const pages = Math.max(1, Math.ceil(rows.length / size));
  const page = Number.isInteger(asked) && asked >= 1 ? Math.min(asked, pages) : 1;
  const start = (page - 1) * size;
  const shown = rows.slice(start, start + size);
  return { rows: shown, page, pages, total: rows.length, from: shown.length ? start + 1 : 0, to: start + shown.length };
}

const collator = new Intl.Collator("nb", { numeric: true, sensitivity: "base" });

function sentTotal(counts: AuthorCounts): number {
  return counts.student + counts.supervisor + counts.teacher;
}

/**
 * Sorts the overview (already by name): by a person's name (those without one last, whatever the
 * direction), or by how much of a half has been sent (ascending: furthest behind first). Ties keep
 * the name order.
 */
export function sortProgress(rows: readonly ProgressRow[], sort: SortKey, dir: SortDirection): ProgressRow[] {
  const sign = dir === "asc" ? 1 : -1;
  const byName = byDisplayName(rows);
  if (sort === "name") return dir === "asc" ? byName : byName.toReversed();
  const rank = new Map(byName.map((row, index) => [row, index]));
  const compareNames = (a: string | null, b: string | null) => {
    if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
    return sign * collator.compare(a, b);
  };
  const compare = (a: ProgressRow, b: ProgressRow): number => {
    switch (sort) {
      case "teacher":
        return compareNames(a.teacherName, b.teacherName);
      case "supervisor":
        return compareNames(a.supervisorName, b.supervisorName);
      case "mid":
        return sign * (sentTotal(a.mid) - sentTotal(b.mid));
      case "end":
        return sign * (sentTotal(a.end) - sentTotal(b.end));
    }
  };
  return byName.toSorted((a, b) => compare(a, b) || rank.get(a)! - rank.get(b)!);
}
