import { and, eq, inArray } from "drizzle-orm";
import { byDisplayName, classHeader, schemesOfClass, type ClassHeader } from "~/services/admin/index.server";
import type { Db } from "~/services/platform/db/client.server";
import {
  answerSets,
  signingForms,
  studentExtraSupervisors,
  studentReferences,
  users,
} from "~/services/platform/db/schema";
import { currentHalf, type HalfState } from "./deadline";
import { ROLE, type RoleId } from "~/services/identity";
import { osloDate } from "~/services/platform/semesters";

/**
 * A student's placement in one class as the student, their teacher or supervisor sees it: who
 * follows them, and every form of the class's schemes with who has sent it. Shared by the
 * student's forms page and the teacher's and supervisor's student pages.
 */

export interface PlacementPerson {
  userId: number;
  displayName: string;
  email: string;
  isActive: boolean;
}

/** One author's answer set as others see it: only whether and when it was sent (drafts are private). */
export interface FormProgress {
  schemeId: number;
  formId: number;
  name: string;
  isMainForm: boolean;
  isMidSemester: boolean;
  /** The viewer's own answer set: not begun, a saved draft, or sent. */
  own: { state: "none" | "draft" | "sent"; at: Date | null };
  /** When the student, a supervisor (assigned or extra) and a teacher sent theirs; null if not yet. */
  sentBy: { student: Date | null; supervisor: Date | null; teacher: Date | null };
}

export interface PlacementScheme {
  schemeId: number;
  isMidSemester: boolean;
  forms: FormProgress[];
}

export interface Placement {
  referenceId: number;
  header: ClassHeader;
  student: PlacementPerson;
  teacher: PlacementPerson | null;
  supervisor: PlacementPerson | null;
  extraSupervisors: PlacementPerson[];
  /** The half the student is in now and its deadline (see deadline.ts). */
  half: HalfState;
  /** Mid-semester schemes first. Forms deleted by an admin are left out. */
  schemes: PlacementScheme[];
}

const AUTHOR_KEY: Partial<Record<RoleId, keyof FormProgress["sentBy"]>> = {
  [ROLE.Student]: "student",
  [ROLE.Supervisor]: "supervisor",
  [ROLE.Teacher]: "teacher",
};

function earliest(a: Date | null, b: Date | null): Date | null {
  if (!a) return b;
  if (!b) return a;
  return a < b ? a : b;
}

/**
 * The placement of a student reference; null when the reference does not exist. Callers check
 * access first (permissions.server.ts); `viewerUserId` only decides which answer set is "own".
 */
export async function placementOf(
  db: Db,
  referenceId: number,
  viewerUserId: number,
  today = osloDate(new Date()),
): Promise<Placement | null> {
  const [ref] = await db
    .select({
      id: studentReferences.id,
      classId: studentReferences.classId,
      studentUserId: studentReferences.studentUserId,
      teacherUserId: studentReferences.teacherUserId,
      supervisorUserId: studentReferences.supervisorUserId,
      midConfirmed: signingForms.midSemesterCompletedDate,
    })
    .from(studentReferences)
    .leftJoin(signingForms, eq(signingForms.studentReferenceId, studentReferences.id))
    .where(eq(studentReferences.id, referenceId));
  if (!ref) return null;
  const header = await classHeader(db, ref.classId);
  if (!header) return null;

  const extras = await db
    .select({ userId: studentExtraSupervisors.userId })
    .from(studentExtraSupervisors)
    .where(eq(studentExtraSupervisors.studentReferenceId, ref.id));
  const peopleIds = [ref.studentUserId, ref.teacherUserId, ref.supervisorUserId, ...extras.map((e) => e.userId)].filter(
    (id): id is number => id !== null,
  );
  const people = await db
    .select({ userId: users.id, displayName: users.displayName, email: users.email, isActive: users.isActive })
    .from(users)
    .where(inArray(users.id, peopleIds));
  const person = (id: number | null) => (id === null ? null : (people.find((p) => p.userId === id) ?? null));

  const schemes = await schemesOfClass(db, ref.classId);
  const schemeIds = schemes.map((s) => s.schemeId);
  const sets =
    schemeIds.length === 0
      ? []
      : await db
          .select({
            schemeId: answerSets.schemeId,
            formId: answerSets.formId,
            authorUserId: answerSets.authorUserId,
            authorRoleId: answerSets.authorRoleId,
            sentAt: answerSets.sentAt,
            updatedAt: answerSets.updatedAt,
          })
          .from(answerSets)
          .where(and(eq(answerSets.studentUserId, ref.studentUserId), inArray(answerSets.schemeId, schemeIds)));

  const progress = (
    schemeId: number,
    isMidSemester: boolean,
    form: { formId: number; name: string; isMainForm: boolean },
  ): FormProgress => {
    const mine = sets.find(
      (s) => s.schemeId === schemeId && s.formId === form.formId && s.authorUserId === viewerUserId,
    );
    const sentBy: FormProgress["sentBy"] = { student: null, supervisor: null, teacher: null };
    for (const set of sets) {
      if (set.schemeId !== schemeId || set.formId !== form.formId || !set.sentAt) continue;
      const key = AUTHOR_KEY[set.authorRoleId];
      if (key) sentBy[key] = earliest(sentBy[key], set.sentAt);
    }
    return {
      schemeId,
      formId: form.formId,
      name: form.name,
      isMainForm: form.isMainForm,
      isMidSemester,
      own: mine
        ? mine.sentAt
          ? { state: "sent", at: mine.sentAt }
          : { state: "draft", at: mine.updatedAt }
        : { state: "none", at: null },
      sentBy,
    };
  };

  return {
    referenceId: ref.id,
    header,
    student: person(ref.studentUserId)!,
    teacher: person(ref.teacherUserId),
    supervisor: person(ref.supervisorUserId),
    extraSupervisors: byDisplayName(
      extras.map((e) => person(e.userId)).filter((p): p is PlacementPerson => p !== null),
    ),
    half: currentHalf(header, ref.midConfirmed !== null, today),
    schemes: schemes.map((scheme) => ({
      schemeId: scheme.schemeId,
      isMidSemester: scheme.isMidSemester,
      forms: scheme.forms.filter((f) => !f.deleted).map((f) => progress(scheme.schemeId, scheme.isMidSemester, f)),
    })),
  };
}
