import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { openTestDatabase } from "~/test/db";
import type { Database } from "./db/client.server";
import { rateLimits } from "./db/schema";
import {
  OUTBOX_KEEP_DAYS,
  pruneOutbox,
  runHousekeeping,
  scheduleHousekeeping,
  type Sweeps,
} from "./housekeeping.server";
import { hitRateLimit } from "./rate-limit.server";

// The daily housekeeping. The identity domain's sweeps (sessions, codes) are handed in by the app's
// entry and tested beside their code (session.server.test.ts, otp.server.test.ts); here they are
// stand-ins that count their calls.

const DAY = 24 * 60 * 60 * 1000;
let database: Database;
let outbox: string;

beforeAll(async () => {
  database = await openTestDatabase();
  outbox = fs.mkdtempSync(path.join(os.tmpdir(), "praksis-outbox-"));
});

afterAll(async () => {
  await database.close();
  fs.rmSync(outbox, { recursive: true, force: true });
});

function counting(sessions = 2, codes = 3) {
  const calls: { sweep: string; now: Date }[] = [];
  const sweeps: Sweeps = {
    sessions: async (_db, now) => (calls.push({ sweep: "sessions", now }), sessions),
    codes: async (_db, now) => (calls.push({ sweep: "codes", now }), codes),
  };
  return { calls, sweeps };
}

/** An outbox file as the mail service names it: by the moment it was written. */
function outboxFile(at: Date): string {
  const name = `${at.toISOString().replace(/[:.]/g, "-")}-0a1b2c3d.json`;
  fs.writeFileSync(path.join(outbox, name), "{}");
  return name;
}

test("once a day: ended sessions, expired codes, old rate-limit rows and old outbox mails go, counted in one line without anyone's data", async () => {
  const now = new Date("2026-10-14T03:00:00Z");
  await hitRateLimit(
    database.db,
    "otp:request:email:someone@example.org",
    { limit: 5, windowMs: 15 * 60_000 },
    new Date(now.getTime() - 3 * DAY),
  );
  await hitRateLimit(
    database.db,
    "otp:wrong:day:someone@example.org",
    { limit: 30, windowMs: DAY },
    new Date(now.getTime() - DAY),
  );
  await hitRateLimit(
    database.db,
    "otp:request:ip:10.0.0.1",
    { limit: 20, windowMs: 15 * 60_000 },
    new Date(now.getTime() - 60_000),
  );
  const old = outboxFile(new Date(now.getTime() - (OUTBOX_KEEP_DAYS + 1) * DAY));
  const recent = outboxFile(new Date(now.getTime() - (OUTBOX_KEEP_DAYS - 1) * DAY));
  fs.writeFileSync(path.join(outbox, "README.txt"), "not a mail");
  const { calls, sweeps } = counting();

  const said: string[] = [];
  const summary = await runHousekeeping(database.db, {
    sweeps,
    outboxDir: outbox,
    now,
    log: { info: (line) => said.push(line) },
  });

  expect(summary).toEqual({ sessions: 2, codes: 3, rateLimits: 1, outboxFiles: 1 });
  expect(said).toEqual([
    `removed 2 ended sessions, 3 expired log-in codes, 1 old rate-limit rows, 1 outbox mails older than ${OUTBOX_KEEP_DAYS} days`,
  ]);
  expect(calls).toEqual([
    { sweep: "sessions", now },
    { sweep: "codes", now },
  ]);
  const keys = (await database.db.select({ key: rateLimits.key }).from(rateLimits)).map((r) => r.key).sort();
  // Yesterday's day window of wrong codes has ended but is kept (two days); the day's claim is a row too.
  expect(keys).toEqual(["housekeeping:daily", "otp:request:ip:10.0.0.1", "otp:wrong:day:someone@example.org"]);
  expect(fs.readdirSync(outbox).sort()).toEqual([recent, "README.txt"].sort());
  expect(fs.existsSync(path.join(outbox, old))).toBe(false);

  // Later the same UTC day, in this or any other process: nothing to do.
  expect(
    await runHousekeeping(database.db, { sweeps, outboxDir: outbox, now: new Date("2026-10-14T23:59:00Z") }),
  ).toBeNull();
  expect(calls).toHaveLength(2);
  // The next day it runs again (the wrong codes' window of the 13th has now begun over two days ago).
  expect(
    await runHousekeeping(database.db, { sweeps, outboxDir: outbox, now: new Date("2026-10-15T00:01:00Z") }),
  ).toEqual({
    sessions: 2,
    codes: 3,
    rateLimits: 1,
    outboxFiles: 0,
  });
});

