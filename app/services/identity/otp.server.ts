import crypto from "node:crypto";
import { and, desc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "~/services/platform/db/client.server";
import { oneTimeCodes } from "~/services/platform/db/schema";
import { hitRateLimit, type RateLimit } from "~/services/platform/rate-limit.server";

export const OTP_TTL_MS = 10 * 60 * 1000;
export const OTP_MAX_ATTEMPTS = 5;
const WINDOW_MS = 15 * 60 * 1000;

/** Code requests per e-mail address and per client address, and verifications per client address, in 15 minutes. */
export interface OtpLimits {
  requestsPerEmail: RateLimit;
  requestsPerAddress: RateLimit;
  verificationsPerAddress: RateLimit;
}

export function otpLimits(config: { OTP_REQUESTS_PER_EMAIL: number; OTP_REQUESTS_PER_ADDRESS: number }): OtpLimits {
  return {
    requestsPerEmail: { limit: config.OTP_REQUESTS_PER_EMAIL, windowMs: WINDOW_MS },
    requestsPerAddress: { limit: config.OTP_REQUESTS_PER_ADDRESS, windowMs: WINDOW_MS },
    verificationsPerAddress: { limit: config.OTP_REQUESTS_PER_ADDRESS * 5, windowMs: WINDOW_MS },
  };
}

export const codePattern = /^\d{6}$/;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Six digits from the operating system's secure random source. */
export function generateCode(): string {
  return crypto.randomInt(0, 1_000_000).toString().padStart(6, "0");
}

/** Codes are stored keyed by the app secret and the address, so a leaked table reveals none. */
export function hashCode(secret: string, email: string, code: string): string {
  return crypto.createHmac("sha256", secret).update(`${normaliseEmail(email)}:${code}`).digest("hex");
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/**
 * Counts a code request against the address and the e-mail. Every request counts, whether or not the
 * e-mail belongs to a user, so the limits say nothing about which addresses exist.
 */
export async function countCodeRequest(
  db: Db,
  input: { email: string; ip: string; limits: OtpLimits; now?: Date },
): Promise<{ ok: false; reason: "rate_limited"; retryAfterSeconds: number } | null> {
  const email = normaliseEmail(input.email);
  const byAddress = await hitRateLimit(db, `otp:request:ip:${input.ip}`, input.limits.requestsPerAddress, input.now);
  const byEmail = await hitRateLimit(db, `otp:request:email:${email}`, input.limits.requestsPerEmail, input.now);
  if (byAddress.allowed && byEmail.allowed) return null;
  return {
    ok: false,
    reason: "rate_limited",
    retryAfterSeconds: Math.max(
      byAddress.allowed ? 0 : byAddress.retryAfterSeconds,
      byEmail.allowed ? 0 : byEmail.retryAfterSeconds,
    ),
  };
}

export type IssueResult =
  | { ok: true; code: string; expiresAt: Date }
  | { ok: false; reason: "rate_limited"; retryAfterSeconds: number };

/**
 * Issues a new code for an address. Earlier unused codes for the address stop working, so only the
 * newest mail counts.
 */
export async function issueCode(
  db: Db,
  input: { email: string; userId: number | null; ip: string; secret: string; limits: OtpLimits; now?: Date },
): Promise<IssueResult> {
  const now = input.now ?? new Date();
  const email = normaliseEmail(input.email);
  const limited = await countCodeRequest(db, { email, ip: input.ip, limits: input.limits, now });
  if (limited) return limited;
  const code = generateCode();
  const expiresAt = new Date(now.getTime() + OTP_TTL_MS);
  await db.transaction(async (tx) => {
    await tx
      .update(oneTimeCodes)
      .set({ usedAt: now })
      .where(and(eq(oneTimeCodes.email, email), isNull(oneTimeCodes.usedAt)));
    await tx.insert(oneTimeCodes).values({
      email,
      userId: input.userId,
      codeHash: hashCode(input.secret, email, code),
      createdAt: now,
      expiresAt,
    });
  });
  return { ok: true, code, expiresAt };
}

export type VerifyResult =
  | { ok: true; userId: number | null }
  | { ok: false; reason: "rate_limited"; retryAfterSeconds: number }
  | { ok: false; reason: "expired" }
  | { ok: false; reason: "too_many_attempts" }
  | { ok: false; reason: "wrong_code"; attemptsLeft: number };

/** Checks a code: single use, valid for 10 minutes, at most five wrong tries. */
export async function verifyCode(
  db: Db,
  input: { email: string; code: string; ip: string; secret: string; limits: OtpLimits; now?: Date },
): Promise<VerifyResult> {
  const now = input.now ?? new Date();
  const email = normaliseEmail(input.email);
  const limit = await hitRateLimit(db, `otp:verify:ip:${input.ip}`, input.limits.verificationsPerAddress, now);
  if (!limit.allowed) return { ok: false, reason: "rate_limited", retryAfterSeconds: limit.retryAfterSeconds };

  const [row] = await db
    .select()
    .from(oneTimeCodes)
    .where(and(eq(oneTimeCodes.email, email), isNull(oneTimeCodes.usedAt), gt(oneTimeCodes.expiresAt, now)))
    .orderBy(desc(oneTimeCodes.createdAt))
    .limit(1);
  if (!row) return { ok: false, reason: "expired" };
  if (row.failedAttempts >= OTP_MAX_ATTEMPTS) return { ok: false, reason: "too_many_attempts" };

  if (!codePattern.test(input.code) || !sameHash(row.codeHash, hashCode(input.secret, email, input.code))) {
    // Counted in one statement, so parallel guesses cannot exceed the limit.
    const [counted] = await db
      .update(oneTimeCodes)
      .set({ failedAttempts: sql`${oneTimeCodes.failedAttempts} + 1` })
      .where(and(eq(oneTimeCodes.id, row.id), lt(oneTimeCodes.failedAttempts, OTP_MAX_ATTEMPTS)))
      .returning({ failedAttempts: oneTimeCodes.failedAttempts });
    const used = counted?.failedAttempts ?? OTP_MAX_ATTEMPTS;
    if (used >= OTP_MAX_ATTEMPTS) return { ok: false, reason: "too_many_attempts" };
    return { ok: false, reason: "wrong_code", attemptsLeft: OTP_MAX_ATTEMPTS - used };
  }

  // Claimed in one statement, so a code can be used once even when two requests race.
  const [claimed] = await db
    .update(oneTimeCodes)
    .set({ usedAt: now })
    .where(and(eq(oneTimeCodes.id, row.id), isNull(oneTimeCodes.usedAt)))
    .returning({ userId: oneTimeCodes.userId });
  if (!claimed) return { ok: false, reason: "expired" };
  return { ok: true, userId: claimed.userId };
}
