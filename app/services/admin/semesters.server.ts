import { asc, eq, inArray, notInArray, sql } from "drizzle-orm";
import { audit } from "~/services/platform/audit.server";
import type { Db } from "~/services/platform/db/client.server";
import { classes, classTeachers, semesters, studentReferences, subjects } from "~/services/platform/db/schema";
import {
  defaultClassDates,
  semesterStatus,
  semesterToCreate,
  type Semester,
  type SemesterStatus,
} from "~/services/platform/semesters";

export interface SemesterRow {
  id: number;
  name: string;
  startDate: string;
  endDate: string;
  classCount: number;
  studentCount: number;
}

export interface SemesterLists {
  /** Soonest first. */
  future: SemesterRow[];
  current: SemesterRow[];
  /** Latest first. */
  past: SemesterRow[];
  /** What "create next semester" would create; null when a future semester exists. */
  next: Semester | null;
}

/** Every semester, split into future, current and previous, and what the create button would make. */
export async function listSemesters(db: Db, today: Date): Promise<SemesterLists> {
  const rows = await db
    .select({
      id: semesters.id,
      name: semesters.name,
      startDate: semesters.startDate,
      endDate: semesters.endDate,
      classCount: sql<number>`count(distinct ${classes.id})::int`,
      studentCount: sql<number>`count(${studentReferences.id})::int`,
    })
    .from(semesters)
    .leftJoin(classes, eq(classes.semesterId, semesters.id))
    .leftJoin(studentReferences, eq(studentReferences.classId, classes.id))
    .groupBy(semesters.id)
    .orderBy(asc(semesters.startDate), asc(semesters.name));
  const byStatus = (status: SemesterStatus) => rows.filter((p) => semesterStatus(p, today) === status);
  return {
    future: byStatus("future"),
    current: byStatus("current"),
    past: byStatus("past").reverse(),
    next: semesterToCreate(rows, today),
  };
}

export type CreateSemesterResult =
  | { ok: true; semester: { id: number } & Semester }
  | { ok: false; reason: "futureExists" | "nameTaken"; name?: string };

// Any fixed number: two admins pressing "create" at once must not both create a semester.
const CREATE_SEMESTER_LOCK = 7_290_421;

/**
 * Creates the next semester by the semester rule (platform/semesters.ts; docs/rules/admin.md). Refused when a future semester exists (the
 * button was stale) or when the name is already taken; neither ever reaches the unique index.
 */
