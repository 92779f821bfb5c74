import { and, asc, count, eq, gte, ilike, inArray, isNull, lte, notExists, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { TFunction } from "i18next";
import { byDisplayName, classHeader, schemesOfClass, type ClassHeader, type Scheme, escapeLike, naturalSortKey } from "~/services/admin/index.server";
import { audit } from "~/services/platform/audit.server";
import { claimStudents, type ClaimedStudent, type PlaceConflict } from "./placement-roles.server";
import type { Db } from "~/services/platform/db/client.server";
import {
  answerSets,
  assignmentForms,
  assignments,
  classAdvisors,
  classes,
  classTeachers,
  forms,
  periods,
  studentExtraSupervisors,
  studentReferences,
  subjects,
  userRoles,
  users,
} from "~/services/platform/db/schema";
import { currentHalf, type HalfState } from "./deadline";
import type { Mail } from "~/services/platform/email.server";
import { normaliseEmail, phoneDigits } from "~/services/identity/index.server";
import type { ClassSummary } from "./overview.server";
import { ROLE } from "~/services/identity";
import { osloDate } from "~/services/platform/semesters";

/**
 * The teacher's side of a placement class (spec §2 teacher area, §6): joining and leaving a class,
 * taking students, adding supervisors, and the progress overview of the class page.
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
      periodName: periods.name,
      startDate: periods.startDate,
      endDate: periods.endDate,
      isCurrent: sql<boolean>`true`,
      studentCount: sql<number>`(select count(*)::int from ${studentReferences} where ${studentReferences.classId} = ${classes.id})`,
    })
    .from(classes)
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .innerJoin(periods, eq(periods.id, classes.periodId))
    .where(
      and(
        lte(periods.startDate, today),
        gte(periods.endDate, today),
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
  if (header.periodEnd < today) return { ok: false, error: "ended" };
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
            .where(inArray(users.id, released.map((r) => r.userId)));
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

// ─── The progress overview ───────────────────────────────────────────────────

/** How many of a half's forms each author has sent. */
export interface AuthorCounts {
  student: number;
  advisor: number;
  teacher: number;
}

export interface ProgressRow {
  userId: number;
  displayName: string;
  email: string;
  isActive: boolean;
  teacherUserId: number | null;
  teacherName: string | null;
  advisorUserId: number | null;
  advisorName: string | null;
  mid: AuthorCounts;
  end: AuthorCounts;
}

/**
 * One row per student of the class, with their teacher and supervisor and, per half, how many of
 * the class's forms (not deleted, in that half's schemes) the student, a supervisor (assigned or
 * extra) and a teacher have sent. One query, whatever the size of the class.
 */
export async function progressOverview(db: Db, classId: number): Promise<ProgressRow[]> {
  const student = alias(users, "student");
  const teacher = alias(users, "teacher");
  const advisor = alias(users, "advisor");
  // One row per form sent about a student by an author role: several supervisors sending the same
  // form count once.
  const sent = db
    .selectDistinct({
      studentUserId: answerSets.studentUserId,
      authorRoleId: answerSets.authorRoleId,
      isMidSemester: assignments.isMidSemester,
      assignmentId: answerSets.assignmentId,
      formId: answerSets.formId,
    })
    .from(answerSets)
    .innerJoin(assignments, eq(assignments.id, answerSets.assignmentId))
    .innerJoin(
      assignmentForms,
      and(eq(assignmentForms.assignmentId, answerSets.assignmentId), eq(assignmentForms.formId, answerSets.formId)),
    )
    .innerJoin(forms, and(eq(forms.id, answerSets.formId), isNull(forms.deletedAt)))
    .where(and(eq(assignments.classId, classId), sql`${answerSets.sentAt} is not null`))
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
      advisorUserId: studentReferences.advisorUserId,
      advisorName: advisor.displayName,
      midStudent: counted(ROLE.Student, true),
      midAdvisor: counted(ROLE.Advisor, true),
      midTeacher: counted(ROLE.Teacher, true),
      endStudent: counted(ROLE.Student, false),
      endAdvisor: counted(ROLE.Advisor, false),
      endTeacher: counted(ROLE.Teacher, false),
    })
    .from(studentReferences)
    .innerJoin(student, eq(student.id, studentReferences.studentUserId))
    .leftJoin(teacher, eq(teacher.id, studentReferences.teacherUserId))
    .leftJoin(advisor, eq(advisor.id, studentReferences.advisorUserId))
    .leftJoin(sent, eq(sent.studentUserId, studentReferences.studentUserId))
    .where(eq(studentReferences.classId, classId))
    .groupBy(studentReferences.id, student.id, teacher.id, advisor.id);
  return byDisplayName(
    rows.map(({ midStudent, midAdvisor, midTeacher, endStudent, endAdvisor, endTeacher, ...row }) => ({
      ...row,
      mid: { student: midStudent, advisor: midAdvisor, teacher: midTeacher },
      end: { student: endStudent, advisor: endAdvisor, teacher: endTeacher },
    })),
  );
}

