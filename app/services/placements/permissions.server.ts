import { and, eq, or, sql } from "drizzle-orm";
import type { Db } from "~/services/platform/db/client.server";
import {
  classSupervisors,
  classes,
  classTeachers,
  studentExtraSupervisors,
  studentReferences,
} from "~/services/platform/db/schema";
import { notFound } from "~/services/platform/ids";
import { ROLE, type RoleId } from "~/services/identity";

/**
 * Data-level permissions (docs/rules/placements.md, "Who sees whom"): after the role guard, every loader and action asks here
 * whether *this* user may see *this* class or student. The rules are pure functions of a few facts,
 * so they are tested exhaustively; the `load…` functions gather the facts with one query each.
 *
 * - A teacher sees the classes they belong to, with all their students. Other classes of the
 *   semester are listed (to join them) but show no student data.
 * - A supervisor sees a class they are attached to or follow a student in, and only their own
 *   students there: assigned, or followed as an extra supervisor (role id 4).
 * - A student sees only themself.
 * - An admin sees everything.
 */

export interface Viewer {
  userId: number;
  role: RoleId;
}

/** What decides who may see a student of a class. */
export interface StudentFacts {
  studentUserId: number;
  teacherUserId: number | null;
  supervisorUserId: number | null;
  /** The viewer teaches the class (class_teachers). */
  viewerTeachesClass: boolean;
  /** The viewer follows the student as an extra supervisor. */
  viewerIsExtraSupervisor: boolean;
}

/** How the viewer stands to the student; null when they may not see the student at all. */
export type StudentRelation = "admin" | "self" | "teacher" | "supervisor" | "extraSupervisor";

export function studentRelation(viewer: Viewer, facts: StudentFacts): StudentRelation | null {
  switch (viewer.role) {
    case ROLE.Admin:
      return "admin";
    case ROLE.Student:
      return viewer.userId === facts.studentUserId ? "self" : null;
    case ROLE.Teacher:
      return facts.viewerTeachesClass ? "teacher" : null;
    case ROLE.Supervisor:
      if (facts.supervisorUserId === viewer.userId) return "supervisor";
      return facts.viewerIsExtraSupervisor ? "extraSupervisor" : null;
    default:
      return null;
  }
}

/** What decides what a viewer may see of a class. */
export interface ClassFacts {
  viewerTeachesClass: boolean;
  /** The viewer is attached to the class as a supervisor (class_advisors). */
  viewerAdvisesClass: boolean;
  /** The viewer follows at least one student of the class (assigned or extra). */
  viewerFollowsStudentInClass: boolean;
  /** The viewer is a student of the class. */
  viewerStudiesInClass: boolean;
}

/**
 * "members": may see the class and its people as the role allows. "outsider": a teacher may see
 * the class's header and schemes (to decide whether to join), nothing about its students.
 * null: nothing at all.
 */
export type ClassAccess = "members" | "outsider" | null;

export function classAccess(viewer: Viewer, facts: ClassFacts): ClassAccess {
  switch (viewer.role) {
    case ROLE.Admin:
      return "members";
    case ROLE.Teacher:
      return facts.viewerTeachesClass ? "members" : "outsider";
    case ROLE.Supervisor:
      return facts.viewerAdvisesClass || facts.viewerFollowsStudentInClass ? "members" : null;
    case ROLE.Student:
      return facts.viewerStudiesInClass ? "members" : null;
    default:
      return null;
  }
}

/** The student reference the viewer may see, and how they stand to it. */
export interface StudentAccess {
  referenceId: number;
  classId: number;
  studentUserId: number;
  teacherUserId: number | null;
  supervisorUserId: number | null;
  relation: StudentRelation;
}

