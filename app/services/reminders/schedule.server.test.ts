import { afterAll, beforeAll, expect, test, vi } from "vitest";
import type { Database } from "~/services/platform/db/client.server";
import { openTestDatabase } from "~/test/db";
import type { RunSummary } from "./reminders.server";
import { scheduleReminders } from "./schedule.server";

const institution = { id: "fjordbyen", appName: { nb: "P", en: "P" }, institutionName: { nb: "F", en: "F" } };
let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
});

afterAll(async () => {
  await database.close();
});

test("switched off at 0 minutes", () => {
  expect(scheduleReminders({ minutes: 0, db: async () => database.db, institution, origin: "http://x" })).toBeNull();
});

test("runs after the first delay, then on the interval; a failed run is logged and the next one goes on", async () => {
  const runs: RunSummary[] = [];
  const log = { info: vi.fn(), error: vi.fn() };
  let calls = 0;
  vi.useFakeTimers({ toFake: ["setTimeout", "setInterval", "clearTimeout", "clearInterval"] });
  const schedule = scheduleReminders({
    minutes: 1,
    firstDelayMs: 5,
    institution,
    origin: "http://x",
    log,
    db: async () => {
      calls++;
      if (calls === 1) throw new Error("connect ECONNREFUSED");
      return database.db;
    },
    onRun: (summary) => runs.push(summary),
  })!;
  try {
    await vi.advanceTimersByTimeAsync(5);
    await vi.waitFor(() =>
      expect(log.error).toHaveBeenCalledWith("[reminders] the run failed:", "connect ECONNREFUSED"),
    );
    expect(runs).toEqual([]);
    await vi.advanceTimersByTimeAsync(60_000);
    await vi.waitFor(() => expect(runs).toHaveLength(1));
    expect(runs[0]).toEqual({ due: 0, taken: 0, sent: 0, failed: 0, dropped: 0 });
  } finally {
    schedule.stop();
    vi.useRealTimers();
  }
});