/**
 * A student's state in one half: "done" when student, supervisor and teacher have all sent every
 * form; "behind" when not and the half's date has passed; "open" while there is still time;
 * "none" when the half has no forms.
 */
export type HalfProgress = "done" | "behind" | "open" | "none";

export function halfProgress(counts: AuthorCounts, formCount: number, deadlinePassed: boolean): HalfProgress {
  if (formCount === 0) return "none";
  if (counts.student >= formCount && counts.advisor >= formCount && counts.teacher >= formCount) return "done";
  return deadlinePassed ? "behind" : "open";
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

const collator = new Intl.Collator("nb", { numeric: true, sensitivity: "base" });

function sentTotal(counts: AuthorCounts): number {
  return counts.student + counts.advisor + counts.teacher;
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
        return compareNames(a.advisorName, b.advisorName);
      case "mid":
        return sign * (sentTotal(a.mid) - sentTotal(b.mid));
      case "end":
        return sign * (sentTotal(a.end) - sentTotal(b.end));
    }
  };
  return byName.toSorted((a, b) => compare(a, b) || rank.get(a)! - rank.get(b)!);
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
      attached: sql<boolean>`(${classAdvisors.userId} is not null and not ${classAdvisors.viaInvitation})`,
      studentCount: sql<number>`(select count(*)::int from ${studentReferences} where ${studentReferences.classId} = ${classId} and (${studentReferences.advisorUserId} = ${users.id} or exists (select 1 from ${studentExtraSupervisors} where ${studentExtraSupervisors.studentReferenceId} = ${studentReferences.id} and ${studentExtraSupervisors.userId} = ${users.id})))`,
    })
    .from(users)
    // The join also makes drizzle name every column with its table, which the subqueries rely on.
    .leftJoin(classAdvisors, and(eq(classAdvisors.classId, classId), eq(classAdvisors.userId, users.id)))
    .where(
      or(
        sql`${classAdvisors.userId} is not null`,
        sql`${users.id} in (select ${studentReferences.advisorUserId} from ${studentReferences} where ${studentReferences.classId} = ${classId})`,
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
    ended: header.periodEnd < today,
    schemes,
    formCount: { mid: formsIn(true), end: formsIn(false) },
    deadlinePassed: { mid: passed(header.midSemesterDate), end: passed(header.endSemesterDate) },
    members,
  };
}

// ─── Taking students ─────────────────────────────────────────────────────────

export const STUDENT_PICKER_PAGE_SIZE = 20;
export const STUDENT_SEARCH_MAX_LENGTH = 100;

export interface PickableStudent {
  userId: number;
  displayName: string;
  email: string;
  teacherUserId: number | null;
  teacherName: string | null;
}

