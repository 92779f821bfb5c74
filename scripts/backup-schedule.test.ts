import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, test, vi } from "vitest";
import {
  STATUS_FILE,
  backupHealth,
  backupPlan,
  backupSettings,
  backupsToDelete,
  isoWeek,
  nextBackupAt,
  nightlyName,
  nightlyTakenAt,
  readBackupStatus,
  safeMessage,
  startBackupSchedule,
  writeBackupStatus,
  type BackupSettings,
} from "./backup-schedule.mjs";

const folders: string[] = [];
function folder() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "praksis-backups-"));
  folders.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

// --- Settings ---

test("the settings' defaults: on, 02:30, 7 daily and 4 weekly, in DATA_DIR/backups", () => {
  expect(backupSettings({ DATA_DIR: "/srv/praksis/data" })).toEqual({
    on: true,
    hour: 2,
    minute: 30,
    time: "02:30",
    keepDaily: 7,
    keepWeekly: 4,
    dir: "/srv/praksis/data/backups",
  });
  // Empty is unset, as for the app's other variables.
  expect(backupSettings({ DATA_DIR: "/d", BACKUPS: "", BACKUP_TIME: "", BACKUP_KEEP_DAILY: "" })).toMatchObject({
    on: true,
    time: "02:30",
    keepDaily: 7,
  });
});

test("the settings as set: off, another time, other counts and folder", () => {
  expect(
    backupSettings({
      DATA_DIR: "/d",
      BACKUPS: "off",
      BACKUP_TIME: "23:05",
      BACKUP_KEEP_DAILY: "14",
      BACKUP_KEEP_WEEKLY: "0",
      BACKUP_DIR: "/var/backups/praksis",
    }),
  ).toEqual({
    on: false,
    hour: 23,
    minute: 5,
    time: "23:05",
    keepDaily: 14,
    keepWeekly: 0,
    dir: "/var/backups/praksis",
  });
});

test.each([
  ["BACKUPS", "no", /BACKUPS: must be on or off/],
  ["BACKUP_TIME", "2:30", /BACKUP_TIME: must be a time of day, HH:MM/],
  ["BACKUP_TIME", "24:00", /BACKUP_TIME: must be a time of day/],
  ["BACKUP_KEEP_DAILY", "0", /BACKUP_KEEP_DAILY: must be a whole number, 1–366/],
  ["BACKUP_KEEP_DAILY", "seven", /BACKUP_KEEP_DAILY: must be a whole number/],
  ["BACKUP_KEEP_WEEKLY", "-1", /BACKUP_KEEP_WEEKLY: must be a whole number, 0–520/],
])("a wrong %s (%s) is refused, naming the variable", (name, value, message) => {
  expect(() => backupSettings({ DATA_DIR: "/d", [name]: value })).toThrow(message);
});

// --- The next time, with the clock set ---

test("the primary schedules the backup for the embedded database only, and not when switched off; it says why not", () => {
  expect(backupPlan({ on: true }, { embedded: true })).toEqual({ scheduled: true, why: null });
  expect(backupPlan(backupSettings({ DATA_DIR: "/d", BACKUPS: "off" }), { embedded: true })).toEqual({
    scheduled: false,
    why: "nightly backups switched off (BACKUPS=off)",
  });
  expect(backupPlan({ on: true }, { embedded: false })).toMatchObject({
    scheduled: false,
    why: expect.stringMatching(
      /^no nightly backup with DATABASE_URL: that PostgreSQL is backed up by those who run it/,
    ),
  });
  expect(backupPlan({ on: false }, { embedded: false })).toMatchObject({ scheduled: false });
});

