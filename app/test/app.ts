import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, desc, eq, sql, type Logger } from "drizzle-orm";
import { vi } from "vitest";
import type { Database, Db } from "~/services/platform/db/client.server";
import { openTestDatabase } from "~/test/db";
import { useDatabaseForTests } from "~/services/platform/db/index.server";
import { seedDemo } from "~/services/demo/index.server";
import { readOutbox, type StoredMail } from "~/services/platform/email.server";
import { resetEnvForTests } from "~/services/platform/env.server";
import { appCookies } from "~/services/platform/request.server";
import { acceptPrivacyPolicy, createSession, sessionIdOf, setActiveRole } from "~/services/identity/index.server";
import { currentInstitution } from "~/services/platform/institution.server";
import type { RoleId } from "~/services/identity";
import { classes, semesters, subjects, users } from "~/services/platform/db/schema";

/**
 * Points the app at a fresh temporary directory (secret, outbox) and a seeded database of its own on
 * the test run's PostgreSQL, as the route modules' getDb() sees it. Call from beforeAll, before
 * anything reads env(). `url` is the database's address, for a server process to open it too.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  options: { logger?: Logger } = {},
): Promise<{ database: Database; dir: string; url: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "praksis-test-"));
  for (const name of ["DATABASE_URL", "SESSION_SECRET", "SMTP_URL", "APP_URL", "TRUST_PROXY", "INSTITUTION"]) {
    delete process.env[name];
  }
  Object.assign(process.env, { DATA_DIR: dir, OUTBOX_DIR: path.join(dir, "outbox"), ...env });
  resetEnvForTests();
  const database = await openTestDatabase(options);
  await seedDemo(database.db);
  useDatabaseForTests(database);
  return { database, dir, url: database.url };
}

export async function stopTestApp(app: { database: Database; dir: string } | undefined): Promise<void> {
  await app?.database.close();
  if (app) fs.rmSync(app.dir, { recursive: true, force: true });
}

/** Mails written to the local outbox log to the console; keeps test output readable. */
export function silenceMailLog(): void {
  vi.spyOn(console, "info").mockImplementation(() => {});
}

/** The mails sent to an address, newest first. */
export async function mailsTo(address: string): Promise<StoredMail[]> {
  return (await readOutbox(1000)).filter((m) => m.to === address);
}

export function codeIn(mail: StoredMail | undefined): string {
  const code = mail?.text.match(/\b\d{6}\b/)?.[0];
  if (!code) throw new Error(`no six-digit code in the mail: ${mail?.text}`);
  return code;
}

export function clearOutbox(): void {
  if (process.env.OUTBOX_DIR) fs.rmSync(process.env.OUTBOX_DIR, { recursive: true, force: true });
}

/**
 * The id of a demo class by its subject: in the named semester, or else in the latest semester that has
 * one (the demo's current semester, whatever day the demo was seeded on).
 */
export async function classIdOf(db: Db, subjectCode: string, semesterName?: string | null): Promise<number> {
  const [row] = await db
    .select({ id: classes.id })
    .from(classes)
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .innerJoin(semesters, eq(semesters.id, classes.semesterId))
    .where(
      and(eq(subjects.subjectCode, subjectCode), semesterName == null ? undefined : eq(semesters.name, semesterName)),
    )
    .orderBy(desc(semesters.startDate))
    .limit(1);
  if (!row) throw new Error(`no class ${subjectCode} in ${semesterName ?? "any semester"}`);
  return row.id;
}

export async function userIdOf(db: Db, email: string): Promise<number> {
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  if (!user) throw new Error(`no user ${email}`);
  return user.id;
}

/**
 * A session cookie for a user who has accepted the privacy policy and acts in `role` (for the
 * area pages, which require both).
 */
export async function cookieActingAs(db: Db, email: string, role: RoleId): Promise<string> {
  const userId = await userIdOf(db, email);
  await acceptPrivacyPolicy(db, userId, currentInstitution().privacyPolicyVersion, "192.0.2.1");
  const { token } = await createSession(db, { userId });
  await setActiveRole(db, sessionIdOf(token), role);
  return (await appCookies().session.serialize(token)).split(";")[0];
}

/** Logs a user in the way the Playwright fixture does: a session row and its signed cookie. */
export async function sessionCookieFor(db: Db, email: string): Promise<string> {
  const { token } = await createSession(db, { userId: await userIdOf(db, email) });
  const line = await appCookies().session.serialize(token);
  return line.split(";")[0];
}