/** Students of the class matching a search (name or e-mail, any case), by name, `limit` at a time. */
export async function studentPicker(
  db: Db,
  input: { classId: number; search?: string; offset?: number; limit?: number },
): Promise<{ rows: PickableStudent[]; total: number }> {
  const teacher = alias(users, "teacher");
  const search = input.search?.trim().slice(0, STUDENT_SEARCH_MAX_LENGTH);
  const pattern = search ? `%${escapeLike(search)}%` : null;
  const where = and(
    eq(studentReferences.classId, input.classId),
    pattern ? or(ilike(users.displayName, pattern), ilike(users.email, pattern)) : undefined,
  );
  const [{ total }] = await db
    .select({ total: count() })
    .from(studentReferences)
    .innerJoin(users, eq(users.id, studentReferences.studentUserId))
    .where(where);
  const rows = await db
    .select({
      userId: users.id,
      displayName: users.displayName,
      email: users.email,
      teacherUserId: studentReferences.teacherUserId,
      teacherName: teacher.displayName,
    })
    .from(studentReferences)
    .innerJoin(users, eq(users.id, studentReferences.studentUserId))
    .leftJoin(teacher, eq(teacher.id, studentReferences.teacherUserId))
    .where(where)
    .orderBy(naturalSortKey(users.displayName), asc(users.id))
    .limit(input.limit ?? STUDENT_PICKER_PAGE_SIZE)
    .offset(input.offset ?? 0);
  return { rows, total: Number(total) };
}

export type TakeOutcome =
  | {
      ok: true;
      /** Now the teacher's. */
      assigned: StudentName[];
      /** Taken by another teacher before this request got to them. */
      taken: StudentName[];
      /** Already the teacher's own. */
      alreadyYours: StudentName[];
    }
  | { ok: false; error: "noStudents" | "unknownStudent" | "notMember" }
  | { ok: false; error: PlaceConflict; names: string[] };

/**
 * The teacher takes students of the class who have no teacher (placement-roles.server.ts): when two
 * teachers take the same student at once exactly one wins; the other learns by name who was taken
 * meanwhile. A student of another teacher is never moved here. Audited per student.
 */
export async function takeStudentsAsTeacher(
  db: Db,
  input: { classId: number; teacherUserId: number; studentUserIds: number[]; ip?: string | null },
): Promise<TakeOutcome> {
  if (input.studentUserIds.length === 0) return { ok: false, error: "noStudents" };
  return db.transaction(async (tx) => {
    // Held until commit, so a leave of the class waits for this and then releases these students too.
    const [member] = await tx
      .select({ userId: classTeachers.userId })
      .from(classTeachers)
      .where(and(eq(classTeachers.classId, input.classId), eq(classTeachers.userId, input.teacherUserId)))
      .for("share");
    if (!member) return { ok: false as const, error: "notMember" as const };
    const claim = await claimStudents(tx, { ...input, place: "teacher", userId: input.teacherUserId });
    if (!claim.ok) return claim;
    const won = claim.students.filter((s) => s.heldBy === null);
    for (const student of won) {
      await audit(tx, {
        action: "student.teacher_assigned",
        actorUserId: input.teacherUserId,
        subjectUserId: student.userId,
        classId: input.classId,
        details: { teacherUserId: input.teacherUserId },
        ip: input.ip,
      });
    }
    const names = (list: ClaimedStudent[]) => byDisplayName(list).map(({ userId, displayName }) => ({ userId, displayName }));
    return {
      ok: true as const,
      assigned: names(won),
      taken: names(claim.students.filter((s) => s.heldBy !== null && s.heldBy !== input.teacherUserId)),
      alreadyYours: names(claim.students.filter((s) => s.heldBy === input.teacherUserId)),
    };
  });
}

// ─── Adding a supervisor ─────────────────────────────────────────────────────

export type AddSupervisorOutcome =
  | { ok: true; user: { userId: number; displayName: string; email: string; phoneNumber: string | null }; created: boolean }
  | { ok: false; error: "notFound" | "deactivated" | "alreadyAttached" | "notSupervisor" };

/**
 * A teacher adds a supervisor to the class by name and e-mail: an unknown address becomes a new
 * Advisor user with that name and phone number; a known supervisor (any case) is attached as they
 * are. Nothing of an existing account is changed here: roles are an admin's decision, and a phone
 * number typed by someone else must never become a way to log in to another person's account
 * (Vipps matches users by phone). So a known user who is not a supervisor, or is deactivated, is
 * refused. Audited.
 */
