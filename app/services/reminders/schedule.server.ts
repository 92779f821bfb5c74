import type { Db } from "~/services/platform/db/client.server";
import { intervalMs } from "./reminders";
import { runReminders, type ReminderInstitution, type RunSummary } from "./reminders.server";

/**
 * The app's own reminder runs: every REMINDERS_INTERVAL_MINUTES in every app process. Several
 * processes (cluster) and instances may run at once: the reminder record's unique key decides
 * which one sends each reminder (reminders.server.ts). A run still going when the next is due is
 * not overlapped; a failed run (the database away) is logged and the next one tries again.
 */
export interface Schedule {
  stop(): void;
}

export function scheduleReminders(options: {
  minutes: number;
  db: () => Promise<Db>;
  institution: ReminderInstitution;
  origin: string;
  /** The first run, this long after start-up (the app is serving by then). */
  firstDelayMs?: number;
  log?: Pick<Console, "info" | "error">;
  onRun?: (summary: RunSummary) => void;
}): Schedule | null {
  const every = intervalMs(options.minutes);
  if (every === null) return null;
  const log = options.log ?? console;
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const summary = await runReminders(await options.db(), {
        institution: options.institution,
        origin: options.origin,
      });
      if (summary.sent + summary.failed + summary.dropped > 0) {
        log.info(
          `[reminders] sent ${summary.sent}, failed ${summary.failed} (to be tried again), no longer due ${summary.dropped}`,
        );
      }
      options.onRun?.(summary);
    } catch (error) {
      log.error("[reminders] the run failed:", error instanceof Error ? error.message : error);
    } finally {
      running = false;
    }
  };
  const first = setTimeout(() => void tick(), options.firstDelayMs ?? 60_000);
  const timer = setInterval(() => void tick(), every);
  first.unref();
  timer.unref();
  return {
    stop() {
      clearTimeout(first);
      clearInterval(timer);
    },
  };
}
