import crypto from "node:crypto";
import { and, desc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import i18next, { type TFunction } from "i18next";
import resources, { DEFAULT_LANGUAGE, type Language } from "~/locales";
import { audit } from "~/services/platform/audit.server";
import { rowsAffected, type Db } from "~/services/platform/db/client.server";
import { oneTimeCodes, userPreferences, users } from "~/services/platform/db/schema";
import { MailNotSent, sendMail } from "~/services/platform/email.server";
import { appName, currentInstitution } from "~/services/platform/institution.server";
import { logFor } from "~/services/platform/log.server";
import {
  hitRateLimit,
  peekRateLimit,
  releaseRateLimit,
  takeRateLimit,
  windowOf,
  type RateLimit,
} from "~/services/platform/rate-limit.server";
import { formatDayTime } from "~/services/platform/semesters";

export const OTP_TTL_MS = 10 * 60 * 1000;
export const OTP_MAX_ATTEMPTS = 5;
const WINDOW_MS = 15 * 60 * 1000;

/**
 * Wrong codes per e-mail address, whatever the client addresses they come from: reaching either
 * pauses e-mail codes for the address until the window (a clock hour, a UTC day) is over.
 */
export const WRONG_CODES_PER_HOUR = 10;
export const WRONG_CODES_PER_DAY = 30;
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Code requests per e-mail address and per client address, and verifications per client address, in
 * 15 minutes; wrong codes per e-mail address in an hour and in a day (WRONG_CODES_PER_HOUR and
 * WRONG_CODES_PER_DAY where left out).
 */
export interface OtpLimits {
  requestsPerEmail: RateLimit;
  requestsPerAddress: RateLimit;
  verificationsPerAddress: RateLimit;
  wrongCodesPerHour?: RateLimit;
  wrongCodesPerDay?: RateLimit;
}

export function otpLimits(config: { OTP_REQUESTS_PER_EMAIL: number; OTP_REQUESTS_PER_ADDRESS: number }): OtpLimits {
  return {
    requestsPerEmail: { limit: config.OTP_REQUESTS_PER_EMAIL, windowMs: WINDOW_MS },
    requestsPerAddress: { limit: config.OTP_REQUESTS_PER_ADDRESS, windowMs: WINDOW_MS },
    verificationsPerAddress: { limit: config.OTP_REQUESTS_PER_ADDRESS * 5, windowMs: WINDOW_MS },
    wrongCodesPerHour: { limit: WRONG_CODES_PER_HOUR, windowMs: HOUR_MS },
    wrongCodesPerDay: { limit: WRONG_CODES_PER_DAY, windowMs: DAY_MS },
  };
}

/**
 * A refusal for a while. `pausedUntil` is set when the e-mail address's codes are paused after too
 * many wrong codes (then `retryAfterSeconds` runs to that instant); without it, a request limit was hit.
 */
export interface RateLimited {
  ok: false;
  reason: "rate_limited";
  retryAfterSeconds: number;
  pausedUntil?: Date;
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
  return crypto
    .createHmac("sha256", secret)
    .update(`${normaliseEmail(email)}:${code}`)
    .digest("hex");
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

// ─── The pause after wrong codes ─────────────────────────────────────────────
//
// The wrong codes are counted per e-mail address, not per user: an address nobody has is counted,
// paused and answered exactly as one that belongs to a user, so neither the answers nor their
// timing say which addresses exist. Every try that does not log in counts (a wrong code, a code
// used up or expired, no code at all): to an address without a user every try is of that kind.

function capsOf(limits: OtpLimits): { hour: RateLimit; day: RateLimit } {
  return {
    hour: limits.wrongCodesPerHour ?? { limit: WRONG_CODES_PER_HOUR, windowMs: HOUR_MS },
    day: limits.wrongCodesPerDay ?? { limit: WRONG_CODES_PER_DAY, windowMs: DAY_MS },
  };
}

const wrongKey = (window: "hour" | "day", email: string) => `otp:wrong:${window}:${email}`;

function pausedUntil(until: Date, now: Date): RateLimited {
  return {
    ok: false,
    reason: "rate_limited",
    retryAfterSeconds: Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000)),
    pausedUntil: until,
  };
}