/** One query: the student's place in the class and the viewer's links to it; null for no such student. */
export async function loadStudentFacts(
  db: Db,
  viewerUserId: number,
  classId: number,
  studentUserId: number,
): Promise<(StudentFacts & { referenceId: number; classId: number }) | null> {
  const [row] = await db
    .select({
      referenceId: studentReferences.id,
      classId: studentReferences.classId,
      studentUserId: studentReferences.studentUserId,
      teacherUserId: studentReferences.teacherUserId,
      supervisorUserId: studentReferences.supervisorUserId,
      viewerTeachesClass: classTeachers.userId,
      viewerIsExtraSupervisor: studentExtraSupervisors.userId,
    })
    .from(studentReferences)
    .leftJoin(
      classTeachers,
      and(eq(classTeachers.classId, studentReferences.classId), eq(classTeachers.userId, viewerUserId)),
    )
    .leftJoin(
      studentExtraSupervisors,
      and(
        eq(studentExtraSupervisors.studentReferenceId, studentReferences.id),
        eq(studentExtraSupervisors.userId, viewerUserId),
      ),
    )
    .where(and(eq(studentReferences.classId, classId), eq(studentReferences.studentUserId, studentUserId)));
  if (!row) return null;
  return {
    ...row,
    viewerTeachesClass: row.viewerTeachesClass !== null,
    viewerIsExtraSupervisor: row.viewerIsExtraSupervisor !== null,
  };
}

/** The viewer's access to a student of a class, or null (unknown student, or not theirs to see). */
export async function studentAccess(
  db: Db,
  viewer: Viewer,
  classId: number,
  studentUserId: number,
): Promise<StudentAccess | null> {
  const facts = await loadStudentFacts(db, viewer.userId, classId, studentUserId);
  if (!facts) return null;
  const relation = studentRelation(viewer, facts);
  if (!relation) return null;
  return {
    referenceId: facts.referenceId,
    classId: facts.classId,
    studentUserId: facts.studentUserId,
    teacherUserId: facts.teacherUserId,
    supervisorUserId: facts.supervisorUserId,
    relation,
  };
}

/**
 * For loaders and actions: the access, or a 404. A student the viewer may not see answers exactly
 * like one that does not exist, so a URL reveals nothing about other people's students.
 */
export async function requireStudentAccess(
  db: Db,
  viewer: Viewer,
  classId: number,
  studentUserId: number,
): Promise<StudentAccess> {
  return (await studentAccess(db, viewer, classId, studentUserId)) ?? notFound();
}

/** One query: whether the class exists and how the viewer is linked to it. */
export async function loadClassFacts(db: Db, viewerUserId: number, classId: number): Promise<ClassFacts | null> {
  const [row] = await db
    .select({
      classId: classes.id,
      teaches: classTeachers.userId,
      advises: classSupervisors.userId,
      follows: studentReferences.id,
      studies: sqlStudies(viewerUserId),
    })
    .from(classes)
    .leftJoin(classTeachers, and(eq(classTeachers.classId, classes.id), eq(classTeachers.userId, viewerUserId)))
    .leftJoin(
      classSupervisors,
      and(eq(classSupervisors.classId, classes.id), eq(classSupervisors.userId, viewerUserId)),
    )
    .leftJoin(studentReferences, and(eq(studentReferences.classId, classes.id), followedBy(viewerUserId)))
    .where(eq(classes.id, classId))
    .limit(1);
  if (!row) return null;
  return {
    viewerTeachesClass: row.teaches !== null,
    viewerAdvisesClass: row.advises !== null,
    viewerFollowsStudentInClass: row.follows !== null,
    viewerStudiesInClass: row.studies,
  };
}

export async function accessToClass(db: Db, viewer: Viewer, classId: number): Promise<ClassAccess> {
  const facts = await loadClassFacts(db, viewer.userId, classId);
  return facts ? classAccess(viewer, facts) : null;
}

/** For loaders and actions: the class access, or a 404 when the class is unknown or closed to the viewer. */
export async function requireClassAccess(db: Db, viewer: Viewer, classId: number): Promise<"members" | "outsider"> {
  return (await accessToClass(db, viewer, classId)) ?? notFound();
}

/** For actions that change a class's people: the viewer must be one of its teachers, else 404. */
export async function requireClassTeacher(db: Db, viewer: Viewer, classId: number): Promise<void> {
  if (viewer.role !== ROLE.Teacher || (await accessToClass(db, viewer, classId)) !== "members") notFound();
}

/** The reference is followed by the user: as assigned supervisor or as an extra supervisor. */
function followedBy(userId: number) {
  return or(
    eq(studentReferences.supervisorUserId, userId),
    sql`exists (select 1 from ${studentExtraSupervisors} where ${studentExtraSupervisors.studentReferenceId} = ${studentReferences.id} and ${studentExtraSupervisors.userId} = ${userId})`,
  );
}

function sqlStudies(userId: number) {
  return sql<boolean>`exists (select 1 from ${studentReferences} sr where sr.class_id = ${classes.id} and sr.student_user_id = ${userId})`;
}
