import { and, asc, eq, gte, inArray, lte, notExists, or, sql } from "drizzle-orm";
import {
  byDisplayName,
  classHeader,
  schemesOfClass,
  type ClassHeader,
  type Scheme,
} from "~/services/admin/index.server";
import { audit } from "~/services/platform/audit.server";
import type { Db } from "~/services/platform/db/client.server";
import {
  classSupervisors,
  classes,
  classTeachers,
  semesters,
  studentExtraSupervisors,
  studentReferences,
  subjects,
  users,
} from "~/services/platform/db/schema";
import { currentHalf, type HalfState } from "./deadline";
import type { ClassSummary } from "./overview.server";
import { osloDate } from "~/services/platform/semesters";
import {
  type ProgressRow,
  type SortDirection,
  type SortKey,
  progressOverview,
  sortProgress,
} from "./class-progress.server";

/**
 * The teacher's side of a placement class (docs/rules/placements.md): joining and leaving a class,
 * its supervisors, and the class page. Taking students and adding supervisors: class-staffing.server.ts;
 * the progress overview: class-progress.server.ts.
 */

// ─── Home: other classes of the semester ─────────────────────────────────────

/** This semester's classes the teacher has not joined (to look at, and join). */
export async function otherClassesThisSemester(
  db: Db,
  userId: number,
  today = osloDate(new Date()),
): Promise<ClassSummary[]> {
  return db
    .select({
      classId: classes.id,
      subjectCode: subjects.subjectCode,
      subjectName: subjects.name,
      semesterName: semesters.name,
      startDate: semesters.startDate,
      endDate: semesters.endDate,
      isCurrent: sql<boolean>`true`,
      studentCount: sql<number>`(select count(*)::int from ${studentReferences} where ${studentReferences.classId} = ${classes.id})`,
    })
    .from(classes)
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .innerJoin(semesters, eq(semesters.id, classes.semesterId))
    .where(
      and(
        lte(semesters.startDate, today),
        gte(semesters.endDate, today),
        notExists(
          db
            .select({ one: sql`1` })
            .from(classTeachers)
            .where(and(eq(classTeachers.classId, classes.id), eq(classTeachers.userId, userId))),
        ),
      ),
    )
    .orderBy(asc(subjects.subjectCode));
}

// ─── Joining and leaving ─────────────────────────────────────────────────────

export type JoinOutcome = { ok: true } | { ok: false; error: "notFound" | "ended" | "already" };

/** A teacher joins a class whose semester has not ended. Audited. */
export async function joinClassAsTeacher(
  db: Db,
  input: { classId: number; userId: number; ip?: string | null; today?: string },
): Promise<JoinOutcome> {
  const today = input.today ?? osloDate(new Date());
  const header = await classHeader(db, input.classId);
  if (!header) return { ok: false, error: "notFound" };
  if (header.semesterEnd < today) return { ok: false, error: "ended" };
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(classTeachers)
      .values({ classId: input.classId, userId: input.userId })
      .onConflictDoNothing()
      .returning({ userId: classTeachers.userId });
    if (inserted.length === 0) return { ok: false as const, error: "already" as const };
    await audit(tx, { action: "class.joined", actorUserId: input.userId, classId: input.classId, ip: input.ip });
    return { ok: true as const };
  });
}

export interface StudentName {
  userId: number;
  displayName: string;
}

export type LeaveOutcome = { ok: true; released: StudentName[] } | { ok: false; error: "notMember" };

/** The students a teacher follows in a class: those who would lose their teacher if they left it (by name). */
export async function studentsLosingTeacher(
  db: Db,
  input: { classId: number; userId: number },
): Promise<StudentName[]> {
  const rows = await db
    .select({ userId: users.id, displayName: users.displayName })
    .from(studentReferences)
    .innerJoin(users, eq(users.id, studentReferences.studentUserId))
    .where(and(eq(studentReferences.classId, input.classId), eq(studentReferences.teacherUserId, input.userId)));
  return byDisplayName(rows);
}

/**
 * A teacher leaves a class, at any time. The students they followed there keep their place in the
 * class but have no teacher until another teacher takes them: a teacher who has left may no longer
 * see them, so keeping the link would leave the students with a teacher who cannot act. Audited
 * with the students released.
 */
export async function leaveClass(
  db: Db,
  input: { classId: number; userId: number; ip?: string | null },
): Promise<LeaveOutcome> {
  return db.transaction(async (tx) => {
    const removed = await tx
      .delete(classTeachers)
      .where(and(eq(classTeachers.classId, input.classId), eq(classTeachers.userId, input.userId)))
      .returning({ userId: classTeachers.userId });
    if (removed.length === 0) return { ok: false as const, error: "notMember" as const };
    const released = await tx
      .update(studentReferences)
      .set({ teacherUserId: null })
      .where(and(eq(studentReferences.classId, input.classId), eq(studentReferences.teacherUserId, input.userId)))
      .returning({ userId: studentReferences.studentUserId });
    const names =
      released.length === 0
        ? []
        : await tx
            .select({ userId: users.id, displayName: users.displayName })
            .from(users)
            .where(
              inArray(
                users.id,
                released.map((r) => r.userId),
              ),
            );
    const sorted = byDisplayName(names);
    await audit(tx, {
      action: "class.left",
      actorUserId: input.userId,
      classId: input.classId,
      details: { releasedStudentUserIds: sorted.map((s) => s.userId) },
      ip: input.ip,
    });
    return { ok: true as const, released: sorted };
  });
}

