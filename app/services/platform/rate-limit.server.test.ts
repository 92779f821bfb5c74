import { afterAll, beforeAll, expect, test } from "vitest";
import type { Database } from "./db/client.server";
import { openTestDatabase } from "~/test/db";
import { rateLimits } from "./db/schema";
import { hitRateLimit, peekRateLimit, pruneRateLimits, releaseRateLimit, takeRateLimit } from "./rate-limit.server";

let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

const rule = { limit: 3, windowMs: 60_000 };

test("counts hits within a window and refuses those over the limit", async () => {
  const now = new Date("2026-03-01T10:00:10Z");
  const results = [];
  for (let i = 0; i < 4; i++) results.push(await hitRateLimit(database.db, "count", rule, now));
  expect(results.map((r) => r.count)).toEqual([1, 2, 3, 4]);
  expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
});

test("keys are counted separately", async () => {
  const now = new Date("2026-03-01T10:00:10Z");
  await hitRateLimit(database.db, "a", rule, now);
  await hitRateLimit(database.db, "a", rule, now);
  expect((await hitRateLimit(database.db, "b", rule, now)).count).toBe(1);
});

test("the count starts again in the next window", async () => {
  const first = new Date("2026-03-01T11:00:59Z");
  for (let i = 0; i < 4; i++) await hitRateLimit(database.db, "reset", rule, first);
  expect((await hitRateLimit(database.db, "reset", rule, first)).allowed).toBe(false);
  const next = await hitRateLimit(database.db, "reset", rule, new Date("2026-03-01T11:01:00Z"));
  expect(next).toMatchObject({ allowed: true, count: 1 });
});

test("retryAfterSeconds is the time left in the window, rounded up", async () => {
  const result = await hitRateLimit(database.db, "retry", rule, new Date("2026-03-01T12:00:15.500Z"));
  expect(result.retryAfterSeconds).toBe(45);
  const atStart = await hitRateLimit(database.db, "retry2", rule, new Date("2026-03-01T12:00:00Z"));
  expect(atStart.retryAfterSeconds).toBe(60);
});

test("concurrent hits never lose a count", async () => {
  const now = new Date("2026-03-01T13:00:00Z");
  const results = await Promise.all(Array.from({ length: 10 }, () => hitRateLimit(database.db, "race", rule, now)));
  expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  expect(results.filter((r) => r.allowed)).toHaveLength(3);
});

test("pruneRateLimits removes only older windows, and says how many", async () => {
  await hitRateLimit(database.db, "old", rule, new Date("2026-01-01T00:00:00Z"));
  await hitRateLimit(database.db, "new", rule, new Date("2026-06-01T00:00:00Z"));
  const before = (await database.db.select({ key: rateLimits.key }).from(rateLimits)).length;
  const removed = await pruneRateLimits(database.db, new Date("2026-05-01T00:00:00Z"));
  const keys = (await database.db.select({ key: rateLimits.key }).from(rateLimits)).map((r) => r.key);
  expect(keys).toEqual(["new"]);
  expect(removed).toBe(before - 1);
});

test("takeRateLimit counts only while places are left, and says when the window ends", async () => {
  const now = new Date("2026-03-01T14:00:20Z");
  const results = [];
  for (let i = 0; i < 5; i++) results.push(await takeRateLimit(database.db, "take", rule, now));
  expect(results.map((r) => r.taken)).toEqual([true, true, true, false, false]);
  expect(results.map((r) => r.count)).toEqual([1, 2, 3, 3, 3]);
  expect(results[0].windowEnd).toEqual(new Date("2026-03-01T14:01:00Z"));
  expect(await peekRateLimit(database.db, "take", rule, now)).toBe(3);
  const next = await takeRateLimit(database.db, "take", rule, new Date("2026-03-01T14:01:00Z"));
  expect(next).toMatchObject({ taken: true, count: 1 });
});

test("concurrent takes never give out more places than the limit", async () => {
  const now = new Date("2026-03-01T15:00:00Z");
  const results = await Promise.all(
    Array.from({ length: 10 }, () => takeRateLimit(database.db, "take-race", rule, now)),
  );
  expect(results.filter((r) => r.taken)).toHaveLength(3);
  expect(
    results
      .filter((r) => r.taken)
      .map((r) => r.count)
      .sort(),
  ).toEqual([1, 2, 3]);
  expect(await peekRateLimit(database.db, "take-race", rule, now)).toBe(3);
});

test("releaseRateLimit gives a place back in the window it was taken in", async () => {
  const now = new Date("2026-03-01T16:00:30Z");
  for (let i = 0; i < 3; i++) await takeRateLimit(database.db, "release", rule, now);
  await releaseRateLimit(database.db, "release", rule, now);
  expect(await peekRateLimit(database.db, "release", rule, now)).toBe(2);
  expect((await takeRateLimit(database.db, "release", rule, now)).taken).toBe(true);
  // Never below nothing, and a window never counted is left alone.
  await releaseRateLimit(database.db, "never", rule, now);
  expect(await peekRateLimit(database.db, "never", rule, now)).toBe(0);
});