/** The refusal while the address's codes are paused (the day's pause outlasts the hour's), or null. */
async function currentPause(db: Db, email: string, limits: OtpLimits, now: Date): Promise<RateLimited | null> {
  const caps = capsOf(limits);
  if ((await peekRateLimit(db, wrongKey("day", email), caps.day, now)) >= caps.day.limit) {
    return pausedUntil(windowOf(caps.day, now).end, now);
  }
  if ((await peekRateLimit(db, wrongKey("hour", email), caps.hour, now)) >= caps.hour.limit) {
    return pausedUntil(windowOf(caps.hour, now).end, now);
  }
  return null;
}

type Try =
  | { paused: RateLimited }
  | { paused: null; release: () => Promise<void>; starts: { window: "hour" | "day"; until: Date } | null };

/**
 * Takes one of the hour's and one of the day's places for a try before the code is compared, so
 * simultaneous tries never get more than the cap compared. A try that logs in gives its places
 * back; a try that fails keeps them, and the one that fills a window starts the pause.
 */
async function takeTry(db: Db, email: string, limits: OtpLimits, now: Date): Promise<Try> {
  const caps = capsOf(limits);
  const hour = await takeRateLimit(db, wrongKey("hour", email), caps.hour, now);
  if (!hour.taken) return { paused: (await currentPause(db, email, limits, now)) ?? pausedUntil(hour.windowEnd, now) };
  const releaseHour = () => releaseRateLimit(db, wrongKey("hour", email), caps.hour, now);
  const day = await takeRateLimit(db, wrongKey("day", email), caps.day, now);
  if (!day.taken) {
    await releaseHour();
    return { paused: pausedUntil(day.windowEnd, now) };
  }
  const starts =
    day.count >= caps.day.limit
      ? { window: "day" as const, until: day.windowEnd }
      : hour.count >= caps.hour.limit
        ? { window: "hour" as const, until: hour.windowEnd }
        : null;
  return {
    paused: null,
    starts,
    release: async () => {
      await releaseHour();
      await releaseRateLimit(db, wrongKey("day", email), caps.day, now);
    },
  };
}

let translator: Promise<TFunction> | undefined;
function translations(): Promise<TFunction> {
  translator ??= (async () => {
    const instance = i18next.createInstance();
    await instance.init({
      resources,
      lng: DEFAULT_LANGUAGE,
      fallbackLng: DEFAULT_LANGUAGE,
      interpolation: { escapeValue: false },
    });
    return instance.t.bind(instance);
  })();
  return translator;
}

/** The mails of pauses on their way; the request that started a pause does not wait for its mail. */
const noticesUnderway = new Set<Promise<void>>();

/** Resolves once the pause mails under way have gone out or failed (the tests wait on it). */
export async function pauseNoticesSent(): Promise<void> {
  await Promise.allSettled([...noticesUnderway]);
}

