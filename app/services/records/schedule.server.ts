// The daily retention run: once a UTC day across every app process and instance on the database
// (the day's claim row in rate_limits, as the housekeeping), tried every hour from each process.
import type { Db } from "~/services/platform/db/client.server";
import { scheduleHourlyTries } from "~/services/platform/hourly.server";
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
  return scheduleHourlyTries("retention", {
    what: "the records schedule's run",
    firstDelayMs: options.firstDelayMs ?? 7 * 60_000,
    everyMs: options.everyMs ?? 60 * 60_000,
    // The run first, then the callback: `onRun?.(await run())` would skip the run itself without one.
    run: async () => {
      const counts = await runDailyRetention(await options.db(), { rules: options.rules() });
      options.onRun?.(counts);
    },
  });
}
