import { and, eq, lt, sql } from "drizzle-orm";
import crypto from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import resources from "~/locales";
import type { Database } from "~/services/platform/db/client.server";
import { auditEvents, oneTimeCodes, userPreferences, users } from "~/services/platform/db/schema";
import { clearOutbox, mailsTo, silenceMailLog, startTestApp, stopTestApp } from "~/test/app";
import {
  countCodeRequest,
  generateCode,
  hashCode,
  issueCode,
  OTP_MAX_ATTEMPTS,
  OTP_TTL_MS,
  otpLimits,
  pauseNoticesSent,
  pruneCodes,
  verifyCode,
  type IssueResult,
  type VerifyResult,
} from "./otp.server";

const secret = "test-secret-that-is-long-enough-000";
const unlimited = { limit: 1_000_000, windowMs: 60 * 60 * 1000 };
// Generous: neither the request limits nor the cap on wrong codes per address get in the way of
// the tests of the codes themselves; the cap's own tests use the real one.
const generous = {
  ...otpLimits({ OTP_REQUESTS_PER_EMAIL: 1000, OTP_REQUESTS_PER_ADDRESS: 1000 }),
  wrongCodesPerHour: unlimited,
  wrongCodesPerDay: unlimited,
};
let app: Awaited<ReturnType<typeof startTestApp>>;
let database: Database;

beforeAll(async () => {
  // The app's settings and outbox too: the pause is told by mail.
  app = await startTestApp();
  database = app.database;
});

afterAll(async () => {
  await stopTestApp(app);
});

function issued(result: IssueResult): { code: string; expiresAt: Date } {
  if (!result.ok) throw new Error(`code not issued: ${result.reason}`);
  return result;
}

function wrongCodeFor(code: string): string {
  return code === "000000" ? "000001" : "000000";
}

async function issue(email: string, now?: Date) {
  return issued(
    await issueCode(database.db, { email, userId: null, ip: `ip-${email}`, secret, limits: generous, now }),
  );
}

async function verify(email: string, code: string, now?: Date) {
  return verifyCode(database.db, { email, code, ip: `ip-${email}`, secret, limits: generous, now });
}

test("generateCode gives six digits", () => {
  for (let i = 0; i < 200; i++) expect(generateCode()).toMatch(/^\d{6}$/);
});

test("codes come from the operating system's secure random source (crypto.randomInt over all 10^6), never Math.random", () => {
  const randomInt = vi.spyOn(crypto, "randomInt");
  const mathRandom = vi.spyOn(Math, "random");
  try {
    generateCode();
    expect(randomInt).toHaveBeenCalledWith(0, 1_000_000);
    expect(mathRandom).not.toHaveBeenCalled();
    randomInt.mockImplementation(() => 42);
    expect(generateCode()).toBe("000042");
  } finally {
    randomInt.mockRestore();
    mathRandom.mockRestore();
  }
});

test("hashCode depends on the e-mail and the secret, not on case or spaces in the e-mail", () => {
  const base = hashCode(secret, "a@example.org", "123456");
  expect(base).toMatch(/^[0-9a-f]{64}$/);
  expect(base).not.toContain("123456");
  expect(hashCode(secret, "b@example.org", "123456")).not.toBe(base);
  expect(hashCode("another-secret", "a@example.org", "123456")).not.toBe(base);
  expect(hashCode(secret, "a@example.org", "123457")).not.toBe(base);
  expect(hashCode(secret, " A@Example.org ", "123456")).toBe(base);
});

test("an issued code verifies, and only its hash is stored", async () => {
  const { code, expiresAt } = await issue("ok@example.org", new Date("2026-03-01T10:00:00Z"));
  expect(code).toMatch(/^\d{6}$/);
  expect(expiresAt.toISOString()).toBe("2026-03-01T10:10:00.000Z");
  const rows = await database.db.select().from(oneTimeCodes).where(eq(oneTimeCodes.email, "ok@example.org"));
  expect(rows).toHaveLength(1);
  expect(rows[0].codeHash).toBe(hashCode(secret, "ok@example.org", code));
  expect(JSON.stringify(rows[0])).not.toContain(code);

  expect(await verify("ok@example.org", code, new Date("2026-03-01T10:01:00Z"))).toEqual({ ok: true, userId: null });
});