test("the next backup: tonight's 02:30 in Oslo, or tomorrow's once it has passed", () => {
  const at = { hour: 2, minute: 30 };
  // 26 November (winter time, UTC+1): 02:30 in Oslo is 01:30 UTC.
  expect(nextBackupAt(new Date("2026-11-25T21:00:00Z"), at).toISOString()).toBe("2026-11-26T01:30:00.000Z");
  expect(nextBackupAt(new Date("2026-11-26T01:29:59Z"), at).toISOString()).toBe("2026-11-26T01:30:00.000Z");
  // At the time itself, and after it: the next night's.
  expect(nextBackupAt(new Date("2026-11-26T01:30:00Z"), at).toISOString()).toBe("2026-11-27T01:30:00.000Z");
  expect(nextBackupAt(new Date("2026-11-26T12:00:00Z"), at).toISOString()).toBe("2026-11-27T01:30:00.000Z");
  // Summer time (UTC+2): 00:30 UTC.
  expect(nextBackupAt(new Date("2026-06-30T10:00:00Z"), at).toISOString()).toBe("2026-07-01T00:30:00.000Z");
  // Just after midnight in Oslo, still the day before in UTC: the coming night's, not the one after.
  expect(nextBackupAt(new Date("2026-11-25T23:10:00Z"), at).toISOString()).toBe("2026-11-26T01:30:00.000Z");
  // Another time of day.
  expect(nextBackupAt(new Date("2026-11-26T12:00:00Z"), { hour: 23, minute: 5 }).toISOString()).toBe(
    "2026-11-26T22:05:00.000Z",
  );
});

test("the nights the clocks change: 02:30 skipped in March is taken at 03:30, the twice-shown one in October once", () => {
  const at = { hour: 2, minute: 30 };
  // 29 March 2026: 02:00 -> 03:00. 03:30 CEST = 01:30 UTC.
  const march = nextBackupAt(new Date("2026-03-28T12:00:00Z"), at);
  expect(march.toISOString()).toBe("2026-03-29T01:30:00.000Z");
  // The next one after it is the following night's 02:30 CEST, not a second one that night.
  expect(nextBackupAt(march, at).toISOString()).toBe("2026-03-30T00:30:00.000Z");
  // 25 October 2026: 03:00 -> 02:00, so 02:30 is shown twice: the first (CEST, 00:30 UTC).
  const october = nextBackupAt(new Date("2026-10-24T12:00:00Z"), at);
  expect(october.toISOString()).toBe("2026-10-25T00:30:00.000Z");
  expect(nextBackupAt(october, at).toISOString()).toBe("2026-10-26T01:30:00.000Z");
});

// --- Rotation ---

/** A nightly backup's name at 02:30 Oslo on a date (winter: 01:30 UTC). */
const night = (date: string, utc = "01:30:00") => nightlyName(new Date(`${date}T${utc}Z`));

test("a nightly backup's name says when it was taken (UTC), and only those names are the schedule's", () => {
  expect(nightlyName(new Date("2026-11-26T01:30:05.123Z"))).toBe("praksis-nightly-20261126T013005Z.backup.gz");
  expect(nightlyTakenAt("praksis-nightly-20261126T013005Z.backup.gz")?.toISOString()).toBe("2026-11-26T01:30:05.000Z");
  for (const other of [
    "status.json",
    "praksis-20261126T013005Z.backup.gz",
    ".praksis-nightly-20261126T013005Z.backup.gz.partial",
    "praksis-nightly-20261126T013005Z.backup",
  ])
    expect(nightlyTakenAt(other)).toBeNull();
});

test("the ISO week in Oslo: Monday first, and week 1 holds the year's first Thursday", () => {
  expect(isoWeek(new Date("2026-11-26T12:00:00Z"))).toBe("2026-W48");
  // Sunday 29 November is still week 48, Monday 30 November week 49 (from 00:00 in Oslo: 23:00 UTC).
  expect(isoWeek(new Date("2026-11-29T22:59:00Z"))).toBe("2026-W48");
  expect(isoWeek(new Date("2026-11-29T23:00:00Z"))).toBe("2026-W49");
  // 1 January 2027 is a Friday: week 53 of 2026.
  expect(isoWeek(new Date("2027-01-01T12:00:00Z"))).toBe("2026-W53");
  expect(isoWeek(new Date("2027-01-04T12:00:00Z"))).toBe("2027-W01");
});

