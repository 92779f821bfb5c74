// The nightly backup of the embedded PostgreSQL (README, "Backups"). It runs in server.mjs's primary
// process, which owns the embedded server: there is one primary per data folder (PostgreSQL itself
// refuses a second server on it), so there is one backup a night however many app processes serve.
// With DATABASE_URL (a PostgreSQL of the institution's own) there is no schedule: that server is
// backed up by the people who run it (`npm run backup` works against it as well).
//
// What it does: a backup at BACKUP_TIME (Europe/Oslo) every night into BACKUP_DIR; one a few
// minutes after start-up when the last good one is older than a day (the machine was off at
// night); never two at once; then the rotation (the newest BACKUP_KEEP_DAILY days and, beyond them,
// the newest of each of BACKUP_KEEP_WEEKLY ISO weeks; only files this schedule wrote are touched);
// and a small status file (the last good backup, the last failure) that /healthz and the admin's
// start page read. A failure is logged as an error.
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

/** The schedule's wall clock: the app's time zone (the semesters' too). */
export const BACKUP_TIME_ZONE = "Europe/Oslo";
/** The status file in the backups folder. */
export const STATUS_FILE = "status.json";
/**
 * The schedule's own files: `praksis-nightly-20261126T013000Z.backup.gz` (the instant, UTC), beside
 * `npm run backup`'s `praksis-20261126T…Z.backup.gz`, which the rotation leaves alone.
 */
export const NIGHTLY_PREFIX = "praksis-nightly-";
export const NIGHTLY_SUFFIX = ".backup.gz";
const NIGHTLY_NAME = /^praksis-nightly-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z\.backup\.gz$/;
/**
 * A backup is due at start-up when the last good one is older than this; with none, when the
 * database is (a night has passed without one: data from before the schedule, or a machine that
 * was off). A database made just now waits for the night, so a short-lived server (a test, a
 * benchmark) never backs up in the middle of its work.
 */
export const CATCH_UP_AFTER_MS = 24 * 60 * 60 * 1000;
/** How long after start-up a missed backup is taken (the app processes start and settle first). */
export const CATCH_UP_DELAY_MS = 5 * 60 * 1000;

const count = (name, min, max) =>
  z
    .union([z.literal(""), z.string().regex(/^\s*\d+\s*$/, `must be a whole number, ${min}–${max}`)])
    .optional()
    .transform((value) => (value ? Number(value) : undefined))
    .refine((value) => value === undefined || (value >= min && value <= max), `must be a whole number, ${min}–${max}`)
    .describe(name);

/** The variables, as the app's own check (env.server.ts) reads them too. */
export const backupVariables = {
  // `off` switches the nightly backup off (`on`, or unset: on for the embedded database).
  BACKUPS: z.enum(["on", "off", ""], { error: "must be on or off" }).optional(),
  // The time of the nightly backup, HH:MM in Europe/Oslo.
  BACKUP_TIME: z
    .string()
    .regex(/^(?:|([01]\d|2[0-3]):[0-5]\d)$/, "must be a time of day, HH:MM (24-hour clock, Europe/Oslo)")
    .optional(),
  // How many daily backups to keep (1–366), and weekly ones beyond them (0–520).
  BACKUP_KEEP_DAILY: count("BACKUP_KEEP_DAILY", 1, 366),
  BACKUP_KEEP_WEEKLY: count("BACKUP_KEEP_WEEKLY", 0, 520),
  // The folder; default DATA_DIR/backups.
  BACKUP_DIR: z.string().optional(),
};

const settingsSchema = z.object(backupVariables);

export class BackupSettingsError extends Error {
  name = "BackupSettingsError";
}

/**
 * The schedule's settings from the environment, with their defaults; a wrong value throws, naming
 * the variable (as the app's check of its settings does).
 */
export function backupSettings(env = process.env, { dataDir = env.DATA_DIR || "data" } = {}) {
  const result = settingsSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new BackupSettingsError(`Invalid configuration (environment variables):\n${lines.join("\n")}`);
  }
  const vars = result.data;
  const [hour, minute] = (vars.BACKUP_TIME || "02:30").split(":").map(Number);
  return {
    on: vars.BACKUPS !== "off",
    hour,
    minute,
    time: `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`,
    keepDaily: vars.BACKUP_KEEP_DAILY ?? 7,
    keepWeekly: vars.BACKUP_KEEP_WEEKLY ?? 4,
    dir: path.resolve(vars.BACKUP_DIR || path.join(dataDir, "backups")),
  };
}