// ─── Supervisors of the class ────────────────────────────────────────────────

export interface ClassSupervisor {
  userId: number;
  displayName: string;
  email: string;
  isActive: boolean;
  /** Attached to the class by a teacher or an admin (may take students), not only invited by a student or following one. */
  attached: boolean;
  /** Students of the class they follow, as assigned or extra supervisor. */
  studentCount: number;
}

/** The class's supervisors: attached to it, or following one of its students. One query. */
export async function supervisorsOfClass(db: Db, classId: number): Promise<ClassSupervisor[]> {
  const rows = await db
    .select({
      userId: users.id,
      displayName: users.displayName,
      email: users.email,
      isActive: users.isActive,
      attached: sql<boolean>`(${classSupervisors.userId} is not null and not ${classSupervisors.viaInvitation})`,
      studentCount: sql<number>`(select count(*)::int from ${studentReferences} where ${studentReferences.classId} = ${classId} and (${studentReferences.supervisorUserId} = ${users.id} or exists (select 1 from ${studentExtraSupervisors} where ${studentExtraSupervisors.studentReferenceId} = ${studentReferences.id} and ${studentExtraSupervisors.userId} = ${users.id})))`,
    })
    .from(users)
    // The join also makes drizzle name every column with its table, which the subqueries rely on.
    .leftJoin(classSupervisors, and(eq(classSupervisors.classId, classId), eq(classSupervisors.userId, users.id)))
    .where(
      or(
        sql`${classSupervisors.userId} is not null`,
        sql`${users.id} in (select ${studentReferences.supervisorUserId} from ${studentReferences} where ${studentReferences.classId} = ${classId})`,
        sql`${users.id} in (select ${studentExtraSupervisors.userId} from ${studentExtraSupervisors} inner join ${studentReferences} on ${studentReferences.id} = ${studentExtraSupervisors.studentReferenceId} where ${studentReferences.classId} = ${classId})`,
      ),
    );
  return byDisplayName(rows);
}

// ─── The class page ──────────────────────────────────────────────────────────

export interface TeacherClassPage {
  header: ClassHeader;
  /** The half the class is in and its deadline (the class's dates; a student's may move earlier). */
  half: HalfState;
  /** Whether the semester has ended (no joining then). */
  ended: boolean;
  schemes: Scheme[];
  /** Forms per half (not deleted): the "y" of "x av y". */
  formCount: { mid: number; end: number };
  deadlinePassed: { mid: boolean; end: boolean };
  /** Only for a teacher of the class; null for an outsider, who sees no student data. */
  members: {
    myStudents: ProgressRow[];
    supervisors: ClassSupervisor[];
    progress: ProgressRow[];
  } | null;
}

/**
 * What the teacher's class page shows. `access` comes from requireClassAccess: an outsider gets
 * the header and schemes only. A fixed number of queries, whatever the size of the class.
 */
export async function teacherClassPage(
  db: Db,
  input: {
    classId: number;
    viewerUserId: number;
    access: "members" | "outsider";
    sort?: SortKey;
    dir?: SortDirection;
    today?: string;
  },
): Promise<TeacherClassPage | null> {
  const today = input.today ?? osloDate(new Date());
  const header = await classHeader(db, input.classId);
  if (!header) return null;
  const schemes = await schemesOfClass(db, input.classId);
  const formsIn = (isMid: boolean) =>
    schemes.filter((s) => s.isMidSemester === isMid).reduce((n, s) => n + s.forms.filter((f) => !f.deleted).length, 0);
  const passed = (date: string | null) => date !== null && today > date;
  let members: TeacherClassPage["members"] = null;
  if (input.access === "members") {
    const [rows, supervisors] = await Promise.all([
      progressOverview(db, input.classId),
      supervisorsOfClass(db, input.classId),
    ]);
    members = {
      myStudents: rows.filter((r) => r.teacherUserId === input.viewerUserId),
      supervisors,
      progress: sortProgress(rows, input.sort ?? "name", input.dir ?? "asc"),
    };
  }
  return {
    header,
    half: currentHalf(header, false, today),
    ended: header.semesterEnd < today,
    schemes,
    formCount: { mid: formsIn(true), end: formsIn(false) },
    deadlinePassed: { mid: passed(header.midSemesterDate), end: passed(header.endSemesterDate) },
    members,
  };
}