test("rotation keeps the newest 7 nights and, beyond them, the newest of each of 4 earlier weeks", () => {
  // Every night from 1 October to Thursday 26 November 2026.
  const names: string[] = [];
  for (
    let d = new Date("2026-10-01T12:00:00Z");
    d <= new Date("2026-11-26T12:00:00Z");
    d.setUTCDate(d.getUTCDate() + 1)
  )
    names.push(night(d.toISOString().slice(0, 10), d < new Date("2026-10-25") ? "00:30:00" : "01:30:00"));
  // Files that are not the schedule's stay, whatever their age.
  const others = [
    "status.json",
    "praksis-manual-20200101.backup",
    ".praksis-nightly-20261001T003000Z.backup.gz.partial",
  ];
  const deleted = backupsToDelete([...others, ...names].reverse(), { keepDaily: 7, keepWeekly: 4 });
  const kept = names.filter((n) => !deleted.includes(n));
  expect(kept.map((n) => nightlyTakenAt(n)!.toISOString().slice(0, 10))).toEqual([
    // Beyond them, the newest of weeks 43–46 (the Sundays 25 October, 1, 8 and 15 November); week 47's
    // Monday to Thursday are older than the dailies, but their week has daily ones (Friday to Sunday).
    "2026-10-25",
    "2026-11-01",
    "2026-11-08",
    "2026-11-15",
    // The 7 newest nights: Friday 20 November to Thursday 26 November.
    ...["20", "21", "22", "23", "24", "25", "26"].map((d) => `2026-11-${d}`),
  ]);
  expect(deleted).toHaveLength(names.length - kept.length);
  for (const other of others) expect(deleted).not.toContain(other);
});

test("rotation counts days, not files: two backups of one night (a catch-up and the nightly) keep the newer", () => {
  const names = [
    night("2026-11-26"),
    nightlyName(new Date("2026-11-26T08:05:00Z")), // a catch-up after start-up the same day
    night("2026-11-25"),
    night("2026-11-24"),
  ];
  expect(backupsToDelete(names, { keepDaily: 2, keepWeekly: 0 })).toEqual([night("2026-11-26"), night("2026-11-24")]);
  // Fewer backups than the counts: nothing goes.
  expect(backupsToDelete([night("2026-11-26")], { keepDaily: 7, keepWeekly: 4 })).toEqual([]);
  expect(backupsToDelete([], { keepDaily: 7, keepWeekly: 4 })).toEqual([]);
});

test("rotation with weekly 0 keeps the dailies only; with daily 1 the weeks before it", () => {
  const names = ["2026-11-26", "2026-11-19", "2026-11-12", "2026-11-05", "2026-10-29"].map((d) => night(d));
  expect(backupsToDelete(names, { keepDaily: 2, keepWeekly: 0 })).toEqual(names.slice(2));
  expect(backupsToDelete(names, { keepDaily: 1, keepWeekly: 2 })).toEqual(names.slice(3));
});

// --- Status ---

test("the status: none yet, a good one, a failure after it (failing), a good one after the failure", () => {
  const dir = folder();
  const now = new Date("2026-11-26T12:00:00Z");
  expect(readBackupStatus(dir)).toEqual({ lastGood: null, lastFailure: null });
  expect(backupHealth(readBackupStatus(dir), { scheduled: true, now })).toEqual({
    scheduled: true,
    lastGoodAt: null,
    ageHours: null,
    lastFailureAt: null,
    failing: false,
  });
  const good = {
    at: "2026-11-26T01:30:00.000Z",
    file: "praksis-nightly-20261126T013000Z.backup.gz",
    bytes: 10,
    seconds: 2,
  };
  writeBackupStatus(dir, { lastGood: good, lastFailure: null });
  expect(backupHealth(readBackupStatus(dir), { scheduled: true, now })).toEqual({
    scheduled: true,
    lastGoodAt: good.at,
    ageHours: 10.5,
    lastFailureAt: null,
    failing: false,
  });
  const failure = { at: "2026-11-26T11:00:00.000Z", message: "disk full" };
  writeBackupStatus(dir, { lastGood: good, lastFailure: failure });
  expect(backupHealth(readBackupStatus(dir), { scheduled: true, now })).toMatchObject({
    lastGoodAt: good.at,
    lastFailureAt: failure.at,
    failing: true,
  });
  const later = { ...good, at: "2026-11-26T11:30:00.000Z" };
  writeBackupStatus(dir, { lastGood: later, lastFailure: failure });
  expect(backupHealth(readBackupStatus(dir), { scheduled: false, now })).toMatchObject({
    scheduled: false,
    ageHours: 0.5,
    failing: false,
  });
  // A broken file reads as none.
  fs.writeFileSync(path.join(dir, STATUS_FILE), "{");
  expect(readBackupStatus(dir)).toEqual({ lastGood: null, lastFailure: null });
});

