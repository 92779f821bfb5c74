import { eq } from "drizzle-orm";
import crypto from "node:crypto";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import type { Database } from "~/services/platform/db/client.server";
import { openTestDatabase } from "~/test/db";
import { oneTimeCodes } from "~/services/platform/db/schema";
import {
  generateCode,
  hashCode,
  issueCode,
  OTP_MAX_ATTEMPTS,
  OTP_TTL_MS,
  otpLimits,
  verifyCode,
  type IssueResult,
} from "./otp.server";

const secret = "test-secret-that-is-long-enough-000";
const generous = otpLimits({ OTP_REQUESTS_PER_EMAIL: 1000, OTP_REQUESTS_PER_ADDRESS: 1000 });
let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

function issued(result: IssueResult): { code: string; expiresAt: Date } {
  if (!result.ok) throw new Error(`code not issued: ${result.reason}`);
  return result;
}

function wrongCodeFor(code: string): string {
  return code === "000000" ? "000001" : "000000";
}

async function issue(email: string, now?: Date) {
  return issued(await issueCode(database.db, { email, userId: null, ip: `ip-${email}`, secret, limits: generous, now }));
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
    randomInt.mockImplementation((() => 42) as never);
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
  const request = (email: string) =>
    issueCode(database.db, { email, userId: null, ip: "10.0.1.1", secret, limits });
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
  const refused = await issueCode(database.db, { email: "kept@example.org", userId: null, ip: "10.0.2.1", secret, limits });
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
