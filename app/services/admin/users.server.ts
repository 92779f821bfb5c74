import { and, asc, count, eq, exists, ilike, inArray, or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { audit } from "~/services/platform/audit.server";
import type { Db } from "~/services/platform/db/client.server";
import {
  answerSets,
  schemes,
  classSupervisors,
  classes,
  classTeachers,
  semesters,
  signingForms,
  studentExtraSupervisors,
  studentReferences,
  subjects,
  userRoles,
  users,
  warnings,
} from "~/services/platform/db/schema";
import { isRoleId, ROLE, type RoleId } from "~/services/identity";
import { semesterStatus, type SemesterStatus } from "~/services/platform/semesters";
import { destroyUserSessions, phoneDigits } from "~/services/identity/index.server";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** The users list loads 20 at a time: a page stays light, and a "Load more" link fetches the next. */
export const USERS_PAGE_SIZE = 20;
export { DISPLAY_NAME_MAX_LENGTH, USER_SEARCH_MAX_LENGTH } from "./limits";

interface Actor {
  userId: number;
  ip?: string | null;
}

// ─── Sorting and searching ───────────────────────────────────────────────────

/**
 * A sort key for names with numeric collation ("student2" before "student10"), the same on every
 * PostgreSQL: no ICU collation with numeric ordering exists without CREATE COLLATION, so every
 * run of digits is left-padded to ten places, case is folded, and Æ Ø Å (with Ä Ö, as Norwegian
 * sorts them) are mapped past "z" in that order; the result is compared byte by byte (COLLATE "C").
 * The padding regexes are the costly part, so names without digits (most of them) skip them.
 */
export function naturalSortKey(column: AnyColumn | SQL): SQL {
  const folded = sql`lower(${column} collate "C")`;
  const padded = sql`regexp_replace(regexp_replace(${folded}, '(\\d+)', '0000000000\\1', 'g'), '0*(\\d{10,})(?!\\d)', '\\1', 'g')`;
  return sql`translate(case when ${column} ~ '[0-9]' then ${padded} else ${folded} end, 'æøåÆØÅäöÄÖ', '{|}{|}{|{|') collate "C"`;
}

/** Makes user input literal inside a LIKE/ILIKE pattern (backslash is PostgreSQL's default escape). */
export function escapeLike(text: string): string {
  // PostgreSQL text cannot hold NUL, and no name or address contains one.
  return text.replace(/\0/g, "").replace(/[\\%_]/g, (c) => `\\${c}`);
}

export interface UserListQuery {
  roleId?: RoleId | null;
  search?: string | null;
  includeInactive?: boolean;
  offset?: number;
  limit?: number;
}

export interface UserListRow {
  id: number;
  displayName: string;
  email: string;
  isActive: boolean;
  roles: RoleId[];
}

/**
 * The admin's user list: optionally one role, a case-insensitive search in name and e-mail, and
 * deactivated users only when asked; sorted by name with numeric collation, then id, so that
 * offsets page through a stable order.
 */
export async function listUsers(db: Db, query: UserListQuery = {}): Promise<{ rows: UserListRow[]; total: number }> {
  const conditions: SQL[] = [];
  if (!query.includeInactive) conditions.push(eq(users.isActive, true));
  if (query.roleId) {
    conditions.push(
      exists(
        db
          .select({ one: sql`1` })
          .from(userRoles)
          .where(and(eq(userRoles.userId, users.id), eq(userRoles.roleId, query.roleId))),
      ),
    );
  }
  const search = query.search?.trim();
  if (search) {
    const pattern = `%${escapeLike(search)}%`;
    conditions.push(or(ilike(users.displayName, pattern), ilike(users.email, pattern))!);
  }
  const where = conditions.length > 0 ? and(...conditions) : undefined;

  const [{ total }] = await db.select({ total: count() }).from(users).where(where);
  const page = await db
    .select({ id: users.id, displayName: users.displayName, email: users.email, isActive: users.isActive })
    .from(users)
    .where(where)
    .orderBy(naturalSortKey(users.displayName), asc(users.id))
    .limit(query.limit ?? USERS_PAGE_SIZE)
    .offset(query.offset ?? 0);

  const roleRows =
    page.length === 0
      ? []
      : await db
          .select({ userId: userRoles.userId, roleId: userRoles.roleId })
          .from(userRoles)
          .where(
            inArray(
              userRoles.userId,
              page.map((u) => u.id),
            ),
          )
          .orderBy(asc(userRoles.roleId));
  const rolesOf = new Map<number, RoleId[]>();
  for (const { userId, roleId } of roleRows) {
    if (!isRoleId(roleId)) continue;
    rolesOf.set(userId, [...(rolesOf.get(userId) ?? []), roleId]);
  }
  return { rows: page.map((u) => ({ ...u, roles: rolesOf.get(u.id) ?? [] })), total };
}

// ─── One user ────────────────────────────────────────────────────────────────

export interface SemesterClasses {
  semesterId: number;
  name: string;
  status: SemesterStatus;
  classes: { id: number; subjectCode: string; subjectName: string }[];
}

export interface UserForEdit {
  user: {
    id: number;
    displayName: string;
    email: string;
    phoneNumber: string | null;
    isActive: boolean;
    /** Set when the person was erased or anonymised by the records schedule (docs/rules/records.md). */
    anonymisedAt: Date | null;
  };
  roles: RoleId[];
  studentClassIds: number[];
  teacherClassIds: number[];
  supervisorClassIds: number[];
  /** Every semester with classes: the current one first, then coming ones, then earlier ones, newest first. */
  semesters: SemesterClasses[];
}

const STATUS_ORDER: Record<SemesterStatus, number> = { current: 0, future: 1, past: 2 };

export async function semestersWithClasses(db: Db, today: Date): Promise<SemesterClasses[]> {
  const rows = await db
    .select({
      semesterId: semesters.id,
      semesterName: semesters.name,
      startDate: semesters.startDate,
      endDate: semesters.endDate,
      classId: classes.id,
      subjectCode: subjects.subjectCode,
      subjectName: subjects.name,
    })
    .from(classes)
    .innerJoin(semesters, eq(semesters.id, classes.semesterId))
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .orderBy(asc(semesters.startDate), naturalSortKey(subjects.subjectCode));
  const bySemester = new Map<number, SemesterClasses & { startDate: string }>();
  for (const row of rows) {
    let semester = bySemester.get(row.semesterId);
    if (!semester) {
      semester = {
        semesterId: row.semesterId,
        name: row.semesterName,
        status: semesterStatus(row, today),
        startDate: row.startDate,
        classes: [],
      };
      bySemester.set(row.semesterId, semester);
    }
    semester.classes.push({ id: row.classId, subjectCode: row.subjectCode, subjectName: row.subjectName });
  }
  return [...bySemester.values()]
    .sort((a, b) => {
      const byStatus = STATUS_ORDER[a.status] - STATUS_ORDER[b.status];
      if (byStatus !== 0) return byStatus;
      // Coming semesters soonest first, earlier ones newest first.
      return a.status === "past" ? b.startDate.localeCompare(a.startDate) : a.startDate.localeCompare(b.startDate);
    })
    .map(({ startDate: _startDate, ...semester }) => semester);
}

async function membershipsOf(db: Db | Tx, userId: number) {
  const [teacher, supervisor, student] = await Promise.all([
    db.select({ classId: classTeachers.classId }).from(classTeachers).where(eq(classTeachers.userId, userId)),
    db.select({ classId: classSupervisors.classId }).from(classSupervisors).where(eq(classSupervisors.userId, userId)),
    db
      .select({ id: studentReferences.id, classId: studentReferences.classId })
      .from(studentReferences)
      .where(eq(studentReferences.studentUserId, userId)),
  ]);
  return {
    teacherClassIds: teacher.map((r) => r.classId).sort((a, b) => a - b),
    supervisorClassIds: supervisor.map((r) => r.classId).sort((a, b) => a - b),
    studentRefs: student,
  };
}

async function rolesOf(db: Db | Tx, userId: number): Promise<RoleId[]> {
  const rows = await db
    .select({ roleId: userRoles.roleId })
    .from(userRoles)
    .where(eq(userRoles.userId, userId))
    .orderBy(asc(userRoles.roleId));
  return rows.map((r) => r.roleId).filter(isRoleId);
}

export async function getUserForEdit(db: Db, userId: number, today = new Date()): Promise<UserForEdit | null> {
  const [user] = await db
    .select({
      id: users.id,
      displayName: users.displayName,
      email: users.email,
      phoneNumber: users.phoneNumber,
      isActive: users.isActive,
      anonymisedAt: users.anonymisedAt,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) return null;
  const [roles, memberships, semesters] = await Promise.all([
    rolesOf(db, userId),
    membershipsOf(db, userId),
    semestersWithClasses(db, today),
  ]);
  return {
    user,
    roles,
    studentClassIds: memberships.studentRefs.map((r) => r.classId).sort((a, b) => a - b),
    teacherClassIds: memberships.teacherClassIds,
    supervisorClassIds: memberships.supervisorClassIds,
    semesters,
  };
}

// ─── Saving a user ───────────────────────────────────────────────────────────

export interface UserEditInput {
  displayName: string;
  roles: RoleId[];
  /** Applied only when `roles` has Student; otherwise the user leaves every class as a student. */
  studentClassIds: number[];
  /** Applied only when `roles` has Teacher. */
  teacherClassIds: number[];
  /** Applied only when `roles` has Supervisor. */
  supervisorClassIds: number[];
}

export interface ClassLabel {
  classId: number;
  subjectCode: string;
  semesterName: string;
}

export type UserEditError =
  | { kind: "notFound" }
  /** Erased (anonymised): kept as "Slettet bruker" for the records that must stay, never changed again. */
  | { kind: "erased" }
  | { kind: "rolesRequired" }
  | { kind: "unknownClass" }
  /** An admin may not take the Admin role from themselves (someone must be left to give it back). */
  | { kind: "ownAdminRole" }
  /** A student is in at most one class per semester. */
  | { kind: "twoClassesInSemester"; semesterName: string }
  /** Removing a student from a class would delete their answers, warning or signing form there. */
  | { kind: "studentHasAssessments"; classes: ClassLabel[] };

export type UserEditResult = { ok: true; changed: boolean } | { ok: false; error: UserEditError };

const unique = (ids: readonly number[]) => [...new Set(ids)].sort((a, b) => a - b);
const minus = (a: readonly number[], b: readonly number[]) => a.filter((x) => !b.includes(x));

/**
 * The student's classes among `classIds` that hold assessment data about them: answers (any author)
 * under the class's schemes, a warning or a signing form.
 */
async function classesWithAssessments(db: Db | Tx, studentUserId: number, refs: { id: number; classId: number }[]) {
  if (refs.length === 0) return [];
  const classIds = refs.map((r) => r.classId);
  const refIds = refs.map((r) => r.id);
  const answered = await db
    .selectDistinct({ classId: schemes.classId })
    .from(answerSets)
    .innerJoin(schemes, eq(schemes.id, answerSets.schemeId))
    .where(and(eq(answerSets.studentUserId, studentUserId), inArray(schemes.classId, classIds)));
  const warned = await db
    .select({ refId: warnings.studentReferenceId })
    .from(warnings)
    .where(inArray(warnings.studentReferenceId, refIds));
  const signed = await db
    .select({ refId: signingForms.studentReferenceId })
    .from(signingForms)
    .where(inArray(signingForms.studentReferenceId, refIds));
  const refsWithData = new Set([...warned, ...signed].map((r) => r.refId));
  const held = new Set(answered.map((r) => r.classId));
  for (const ref of refs) if (refsWithData.has(ref.id)) held.add(ref.classId);
  return [...held];
}

async function classLabels(db: Db | Tx, classIds: number[]): Promise<ClassLabel[]> {
  if (classIds.length === 0) return [];
  return db
    .select({ classId: classes.id, subjectCode: subjects.subjectCode, semesterName: semesters.name })
    .from(classes)
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .innerJoin(semesters, eq(semesters.id, classes.semesterId))
    .where(inArray(classes.id, classIds))
    .orderBy(asc(semesters.startDate), asc(subjects.subjectCode));
}

class Refusal extends Error {
  constructor(readonly error: UserEditError) {
    super(error.kind);
  }
}

/** What one save changes in each of a user's three kinds of class. */
type ClassChanges = Record<
  "studentClasses" | "teacherClasses" | "supervisorClasses",
  { added: number[]; removed: number[] }
>;

/**
 * Writes a user's class changes: joins and leaves as student, teacher and supervisor. A teacher or
 * supervisor who leaves a class stops being the selected (or extra) one of its students there.
 */
async function applyClassChanges(tx: Tx, userId: number, changes: ClassChanges): Promise<void> {
  const { studentClasses, teacherClasses, supervisorClasses } = changes;
  if (studentClasses.removed.length > 0) {
    await tx
      .delete(studentReferences)
      .where(
        and(eq(studentReferences.studentUserId, userId), inArray(studentReferences.classId, studentClasses.removed)),
      );
  }
  if (studentClasses.added.length > 0) {
    await tx
      .insert(studentReferences)
      .values(studentClasses.added.map((classId) => ({ classId, studentUserId: userId })));
  }
  if (teacherClasses.removed.length > 0) {
    await tx
      .delete(classTeachers)
      .where(and(eq(classTeachers.userId, userId), inArray(classTeachers.classId, teacherClasses.removed)));
    await tx
      .update(studentReferences)
      .set({ teacherUserId: null })
      .where(
        and(eq(studentReferences.teacherUserId, userId), inArray(studentReferences.classId, teacherClasses.removed)),
      );
  }
  if (teacherClasses.added.length > 0) {
    await tx.insert(classTeachers).values(teacherClasses.added.map((classId) => ({ classId, userId })));
  }
  if (supervisorClasses.removed.length > 0) {
    await tx
      .delete(classSupervisors)
      .where(and(eq(classSupervisors.userId, userId), inArray(classSupervisors.classId, supervisorClasses.removed)));
    await tx
      .update(studentReferences)
      .set({ supervisorUserId: null })
      .where(
        and(
          eq(studentReferences.supervisorUserId, userId),
          inArray(studentReferences.classId, supervisorClasses.removed),
        ),
      );
    // An extra supervisor of a student is a selected supervisor too.
    const refsInLeftClasses = tx
      .select({ id: studentReferences.id })
      .from(studentReferences)
      .where(inArray(studentReferences.classId, supervisorClasses.removed));
    await tx
      .delete(studentExtraSupervisors)
      .where(
        and(
          eq(studentExtraSupervisors.userId, userId),
          inArray(studentExtraSupervisors.studentReferenceId, refsInLeftClasses),
        ),
      );
  }
  if (supervisorClasses.added.length > 0) {
    await tx.insert(classSupervisors).values(supervisorClasses.added.map((classId) => ({ classId, userId })));
  }
}

/**
 * Saves the user page in one transaction: name, roles and the classes per role (docs/rules/admin.md). A
 * teacher or supervisor who leaves a class stops being the selected teacher or supervisor of its
 * students there; a student is never taken out of a class that holds their assessments.
 */
export async function updateUser(db: Db, userId: number, input: UserEditInput, actor: Actor): Promise<UserEditResult> {
  const roles = unique(input.roles).filter(isRoleId);
  if (roles.length === 0) return { ok: false, error: { kind: "rolesRequired" } };
  const displayName = input.displayName.trim();
  const wanted = {
    student: roles.includes(ROLE.Student) ? unique(input.studentClassIds) : [],
    teacher: roles.includes(ROLE.Teacher) ? unique(input.teacherClassIds) : [],
    supervisor: roles.includes(ROLE.Supervisor) ? unique(input.supervisorClassIds) : [],
  };

  try {
    return await db.transaction(async (tx) => {
      // Locks the user row: two admins saving the same user at once are applied one after the other.
      const [user] = await tx
        .select({ id: users.id, displayName: users.displayName, anonymisedAt: users.anonymisedAt })
        .from(users)
        .where(eq(users.id, userId))
        .for("update");
      if (!user) throw new Refusal({ kind: "notFound" });
      if (user.anonymisedAt) throw new Refusal({ kind: "erased" });
      const rolesBefore = await rolesOf(tx, userId);
      if (userId === actor.userId && rolesBefore.includes(ROLE.Admin) && !roles.includes(ROLE.Admin)) {
        throw new Refusal({ kind: "ownAdminRole" });
      }

      const allIds = unique([...wanted.student, ...wanted.teacher, ...wanted.supervisor]);
      const known =
        allIds.length === 0
          ? []
          : await tx
              .select({ id: classes.id, semesterId: classes.semesterId, semesterName: semesters.name })
              .from(classes)
              .innerJoin(semesters, eq(semesters.id, classes.semesterId))
              .where(inArray(classes.id, allIds));
      if (known.length !== allIds.length) throw new Refusal({ kind: "unknownClass" });
      const seenSemesters = new Set<number>();
      for (const c of known.filter((k) => wanted.student.includes(k.id))) {
        if (seenSemesters.has(c.semesterId))
          throw new Refusal({ kind: "twoClassesInSemester", semesterName: c.semesterName });
        seenSemesters.add(c.semesterId);
      }

      const before = await membershipsOf(tx, userId);
      const studentBefore = unique(before.studentRefs.map((r) => r.classId));
      const leaving = before.studentRefs.filter((r) => !wanted.student.includes(r.classId));
      const blocked = await classesWithAssessments(tx, userId, leaving);
      if (blocked.length > 0) {
        throw new Refusal({ kind: "studentHasAssessments", classes: await classLabels(tx, blocked) });
      }

      const changes = {
        studentClasses: { added: minus(wanted.student, studentBefore), removed: minus(studentBefore, wanted.student) },
        teacherClasses: {
          added: minus(wanted.teacher, before.teacherClassIds),
          removed: minus(before.teacherClassIds, wanted.teacher),
        },
        supervisorClasses: {
          added: minus(wanted.supervisor, before.supervisorClassIds),
          removed: minus(before.supervisorClassIds, wanted.supervisor),
        },
      };

      if (displayName !== user.displayName) {
        await tx.update(users).set({ displayName }).where(eq(users.id, userId));
      }
      const rolesChanged = rolesBefore.join(",") !== roles.join(",");
      if (rolesChanged) {
        await tx.delete(userRoles).where(eq(userRoles.userId, userId));
        await tx.insert(userRoles).values(roles.map((roleId) => ({ userId, roleId })));
      }

      await applyClassChanges(tx, userId, changes);

      if (rolesChanged) {
        await audit(tx, {
          action: "user.roles_changed",
          actorUserId: actor.userId,
          subjectUserId: userId,
          details: { before: rolesBefore, after: roles },
          ip: actor.ip,
        });
      }
      const classesChanged = Object.values(changes).some((c) => c.added.length > 0 || c.removed.length > 0);
      const nameChanged = displayName !== user.displayName;
      if (nameChanged || classesChanged) {
        await audit(tx, {
          action: "user.updated",
          actorUserId: actor.userId,
          subjectUserId: userId,
          details: {
            ...(nameChanged ? { displayName: { before: user.displayName, after: displayName } } : {}),
            ...Object.fromEntries(
              Object.entries(changes).filter(([, c]) => c.added.length > 0 || c.removed.length > 0),
            ),
          },
          ip: actor.ip,
        });
      }
      return { ok: true as const, changed: rolesChanged || nameChanged || classesChanged };
    });
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, error: error.error };
    throw error;
  }
}

export type ActivationResult = { ok: true; changed: boolean } | { ok: false; reason: "notFound" | "self" | "erased" };

/**
 * Activates or deactivates a user. Deactivation ends every session of theirs at once; an admin
 * cannot deactivate themselves.
 */
export async function setUserActive(db: Db, userId: number, active: boolean, actor: Actor): Promise<ActivationResult> {
  if (userId === actor.userId && !active) return { ok: false, reason: "self" };
  return db.transaction(async (tx) => {
    const [user] = await tx
      .select({ isActive: users.isActive, anonymisedAt: users.anonymisedAt })
      .from(users)
      .where(eq(users.id, userId))
      .for("update");
    if (!user) return { ok: false, reason: "notFound" } as const;
    // An erased person gets no access back: their account only holds records that must be kept.
    if (user.anonymisedAt && active) return { ok: false, reason: "erased" } as const;
    if (!active) await destroyUserSessions(tx, userId);
    if (user.isActive === active) return { ok: true, changed: false } as const;
    await tx.update(users).set({ isActive: active }).where(eq(users.id, userId));
    await audit(tx, {
      action: active ? "user.activated" : "user.deactivated",
      actorUserId: actor.userId,
      subjectUserId: userId,
      ip: actor.ip,
    });
    return { ok: true, changed: true } as const;
  });
}

// ─── A phone number ──────────────────────────────────────────────────────────

export type PhoneResult =
  { ok: true; changed: boolean; vippsUnproved: boolean } | { ok: false; error: "notFound" | "invalid" | "erased" };

/** A typed number as it is stored ("+4798765432"), null for an empty one, or false when it is no phone number. */
export function storedPhone(text: string): string | null | false {
  const value = text.trim();
  if (value === "") return null;
  const digits = value.replace(/\D/g, "");
  if (!/^\+?[\d\s().-]+$/.test(value) || digits.length < 8 || digits.length > 15) return false;
  return `+${phoneDigits(value)}`;
}

/**
 * Corrects a user's phone number (the one a supervisor was invited with, which Vipps matches). A
 * changed number is unproved: the number Vipps vouched for and the Vipps identity bound with it are
 * dropped, so Vipps logs nobody in on this account until the owner proves the new number again with
 * the e-mail code sent to the account's address (identity/provider-login.server.ts). An empty field
 * removes the number. Audited without the numbers themselves (personal data).
 */
export async function updatePhoneNumber(db: Db, userId: number, text: string, actor: Actor): Promise<PhoneResult> {
  const phone = storedPhone(text);
  if (phone === false) return { ok: false, error: "invalid" };
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({
        phoneNumber: users.phoneNumber,
        verifiedPhone: users.verifiedPhone,
        vippsSub: users.vippsSub,
        anonymisedAt: users.anonymisedAt,
      })
      .from(users)
      .where(eq(users.id, userId))
      .for("update");
    if (!row) return { ok: false as const, error: "notFound" as const };
    if (row.anonymisedAt) return { ok: false as const, error: "erased" as const };
    const before = row.phoneNumber === null ? null : `+${phoneDigits(row.phoneNumber)}`;
    if (before === phone) return { ok: true as const, changed: false, vippsUnproved: false };
    const vippsUnproved = row.verifiedPhone !== null || row.vippsSub !== null;
    await tx
      .update(users)
      .set({ phoneNumber: phone, verifiedPhone: null, vippsSub: null, updatedAt: new Date() })
      .where(eq(users.id, userId));
    await audit(tx, {
      action: "user.phone_changed",
      actorUserId: actor.userId,
      subjectUserId: userId,
      details: { phone: phone === null ? "removed" : before === null ? "added" : "changed", vippsUnproved },
      ip: actor.ip,
    });
    return { ok: true as const, changed: true, vippsUnproved };
  });
}