test("a failure's message keeps no password, e-mail address or quoted value", () => {
  expect(safeMessage(new Error("connect to postgres://praksis:hemmelig@db.example.org/praksis failed"))).toBe(
    "connect to postgres://…@db.example.org/praksis failed",
  );
  expect(safeMessage(new Error("duplicate key (email)=(kari.nordmann@example.org)\nDETAIL: more"))).toBe(
    "duplicate key (email)=(…)",
  );
  expect(safeMessage(new Error("no such user ola@hogskolen.no"))).toBe("no such user …@…");
  expect(safeMessage("x".repeat(500))).toHaveLength(300);
});

// --- The schedule, with the clock and the timers set ---

function fakeClock(start: string) {
  let now = new Date(start).getTime();
  const timers: { at: number; fn: () => void; id: number }[] = [];
  let ids = 0;
  return {
    now: () => new Date(now),
    setTimer: (fn: () => void, ms: number) => {
      const id = ++ids;
      timers.push({ at: now + ms, fn, id });
      return id;
    },
    clearTimer: (id: unknown) => {
      const i = timers.findIndex((t) => t.id === id);
      if (i >= 0) timers.splice(i, 1);
    },
    pending: () => timers.map((t) => new Date(t.at).toISOString()),
    /** Moves the clock to the next timer and runs it. */
    async fire() {
      timers.sort((a, b) => a.at - b.at);
      const timer = timers.shift()!;
      now = timer.at;
      timer.fn();
      await vi.waitFor(() => expect(timers.length).toBeGreaterThan(0));
    },
    advance(ms: number) {
      now += ms;
    },
  };
}

const quietLog = () => ({ info: vi.fn(), warn: vi.fn(), error: vi.fn() });

function settingsIn(dir: string, more: Partial<BackupSettings> = {}): BackupSettings {
  return { on: true, hour: 2, minute: 30, time: "02:30", keepDaily: 7, keepWeekly: 4, dir, ...more };
}

test("no backup yet: one a few minutes after start-up, then every night at 02:30; the status says each", async () => {
  const dir = folder();
  const clock = fakeClock("2026-11-26T12:00:00Z");
  const writeBackup = vi.fn(async ({ file }: { file: string }) => {
    clock.advance(3_000);
    fs.writeFileSync(file, "backup");
    return { bytes: 6 };
  });
  const log = quietLog();
  const schedule = startBackupSchedule({
    settings: settingsIn(dir),
    databaseUrl: "postgres://x/y",
    writeBackup,
    log,
    ...clock,
  });
  expect(clock.pending()).toEqual(["2026-11-26T12:05:00.000Z"]);
  await clock.fire();
  expect(writeBackup).toHaveBeenCalledTimes(1);
  expect(writeBackup.mock.calls[0][0]).toMatchObject({ databaseUrl: "postgres://x/y" });
  expect(fs.readdirSync(dir).sort()).toEqual(["praksis-nightly-20261126T120500Z.backup.gz", STATUS_FILE]);
  expect(readBackupStatus(dir)).toEqual({
    lastGood: {
      at: "2026-11-26T12:05:00.000Z",
      file: "praksis-nightly-20261126T120500Z.backup.gz",
      bytes: 6,
      seconds: 3,
    },
    lastFailure: null,
  });
  // Then tonight's.
  expect(clock.pending()).toEqual(["2026-11-27T01:30:00.000Z"]);
  await clock.fire();
  expect(writeBackup).toHaveBeenCalledTimes(2);
  expect(readBackupStatus(dir).lastGood?.at).toBe("2026-11-27T01:30:00.000Z");
  expect(clock.pending()).toEqual(["2026-11-28T01:30:00.000Z"]);
  expect(log.error).not.toHaveBeenCalled();
  await schedule.stop();
  expect(clock.pending()).toEqual([]);
});

