import { and, asc, count, eq, ilike, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { TFunction } from "i18next";
import { byDisplayName, type ClassHeader, escapeLike, naturalSortKey } from "~/services/admin/index.server";
import { audit } from "~/services/platform/audit.server";
import { claimStudents, type ClaimedStudent, type PlaceConflict } from "./placement-roles.server";
import type { Db } from "~/services/platform/db/client.server";
import {
  classSupervisors,
  classes,
  classTeachers,
  studentReferences,
  userRoles,
  users,
} from "~/services/platform/db/schema";
import type { Mail } from "~/services/platform/email.server";
import { normaliseEmail, phoneDigits } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import type { StudentName } from "./teacher-class.server";
import { STUDENT_SEARCH_MAX_LENGTH } from "./limits";

/**
 * Staffing a class (docs/rules/placements.md): the teacher takes students who have no teacher, and adds supervisors
 * (created when new, told by mail how to log in).
 */

export const STUDENT_PICKER_PAGE_SIZE = 20;
export { STUDENT_SEARCH_MAX_LENGTH } from "./limits";

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
    const names = (list: ClaimedStudent[]) =>
      byDisplayName(list).map(({ userId, displayName }) => ({ userId, displayName }));
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
  | {
      ok: true;
      user: { userId: number; displayName: string; email: string; phoneNumber: string | null };
      created: boolean;
    }
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
  input: {
    classId: number;
    name: string;
    email: string;
    phone?: string | null;
    actorUserId: number;
    ip?: string | null;
  },
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
    if (created) await tx.insert(userRoles).values({ userId: inserted.id, roleId: ROLE.Supervisor });
    const [user] = await tx
      .select({
        userId: users.id,
        displayName: users.displayName,
        email: users.email,
        phoneNumber: users.phoneNumber,
        isActive: users.isActive,
        isSupervisor: sql<boolean>`exists (select 1 from ${userRoles} where ${userRoles.userId} = ${users.id} and ${userRoles.roleId} = ${ROLE.Supervisor})`,
      })
      .from(users)
      .where(eq(sql`lower(${users.email})`, email));
    if (!user.isActive) return { ok: false as const, error: "deactivated" as const };
    if (!user.isSupervisor) return { ok: false as const, error: "notSupervisor" as const };
    // A supervisor who came through a student's invitation is now attached by a teacher, and may take students.
    const attached = await tx
      .insert(classSupervisors)
      .values({ classId: input.classId, userId: user.userId })
      .onConflictDoUpdate({
        target: [classSupervisors.classId, classSupervisors.userId],
        set: { viaInvitation: false },
        setWhere: eq(classSupervisors.viaInvitation, true),
      })
      .returning({ userId: classSupervisors.userId });
    if (attached.length === 0) return { ok: false as const, error: "alreadyAttached" as const };
    await audit(tx, {
      action: "advisor.added_to_class",
      actorUserId: input.actorUserId,
      subjectUserId: user.userId,
      classId: input.classId,
      details: { created },
      ip: input.ip,
    });
    const { isActive: _active, isSupervisor: _supervisor, ...person } = user;
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
    header: Pick<ClassHeader, "subjectCode" | "subjectName" | "semesterName">;
    origin: string;
    appName: string;
    phoneNumber: string | null;
  },
): Mail {
  const values = {
    name: input.name,
    teacher: input.teacherName,
    subject: `${input.header.subjectCode} ${input.header.subjectName}`,
    semester: input.header.semesterName,
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