test("the e-mail is matched without regard to case", async () => {
  const { code } = await issue("Mixed@Example.org");
  expect((await verify("mixed@example.ORG", code)).ok).toBe(true);
});

test("a code works once", async () => {
  const { code } = await issue("once@example.org");
  expect((await verify("once@example.org", code)).ok).toBe(true);
  expect(await verify("once@example.org", code)).toEqual({ ok: false, reason: "expired" });
});

test("two simultaneous uses of one code: exactly one succeeds", async () => {
  const { code } = await issue("race-use@example.org");
  const results = await Promise.all([verify("race-use@example.org", code), verify("race-use@example.org", code)]);
  expect(results.filter((r) => r.ok)).toHaveLength(1);
});

test("a code expires after ten minutes", async () => {
  const issuedAt = new Date("2026-03-01T12:00:00Z");
  const { code } = await issue("late@example.org", issuedAt);
  const justAfter = new Date(issuedAt.getTime() + OTP_TTL_MS);
  expect(await verify("late@example.org", code, justAfter)).toEqual({ ok: false, reason: "expired" });
  const justBefore = new Date(issuedAt.getTime() + OTP_TTL_MS - 1000);
  expect((await verify("late@example.org", code, justBefore)).ok).toBe(true);
});

test("five wrong tries use the code up, and then even the right code fails", async () => {
  const { code } = await issue("guess@example.org");
  const wrong = wrongCodeFor(code);
  for (let left = OTP_MAX_ATTEMPTS - 1; left >= 1; left--) {
    expect(await verify("guess@example.org", wrong)).toEqual({ ok: false, reason: "wrong_code", attemptsLeft: left });
  }
  expect(await verify("guess@example.org", wrong)).toEqual({ ok: false, reason: "too_many_attempts" });
  expect(await verify("guess@example.org", code)).toEqual({ ok: false, reason: "too_many_attempts" });
});

test("a malformed code counts as a wrong try", async () => {
  await issue("malformed@example.org");
  expect(await verify("malformed@example.org", "12ab")).toEqual({
    ok: false,
    reason: "wrong_code",
    attemptsLeft: OTP_MAX_ATTEMPTS - 1,
  });
});

test("a new code supersedes the old one", async () => {
  const first = await issue("twice@example.org");
  let second = await issue("twice@example.org");
  while (second.code === first.code) second = await issue("twice@example.org");
  expect(await verify("twice@example.org", first.code)).toMatchObject({ ok: false, reason: "wrong_code" });
  expect((await verify("twice@example.org", second.code)).ok).toBe(true);
});

test("a code for one address does not log in another", async () => {
  const { code } = await issue("owner@example.org");
  await issue("other@example.org");
  expect(await verify("other@example.org", code)).toMatchObject({ ok: false });
  expect(await verify("nobody@example.org", code)).toEqual({ ok: false, reason: "expired" });
});

test("code requests are limited per e-mail address", async () => {
  const limits = otpLimits({ OTP_REQUESTS_PER_EMAIL: 2, OTP_REQUESTS_PER_ADDRESS: 3 });
  const request = (ip: string) =>
    issueCode(database.db, { email: "limited@example.org", userId: null, ip, secret, limits });
  expect((await request("10.0.0.1")).ok).toBe(true);
  expect((await request("10.0.0.2")).ok).toBe(true);
  const third = await request("10.0.0.3");
  expect(third).toMatchObject({ ok: false, reason: "rate_limited" });
  if (!third.ok) expect(third.retryAfterSeconds).toBeGreaterThan(0);
});

