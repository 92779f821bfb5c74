import fs from "node:fs/promises";
import path from "node:path";
import type { Db } from "./db/client.server";
import { env } from "./env.server";
import { scheduleHourlyTries } from "./hourly.server";
import { logFor } from "./log.server";
import { pruneRateLimits, releaseRateLimit, takeRateLimit } from "./rate-limit.server";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Mails in the local outbox (OUTBOX_DIR) are kept this many days. */
export const OUTBOX_KEEP_DAYS = 7;

/**
 * Rate-limit windows are kept two days: the longest window is a day (the wrong codes per e-mail
 * address), so every window that began before that has ended.
 */
const RATE_LIMIT_KEEP_MS = 2 * DAY_MS;

/** Today's run is claimed under this key in rate_limits: one row per UTC day, whoever takes it runs. */
const CLAIM_KEY = "housekeeping:daily";
const CLAIM = { limit: 1, windowMs: DAY_MS };

/**
 * What other parts of the app clean up, handed in (platform code knows no domain): the identity
 * domain's ended sessions and used-up log-in codes. Each returns how many rows it removed.
 */
export interface Sweeps {
  sessions: (db: Db, now: Date) => Promise<number>;
  codes: (db: Db, now: Date) => Promise<number>;
}

export interface HousekeepingSummary {
  sessions: number;
  codes: number;
  rateLimits: number;
  outboxFiles: number;
}

// The outbox names a mail by the moment it was written (email.server.ts): 2026-11-26T00-46-58-123Z-1a2b3c4d.json.
const OUTBOX_NAME = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z-[0-9a-f]+\.json$/;

/**
 * Deletes the outbox's mails written before `before`, told by their names (the app's clock, as for
 * everything else; a file's own time may be on another clock). Other files are left alone.
 */
export async function pruneOutbox(dir: string, before: Date): Promise<number> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const match = OUTBOX_NAME.exec(name);
    if (!match) continue;
    const written = Date.parse(`${match[1]}T${match[2]}:${match[3]}:${match[4]}.${match[5]}Z`);
    if (!(written < before.getTime())) continue;
    try {
      await fs.unlink(path.join(dir, name));
      removed++;
    } catch {
      // gone meanwhile (another process's housekeeping, or someone tidying by hand)
    }
  }
  return removed;
}

/**
 * The daily housekeeping: ended sessions, expired log-in codes, rate-limit windows over two days
 * old and outbox mails over OUTBOX_KEEP_DAYS days old go. Once a UTC day across every app process
 * and instance on the database: the first to claim the day's row runs it, every other call answers
 * null. One log line with the counts (nothing about anyone).
 */
export async function runHousekeeping(
  db: Db,
  options: { sweeps: Sweeps; outboxDir?: string; now?: Date; log?: { info(message: string): void } },
): Promise<HousekeepingSummary | null> {
  const now = options.now ?? new Date();
  const claim = await takeRateLimit(db, CLAIM_KEY, CLAIM, now);
  if (!claim.taken) return null;
  let summary: HousekeepingSummary;
  try {
    summary = {
      sessions: await options.sweeps.sessions(db, now),
      codes: await options.sweeps.codes(db, now),
      rateLimits: await pruneRateLimits(db, new Date(now.getTime() - RATE_LIMIT_KEEP_MS)),
      outboxFiles: await pruneOutbox(
        path.resolve(options.outboxDir ?? env().OUTBOX_DIR),
        new Date(now.getTime() - OUTBOX_KEEP_DAYS * DAY_MS),
      ),
    };
  } catch (error) {
    // The day's claim is given back, so the next hour's try (here or in another process) runs it.
    await releaseRateLimit(db, CLAIM_KEY, CLAIM, now).catch(() => {});
    throw error;
  }
  (options.log ?? logFor("housekeeping")).info(
    `removed ${summary.sessions} ended sessions, ${summary.codes} expired log-in codes, ${summary.rateLimits} old rate-limit rows, ` +
      `${summary.outboxFiles} outbox mails older than ${OUTBOX_KEEP_DAYS} days`,
  );
  return summary;
}

/**
 * Runs the housekeeping from every app process: a few minutes after start-up, then every hour; the
 * day's claim makes it one run a day in all (a process that is not the first finds the day taken).
 * One schedule per process: a second call (a test's second start-up) replaces the first.
 */
export function scheduleHousekeeping(options: {
  db: () => Promise<Db>;
  sweeps: Sweeps;
  firstDelayMs?: number;
  everyMs?: number;
  onRun?: (summary: HousekeepingSummary | null) => void;
}): { stop(): void } {
  return scheduleHourlyTries("housekeeping", {
    what: "the housekeeping",
    firstDelayMs: options.firstDelayMs ?? 5 * 60_000,
    everyMs: options.everyMs ?? 60 * 60_000,
    // The run first, then the callback: `onRun?.(await run())` would skip the run itself without one.
    run: async () => {
      const summary = await runHousekeeping(await options.db(), { sweeps: options.sweeps });
      options.onRun?.(summary);
    },
  });
}
