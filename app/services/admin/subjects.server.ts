import { and, asc, eq, ne, sql } from "drizzle-orm";
import { audit } from "~/services/platform/audit.server";
import type { Db } from "~/services/platform/db/client.server";
import { subjects, type Subject } from "~/services/platform/db/schema";

export const SUBJECT_CODE_MAX_LENGTH = 20;
export const SUBJECT_NAME_MAX_LENGTH = 200;

export interface SubjectInput {
  subjectCode: string;
  name: string;
}

export type SubjectSaveResult = { ok: true; subject: Subject } | { ok: false; reason: "duplicateCode" | "notFound" };

interface Actor {
  userId: number;
  ip?: string | null;
}

/** Subject codes are stored trimmed and in capitals, so "syk2001 " and "SYK2001" are one code. */
export function normalizeSubjectCode(code: string): string {
  return code.trim().toUpperCase();
}

export async function listSubjects(db: Db): Promise<Subject[]> {
  return db.select().from(subjects).orderBy(asc(subjects.subjectCode), asc(subjects.id));
}

export async function findSubject(db: Db, id: number): Promise<Subject | null> {
  const [row] = await db.select().from(subjects).where(eq(subjects.id, id));
  return row ?? null;
}

/** Whether another subject already has the code, ignoring case (older rows may not be in capitals). */
async function codeTaken(db: Db, code: string, exceptId?: number): Promise<boolean> {
  const sameCode = sql`upper(${subjects.subjectCode}) = ${normalizeSubjectCode(code)}`;
  const [row] = await db
    .select({ id: subjects.id })
    .from(subjects)
    .where(exceptId === undefined ? sameCode : and(sameCode, ne(subjects.id, exceptId)))
    .limit(1);
  return row !== undefined;
}

/** PostgreSQL's unique_violation, as node-postgres reports it (possibly wrapped by drizzle). */
function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === "23505") return true;
  }
  return false;
}

export async function createSubject(db: Db, input: SubjectInput, actor: Actor): Promise<SubjectSaveResult> {
  const subjectCode = normalizeSubjectCode(input.subjectCode);
  const name = input.name.trim();
  if (await codeTaken(db, subjectCode)) return { ok: false, reason: "duplicateCode" };
  try {
    const subject = await db.transaction(async (tx) => {
      const [row] = await tx.insert(subjects).values({ subjectCode, name }).returning();
      await audit(tx, {
        action: "subject.created",
        actorUserId: actor.userId,
        details: { subjectId: row.id, subjectCode, name },
        ip: actor.ip,
      });
      return row;
    });
    return { ok: true, subject };
  } catch (error) {
    // Two admins saving the same code at once: the check above passed for both; the index decides.
    if (isUniqueViolation(error)) return { ok: false, reason: "duplicateCode" };
    throw error;
  }
}

export async function updateSubject(db: Db, id: number, input: SubjectInput, actor: Actor): Promise<SubjectSaveResult> {
  const before = await findSubject(db, id);
  if (!before) return { ok: false, reason: "notFound" };
  const subjectCode = normalizeSubjectCode(input.subjectCode);
  const name = input.name.trim();
  if (await codeTaken(db, subjectCode, id)) return { ok: false, reason: "duplicateCode" };
  try {
    const subject = await db.transaction(async (tx) => {
      const [row] = await tx.update(subjects).set({ subjectCode, name }).where(eq(subjects.id, id)).returning();
      await audit(tx, {
        action: "subject.updated",
        actorUserId: actor.userId,
        details: {
          subjectId: id,
          before: { subjectCode: before.subjectCode, name: before.name },
          after: { subjectCode, name },
        },
        ip: actor.ip,
      });
      return row;
    });
    return { ok: true, subject };
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, reason: "duplicateCode" };
    throw error;
  }
}
