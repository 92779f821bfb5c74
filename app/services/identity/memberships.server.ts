import { and, asc, eq, gte, inArray, lte, notExists, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "~/services/platform/db/client.server";
import { classes, semesters, studentReferences, subjects, userAffiliations } from "~/services/platform/db/schema";
import { osloDate } from "~/services/platform/semesters";

/**
 * Course memberships from Feide's groups API (groups of type `fc:fs:emne`). They are stored at each
 * Feide log-in and decide which classes a student may join (docs/rules/placements.md).
 */

export const COURSE_GROUP_TYPE = "fc:fs:emne";

export interface CourseMembership {
  groupId: string;
  subjectCode: string;
  subjectVersion: string | null;
  displayName: string;
  active: boolean;
  notBefore: Date | null;
  notAfter: Date | null;
  fsRoles: string[];
}

const isoDate = z
  .string()
  .transform((s) => new Date(s))
  .refine((d) => !Number.isNaN(d.getTime()));

/** One group as the groups API returns it; only what we use is checked, the rest is ignored. */
const groupSchema = z.object({
  id: z.string().min(1).max(500),
  type: z.string().max(100),
  displayName: z.string().max(500).optional(),
  membership: z
    .object({
      active: z.boolean().optional(),
      fsroles: z.array(z.string().max(100)).max(50).optional(),
      notBefore: isoDate.optional().catch(undefined),
      notAfter: isoDate.optional().catch(undefined),
    })
    .optional(),
});

export class GroupsError extends Error {}

/** `fc:fs:fs:emne:<realm>:<code>:<version>` → code and version. */
export function parseCourseGroupId(id: string): { subjectCode: string; subjectVersion: string | null } | null {
  const match = /^fc:fs:fs:emne:[^:]+:([^:]+)(?::([^:]+))?$/.exec(id);
  if (!match?.[1]) return null;
  return { subjectCode: match[1].toUpperCase(), subjectVersion: match[2] ?? null };
}

/**
 * The course memberships in a groups-API answer. The answer must be a list; entries that are not
 * course groups, or that do not parse, are left out. Anything else is a GroupsError.
 */
export function courseMemberships(body: unknown): CourseMembership[] {
  if (!Array.isArray(body)) throw new GroupsError("the groups answer is not a list");
  const out: CourseMembership[] = [];
  for (const entry of body) {
    const parsed = groupSchema.safeParse(entry);
    if (!parsed.success || parsed.data.type !== COURSE_GROUP_TYPE) continue;
    const group = parsed.data;
    const ids = parseCourseGroupId(group.id);
    if (!ids) continue;
    const membership = group.membership ?? {};
    out.push({
      groupId: group.id,
      ...ids,
      displayName: group.displayName ?? ids.subjectCode,
      // Feide marks memberships that have ended as not active; a missing flag means active.
      active: membership.active ?? true,
      notBefore: membership.notBefore ?? null,
      notAfter: membership.notAfter ?? null,
      fsRoles: (membership.fsroles ?? []).map((r) => r.toLowerCase()),
    });
  }
  return out;
}

/** Asks the groups API for the user's memberships with the access token from the log-in. */
export async function fetchCourseMemberships(endpoint: string, accessToken: string): Promise<CourseMembership[]> {
  let response: Response;
  try {
    response = await fetch(endpoint, {
      headers: { Authorization: `Bearer ${accessToken}`, Accept: "application/json" },
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    throw new GroupsError(`the groups API did not answer: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!response.ok) throw new GroupsError(`the groups API answered HTTP ${response.status}`);
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new GroupsError("the groups API answered something that is not JSON");
  }
  return courseMemberships(body);
}

export interface MembershipFacts {
  groupType: string;
  subjectCode: string | null;
  active: boolean;
  notBefore: Date | null;
  notAfter: Date | null;
  fsRoles: readonly string[];
}

export function isStudentMembership(m: Pick<MembershipFacts, "fsRoles">): boolean {
  return m.fsRoles.some((r) => r.toLowerCase() === "student");
}

/**
 * The matching rule: a membership matches a class when it is an active student membership of a
 * course with the class's subject code, and its validity (when Feide gives one) overlaps the
 * class's semester. Dates are compared as Oslo calendar dates.
 */
export function membershipMatchesClass(
  m: MembershipFacts,
  cls: { subjectCode: string; startDate: string; endDate: string },
): boolean {
  if (m.groupType !== COURSE_GROUP_TYPE || !m.active || !isStudentMembership(m)) return false;
  if (!m.subjectCode || m.subjectCode.toUpperCase() !== cls.subjectCode.toUpperCase()) return false;
  if (m.notBefore && osloDate(m.notBefore) > cls.endDate) return false;
  if (m.notAfter && osloDate(m.notAfter) < cls.startDate) return false;
  return true;
}

/** Whether the membership is in force on a day: active, and within its dates when it has any. */
export function membershipActiveOn(m: MembershipFacts, today: string): boolean {
  if (m.groupType !== COURSE_GROUP_TYPE || !m.active) return false;
  if (m.notBefore && osloDate(m.notBefore) > today) return false;
  if (m.notAfter && osloDate(m.notAfter) < today) return false;
  return true;
}

/** Replaces the user's stored course memberships with the ones just fetched. */
export async function storeCourseMemberships(
  db: Db,
  userId: number,
  memberships: CourseMembership[],
  now = new Date(),
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .delete(userAffiliations)
      .where(and(eq(userAffiliations.userId, userId), eq(userAffiliations.groupType, COURSE_GROUP_TYPE)));
    const unique = new Map(memberships.map((m) => [m.groupId, m]));
    if (unique.size === 0) return;
    await tx.insert(userAffiliations).values(
      [...unique.values()].map((m) => ({
        userId,
        groupId: m.groupId,
        groupType: COURSE_GROUP_TYPE,
        subjectCode: m.subjectCode,
        subjectVersion: m.subjectVersion,
        displayName: m.displayName,
        active: m.active,
        notBefore: m.notBefore,
        notAfter: m.notAfter,
        fsRoles: m.fsRoles,
        fetchedAt: now,
      })),
    );
  });
}

export async function storedMemberships(db: Db, userId: number) {
  return db
    .select()
    .from(userAffiliations)
    .where(eq(userAffiliations.userId, userId))
    .orderBy(asc(userAffiliations.subjectCode), asc(userAffiliations.groupId));
}

/** Whether any of these memberships is an active student membership of a subject the app knows. */
export async function hasKnownStudentCourse(db: Db, memberships: CourseMembership[], today: string): Promise<boolean> {
  const codes = memberships
    .filter((m) => isStudentMembership(m) && membershipActiveOn({ ...m, groupType: COURSE_GROUP_TYPE }, today))
    .map((m) => m.subjectCode.toUpperCase());
  if (codes.length === 0) return false;
  const [known] = await db
    .select({ id: subjects.id })
    .from(subjects)
    .where(inArray(sql`upper(${subjects.subjectCode})`, codes))
    .limit(1);
  return Boolean(known);
}

/** A class a student may join: its subject and semester. */
export interface MatchingClass {
  classId: number;
  subjectCode: string;
  subjectName: string;
  semesterName: string;
  startDate: string;
  endDate: string;
}

/** The current semester's classes a student may join by their memberships, not counting ones joined. */
export async function matchingClasses(db: Db, userId: number, today = osloDate(new Date())): Promise<MatchingClass[]> {
  const memberships = await db
    .select()
    .from(userAffiliations)
    .where(and(eq(userAffiliations.userId, userId), eq(userAffiliations.groupType, COURSE_GROUP_TYPE)));
  const codes = [...new Set(memberships.map((m) => m.subjectCode?.toUpperCase()).filter((c): c is string => !!c))];
  if (codes.length === 0) return [];
  const candidates = await db
    .select({
      classId: classes.id,
      subjectCode: subjects.subjectCode,
      subjectName: subjects.name,
      semesterName: semesters.name,
      startDate: semesters.startDate,
      endDate: semesters.endDate,
    })
    .from(classes)
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .innerJoin(semesters, eq(semesters.id, classes.semesterId))
    .where(
      and(
        lte(semesters.startDate, today),
        gte(semesters.endDate, today),
        inArray(sql`upper(${subjects.subjectCode})`, codes),
        notExists(
          db
            .select({ one: sql`1` })
            .from(studentReferences)
            .where(and(eq(studentReferences.classId, classes.id), eq(studentReferences.studentUserId, userId))),
        ),
      ),
    )
    .orderBy(asc(subjects.subjectCode));
  return candidates.filter((cls) => memberships.some((m) => membershipMatchesClass(m, cls)));
}