async function mailPauseNotice(
  user: { email: string; displayName: string; language: string | null },
  until: Date,
): Promise<void> {
  const language: Language = user.language === "en" ? "en" : DEFAULT_LANGUAGE;
  const t = await translations();
  const values = {
    ns: "auth",
    lng: language,
    appName: appName(currentInstitution(), language),
    name: user.displayName,
    until: formatDayTime(until, language),
  };
  try {
    await sendMail(
      { to: user.email, subject: t("mail.paused.subject", values), text: t("mail.paused.body", values) },
      { purpose: "log-in codes paused" },
    );
  } catch (error) {
    // Already logged by the mail service; the pause holds whether or not the mail went out.
    if (!(error instanceof MailNotSent))
      logFor("otp").error(`pause mail failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * A pause has started: the codes mailed so far stop working, the audit log records it, and the
 * address's active user (if any) is told by mail, once a pause. The same database work for every
 * address; the mail goes out after the answer, so the answer's timing does not tell either.
 */
async function startPause(
  db: Db,
  input: {
    email: string;
    ip: string;
    window: "hour" | "day";
    until: Date;
    now: Date;
    caps: { hour: RateLimit; day: RateLimit };
  },
): Promise<void> {
  const { email, now } = input;
  // Once a pause, even if a log-in that began before it gave a place back and the window filled again.
  const first = await hitRateLimit(
    db,
    `otp:paused:${input.window}:${email}`,
    { limit: 1, windowMs: input.caps[input.window].windowMs },
    now,
  );
  if (!first.allowed) return;
  await db
    .update(oneTimeCodes)
    .set({ usedAt: now })
    .where(and(eq(oneTimeCodes.email, email), isNull(oneTimeCodes.usedAt)));
  const [user] = await db
    .select({
      id: users.id,
      email: users.email,
      displayName: users.displayName,
      isActive: users.isActive,
      language: userPreferences.language,
    })
    .from(users)
    .leftJoin(userPreferences, eq(userPreferences.userId, users.id))
    .where(eq(sql`lower(${users.email})`, email))
    .limit(1);
  await audit(db, {
    action: "login.paused",
    actorUserId: user?.id ?? null,
    ip: input.ip,
    details: {
      method: "email-code",
      window: input.window,
      until: input.until.toISOString(),
      email: email.slice(0, 254),
    },
  });
  if (!user?.isActive) return;
  const notice = mailPauseNotice({ ...user, email }, input.until);
  noticesUnderway.add(notice);
  void notice.finally(() => noticesUnderway.delete(notice));
}

/**
 * Counts a code request against the address and the e-mail. Every request counts, whether or not the
 * e-mail belongs to a user, so the limits say nothing about which addresses exist. While the e-mail's
 * codes are paused, nothing is counted and the answer says until when.
 */
export async function countCodeRequest(
  db: Db,
  input: { email: string; ip: string; limits: OtpLimits; now?: Date },
): Promise<RateLimited | null> {
  const email = normaliseEmail(input.email);
  const paused = await currentPause(db, email, input.limits, input.now ?? new Date());
  if (paused) return paused;
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

export type IssueResult = { ok: true; code: string; expiresAt: Date } | RateLimited;

/**
 * Issues a new code for an address. Earlier unused codes for the address stop working, so only the
 * newest mail counts. None while the address's codes are paused.
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
  | RateLimited
  | { ok: false; reason: "expired" }
  | { ok: false; reason: "too_many_attempts" }
  | { ok: false; reason: "wrong_code"; attemptsLeft: number };

/**
 * Checks a code: single use, valid for 10 minutes, at most five wrong tries; and at most
 * WRONG_CODES_PER_HOUR and WRONG_CODES_PER_DAY tries that fail per e-mail address, from whatever
 * client addresses. The try that reaches either starts a pause: until the window is over, no code
 * (not even the right one) is accepted and none is issued.
 */
export async function verifyCode(
  db: Db,
  input: { email: string; code: string; ip: string; secret: string | readonly string[]; limits: OtpLimits; now?: Date },
): Promise<VerifyResult> {
  const now = input.now ?? new Date();
  const email = normaliseEmail(input.email);
  const limit = await hitRateLimit(db, `otp:verify:ip:${input.ip}`, input.limits.verificationsPerAddress, now);
  if (!limit.allowed) return { ok: false, reason: "rate_limited", retryAfterSeconds: limit.retryAfterSeconds };

  const attempt = await takeTry(db, email, input.limits, now);
  if (attempt.paused) return attempt.paused;
  const result = await compareCode(db, { ...input, email, now });
  if (result.ok) {
    await attempt.release();
    return result;
  }
  if (!attempt.starts) return result;
  await startPause(db, { email, ip: input.ip, ...attempt.starts, now, caps: capsOf(input.limits) });
  return pausedUntil(attempt.starts.until, now);
}

async function compareCode(
  db: Db,
  input: { email: string; code: string; secret: string | readonly string[]; now: Date },
): Promise<VerifyResult> {
  const { email, now } = input;
  const [row] = await db
    .select()
    .from(oneTimeCodes)
    .where(and(eq(oneTimeCodes.email, email), isNull(oneTimeCodes.usedAt), gt(oneTimeCodes.expiresAt, now)))
    .orderBy(desc(oneTimeCodes.createdAt))
    .limit(1);
  if (!row) return { ok: false, reason: "expired" };
  if (row.failedAttempts >= OTP_MAX_ATTEMPTS) return { ok: false, reason: "too_many_attempts" };

  // Any of the app's secrets: a code mailed just before a rotation (SESSION_SECRET) still works.
  const secrets = typeof input.secret === "string" ? [input.secret] : input.secret;
  const matches =
    codePattern.test(input.code) &&
    secrets.some((secret) => sameHash(row.codeHash, hashCode(secret, email, input.code)));
  if (!matches) {
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

/**
 * Deletes the codes that can no longer be used (expired; a used one expires within ten minutes of
 * being made too); the daily housekeeping calls it. Returns how many.
 */
export async function pruneCodes(db: Db, now = new Date()): Promise<number> {
  return rowsAffected(await db.delete(oneTimeCodes).where(lt(oneTimeCodes.expiresAt, now)));
}
