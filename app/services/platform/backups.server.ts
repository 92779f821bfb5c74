import { backupHealth, osloParts, readBackupStatus } from "../../../scripts/backup-schedule.mjs";
import { env } from "./env.server";

/**
 * The nightly backups of the embedded database (taken by server.mjs's primary process, which writes
 * their status file: README, "Nightly backups") as /healthz and the admin's start page read them.
 */
export function backupHealthNow(now = new Date()) {
  const config = env();
  return backupHealth(readBackupStatus(config.BACKUP_DIR), { scheduled: config.BACKUPS_SCHEDULED, now });
}

/** Hours after which the last good backup is too old: a night's backup missed, and some slack. */
export const BACKUP_TOO_OLD_HOURS = 26;

/** When something happened, as the page says it: "i natt", "i dag", "i går" or a date, with the time (Europe/Oslo). */
export interface When {
  kind: "lastNight" | "today" | "yesterday" | "date";
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

export type BackupState = "ok" | "failing" | "none" | "old" | "off" | "external";

/**
 * The backups as the admin's start page shows them: all well, or a warning when the latest attempt
 * failed, none has been taken, or the last good one is older than BACKUP_TOO_OLD_HOURS; switched
 * off, or (with DATABASE_URL) the institution's own server, which is backed up there.
 */
export function backupsForAdmin(now = new Date()): {
  state: BackupState;
  lastGood: When | null;
  lastFailure: When | null;
  ageHours: number | null;
} {
  const health = backupHealthNow(now);
  const today = osloParts(now);
  const dayNumber = (p: { year: number; month: number; day: number }) =>
    Date.UTC(p.year, p.month - 1, p.day) / 86_400_000;
  const when = (iso: string | null): When | null => {
    if (iso === null) return null;
    const p = osloParts(new Date(iso));
    const daysAgo = dayNumber(today) - dayNumber(p);
    const kind = daysAgo === 0 ? (p.hour < 6 ? "lastNight" : "today") : daysAgo === 1 ? "yesterday" : "date";
    return { kind, year: p.year, month: p.month, day: p.day, hour: p.hour, minute: p.minute };
  };
  const state: BackupState = !health.scheduled
    ? env().embedded
      ? "off"
      : "external"
    : health.failing
      ? "failing"
      : health.lastGoodAt === null
        ? "none"
        : (health.ageHours ?? 0) > BACKUP_TOO_OLD_HOURS
          ? "old"
          : "ok";
  return {
    state,
    lastGood: when(health.lastGoodAt),
    lastFailure: when(health.lastFailureAt),
    ageHours: health.ageHours,
  };
}