test("app processes and instances trying at once: exactly one runs the day's housekeeping", async () => {
  const now = new Date("2026-11-02T04:00:00Z");
  const { calls, sweeps } = counting();
  const results = await Promise.all(
    Array.from({ length: 6 }, () => runHousekeeping(database.db, { sweeps, outboxDir: outbox, now })),
  );
  expect(results.filter((r) => r !== null)).toHaveLength(1);
  expect(calls.filter((c) => c.sweep === "sessions")).toHaveLength(1);
});

test("a run that fails gives the day back, so the next try (here or elsewhere) runs it", async () => {
  const now = new Date("2026-11-03T04:00:00Z");
  const failing: Sweeps = {
    sessions: async () => {
      throw new Error("the statement failed");
    },
    codes: async () => 0,
  };
  await expect(runHousekeeping(database.db, { sweeps: failing, outboxDir: outbox, now })).rejects.toThrow(
    "the statement failed",
  );
  const { sweeps } = counting(0, 0);
  expect(
    await runHousekeeping(database.db, { sweeps, outboxDir: outbox, now: new Date(now.getTime() + 60 * 60_000) }),
  ).toEqual({
    sessions: 0,
    codes: 0,
    rateLimits: expect.any(Number),
    outboxFiles: 0,
  });
});

test("the outbox's mails are told old by their names; a missing outbox is nothing to do", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "praksis-outbox-"));
  try {
    const now = new Date("2026-08-20T10:00:00Z");
    const names = [
      outboxFileIn(dir, new Date("2026-08-01T10:00:00.123Z")),
      outboxFileIn(dir, new Date("2026-08-20T09:00:00Z")),
    ];
    expect(await pruneOutbox(dir, new Date(now.getTime() - 7 * DAY))).toBe(1);
    expect(fs.readdirSync(dir)).toEqual([names[1]]);
    expect(await pruneOutbox(path.join(dir, "none"), now)).toBe(0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

function outboxFileIn(dir: string, at: Date): string {
  const name = `${at.toISOString().replace(/[:.]/g, "-")}-ffee0011.json`;
  fs.writeFileSync(path.join(dir, name), "{}");
  return name;
}

test("scheduled from every app process: the first try after start-up runs it; a second schedule replaces the first; the database away is a warning, not a crash", async () => {
  const { sweeps } = counting(0, 0);
  const runs: unknown[] = [];
  const first = scheduleHousekeeping({
    db: async () => database.db,
    sweeps,
    firstDelayMs: 60_000,
    onRun: (summary) => runs.push(summary),
  });
  const ran = new Promise<void>((resolve) => {
    scheduleHousekeeping({
      db: async () => database.db,
      sweeps,
      firstDelayMs: 0,
      onRun: (summary) => (runs.push(summary), resolve()),
    });
  });
  await ran;
  // The housekeeping of the real day: run once here (or already today, by another test run on this database: null).
  expect(runs).toHaveLength(1);
  first.stop();

  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  const failed = new Promise<void>((resolve) => warn.mockImplementation(() => resolve()));
  const schedule = scheduleHousekeeping({
    db: async () => {
      throw new Response("The database is not available right now.", { status: 503 });
    },
    sweeps,
    firstDelayMs: 0,
  });
  await failed;
  schedule.stop();
  expect(warn.mock.calls[0]?.join(" ")).toContain(
    "[housekeeping] the housekeeping did not run: the database is not available; trying again in an hour",
  );
});
