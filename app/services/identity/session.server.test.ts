import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Database } from "~/services/platform/db/client.server";
import { openTestDatabase } from "~/test/db";
import { privacyAcceptances, sessions, userRoles, users } from "~/services/platform/db/schema";
import { ROLE, type RoleId } from "./roles";
import {
  createSession,
  destroySession,
  destroyUserSessions,
  loadSession,
  pruneSessions,
  SESSION_ABSOLUTE_MS,
  SESSION_IDLE_MS,
  setActiveRole,
} from "./session.server";

const POLICY = "2026-08-01";
const MINUTE = 60_000;
const t0 = new Date("2026-03-02T08:00:00Z");
const at = (minutes: number) => new Date(t0.getTime() + minutes * MINUTE);

let database: Database;
let userCount = 0;

beforeAll(async () => {
  database = await openTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

async function makeUser(roles: RoleId[], isActive = true): Promise<number> {
  userCount++;
  const [user] = await database.db
    .insert(users)
    .values({ displayName: `User ${userCount}`, email: `user${userCount}@example.org`, isActive })
    .returning({ id: users.id });
  if (roles.length > 0)
    await database.db.insert(userRoles).values(roles.map((roleId) => ({ userId: user.id, roleId })));
  return user.id;
}

async function sessionRow(id: string) {
  const [row] = await database.db.select().from(sessions).where(eq(sessions.id, id));
  return row;
}

test("a created session loads with its user", async () => {
  const userId = await makeUser([ROLE.Teacher]);
  const { token, activeRole } = await createSession(database.db, {
    userId,
    ip: "10.0.0.1",
    userAgent: "vitest",
    now: t0,
  });
  expect(activeRole).toBe(ROLE.Teacher);
  const session = await loadSession(database.db, token, POLICY, at(1));
  expect(session).toMatchObject({
    user: {
      id: userId,
      displayName: `User ${userCount}`,
      email: `user${userCount}@example.org`,
      roles: [ROLE.Teacher],
    },
    activeRole: ROLE.Teacher,
    privacyAccepted: false,
  });
});

test("the cookie token is long and random, and the database holds only its SHA-256", async () => {
  const userId = await makeUser([ROLE.Student]);
  const first = await createSession(database.db, { userId, now: t0 });
  const second = await createSession(database.db, { userId, now: t0 });
  expect(first.token).not.toBe(second.token);
  expect(Buffer.from(first.token, "base64url").length).toBeGreaterThanOrEqual(16);

  const rows = await database.db.select().from(sessions).where(eq(sessions.userId, userId));
  expect(rows).toHaveLength(2);
  const hash = crypto.createHash("sha256").update(first.token).digest("hex");
  expect(rows.map((r) => r.id)).toContain(hash);
  expect(JSON.stringify(rows)).not.toContain(first.token);
  expect(JSON.stringify(rows)).not.toContain(second.token);
  const session = await loadSession(database.db, first.token, POLICY, t0);
  expect(session?.id).toBe(hash);
});

test("an unknown token, or the stored hash used as a token, loads nothing", async () => {
  const userId = await makeUser([ROLE.Student]);
  const { token } = await createSession(database.db, { userId, now: t0 });
  const hash = crypto.createHash("sha256").update(token).digest("hex");
  expect(await loadSession(database.db, hash, POLICY, t0)).toBeNull();
  expect(await loadSession(database.db, "no-such-token", POLICY, t0)).toBeNull();
});

test("the idle expiry slides with use and ends an hour after the last use", async () => {
  const userId = await makeUser([ROLE.Student]);
  const { token } = await createSession(database.db, { userId, now: t0 });

  const first = await loadSession(database.db, token, POLICY, at(59));
  expect(first?.expiresAt.getTime()).toBe(at(59).getTime() + SESSION_IDLE_MS);
  const second = await loadSession(database.db, token, POLICY, at(118));
  expect(second?.expiresAt.getTime()).toBe(at(118).getTime() + SESSION_IDLE_MS);

  expect(await loadSession(database.db, token, POLICY, at(118 + 61))).toBeNull();
  expect(await sessionRow(first!.id)).toBeUndefined();
  expect(await loadSession(database.db, token, POLICY, at(118 + 62))).toBeNull();
});

test("without use the session ends after an hour", async () => {
  const userId = await makeUser([ROLE.Student]);
  const { token } = await createSession(database.db, { userId, now: t0 });
  expect(await loadSession(database.db, token, POLICY, at(61))).toBeNull();
});

test("loads within a minute of each other do not write", async () => {
  const userId = await makeUser([ROLE.Student]);
  const { token } = await createSession(database.db, { userId, now: t0 });
  const session = await loadSession(database.db, token, POLICY, at(10));
  const before = await sessionRow(session!.id);
  await loadSession(database.db, token, POLICY, new Date(at(10).getTime() + 30_000));
  expect(await sessionRow(session!.id)).toEqual(before);
});

test("a session ends twelve hours after log-in however busy it is", async () => {
  const userId = await makeUser([ROLE.Student]);
  const { token } = await createSession(database.db, { userId, now: t0 });
  let minutes = 0;
  for (; minutes + 50 < SESSION_ABSOLUTE_MS / MINUTE; minutes += 50) {
    const session = await loadSession(database.db, token, POLICY, at(minutes + 50));
    expect(session, `at +${minutes + 50} min`).not.toBeNull();
    expect(session!.expiresAt.getTime()).toBeLessThanOrEqual(t0.getTime() + SESSION_ABSOLUTE_MS);
  }
  expect(minutes).toBe(700);
  expect(await loadSession(database.db, token, POLICY, at(SESSION_ABSOLUTE_MS / MINUTE))).toBeNull();
});

test("a deactivated user's session loads as nothing and is deleted", async () => {
  const userId = await makeUser([ROLE.Supervisor]);
  const { token } = await createSession(database.db, { userId, now: t0 });
  const session = await loadSession(database.db, token, POLICY, at(1));
  expect(session).not.toBeNull();

  await database.db.update(users).set({ isActive: false }).where(eq(users.id, userId));
  expect(await loadSession(database.db, token, POLICY, at(2))).toBeNull();
  expect(await sessionRow(session!.id)).toBeUndefined();

  await database.db.update(users).set({ isActive: true }).where(eq(users.id, userId));
  expect(await loadSession(database.db, token, POLICY, at(3))).toBeNull();
});

test("a user with one role acts in it at once", async () => {
  const userId = await makeUser([ROLE.Supervisor]);
  const { token, activeRole } = await createSession(database.db, { userId, now: t0 });
  expect(activeRole).toBe(ROLE.Supervisor);
  expect((await loadSession(database.db, token, POLICY, t0))?.activeRole).toBe(ROLE.Supervisor);
});

test("a user with two roles acts in none until one is chosen", async () => {
  const userId = await makeUser([ROLE.Teacher, ROLE.Admin]);
  const { token, activeRole } = await createSession(database.db, { userId, now: t0 });
  expect(activeRole).toBeNull();
  const session = await loadSession(database.db, token, POLICY, t0);
  expect(session?.activeRole).toBeNull();
  expect(session?.user.roles).toEqual([ROLE.Admin, ROLE.Teacher]);

  await setActiveRole(database.db, session!.id, ROLE.Teacher);
  expect((await loadSession(database.db, token, POLICY, t0))?.activeRole).toBe(ROLE.Teacher);
});

test("a chosen role the user no longer holds is cleared", async () => {
  const userId = await makeUser([ROLE.Admin, ROLE.Teacher, ROLE.Supervisor]);
  const { token } = await createSession(database.db, { userId, now: t0 });
  const session = await loadSession(database.db, token, POLICY, t0);
  await setActiveRole(database.db, session!.id, ROLE.Admin);
  expect((await loadSession(database.db, token, POLICY, t0))?.activeRole).toBe(ROLE.Admin);

  await database.db.delete(userRoles).where(and(eq(userRoles.userId, userId), eq(userRoles.roleId, ROLE.Admin)));
  const after = await loadSession(database.db, token, POLICY, t0);
  expect(after?.activeRole).toBeNull();
  expect(after?.user.roles).toEqual([ROLE.Teacher, ROLE.Supervisor]);
  expect((await sessionRow(session!.id)).activeRoleId).toBeNull();
});

test("a chosen role that was taken away falls back to the one role left", async () => {
  const userId = await makeUser([ROLE.Admin, ROLE.Teacher]);
  const { token } = await createSession(database.db, { userId, now: t0 });
  const session = await loadSession(database.db, token, POLICY, t0);
  await setActiveRole(database.db, session!.id, ROLE.Admin);
  await database.db.delete(userRoles).where(and(eq(userRoles.userId, userId), eq(userRoles.roleId, ROLE.Admin)));
  expect((await loadSession(database.db, token, POLICY, t0))?.activeRole).toBe(ROLE.Teacher);
  expect((await sessionRow(session!.id)).activeRoleId).toBe(ROLE.Teacher);
});

test("privacyAccepted reflects an acceptance of the given policy version only", async () => {
  const userId = await makeUser([ROLE.Student]);
  const other = await makeUser([ROLE.Student]);
  const { token } = await createSession(database.db, { userId, now: t0 });
  expect((await loadSession(database.db, token, POLICY, t0))?.privacyAccepted).toBe(false);

  await database.db.insert(privacyAcceptances).values({ userId, policyVersion: "2025-01-01" });
  await database.db.insert(privacyAcceptances).values({ userId: other, policyVersion: POLICY });
  expect((await loadSession(database.db, token, POLICY, t0))?.privacyAccepted).toBe(false);
  expect((await loadSession(database.db, token, "2025-01-01", t0))?.privacyAccepted).toBe(true);

  await database.db.insert(privacyAcceptances).values({ userId, policyVersion: POLICY });
  expect((await loadSession(database.db, token, POLICY, t0))?.privacyAccepted).toBe(true);
});

test("destroySession ends one session, destroyUserSessions all of one user's", async () => {
  const userId = await makeUser([ROLE.Teacher]);
  const bystander = await makeUser([ROLE.Teacher]);
  const a = await createSession(database.db, { userId, now: t0 });
  const b = await createSession(database.db, { userId, now: t0 });
  const c = await createSession(database.db, { userId, now: t0 });
  const other = await createSession(database.db, { userId: bystander, now: t0 });

  const sessionA = await loadSession(database.db, a.token, POLICY, t0);
  await destroySession(database.db, sessionA!.id);
  expect(await loadSession(database.db, a.token, POLICY, t0)).toBeNull();
  expect(await loadSession(database.db, b.token, POLICY, t0)).not.toBeNull();

  await destroyUserSessions(database.db, userId);
  expect(await loadSession(database.db, b.token, POLICY, t0)).toBeNull();
  expect(await loadSession(database.db, c.token, POLICY, t0)).toBeNull();
  expect(await loadSession(database.db, other.token, POLICY, t0)).not.toBeNull();
});

test("pruneSessions deletes expired sessions, keeps live ones and says how many went", async () => {
  const userId = await makeUser([ROLE.Teacher]);
  const old = await createSession(database.db, { userId, now: at(-24 * 60) });
  const live = await createSession(database.db, { userId, now: t0 });
  const all = async () => (await database.db.select({ id: sessions.id }).from(sessions)).length;
  const before = await all();
  const removed = await pruneSessions(database.db, at(5));
  expect(removed).toBeGreaterThan(0);
  expect(removed).toBe(before - (await all()));
  const ids = (await database.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId))).map(
    (r) => r.id,
  );
  expect(ids).toEqual([crypto.createHash("sha256").update(live.token).digest("hex")]);
  expect(ids).not.toContain(crypto.createHash("sha256").update(old.token).digest("hex"));
});

test("the user agent is cut to a sane length", async () => {
  const userId = await makeUser([ROLE.Teacher]);
  const { token } = await createSession(database.db, { userId, userAgent: "x".repeat(5000), now: t0 });
  const session = await loadSession(database.db, token, POLICY, t0);
  expect((await sessionRow(session!.id)).userAgent?.length).toBe(400);
});
