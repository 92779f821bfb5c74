import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "~/services/platform/db/client.server";
import { studentExtraSupervisors, studentReferences, users } from "~/services/platform/db/schema";

/**
 * Who may hold which place for a student of a class: the practice teacher (PL) or a supervisor
 * (PV, assigned or extra). The one rule every path that fills a place goes through — the teacher
 * choosing supervisors, a teacher or supervisor taking students, a supervisor accepting an
 * invitation — so that nobody assesses themself or a classmate, and the teacher's and the
 * supervisor's grades stay two people's.
 */

export type Place = "teacher" | "supervisor";

/** Why someone may not hold the place; null when they may. */
export type PlaceConflict = "isTheStudent" | "studentInClass" | "isTeacher" | "isSupervisor";

export function placeConflict(
  place: Place,
  person: {
    userId: number;
    studiesInClass: boolean;
    /** The person follows this student as an extra supervisor (role id 4). */
    isExtraSupervisor: boolean;
  },
  reference: { studentUserId: number; teacherUserId: number | null; supervisorUserId: number | null },
): PlaceConflict | null {
  if (person.userId === reference.studentUserId) return "isTheStudent";
  if (person.studiesInClass) return "studentInClass";
  if (place === "supervisor" && reference.teacherUserId === person.userId) return "isTeacher";
  if (place === "teacher" && (reference.supervisorUserId === person.userId || person.isExtraSupervisor))
    return "isSupervisor";
  return null;
}

/** Whether the person is a student of the class. */
export async function studiesInClass(db: Db, classId: number, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: studentReferences.id })
    .from(studentReferences)
    .where(and(eq(studentReferences.classId, classId), eq(studentReferences.studentUserId, userId)));
  return row !== undefined;
}

export interface ClaimedStudent {
  referenceId: number;
  userId: number;
  displayName: string;
  /** Who held the place before this request: null if nobody did (then the claimer has it now). */
  heldBy: number | null;
}

export type ClaimOutcome =
  | { ok: true; students: ClaimedStudent[] }
  | { ok: false; error: "unknownStudent" }
  | { ok: false; error: PlaceConflict; names: string[] };

/**
 * Takes students of a class who have no teacher (or no supervisor) yet: the teacher's "add
 * students" form and the supervisor's "take students" form. The students' rows are locked first,
 * so two people taking the same student at once are applied one after the other: the first gets
 * the student, the second sees who holds them now. Nobody's student is ever moved here. Every id
 * must be an active student of the class. Runs in the caller's transaction, which audits what it won.
 */
export async function claimStudents(
  tx: Db,
  input: { classId: number; studentUserIds: readonly number[]; place: Place; userId: number },
): Promise<ClaimOutcome> {
  const column = input.place === "teacher" ? studentReferences.teacherUserId : studentReferences.supervisorUserId;
  const ids = [...new Set(input.studentUserIds)];
  const rows = await tx
    .select({
      referenceId: studentReferences.id,
      userId: studentReferences.studentUserId,
      displayName: users.displayName,
      teacherUserId: studentReferences.teacherUserId,
      supervisorUserId: studentReferences.supervisorUserId,
      takerIsExtraSupervisor: sql<boolean>`exists (select 1 from ${studentExtraSupervisors} where ${studentExtraSupervisors.studentReferenceId} = ${studentReferences.id} and ${studentExtraSupervisors.userId} = ${input.userId})`,
    })
    .from(studentReferences)
    .innerJoin(users, eq(users.id, studentReferences.studentUserId))
    .where(
      and(
        eq(studentReferences.classId, input.classId),
        inArray(studentReferences.studentUserId, ids),
        eq(users.isActive, true),
      ),
    )
    // One order for every taker, so two takers with overlapping choices queue instead of deadlocking.
    .orderBy(asc(studentReferences.id))
    .for("update", { of: studentReferences });
  if (rows.length !== ids.length) return { ok: false, error: "unknownStudent" };

  const studies = await studiesInClass(tx, input.classId, input.userId);
  const holder = (row: (typeof rows)[number]) => (input.place === "teacher" ? row.teacherUserId : row.supervisorUserId);
  // Students someone else holds are only reported as taken; the rule is asked of the places this request would fill.
  const conflicts = rows
    .filter((row) => holder(row) === null || holder(row) === input.userId)
    .map((row) => ({
      row,
      conflict: placeConflict(
        input.place,
        { userId: input.userId, studiesInClass: studies, isExtraSupervisor: row.takerIsExtraSupervisor },
        { studentUserId: row.userId, ...row },
      ),
    }));
  const refused = conflicts.filter((c) => c.conflict !== null);
  if (refused.length > 0)
    return { ok: false, error: refused[0].conflict!, names: refused.map((c) => c.row.displayName) };

  const students = rows.map((row) => ({
    referenceId: row.referenceId,
    userId: row.userId,
    displayName: row.displayName,
    heldBy: holder(row),
  }));
  const free = students.filter((s) => s.heldBy === null).map((s) => s.referenceId);
  if (free.length > 0) {
    await tx
      .update(studentReferences)
      .set(input.place === "teacher" ? { teacherUserId: input.userId } : { supervisorUserId: input.userId })
      .where(and(inArray(studentReferences.id, free), isNull(column)));
  }
  return { ok: true, students };
}
