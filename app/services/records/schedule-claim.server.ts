// The daily run's claim: one row per UTC day in rate_limits, as the housekeeping's; whoever takes
// the day's row runs, every other process (or instance) finds it taken.
import type { Db } from "~/services/platform/db/client.server";
import { peekRateLimit, releaseRateLimit, takeRateLimit, windowOf } from "~/services/platform/rate-limit.server";

export const CLAIM_KEY = "retention:daily";
export const CLAIM = { limit: 1, windowMs: 24 * 60 * 60 * 1000 };

export const claimDay = (db: Db, now: Date) => takeRateLimit(db, CLAIM_KEY, CLAIM, now);
export const releaseDay = (db: Db, now: Date) => releaseRateLimit(db, CLAIM_KEY, CLAIM, now);

/** When the daily run may next run: the next UTC day when today's has been claimed, else now (the next hourly try). */
export async function nextRunAfter(db: Db, now: Date): Promise<string> {
  const { end } = windowOf(CLAIM, now);
  return (await peekRateLimit(db, CLAIM_KEY, CLAIM, now)) >= CLAIM.limit ? end.toISOString() : now.toISOString();
}
