import { asc, count, desc, eq, sql } from "drizzle-orm";
import type { SQL } from "drizzle-orm";
import type { Db } from "./db/client.server";
import { classes, recordOpenings, subjects, users, type RoleId } from "./db/schema";

/**
 * Who opened a page or document about a student (GDPR art. 15; docs/rules/documents.md): the student reads the
 * list on their "My data" page, the admin in the audit search. Recorded once per viewer, student,
 * kind and clock hour (the table's primary key), so a reload or a busy deadline evening adds no
 * rows and costs one statement that never waits on a lock: INSERT … ON CONFLICT DO NOTHING.
 */

export const OPENING_KINDS = [
  "studentPage",
  "results",
  "formAnswers",
  "warning",
  "signingForm",
  "answersPdf",
  "warningPdf",
  "signingFormPdf",
  "fullPdf",
  "semesterReport",
  "userProfile",
] as const;
export type OpeningKind = (typeof OPENING_KINDS)[number];

export interface Opening {
  viewerUserId: number;
  viewerRole: RoleId;
  studentUserId: number;
  kind: OpeningKind;
  classId?: number | null;
}

/** Records one opening; a student opening their own record is no one else's access and is not kept. */
export async function recordOpening(db: Db, opening: Opening): Promise<void> {
  if (opening.viewerUserId === opening.studentUserId) return;
  await db
    .insert(recordOpenings)
    .values({
      viewerUserId: opening.viewerUserId,
      viewerRole: opening.viewerRole,
      studentUserId: opening.studentUserId,
      kind: opening.kind,
      classId: opening.classId ?? null,
    })
    .onConflictDoNothing();
}

/**
 * Records one opening per student a query names (the semester report: every student in it), as one
 * INSERT … SELECT. `students` must select `student_user_id` and `class_id`, in that order.
 */
export async function recordOpeningsOf(
  db: Db,
  viewer: { userId: number; role: RoleId },
  kind: OpeningKind,
  students: SQL,
): Promise<void> {
  const viewerUserId = viewer.userId;
  await db.execute(sql`
    insert into ${recordOpenings} (student_user_id, viewer_user_id, viewer_role, kind, class_id)
    select distinct on (s.student_user_id) s.student_user_id, ${viewerUserId}::integer, ${viewer.role}::smallint, ${kind}::text, s.class_id
    from (${students}) as s (student_user_id, class_id)
    where s.student_user_id <> ${viewerUserId}
    on conflict do nothing`);
}

export interface OpeningEntry {
  at: Date;
  kind: OpeningKind;
  classId: number | null;
  /** The subject of the class the page belongs to, when it belongs to one. */
  subjectCode: string | null;
  viewerUserId: number;
  viewerName: string | null;
  /** The role the viewer had when they opened it: a teacher, a supervisor, an administrator. */
  viewerRole: RoleId;
}

export const OPENINGS_PAGE_SIZE = 25;

/** The page of a list from `?page=`: 1 unless a whole number from 1 up to `max`. */
export function pageParam(value: string | null, max = 1000): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? Math.min(page, max) : 1;
}

/** A student's openings, newest first, a page at a time; the total for the pager. */
export async function openingsOf(
  db: Db,
  studentUserId: number,
  page: { offset: number; limit?: number } = { offset: 0 },
): Promise<{ entries: OpeningEntry[]; total: number }> {
  const limit = page.limit ?? OPENINGS_PAGE_SIZE;
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        at: recordOpenings.at,
        kind: recordOpenings.kind,
        classId: recordOpenings.classId,
        subjectCode: subjects.subjectCode,
        viewerUserId: recordOpenings.viewerUserId,
        viewerName: users.displayName,
        viewerRole: recordOpenings.viewerRole,
      })
      .from(recordOpenings)
      .leftJoin(users, eq(users.id, recordOpenings.viewerUserId))
      .leftJoin(classes, eq(classes.id, recordOpenings.classId))
      .leftJoin(subjects, eq(subjects.id, classes.subjectId))
      .where(eq(recordOpenings.studentUserId, studentUserId))
      .orderBy(
        desc(recordOpenings.hour),
        desc(recordOpenings.at),
        asc(recordOpenings.viewerUserId),
        asc(recordOpenings.kind),
      )
      .limit(limit)
      .offset(page.offset),
    db.select({ total: count() }).from(recordOpenings).where(eq(recordOpenings.studentUserId, studentUserId)),
  ]);
  return { entries: rows.map((row) => ({ ...row, kind: row.kind as OpeningKind })), total };
}