/**
 * Whether the primary schedules the nightly backup, and the line it logs when it does not: only for
 * the embedded database (a PostgreSQL of the institution's own, DATABASE_URL, is backed up by those
 * who run it), and not when switched off.
 * @param {{ on: boolean }} settings
 * @param {{ embedded: boolean }} database
 * @returns {{ scheduled: boolean, why: string | null }}
 */
export function backupPlan(settings, { embedded }) {
  if (!settings.on) return { scheduled: false, why: "nightly backups switched off (BACKUPS=off)" };
  if (!embedded)
    return {
      scheduled: false,
      why: "no nightly backup with DATABASE_URL: that PostgreSQL is backed up by those who run it (`npm run backup` works against it too)",
    };
  return { scheduled: true, why: null };
}

// --- Time in Europe/Oslo -------------------------------------------------------------------------

const wallClock = new Intl.DateTimeFormat("en-GB", {
  timeZone: BACKUP_TIME_ZONE,
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

/** The wall clock in Europe/Oslo at an instant: { year, month (1–12), day, hour, minute, second }. */
export function osloParts(date) {
  const parts = Object.fromEntries(wallClock.formatToParts(date).map((p) => [p.type, p.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** Europe/Oslo's offset from UTC at an instant, in ms (+1 h in winter, +2 h in summer). */
function osloOffset(ms) {
  const p = osloParts(new Date(ms));
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wall - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant the wall clock in Europe/Oslo shows the given date and time. A time the clocks skip
 * (02:30 on the last Sunday of March) is taken an hour later; one they show twice (the last Sunday
 * of October), the first time.
 */
export function osloInstant(year, month, day, hour, minute) {
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  // The offset before the wall time, then the one at the first guess: the earlier of the two
  // candidates that shows the wall time wins (the first of a repeated hour).
  const candidates = [wall - osloOffset(wall - 3 * 3600_000), wall - osloOffset(wall + 3 * 3600_000)].sort(
    (a, b) => a - b,
  );
  for (const at of candidates) {
    const p = osloParts(new Date(at));
    if (p.hour === hour && p.minute === minute && p.day === day) return new Date(at);
  }
  // Skipped (spring forward): the offset before the change, which reads an hour later.
  return new Date(candidates[1]);
}

/** The next time the nightly backup is due, strictly after `now`. */
export function nextBackupAt(now, { hour, minute }) {
  const today = osloParts(now);
  for (let days = 0; days <= 2; days++) {
    const date = new Date(Date.UTC(today.year, today.month - 1, today.day + days));
    const at = osloInstant(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), hour, minute);
    if (at.getTime() > now.getTime()) return at;
  }
  throw new Error("no next backup time"); // unreachable: tomorrow's time is always after now
}

/** The date in Europe/Oslo as `YYYY-MM-DD`. */
export function osloDate(date) {
  const p = osloParts(date);
  return `${p.year}-${String(p.month).padStart(2, "0")}-${String(p.day).padStart(2, "0")}`;
}

/** The ISO week (Monday first, the week of the year's first Thursday is week 1) in Europe/Oslo: `2026-W48`. */
export function isoWeek(date) {
  const p = osloParts(date);
  const day = new Date(Date.UTC(p.year, p.month - 1, p.day));
  const weekday = day.getUTCDay() || 7;
  day.setUTCDate(day.getUTCDate() + 4 - weekday); // the week's Thursday decides its year
  const yearStart = Date.UTC(day.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((day.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${day.getUTCFullYear()}-W${String(week).padStart(2, "0")}`;
}

// --- The schedule's files and their rotation ------------------------------------------------------

/** The file name of a nightly backup taken at `at`. */
export function nightlyName(at) {
  const iso = at.toISOString(); // 2026-11-26T01:30:00.000Z
  return `${NIGHTLY_PREFIX}${iso.slice(0, 10).replaceAll("-", "")}T${iso.slice(11, 19).replaceAll(":", "")}Z${NIGHTLY_SUFFIX}`;
}

/** When a nightly backup was taken, from its name; null for any other file. */
export function nightlyTakenAt(name) {
  const m = NIGHTLY_NAME.exec(name);
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m.map(Number);
  return new Date(Date.UTC(y, mo - 1, d, h, mi, s));
}

/**
 * Which of the schedule's files to delete. Kept: the newest backup of each of the `keepDaily`
 * latest days that have one, and beyond them (older than the oldest of those), the newest backup of
 * each of the `keepWeekly` latest ISO weeks that have one and none of the daily ones. Days and weeks
 * are Europe/Oslo's. Names that are not the schedule's are left alone (never in the answer).
 */
export function backupsToDelete(names, { keepDaily, keepWeekly }) {
  const backups = names
    .map((name) => ({ name, at: nightlyTakenAt(name) }))
    .filter((b) => b.at !== null)
    .sort((a, b) => b.at.getTime() - a.at.getTime() || (a.name < b.name ? 1 : -1));
  const kept = new Set();
  const days = new Set();
  const weeksOfDaily = new Set();
  let oldestDaily = Infinity;
  for (const b of backups) {
    if (days.size >= keepDaily) break;
    const day = osloDate(b.at);
    if (days.has(day)) continue;
    days.add(day);
    weeksOfDaily.add(isoWeek(b.at));
    kept.add(b.name);
    oldestDaily = b.at.getTime();
  }
  const weeks = new Set();
  for (const b of backups) {
    if (weeks.size >= keepWeekly) break;
    if (b.at.getTime() >= oldestDaily) continue;
    const week = isoWeek(b.at);
    if (weeksOfDaily.has(week) || weeks.has(week)) continue;
    weeks.add(week);
    kept.add(b.name);
  }
  return backups.filter((b) => !kept.has(b.name)).map((b) => b.name);
}

// --- The status file ------------------------------------------------------------------------------

/** The status file's contents; an empty status when there is none (or it cannot be read). */
export function readBackupStatus(dir) {
  try {
    const status = JSON.parse(fs.readFileSync(path.join(dir, STATUS_FILE), "utf8"));
    return {
      lastGood: status?.lastGood ?? null,
      lastFailure: status?.lastFailure ?? null,
    };
  } catch {
    return { lastGood: null, lastFailure: null };
  }
}

/** Writes the status file whole (a new file renamed over the old, so a reader never sees half). */
export function writeBackupStatus(dir, status, { owner } = {}) {
  const file = path.join(dir, STATUS_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(status, null, 2)}\n`, { mode: 0o640 });
  if (owner) fs.chownSync(temporary, owner.uid, owner.gid);
  fs.renameSync(temporary, file);
}

/**
 * What /healthz and the admin's start page say of the backups: whether the schedule runs, when the
 * last good one was taken and how many hours ago, the last failure, and whether the latest attempt
 * failed. Nothing secret: no path, no file name, no message.
 */
export function backupHealth(status, { scheduled, now = new Date() }) {
  const lastGoodAt = status.lastGood?.at ?? null;
  const lastFailureAt = status.lastFailure?.at ?? null;
  const ageHours =
    lastGoodAt === null
      ? null
      : Math.max(0, Math.round(((now.getTime() - Date.parse(lastGoodAt)) / 3600_000) * 10) / 10);
  const failing = lastFailureAt !== null && (lastGoodAt === null || Date.parse(lastFailureAt) > Date.parse(lastGoodAt));
  return { scheduled, lastGoodAt, ageHours, lastFailureAt, failing };
}

/**
 * An error's message fit for the status file and the log: its first line, without a connection
 * string's user and password, an e-mail address or a value PostgreSQL quotes in a DETAIL, and not
 * longer than 300 characters.
 */
export function safeMessage(error) {
  const text = error instanceof Error ? error.message : String(error);
  return (
    text
      .split("\n")[0]
      .replace(/\b(postgres(?:ql)?:\/\/)[^\s@/]*@/gi, "$1…@")
      .replace(/[^\s@<>()"'/:…]+@[^\s@<>()"'/]+\.[a-z]{2,}/gi, "…@…")
      .replace(/\(([^()]*)\)=\(([^()]*)\)/g, "($1)=(…)")
      .slice(0, 300) || "unknown error"
  );
}

// --- The schedule -------------------------------------------------------------------------------

/**
 * Starts the nightly backup. `writeBackup({ databaseUrl, file, log })` takes one backup into `file`
 * (the engine, scripts/backup/); `databaseSince`: when the database was made (null: unknown, taken
 * as old); `now` and the timers are the clock (tests move them). Returns
 * `runNow()` (one backup now, unless one runs: then that one's promise), `nextAt()` and `stop()`
 * (no more backups; waits for one under way).
 */
export function startBackupSchedule({
  settings,
  databaseUrl,
  writeBackup,
  log,
  owner = null,
  now = () => new Date(),
  setTimer = setTimeout,
  clearTimer = clearTimeout,
  catchUpDelayMs = CATCH_UP_DELAY_MS,
  databaseSince = null,
}) {
  fs.mkdirSync(settings.dir, { recursive: true, mode: 0o700 });
  if (owner) fs.chownSync(settings.dir, owner.uid, owner.gid);
  let running = null;
  let timer = null;
  let stopped = false;
  let next = null;

  const rotate = () => {
    const names = fs.readdirSync(settings.dir);
    for (const name of backupsToDelete(names, settings)) {
      fs.rmSync(path.join(settings.dir, name), { force: true });
      log.info(`backup ${name} deleted (rotation: ${settings.keepDaily} daily, ${settings.keepWeekly} weekly)`);
    }
  };

  const once = async () => {
    const began = now();
    const name = nightlyName(began);
    const file = path.join(settings.dir, name);
    // Written under another name and renamed when whole, so the folder holds only complete backups.
    const partial = path.join(settings.dir, `.${name}.partial`);
    const status = readBackupStatus(settings.dir);
    try {
      const result = await writeBackup({ databaseUrl, file: partial, log });
      if (owner) fs.chownSync(partial, owner.uid, owner.gid);
      fs.renameSync(partial, file);
      const seconds = Math.round((now().getTime() - began.getTime()) / 100) / 10;
      const bytes = result?.bytes ?? fs.statSync(file).size;
      status.lastGood = { at: began.toISOString(), file: name, bytes, seconds };
      writeBackupStatus(settings.dir, status, { owner });
      log.info(`nightly backup ${name}: ${bytes} bytes in ${seconds} s`);
      try {
        rotate();
      } catch (error) {
        log.error(`the rotation of the backups in ${settings.dir} failed: ${safeMessage(error)}`);
      }
      return { ok: true, file, bytes, seconds };
    } catch (error) {
      fs.rmSync(partial, { force: true });
      const message = safeMessage(error);
      status.lastFailure = { at: now().toISOString(), message };
      try {
        writeBackupStatus(settings.dir, status, { owner });
      } catch (statusError) {
        log.error(`the backup status in ${settings.dir} could not be written: ${safeMessage(statusError)}`);
      }
      log.error(`the nightly backup failed: ${message}`);
      return { ok: false, message };
    }
  };

  /** One backup now; never two at once (a call while one runs gets that one's outcome). */
  const runNow = () => {
    running ??= once().finally(() => {
      running = null;
    });
    return running;
  };

  const plan = (at) => {
    if (stopped) return;
    clearTimer(timer);
    next = at;
    // A timer waits at most 24.8 days; a night is well within that.
    timer = setTimer(
      async () => {
        timer = null;
        await runNow();
        plan(nextBackupAt(now(), settings));
      },
      Math.max(0, at.getTime() - now().getTime()),
    );
  };

  // Missed while the machine was off (or never taken): one a few minutes after start-up, unless the
  // nightly one comes sooner.
  const { lastGood } = readBackupStatus(settings.dir);
  const nightly = nextBackupAt(now(), settings);
  const catchUp = new Date(now().getTime() + catchUpDelayMs);
  const since = lastGood ? Date.parse(lastGood.at) : (databaseSince?.getTime() ?? -Infinity);
  const due = now().getTime() - since > CATCH_UP_AFTER_MS;
  plan(due && catchUp < nightly ? catchUp : nightly);
  log.info(
    `nightly backups at ${settings.time} (${BACKUP_TIME_ZONE}) into ${settings.dir}, keeping ${settings.keepDaily} daily and ${settings.keepWeekly} weekly; next ${due && catchUp < nightly ? "in a few minutes (the last good one is older than a day, or there is none on a database older than a day)" : next.toISOString()}`,
  );

  return {
    runNow,
    nextAt: () => next,
    async stop() {
      stopped = true;
      clearTimer(timer);
      timer = null;
      if (running) await running;
    },
  };
}