test("code requests are limited per client address", async () => {
  const limits = otpLimits({ OTP_REQUESTS_PER_EMAIL: 2, OTP_REQUESTS_PER_ADDRESS: 3 });
  const request = (email: string) => issueCode(database.db, { email, userId: null, ip: "10.0.1.1", secret, limits });
  expect((await request("one@example.org")).ok).toBe(true);
  expect((await request("two@example.org")).ok).toBe(true);
  expect((await request("three@example.org")).ok).toBe(true);
  expect(await request("four@example.org")).toMatchObject({ ok: false, reason: "rate_limited" });
});

test("a refused request issues no code and leaves the previous one working", async () => {
  const limits = otpLimits({ OTP_REQUESTS_PER_EMAIL: 1, OTP_REQUESTS_PER_ADDRESS: 100 });
  const first = issued(
    await issueCode(database.db, { email: "kept@example.org", userId: null, ip: "10.0.2.1", secret, limits }),
  );
  const refused = await issueCode(database.db, {
    email: "kept@example.org",
    userId: null,
    ip: "10.0.2.1",
    secret,
    limits,
  });
  expect(refused.ok).toBe(false);
  expect((await verify("kept@example.org", first.code)).ok).toBe(true);
});

test("verifications are limited per client address", async () => {
  const limits = otpLimits({ OTP_REQUESTS_PER_EMAIL: 100, OTP_REQUESTS_PER_ADDRESS: 1 });
  const results = [];
  for (let i = 0; i < limits.verificationsPerAddress.limit + 1; i++) {
    results.push(
      await verifyCode(database.db, { email: `v${i}@example.org`, code: "123456", ip: "10.0.3.1", secret, limits }),
    );
  }
  expect(results.slice(0, -1).every((r) => !r.ok && r.reason === "expired")).toBe(true);
  expect(results.at(-1)).toMatchObject({ ok: false, reason: "rate_limited" });
});

test("ten simultaneous wrong guesses count no more than five tries", async () => {
  const { code } = await issue("parallel@example.org");
  const wrong = wrongCodeFor(code);
  const results = await Promise.all(Array.from({ length: 10 }, () => verify("parallel@example.org", wrong)));
  expect(results.every((r) => !r.ok)).toBe(true);
  const wrongResults = results.filter((r) => !r.ok && r.reason === "wrong_code");
  expect(wrongResults.length).toBeLessThanOrEqual(OTP_MAX_ATTEMPTS - 1);
  const [row] = await database.db.select().from(oneTimeCodes).where(eq(oneTimeCodes.email, "parallel@example.org"));
  expect(row.failedAttempts).toBe(OTP_MAX_ATTEMPTS);
  expect(await verify("parallel@example.org", code)).toEqual({ ok: false, reason: "too_many_attempts" });
});

