import crypto from "node:crypto";
import { and, eq, lt, or, sql } from "drizzle-orm";
import { rowsAffected, type Db } from "~/services/platform/db/client.server";
import { privacyAcceptances, sessions, userRoles, users } from "~/services/platform/db/schema";
import { resolveActiveRole, type RoleId } from "./roles";

export const SESSION_IDLE_MS = 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
/** Sliding the expiry at most once a minute keeps page loads from writing on every request. */
export const SESSION_TOUCH_MS = 60 * 1000;

/** The cookie holds a 256-bit random token; the database holds only its hash. */
export function newSessionToken(): string {
  return crypto.randomBytes(32).toString("base64url");
}

export function sessionIdOf(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}

export function slidingExpiry(now: Date, absoluteExpiresAt: Date): Date {
  return new Date(Math.min(now.getTime() + SESSION_IDLE_MS, absoluteExpiresAt.getTime()));
}

export function isSessionLive(session: { expiresAt: Date; absoluteExpiresAt: Date }, now: Date): boolean {
  return session.expiresAt.getTime() > now.getTime() && session.absoluteExpiresAt.getTime() > now.getTime();
}

export interface SessionUser {
  id: number;
  displayName: string;
  email: string;
  roles: RoleId[];
}

export interface CurrentSession {
  id: string;
  user: SessionUser;
  activeRole: RoleId | null;
  /** Whether the user has accepted the privacy policy version in force. */
  privacyAccepted: boolean;
  expiresAt: Date;
}

/**
 * Every request reads its session: one prepared statement (built once per database, planned once
 * per connection) for the session, its user, the user's roles and the privacy acceptance, instead of
 * two statements built anew on each request (measured in docs/performance.md).
 */
function makeSessionQuery(db: Db) {
  return db
    .select({
      session: sessions,
      user: users,
      acceptedAt: privacyAcceptances.acceptedAt,
      roles: sql<number[]>`array(select ${userRoles.roleId} from ${userRoles} where ${userRoles.userId} = ${users.id})`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(
      privacyAcceptances,
      and(
        eq(privacyAcceptances.userId, sessions.userId),
        eq(privacyAcceptances.policyVersion, sql.placeholder("policyVersion")),
      ),
    )
    .where(eq(sessions.id, sql.placeholder("id")))
    .limit(1)
    .prepare("praksis_load_session");
}
const sessionQueries = new WeakMap<Db, ReturnType<typeof makeSessionQuery>>();
function sessionQuery(db: Db): ReturnType<typeof makeSessionQuery> {
  let query = sessionQueries.get(db);
  if (!query) sessionQueries.set(db, (query = makeSessionQuery(db)));
  return query;
}

async function rolesOf(db: Db, userId: number): Promise<number[]> {
  const rows = await db.select({ roleId: userRoles.roleId }).from(userRoles).where(eq(userRoles.userId, userId));
  return rows.map((r) => r.roleId);
}

/** Starts a new session (a new id at every login). */
export async function createSession(
  db: Db,
  input: { userId: number; ip?: string | null; userAgent?: string | null; now?: Date },
): Promise<{ token: string; activeRole: RoleId | null }> {
  const now = input.now ?? new Date();
  const token = newSessionToken();
  const absoluteExpiresAt = new Date(now.getTime() + SESSION_ABSOLUTE_MS);
  const activeRole = resolveActiveRole(await rolesOf(db, input.userId), null);
  await db.insert(sessions).values({
    id: sessionIdOf(token),
    userId: input.userId,
    activeRoleId: activeRole,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: slidingExpiry(now, absoluteExpiresAt),
    absoluteExpiresAt,
    ip: input.ip ?? null,
    userAgent: input.userAgent?.slice(0, 400) ?? null,
  });
  return { token, activeRole };
}

/**
 * The live session behind a cookie token, with its user; slides the idle expiry. Expired sessions,
 * deactivated users and roles the user no longer holds are dealt with here, once.
 */
export async function loadSession(
  db: Db,
  token: string,
  policyVersion: string,
  now = new Date(),
): Promise<CurrentSession | null> {
  const id = sessionIdOf(token);
  const [row] = await sessionQuery(db).execute({ id, policyVersion });
  if (!row) return null;
  if (!isSessionLive(row.session, now) || !row.user.isActive) {
    await db.delete(sessions).where(eq(sessions.id, id));
    return null;
  }
  const roles = row.roles;
  const activeRole = resolveActiveRole(roles, row.session.activeRoleId);
  let expiresAt = row.session.expiresAt;
  if (now.getTime() - row.session.lastSeenAt.getTime() >= SESSION_TOUCH_MS || activeRole !== row.session.activeRoleId) {
    expiresAt = slidingExpiry(now, row.session.absoluteExpiresAt);
    await db.update(sessions).set({ lastSeenAt: now, expiresAt, activeRoleId: activeRole }).where(eq(sessions.id, id));
  }
  return {
    id,
    user: {
      id: row.user.id,
      displayName: row.user.displayName,
      email: row.user.email,
      roles: roles.filter((r): r is RoleId => r >= 1 && r <= 4).sort(),
    },
    activeRole,
    privacyAccepted: row.acceptedAt !== null,
    expiresAt,
  };
}

export async function setActiveRole(db: Db, sessionId: string, roleId: RoleId): Promise<void> {
  await db.update(sessions).set({ activeRoleId: roleId }).where(eq(sessions.id, sessionId));
}

export async function destroySession(db: Db, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

/** Deactivating a user ends their sessions at once. */
export async function destroyUserSessions(db: Db, userId: number): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

/** Deletes the sessions that have ended (idle or absolute expiry); the daily housekeeping calls it. Returns how many. */
export async function pruneSessions(db: Db, now = new Date()): Promise<number> {
  const result = await db
    .delete(sessions)
    .where(and(or(lt(sessions.expiresAt, now), lt(sessions.absoluteExpiresAt, now))));
  return rowsAffected(result);
}
