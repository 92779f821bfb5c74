import { logFor } from "./log.server";

const schedules = new Map<string, { stop(): void }>();

/** Why a run failed, for the log line: the database away (a 503 Response from the pool) or the error's message. */
function failure(error: unknown): string {
  if (error instanceof Response) return "the database is not available";
  return error instanceof Error ? error.message : String(error);
}

/**
 * Tries a daily job from this app process: `firstDelayMs` after start-up, then every `everyMs` (an
 * hour); the job's own claim (a row per day in rate_limits) makes it one run a day across processes
 * and instances. Never two tries at once in a process; a try that throws is logged as a warning and
 * tried again at the next tick. One schedule per name and process: a second call (a test's second
 * start-up) replaces the first.
 */
export function scheduleHourlyTries(
  name: string,
  options: { run: () => Promise<void>; what: string; firstDelayMs: number; everyMs: number },
): { stop(): void } {
  schedules.get(name)?.stop();
  const log = logFor(name);
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await options.run();
    } catch (error) {
      log.warn(`${options.what} did not run: ${failure(error)}; trying again in an hour`);
    } finally {
      running = false;
    }
  };
  const first = setTimeout(() => void tick(), options.firstDelayMs);
  const timer = setInterval(() => void tick(), options.everyMs);
  first.unref();
  timer.unref();
  const schedule = {
    stop() {
      clearTimeout(first);
      clearInterval(timer);
      if (schedules.get(name) === schedule) schedules.delete(name);
    },
  };
  schedules.set(name, schedule);
  return schedule;
}
