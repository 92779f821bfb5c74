import { and, asc, count, desc, eq, gte, lte, sql } from "drizzle-orm";
import type { Db } from "./db/client.server";
import { classAdvisors, classes, classTeachers, periods, studentReferences, subjects, userRoles, users } from "./db/schema";
import { osloDate } from "./semesters";

export interface ClassSummary {
  classId: number;
  subjectCode: string;
  subjectName: string;
  periodName: string;
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
    periodName: periods.name,
    startDate: periods.startDate,
    endDate: periods.endDate,
    isCurrent: sql<boolean>`(${periods.startDate} <= ${today} and ${periods.endDate} >= ${today})`,
    studentCount,
  };
}

/** The classes a student belongs to, newest semester first. */
export async function classesOfStudent(db: Db, userId: number, today = osloDate(new Date())): Promise<ClassSummary[]> {
  return db
    .select(classColumns(today))
    .from(studentReferences)
    .innerJoin(classes, eq(classes.id, studentReferences.classId))
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .innerJoin(periods, eq(periods.id, classes.periodId))
    .where(eq(studentReferences.studentUserId, userId))
    .orderBy(desc(periods.startDate), asc(subjects.subjectCode));
}

/** The classes a teacher has joined, newest semester first. */
export async function classesOfTeacher(db: Db, userId: number, today = osloDate(new Date())): Promise<ClassSummary[]> {
  return db
    .select(classColumns(today))
    .from(classTeachers)
    .innerJoin(classes, eq(classes.id, classTeachers.classId))
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .innerJoin(periods, eq(periods.id, classes.periodId))
    .where(eq(classTeachers.userId, userId))
    .orderBy(desc(periods.startDate), asc(subjects.subjectCode));
}

export interface AdvisorClassSummary extends ClassSummary {
  ownStudentCount: number;
}

/** The classes a supervisor is attached to, with how many of the students are theirs. */
export async function classesOfAdvisor(
  db: Db,
  userId: number,
  today = osloDate(new Date()),
): Promise<AdvisorClassSummary[]> {
  return db
    .select({
      ...classColumns(today),
      ownStudentCount: sql<number>`(select count(*)::int from ${studentReferences} where ${studentReferences.classId} = ${classes.id} and ${studentReferences.advisorUserId} = ${userId})`,
    })
    .from(classAdvisors)
    .innerJoin(classes, eq(classes.id, classAdvisors.classId))
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .innerJoin(periods, eq(periods.id, classes.periodId))
    .where(eq(classAdvisors.userId, userId))
    .orderBy(desc(periods.startDate), asc(subjects.subjectCode));
}

/** The admin's start page: this semester's classes and how many users hold each role. */
export async function adminOverview(db: Db, today = osloDate(new Date())) {
  const current = await db
    .select(classColumns(today))
    .from(classes)
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .innerJoin(periods, eq(periods.id, classes.periodId))
    .where(and(lte(periods.startDate, today), gte(periods.endDate, today)))
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