describe("the cap on wrong codes per address: 10 an hour and 30 a day, whatever the client address", () => {
  // The real cap; the request limits are out of the way (their tests are above).
  const capped = otpLimits({ OTP_REQUESTS_PER_EMAIL: 1000, OTP_REQUESTS_PER_ADDRESS: 1000 });
  const at = (iso: string) => new Date(iso);
  const later = (date: Date, seconds: number) => new Date(date.getTime() + seconds * 1000);
  let client = 0;
  /** Every try from a client address of its own, as from a botnet. */
  const nextIp = () => `203.0.${Math.floor(client / 250)}.${(client++ % 250) + 1}`;

  beforeEach(() => {
    silenceMailLog();
    clearOutbox();
  });

  const request = (email: string, now: Date, userId: number | null = null) =>
    issueCode(database.db, { email, userId, ip: nextIp(), secret, limits: capped, now });
  const attempt = (email: string, code: string, now: Date) =>
    verifyCode(database.db, { email, code, ip: nextIp(), secret, limits: capped, now });

  /** Wrong codes the way a guesser tries them: a new code after every five tries, one second apart. */
  async function guessWrong(
    email: string,
    count: number,
    start: Date,
    userId: number | null = null,
  ): Promise<VerifyResult[]> {
    const results: VerifyResult[] = [];
    let code = "";
    for (let i = 0; i < count; i++) {
      const now = later(start, i);
      if (i % OTP_MAX_ATTEMPTS === 0) {
        const fresh = await request(email, now, userId);
        if (fresh.ok) code = fresh.code;
      }
      results.push(await attempt(email, wrongCodeFor(code), now));
    }
    return results;
  }

  async function addUser(email: string, language: "nb" | "en" | null): Promise<number> {
    const [user] = await database.db
      .insert(users)
      .values({ displayName: "Kari Nordmann", email })
      .returning({ id: users.id });
    if (language) await database.db.insert(userPreferences).values({ userId: user.id, language });
    return user.id;
  }

  const paused = (until: string, now: Date) => ({
    ok: false,
    reason: "rate_limited",
    retryAfterSeconds: Math.ceil((Date.parse(until) - now.getTime()) / 1000),
    pausedUntil: new Date(until),
  });

  test("ten wrong codes from ten client addresses: the eleventh try, with the right code, is refused until the hour is over", async () => {
    const email = "pause-hour@example.org";
    const start = at("2026-03-02T10:05:00Z");
    const nine = await guessWrong(email, 9, start);
    const code = issued(await request(email, at("2026-03-02T10:06:00Z"))).code;
    const tenth = await attempt(email, wrongCodeFor(code), at("2026-03-02T10:06:10Z"));
    const eleventh = await attempt(email, code, at("2026-03-02T10:07:00Z"));
    expect(eleventh).toEqual(paused("2026-03-02T11:00:00Z", at("2026-03-02T10:07:00Z")));
    expect(nine.every((r) => !r.ok && (r.reason === "wrong_code" || r.reason === "too_many_attempts"))).toBe(true);
    // The tenth wrong code is the one that starts the pause, and says so.
    expect(tenth).toEqual(paused("2026-03-02T11:00:00Z", at("2026-03-02T10:06:10Z")));
    // No new code either, for the rest of the hour.
    const now = at("2026-03-02T10:59:59Z");
    expect(await request(email, now)).toEqual(paused("2026-03-02T11:00:00Z", now));

    const next = issued(await request(email, at("2026-03-02T11:00:00Z")));
    expect(await attempt(email, next.code, at("2026-03-02T11:00:30Z"))).toEqual({ ok: true, userId: null });
  });

  test("the codes mailed before the pause do not work after it either", async () => {
    const email = "pause-stale@example.org";
    await guessWrong(email, 9, at("2026-03-02T12:50:00Z"));
    const code = issued(await request(email, at("2026-03-02T12:55:00Z"))).code;
    await attempt(email, wrongCodeFor(code), at("2026-03-02T12:55:10Z"));
    expect(await attempt(email, code, at("2026-03-02T13:01:00Z"))).toEqual({ ok: false, reason: "expired" });
  });

  test("thirty wrong codes in a day pause codes for the address until the day is over", async () => {
    const email = "pause-day@example.org";
    const hours = [];
    for (const hour of ["06", "07", "08"]) hours.push(await guessWrong(email, 10, at(`2026-03-03T${hour}:10:00Z`)));
    expect(hours[0][9]).toMatchObject({ reason: "rate_limited", pausedUntil: at("2026-03-03T07:00:00Z") });
    expect(hours[1][9]).toMatchObject({ reason: "rate_limited", pausedUntil: at("2026-03-03T08:00:00Z") });
    expect(hours[2][9]).toMatchObject({ reason: "rate_limited", pausedUntil: at("2026-03-04T00:00:00Z") });

    for (const now of [at("2026-03-03T09:10:00Z"), at("2026-03-03T23:59:59Z")]) {
      expect(await request(email, now)).toEqual(paused("2026-03-04T00:00:00Z", now));
      expect(await attempt(email, "123456", now)).toEqual(paused("2026-03-04T00:00:00Z", now));
    }
    const next = issued(await request(email, at("2026-03-04T00:00:00Z")));
    expect(await attempt(email, next.code, at("2026-03-04T00:00:10Z"))).toEqual({ ok: true, userId: null });
  });

  test("a right code neither counts as a wrong one nor starts the count again", async () => {
    const email = "pause-between@example.org";
    await guessWrong(email, 9, at("2026-03-02T14:05:00Z"));
    const code = issued(await request(email, at("2026-03-02T14:10:00Z"))).code;
    expect(await attempt(email, code, at("2026-03-02T14:10:05Z"))).toEqual({ ok: true, userId: null });
    const again = issued(await request(email, at("2026-03-02T14:11:00Z"))).code;
    const tenth = await attempt(email, wrongCodeFor(again), at("2026-03-02T14:11:05Z"));
    expect(tenth).toMatchObject({ reason: "rate_limited", pausedUntil: at("2026-03-02T15:00:00Z") });
  });

  test("simultaneous tries get no more than ten wrong codes compared", async () => {
    const email = "pause-race@example.org";
    const now = at("2026-03-02T16:05:00Z");
    const results = await Promise.all(Array.from({ length: 25 }, () => attempt(email, "123456", now)));
    const refusedBeforeComparing = results.filter((r) => !r.ok && r.reason === "rate_limited");
    // Ten were compared (the tenth of them starts the pause and says so); fifteen never were.
    expect(refusedBeforeComparing).toHaveLength(16);
    expect(results.filter((r) => !r.ok && r.reason === "expired")).toHaveLength(9);
  });

  test("the person is told by mail once a pause, in their language, and the pause is in the audit log without a code", async () => {
    const email = "pause-mail@example.org";
    const userId = await addUser(email, "en");
    await guessWrong(email, 10, at("2026-03-05T10:05:00Z"), userId);
    // More tries during the pause tell nobody again.
    for (let i = 0; i < 5; i++) await attempt(email, "123456", at("2026-03-05T10:30:00Z"));
    await request(email, at("2026-03-05T10:40:00Z"), userId);
    await pauseNoticesSent();

    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    const en = resources.en.auth.mail.paused;
    const until = "5 Mar 2026 at 12:00"; // 11:00 UTC, in Norway
    expect(mails[0].subject).toBe(en.subject.replace("{{appName}}", "Praksis Fjordbyen"));
    expect(mails[0].text).toBe(
      en.body
        .replaceAll("{{appName}}", "Praksis Fjordbyen")
        .replaceAll("{{name}}", "Kari Nordmann")
        .replaceAll("{{until}}", until),
    );
    expect(mails[0].text).not.toMatch(/\b\d{6}\b/);

    const pauses = await database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "login.paused"), eq(auditEvents.actorUserId, userId)));
    expect(pauses).toHaveLength(1);
    expect(pauses[0].details).toEqual({
      method: "email-code",
      window: "hour",
      until: "2026-03-05T11:00:00.000Z",
      email,
    });
    expect(JSON.stringify(pauses[0].details)).not.toMatch(/\b\d{6}\b/);

    // The next pause is told again.
    await guessWrong(email, 10, at("2026-03-05T11:05:00Z"), userId);
    await pauseNoticesSent();
    expect(await mailsTo(email)).toHaveLength(2);
  });

  test("without a chosen language the mail is in Norwegian", async () => {
    const email = "pause-nb@example.org";
    const userId = await addUser(email, null);
    await guessWrong(email, 10, at("2026-07-01T08:05:00Z"), userId);
    await pauseNoticesSent();
    const [mail] = await mailsTo(email);
    expect(mail.subject).toBe(resources.nb.auth.mail.paused.subject.replace("{{appName}}", "Praksis Fjordbyen"));
    expect(mail.text).toContain("1.7.2026 kl. 11:00"); // summer time
  });

  test("an address nobody has gets the same answers: paused by the same tries, until the same time, and no mail", async () => {
    const known = "pause-known@example.org";
    const unknown = "pause-unknown@example.org";
    const userId = await addUser(known, null);
    const start = at("2026-03-06T09:20:00Z");
    // A code is issued for the known address (and mailed); for the unknown one a request is only counted.
    const knownTries = await guessWrong(known, 10, start, userId);
    const unknownTries: VerifyResult[] = [];
    for (let i = 0; i < 10; i++) {
      const now = later(start, i);
      if (i % OTP_MAX_ATTEMPTS === 0)
        expect(await countCodeRequest(database.db, { email: unknown, ip: nextIp(), limits: capped, now })).toBeNull();
      unknownTries.push(await attempt(unknown, "123456", now));
    }
    expect(unknownTries[9]).toEqual(knownTries[9]);
    expect(unknownTries[9]).toEqual(paused("2026-03-06T10:00:00Z", later(start, 9)));

    const now = at("2026-03-06T09:45:00Z");
    expect(await attempt(unknown, "123456", now)).toEqual(await attempt(known, "123456", now));
    const unknownRequest = await countCodeRequest(database.db, { email: unknown, ip: nextIp(), limits: capped, now });
    expect(unknownRequest).toEqual(await request(known, now, userId));
    expect(unknownRequest).toEqual(paused("2026-03-06T10:00:00Z", now));

    await pauseNoticesSent();
    expect(await mailsTo(unknown)).toEqual([]);
    expect(await mailsTo(known)).toHaveLength(1);
    // The audit log has both pauses; only the known address's names a user.
    const pauses = await database.db.select().from(auditEvents).where(eq(auditEvents.action, "login.paused"));
    const byEmail = (email: string) => pauses.filter((p) => (p.details as { email?: string }).email === email);
    expect(byEmail(unknown)).toEqual([expect.objectContaining({ actorUserId: null })]);
    expect(byEmail(known)).toEqual([expect.objectContaining({ actorUserId: userId })]);
  });
});

