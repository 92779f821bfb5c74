// The daily retention run: once a UTC day across every app process and instance on the database
// (the day's claim row in rate_limits, as the housekeeping), tried every hour from each process.
import type { Db } from "~/services/platform/db/client.server";
import { logFor } from "~/services/platform/log.server";
import { claimDay, releaseDay } from "./schedule-claim.server";
import { runRetention } from "./run.server";
import { RECORD_KINDS, type RecordKind, type RetentionRule } from "./retention";

/** Today's run if no process has claimed the day yet, else null. One log line with the counts. */
export async function runDailyRetention(
  db: Db,
  options: { rules: RetentionRule[]; now?: Date; log?: { info(message: string): void } },
): Promise<Record<RecordKind, number> | null> {
  const now = options.now ?? new Date();
  const claim = await claimDay(db, now);
  if (!claim.taken) return null;
  let counts: Record<RecordKind, number>;
  try {
    counts = await runRetention(db, options.rules, now);
  } catch (error) {
    // The day given back: the next hour's try (here or in another process) runs it.
    await releaseDay(db, now).catch(() => {});
    throw error;
  }
  (options.log ?? logFor("retention")).info(
    `the records schedule's run: ${RECORD_KINDS.map((kind) => `${kind} ${counts[kind]}`).join(", ")}`,
  );
  return counts;
}

let scheduled: { stop(): void } | null = null;

/**
 * Tries the daily run from every app process: a few minutes after start-up, then every hour; the
 * day's claim makes it one run a day in all. One schedule per process (a second call replaces it).
 */
export function scheduleRetention(options: {
  db: () => Promise<Db>;
  rules: () => RetentionRule[];
  firstDelayMs?: number;
  everyMs?: number;
  onRun?: (counts: Record<RecordKind, number> | null) => void;
}): { stop(): void } {
  scheduled?.stop();
  const log = logFor("retention");
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      options.onRun?.(await runDailyRetention(await options.db(), { rules: options.rules() }));
    } catch (error) {
      const why =
        error instanceof Response
          ? "the database is not available"
          : error instanceof Error
            ? error.message
            : String(error);
      log.warn(`the records schedule's run did not run: ${why}; trying again in an hour`);
    } finally {
      running = false;
    }
  };
  const first = setTimeout(() => void tick(), options.firstDelayMs ?? 7 * 60_000);
  const timer = setInterval(() => void tick(), options.everyMs ?? 60 * 60_000);
  first.unref();
  timer.unref();
  const schedule = {
    stop() {
      clearTimeout(first);
      clearInterval(timer);
      if (scheduled === schedule) scheduled = null;
    },
  };
  scheduled = schedule;
  return schedule;
}
