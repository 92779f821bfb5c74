import { and, eq, sql } from "drizzle-orm";
import { rowsAffected, type Db } from "./db/client.server";
import { rateLimits } from "./db/schema";

export interface RateLimit {
  /** How many hits a window allows. */
  limit: number;
  windowMs: number;
}

export interface RateLimitResult {
  allowed: boolean;
  count: number;
  retryAfterSeconds: number;
}

/**
 * Counts one hit against `key` in a fixed window. The counter lives in the database so every
 * app instance shares it; the upsert is a single statement, so concurrent hits never lose a count.
 */
export async function hitRateLimit(db: Db, key: string, rule: RateLimit, now = new Date()): Promise<RateLimitResult> {
  const windowStart = new Date(Math.floor(now.getTime() / rule.windowMs) * rule.windowMs);
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: [rateLimits.key, rateLimits.windowStart],
      set: { count: sql`${rateLimits.count} + 1` },
    })
    .returning({ count: rateLimits.count });
  const count = row?.count ?? 1;
  const retryAfterSeconds = Math.ceil((windowStart.getTime() + rule.windowMs - now.getTime()) / 1000);
  return { allowed: count <= rule.limit, count, retryAfterSeconds };
}

/** The fixed window `now` falls in: windows start at multiples of `windowMs` since the epoch (UTC). */
export function windowOf(rule: RateLimit, now: Date): { start: Date; end: Date } {
  const start = Math.floor(now.getTime() / rule.windowMs) * rule.windowMs;
  return { start: new Date(start), end: new Date(start + rule.windowMs) };
}

export interface TakeResult {
  /** Whether this call got one of the window's places (and counted). */
  taken: boolean;
  /** The window's count after this call: at most `limit`. */
  count: number;
  windowEnd: Date;
}

/**
 * Takes one of the window's `limit` places if one is left, in one statement: unlike hitRateLimit, a
 * refusal does not count, so a full window stays at `limit` and concurrent calls never get more
 * places than there are. For limits on what happened (wrong codes), not on what was asked for.
 */
export async function takeRateLimit(db: Db, key: string, rule: RateLimit, now = new Date()): Promise<TakeResult> {
  const { start, end } = windowOf(rule, now);
  if (rule.limit < 1) return { taken: false, count: 0, windowEnd: end };
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart: start, count: 1 })
    .onConflictDoUpdate({
      target: [rateLimits.key, rateLimits.windowStart],
      set: { count: sql`${rateLimits.count} + 1` },
      setWhere: sql`${rateLimits.count} < ${rule.limit}`,
    })
    .returning({ count: rateLimits.count });
  if (row) return { taken: true, count: row.count, windowEnd: end };
  return { taken: false, count: await peekRateLimit(db, key, rule, now), windowEnd: end };
}

/** Gives back a place taken by takeRateLimit (pass the same `now`, so it is the same window). */
export async function releaseRateLimit(db: Db, key: string, rule: RateLimit, now = new Date()): Promise<void> {
  await db
    .update(rateLimits)
    .set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
    .where(and(eq(rateLimits.key, key), eq(rateLimits.windowStart, windowOf(rule, now).start)));
}

/** The window's count so far, without counting. */
export async function peekRateLimit(db: Db, key: string, rule: RateLimit, now = new Date()): Promise<number> {
  const [row] = await db
    .select({ count: rateLimits.count })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, key), eq(rateLimits.windowStart, windowOf(rule, now).start)));
  return row?.count ?? 0;
}

/**
 * Old windows are of no use; for keeping the table small (the daily housekeeping). `olderThan` must
 * lie at least a day back: the e-mail codes' cap on wrong codes counts in windows of a day. Returns
 * how many rows went.
 */
export async function pruneRateLimits(db: Db, olderThan: Date): Promise<number> {
  return rowsAffected(await db.delete(rateLimits).where(sql`${rateLimits.windowStart} < ${olderThan}`));
}