export async function createNextSemester(
  db: Db,
  input: { actorUserId: number; ip: string | null; today: Date },
): Promise<CreateSemesterResult> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CREATE_SEMESTER_LOCK})`);
    const existing = await tx
      .select({ name: semesters.name, startDate: semesters.startDate, endDate: semesters.endDate })
      .from(semesters);
    const next = semesterToCreate(existing, input.today);
    if (!next) return { ok: false, reason: "futureExists" };
    const [row] = await tx
      .insert(semesters)
      .values(next)
      .onConflictDoNothing({ target: semesters.name })
      .returning({ id: semesters.id });
    if (!row) return { ok: false, reason: "nameTaken", name: next.name };
    await audit(tx, {
      action: "semester.created",
      actorUserId: input.actorUserId,
      details: { periodId: row.id, name: next.name, startDate: next.startDate, endDate: next.endDate }, // stored name
      ip: input.ip,
    });
    return { ok: true, semester: { id: row.id, ...next } };
  });
}

export interface SemesterClassRow {
  classId: number;
  subjectId: number;
  subjectCode: string;
  subjectName: string;
  teacherCount: number;
  studentCount: number;
}

export interface SemesterPage {
  semester: { id: number; name: string; startDate: string; endDate: string; status: SemesterStatus };
  classes: SemesterClassRow[];
  /** Subjects that have no class in this semester yet, by code. */
  availableSubjects: { id: number; subjectCode: string; name: string }[];
}

/** One semester with its classes and the subjects that can still be added; null when it does not exist. */
export async function semesterPage(db: Db, semesterId: number, today: Date): Promise<SemesterPage | null> {
  const semester = await findSemester(db, semesterId);
  if (!semester) return null;
  const rows = await db
    .select({
      classId: classes.id,
      subjectId: subjects.id,
      subjectCode: subjects.subjectCode,
      subjectName: subjects.name,
      teacherCount: sql<number>`(select count(*)::int from ${classTeachers} where ${classTeachers.classId} = ${classes.id})`,
      studentCount: sql<number>`(select count(*)::int from ${studentReferences} where ${studentReferences.classId} = ${classes.id})`,
    })
    .from(classes)
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .where(eq(classes.semesterId, semesterId))
    .orderBy(asc(subjects.subjectCode));
  const taken = rows.map((r) => r.subjectId);
  const availableSubjects = await db
    .select({ id: subjects.id, subjectCode: subjects.subjectCode, name: subjects.name })
    .from(subjects)
    .where(taken.length > 0 ? notInArray(subjects.id, taken) : undefined)
    .orderBy(asc(subjects.subjectCode));
  return { semester: { ...semester, status: semesterStatus(semester, today) }, classes: rows, availableSubjects };
}

export type AddSubjectsResult =
  | { ok: true; added: { classId: number; subjectCode: string }[] }
  | { ok: false; reason: "unknownSemester" | "unknownSubject" };

/**
 * Adds subjects to a semester: one class per subject. A subject that already has a class there
 * is left as it is (classes are never removed here), so a repeated post changes nothing.
 */
export async function addSubjectsToSemester(
  db: Db,
  input: { semesterId: number; subjectIds: readonly number[]; actorUserId: number; ip: string | null },
): Promise<AddSubjectsResult> {
  const subjectIds = [...new Set(input.subjectIds)];
  return db.transaction(async (tx) => {
    const [semester] = await tx
      .select({ id: semesters.id, startDate: semesters.startDate, endDate: semesters.endDate })
      .from(semesters)
      .where(eq(semesters.id, input.semesterId));
    if (!semester) return { ok: false, reason: "unknownSemester" };
    const found = subjectIds.length
      ? await tx
          .select({ id: subjects.id, subjectCode: subjects.subjectCode })
          .from(subjects)
          .where(inArray(subjects.id, subjectIds))
      : [];
    if (found.length !== subjectIds.length) return { ok: false, reason: "unknownSubject" };
    if (found.length === 0) return { ok: true, added: [] };
    const inserted = await tx
      .insert(classes)
      .values(found.map((s) => ({ subjectId: s.id, semesterId: semester.id, ...defaultClassDates(semester) })))
      .onConflictDoNothing({ target: [classes.subjectId, classes.semesterId] })
      .returning({ classId: classes.id, subjectId: classes.subjectId });
    const codeOf = new Map(found.map((s) => [s.id, s.subjectCode]));
    const added = inserted
      .map((c) => ({ classId: c.classId, subjectCode: codeOf.get(c.subjectId) ?? "" }))
      .sort((a, b) => a.subjectCode.localeCompare(b.subjectCode));
    for (const c of added) {
      await audit(tx, {
        action: "class.created",
        actorUserId: input.actorUserId,
        classId: c.classId,
        details: { periodId: semester.id, subjectCode: c.subjectCode }, // stored name
        ip: input.ip,
      });
    }
    return { ok: true, added };
  });
}

/** A semester's name and dates, or null when there is no such semester. */
export async function findSemester(
  db: Db,
  semesterId: number,
): Promise<{ id: number; name: string; startDate: string; endDate: string } | null> {
  const [row] = await db
    .select({ id: semesters.id, name: semesters.name, startDate: semesters.startDate, endDate: semesters.endDate })
    .from(semesters)
    .where(eq(semesters.id, semesterId));
  return row ?? null;
}
