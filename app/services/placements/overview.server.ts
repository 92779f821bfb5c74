import { and, asc, count, desc, eq, gte, lte, sql } from "drizzle-orm";
import type { Db } from "~/services/platform/db/client.server";
import {
  classSupervisors,
  classes,
  classTeachers,
  semesters,
  studentReferences,
  subjects,
  userRoles,
  users,
} from "~/services/platform/db/schema";
import { osloDate } from "~/services/platform/semesters";

export interface ClassSummary {
  classId: number;
  subjectCode: string;
  subjectName: string;
  semesterName: string;
  startDate: string;
  endDate: string;
  isCurrent: boolean;
  studentCount: number;
}

const studentCount = sql<number>`(select count(*)::int from ${studentReferences} where ${studentReferences.classId} = ${classes.id})`;

function classColumns(today: string) {
  return {
    classId: classes.id,
    subjectCode: subjects.subjectCode,
    subjectName: subjects.name,
    semesterName: semesters.name,
    startDate: semesters.startDate,
    endDate: semesters.endDate,
    isCurrent: sql<boolean>`(${semesters.startDate} <= ${today} and ${semesters.endDate} >= ${today})`,
    studentCount,
  };
}

/** Classes with their subject and semester, newest semester first; callers add the membership join. */
function selectClasses(db: Db, today: string) {
  return db
    .select(classColumns(today))
    .from(classes)
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .innerJoin(semesters, eq(semesters.id, classes.semesterId))
    .$dynamic();
}

const newestFirst = [desc(semesters.startDate), asc(subjects.subjectCode)] as const;

/** The classes a student belongs to. */
export async function classesOfStudent(db: Db, userId: number, today = osloDate(new Date())): Promise<ClassSummary[]> {
  return selectClasses(db, today)
    .innerJoin(studentReferences, eq(studentReferences.classId, classes.id))
    .where(eq(studentReferences.studentUserId, userId))
    .orderBy(...newestFirst);
}

/** The classes a teacher has joined. */
export async function classesOfTeacher(db: Db, userId: number, today = osloDate(new Date())): Promise<ClassSummary[]> {
  return selectClasses(db, today)
    .innerJoin(classTeachers, eq(classTeachers.classId, classes.id))
    .where(eq(classTeachers.userId, userId))
    .orderBy(...newestFirst);
}

export interface SupervisorClassSummary extends ClassSummary {
  ownStudentCount: number;
}

/** The classes a supervisor is attached to, with how many of the students are theirs. */
export async function classesOfSupervisor(
  db: Db,
  userId: number,
  today = osloDate(new Date()),
): Promise<SupervisorClassSummary[]> {
  const ownStudentCount = sql<number>`(select count(*)::int from ${studentReferences} where ${studentReferences.classId} = ${classes.id} and ${studentReferences.supervisorUserId} = ${userId})`;
  return db
    .select({ ...classColumns(today), ownStudentCount })
    .from(classes)
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .innerJoin(semesters, eq(semesters.id, classes.semesterId))
    .innerJoin(classSupervisors, eq(classSupervisors.classId, classes.id))
    .where(eq(classSupervisors.userId, userId))
    .orderBy(...newestFirst);
}

/** This semester's classes first, the rest after. */
export function splitByCurrent<T extends { isCurrent: boolean }>(rows: T[]): { current: T[]; earlier: T[] } {
  return { current: rows.filter((r) => r.isCurrent), earlier: rows.filter((r) => !r.isCurrent) };
}

/** The admin's start page: this semester's classes and how many users hold each role. */
export async function adminOverview(db: Db, today = osloDate(new Date())) {
  const current = await selectClasses(db, today)
    .where(and(lte(semesters.startDate, today), gte(semesters.endDate, today)))
    .orderBy(asc(subjects.subjectCode));
  const roleCounts = await db
    .select({ roleId: userRoles.roleId, users: count() })
    .from(userRoles)
    .innerJoin(users, eq(users.id, userRoles.userId))
    .where(eq(users.isActive, true))
    .groupBy(userRoles.roleId)
    .orderBy(asc(userRoles.roleId));
  return { currentClasses: current, roleCounts };
}