test("a code mailed just before SESSION_SECRET's rotation still works: it is tried with every secret, the new one first", async () => {
  const rotated = ["the-new-secret-that-is-long-enough-111", secret];
  const email = "rotation@example.org";
  const before = await issue(email);
  expect(
    await verifyCode(database.db, { email, code: before.code, ip: "ip-rotation", secret: rotated, limits: generous }),
  ).toEqual({ ok: true, userId: null });
  // Without the old secret in the list, it is a wrong code like any other.
  const again = await issue(email);
  expect(
    await verifyCode(database.db, {
      email,
      code: again.code,
      ip: "ip-rotation",
      secret: [rotated[0]],
      limits: generous,
    }),
  ).toEqual({
    ok: false,
    reason: "wrong_code",
    attemptsLeft: OTP_MAX_ATTEMPTS - 1,
  });
});

test("pruneCodes (the daily housekeeping) deletes the codes that have expired, and keeps those that still work", async () => {
  const now = new Date("2026-05-04T12:00:00Z");
  const stale = await issue("prune-old@example.org", new Date(now.getTime() - OTP_TTL_MS - 1000));
  const fresh = await issue("prune-new@example.org", new Date(now.getTime() - 1000));
  const [{ expired }] = await database.db
    .select({ expired: sql<number>`count(*)::int` })
    .from(oneTimeCodes)
    .where(lt(oneTimeCodes.expiresAt, now));
  expect(expired).toBeGreaterThan(0);
  expect(await pruneCodes(database.db, now)).toBe(expired);
  const left = await database.db
    .select({ email: oneTimeCodes.email, expiresAt: oneTimeCodes.expiresAt })
    .from(oneTimeCodes);
  expect(left.every((row) => row.expiresAt >= now)).toBe(true);
  expect(left.map((row) => row.email)).toContain("prune-new@example.org");
  expect(left.map((row) => row.email)).not.toContain("prune-old@example.org");
  expect(await verify("prune-new@example.org", fresh.code, now)).toEqual({ ok: true, userId: null });
  expect(stale.code).toMatch(/^\d{6}$/);
});