test("a recent good backup: no catch-up, the next is tonight's; one older than a day: a catch-up", () => {
  const dir = folder();
  const good = (at: string) => ({ lastGood: { at, file: "f", bytes: 1, seconds: 1 }, lastFailure: null });
  const writeBackup = vi.fn();
  writeBackupStatus(dir, good("2026-11-26T01:30:00.000Z"));
  let clock = fakeClock("2026-11-26T12:00:00Z");
  void startBackupSchedule({
    settings: settingsIn(dir),
    databaseUrl: "u",
    writeBackup,
    log: quietLog(),
    ...clock,
  }).stop();
  expect(clock.pending()).toEqual([]);
  clock = fakeClock("2026-11-26T12:00:00Z");
  const s1 = startBackupSchedule({
    settings: settingsIn(dir),
    databaseUrl: "u",
    writeBackup,
    log: quietLog(),
    ...clock,
  });
  expect(clock.pending()).toEqual(["2026-11-27T01:30:00.000Z"]);
  void s1.stop();
  writeBackupStatus(dir, good("2026-11-25T11:59:00.000Z"));
  clock = fakeClock("2026-11-26T12:00:00Z");
  const s2 = startBackupSchedule({
    settings: settingsIn(dir),
    databaseUrl: "u",
    writeBackup,
    log: quietLog(),
    ...clock,
  });
  expect(clock.pending()).toEqual(["2026-11-26T12:05:00.000Z"]);
  void s2.stop();
  // Started at 01:28, the nightly one comes before a catch-up would: that one alone.
  clock = fakeClock("2026-11-26T01:28:00Z");
  const s3 = startBackupSchedule({
    settings: settingsIn(dir),
    databaseUrl: "u",
    writeBackup,
    log: quietLog(),
    ...clock,
  });
  expect(clock.pending()).toEqual(["2026-11-26T01:30:00.000Z"]);
  void s3.stop();
  expect(writeBackup).not.toHaveBeenCalled();
});

test("no backup yet on a database made today: none until the night; on one made earlier, a catch-up", () => {
  const writeBackup = vi.fn();
  const start = (databaseSince: Date) => {
    const clock = fakeClock("2026-11-26T12:00:00Z");
    const schedule = startBackupSchedule({
      settings: settingsIn(folder()),
      databaseUrl: "u",
      writeBackup,
      log: quietLog(),
      databaseSince,
      ...clock,
    });
    const pending = clock.pending();
    void schedule.stop();
    return pending;
  };
  // A new data folder (a fresh install, a test's or a benchmark's server): the night's backup.
  expect(start(new Date("2026-11-26T11:59:00Z"))).toEqual(["2026-11-27T01:30:00.000Z"]);
  // Data from before the schedule, never backed up: a few minutes after start-up.
  expect(start(new Date("2026-11-20T08:00:00Z"))).toEqual(["2026-11-26T12:05:00.000Z"]);
  expect(writeBackup).not.toHaveBeenCalled();
});

