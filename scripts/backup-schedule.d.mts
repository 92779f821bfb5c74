// Types for backup-schedule.mjs (the nightly backup of the embedded PostgreSQL, in server.mjs's primary).
import type { ZodType } from "zod";

export declare const BACKUP_TIME_ZONE: string;
export declare const STATUS_FILE: string;
export declare const NIGHTLY_PREFIX: string;
export declare const NIGHTLY_SUFFIX: string;
export declare const CATCH_UP_AFTER_MS: number;
export declare const CATCH_UP_DELAY_MS: number;

export declare const backupVariables: {
  BACKUPS: ZodType<"on" | "off" | "" | undefined, "on" | "off" | "" | undefined>;
  BACKUP_TIME: ZodType<string | undefined, string | undefined>;
  BACKUP_KEEP_DAILY: ZodType<number | undefined, string | undefined>;
  BACKUP_KEEP_WEEKLY: ZodType<number | undefined, string | undefined>;
  BACKUP_DIR: ZodType<string | undefined, string | undefined>;
};

export interface BackupSettings {
  on: boolean;
  hour: number;
  minute: number;
  time: string;
  keepDaily: number;
  keepWeekly: number;
  dir: string;
}

export declare class BackupSettingsError extends Error {}

export declare function backupSettings(
  env?: Record<string, string | undefined>,
  options?: { dataDir?: string },
): BackupSettings;

export declare function backupPlan(
  settings: { on: boolean },
  database: { embedded: boolean },
): { scheduled: boolean; why: string | null };

export interface OsloParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}
export declare function osloParts(date: Date): OsloParts;
export declare function osloInstant(year: number, month: number, day: number, hour: number, minute: number): Date;
export declare function nextBackupAt(now: Date, time: { hour: number; minute: number }): Date;
export declare function osloDate(date: Date): string;
export declare function isoWeek(date: Date): string;

export declare function nightlyName(at: Date): string;
export declare function nightlyTakenAt(name: string): Date | null;
export declare function backupsToDelete(names: string[], keep: { keepDaily: number; keepWeekly: number }): string[];

export interface BackupStatus {
  lastGood: { at: string; file: string; bytes: number; seconds: number } | null;
  lastFailure: { at: string; message: string } | null;
}
export declare function readBackupStatus(dir: string): BackupStatus;
export declare function writeBackupStatus(
  dir: string,
  status: BackupStatus,
  options?: { owner?: { uid: number; gid: number } | null },
): void;

export interface BackupHealth {
  scheduled: boolean;
  lastGoodAt: string | null;
  ageHours: number | null;
  lastFailureAt: string | null;
  failing: boolean;
}
export declare function backupHealth(status: BackupStatus, options: { scheduled: boolean; now?: Date }): BackupHealth;
export declare function safeMessage(error: unknown): string;

export interface BackupSchedule {
  runNow(): Promise<{ ok: true; file: string; bytes: number; seconds: number } | { ok: false; message: string }>;
  nextAt(): Date | null;
  stop(): Promise<void>;
}

export declare function startBackupSchedule(options: {
  settings: BackupSettings;
  databaseUrl: string;
  writeBackup: (options: {
    databaseUrl: string;
    file: string;
    log?: Pick<Console, "info" | "warn" | "error">;
  }) => Promise<{ bytes?: number }>;
  log: Pick<Console, "info" | "warn" | "error">;
  owner?: { uid: number; gid: number } | null;
  now?: () => Date;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
  catchUpDelayMs?: number;
  databaseSince?: Date | null;
}): BackupSchedule;