export async function addSupervisor(
  db: Db,
  input: { classId: number; name: string; email: string; phone?: string | null; actorUserId: number; ip?: string | null },
): Promise<AddSupervisorOutcome> {
  const email = normaliseEmail(input.email);
  const phone = input.phone?.trim() ? `+${phoneDigits(input.phone)}` : null;
  return db.transaction(async (tx) => {
    const [found] = await tx.select({ id: classes.id }).from(classes).where(eq(classes.id, input.classId));
    if (!found) return { ok: false as const, error: "notFound" as const };
    const [inserted] = await tx
      .insert(users)
      .values({ displayName: input.name.trim(), email, phoneNumber: phone })
      .onConflictDoNothing()
      .returning({ id: users.id });
    const created = inserted !== undefined;
    if (created) await tx.insert(userRoles).values({ userId: inserted.id, roleId: ROLE.Advisor });
    const [user] = await tx
      .select({
        userId: users.id,
        displayName: users.displayName,
        email: users.email,
        phoneNumber: users.phoneNumber,
        isActive: users.isActive,
        isAdvisor: sql<boolean>`exists (select 1 from ${userRoles} where ${userRoles.userId} = ${users.id} and ${userRoles.roleId} = ${ROLE.Advisor})`,
      })
      .from(users)
      .where(eq(sql`lower(${users.email})`, email));
    if (!user.isActive) return { ok: false as const, error: "deactivated" as const };
    if (!user.isAdvisor) return { ok: false as const, error: "notSupervisor" as const };
    // A supervisor who came through a student's invitation is now attached by a teacher, and may take students.
    const attached = await tx
      .insert(classAdvisors)
      .values({ classId: input.classId, userId: user.userId })
      .onConflictDoUpdate({
        target: [classAdvisors.classId, classAdvisors.userId],
        set: { viaInvitation: false },
        setWhere: eq(classAdvisors.viaInvitation, true),
      })
      .returning({ userId: classAdvisors.userId });
    if (attached.length === 0) return { ok: false as const, error: "alreadyAttached" as const };
    await audit(tx, {
      action: "advisor.added_to_class",
      actorUserId: input.actorUserId,
      subjectUserId: user.userId,
      classId: input.classId,
      details: { created },
      ip: input.ip,
    });
    const { isActive: _active, isAdvisor: _advisor, ...person } = user;
    return { ok: true as const, user: person, created };
  });
}

/**
 * The welcome mail to a supervisor added to a class: how to log in, with an e-mail code at
 * /login with this address, or with Vipps when the phone number is registered. `t` is fixed to a
 * language and the teacher namespace.
 */
export function welcomeMail(
  t: TFunction,
  input: {
    to: string;
    name: string;
    teacherName: string;
    header: Pick<ClassHeader, "subjectCode" | "subjectName" | "periodName">;
    origin: string;
    appName: string;
    phoneNumber: string | null;
  },
): Mail {
  const values = {
    name: input.name,
    teacher: input.teacherName,
    subject: `${input.header.subjectCode} ${input.header.subjectName}`,
    period: input.header.periodName,
    loginUrl: `${input.origin}/login`,
    startUrl: `${input.origin}/`,
    email: input.to,
    phone: input.phoneNumber ?? "",
    appName: input.appName,
  };
  const lines = [
    t("welcomeMail.greeting", values),
    "",
    t("welcomeMail.added", values),
    "",
    t("welcomeMail.howTo", values),
    t("welcomeMail.step1", values),
    t("welcomeMail.step2", values),
    t("welcomeMail.step3", values),
    "",
    input.phoneNumber ? t("welcomeMail.vippsWithPhone", values) : t("welcomeMail.vipps", values),
    "",
    t("welcomeMail.signature", values),
  ];
  return { to: input.to, subject: t("welcomeMail.subject", values), text: lines.join("\n") };
}