test("never two at once: a backup asked for while one runs is that one", async () => {
  const dir = folder();
  let finish = () => {};
  const writeBackup = vi.fn(
    ({ file }: { file: string }) =>
      new Promise<{ bytes: number }>((resolve) => {
        finish = () => {
          fs.writeFileSync(file, "b");
          resolve({ bytes: 1 });
        };
      }),
  );
  const clock = fakeClock("2026-11-26T12:00:00Z");
  const schedule = startBackupSchedule({
    settings: settingsIn(dir),
    databaseUrl: "u",
    writeBackup,
    log: quietLog(),
    ...clock,
  });
  const first = schedule.runNow();
  const second = schedule.runNow();
  expect(second).toBe(first);
  await vi.waitFor(() => expect(writeBackup).toHaveBeenCalledTimes(1));
  // While it runs, the folder holds no half backup under the schedule's name.
  expect(fs.readdirSync(dir).filter((n) => nightlyTakenAt(n))).toEqual([]);
  finish();
  expect(await first).toMatchObject({ ok: true, bytes: 1 });
  await schedule.stop();
});

test("a failed backup: logged as an error, the status keeps the last good one and says the failure, no file left", async () => {
  const dir = folder();
  const good = {
    at: "2026-11-25T01:30:00.000Z",
    file: "praksis-nightly-20261125T013000Z.backup.gz",
    bytes: 9,
    seconds: 1,
  };
  writeBackupStatus(dir, { lastGood: good, lastFailure: null });
  const writeBackup = vi.fn(async ({ file }: { file: string }) => {
    fs.writeFileSync(file, "half");
    throw new Error("could not write to the disk: no space left (kari@example.org)");
  });
  const log = quietLog();
  const clock = fakeClock("2026-11-26T01:00:00Z");
  const schedule = startBackupSchedule({ settings: settingsIn(dir), databaseUrl: "u", writeBackup, log, ...clock });
  await clock.fire();
  expect(log.error).toHaveBeenCalledWith("the nightly backup failed: could not write to the disk: no space left (…@…)");
  const status = readBackupStatus(dir);
  expect(status).toEqual({
    lastGood: good,
    lastFailure: { at: "2026-11-26T01:30:00.000Z", message: "could not write to the disk: no space left (…@…)" },
  });
  expect(backupHealth(status, { scheduled: true, now: clock.now() }).failing).toBe(true);
  expect(fs.readdirSync(dir)).toEqual([STATUS_FILE]);
  // It tries again the next night.
  expect(clock.pending()).toEqual(["2026-11-27T01:30:00.000Z"]);
  await schedule.stop();
});

test("after a good backup the rotation deletes the schedule's old files, and only those", async () => {
  const dir = folder();
  const old = [
    "2026-11-18",
    "2026-11-19",
    "2026-11-20",
    "2026-11-21",
    "2026-11-22",
    "2026-11-23",
    "2026-11-24",
    "2026-11-25",
  ];
  for (const d of old) fs.writeFileSync(path.join(dir, night(d)), "b");
  fs.writeFileSync(path.join(dir, "praksis-20261101T120000Z.backup.gz"), "mine");
  writeBackupStatus(dir, {
    lastGood: { at: "2026-11-25T01:30:00.000Z", file: night("2026-11-25"), bytes: 1, seconds: 1 },
    lastFailure: null,
  });
  const clock = fakeClock("2026-11-26T01:00:00Z");
  const writeBackup = async ({ file }: { file: string }) => {
    fs.writeFileSync(file, "b");
    return { bytes: 1 };
  };
  const schedule = startBackupSchedule({
    settings: settingsIn(dir, { keepDaily: 3, keepWeekly: 1 }),
    databaseUrl: "u",
    writeBackup,
    log: quietLog(),
    ...clock,
  });
  await clock.fire();
  expect(fs.readdirSync(dir).sort()).toEqual(
    [
      "praksis-20261101T120000Z.backup.gz",
      // The week before (47, 16–22 November): its newest, Sunday the 22nd.
      night("2026-11-22"),
      night("2026-11-24"),
      night("2026-11-25"),
      night("2026-11-26"),
      STATUS_FILE,
    ].sort(),
  );
  await schedule.stop();
});
