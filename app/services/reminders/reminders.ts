import { ROLE, type RoleId } from "~/services/identity";

/**
 * The reminders' rules, free of the database (docs/rules/reminders.md): the kinds, who may switch which off, the
 * day counts an admin sets, when a deadline or a signing form is due a reminder, and the back-off of
 * a mail that could not be sent. The service (reminders.server.ts) finds the occasions and sends.
 */

/**
 * deadline: a student or supervisor whose part of a form is not sent, N days before the deadline;
 * digest: a teacher, their students who are behind once the deadline has passed;
 * warning: a supervisor, when a student they follow is given a warning;
 * signing: each party a signing form waits for, and again every N days;
 * admin: the administrators, in the semester's last weeks, classes without schemes or end dates.
 */
export const REMINDER_KINDS = ["deadline", "digest", "warning", "signing", "admin"] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];

export function isReminderKind(value: unknown): value is ReminderKind {
  return typeof value === "string" && (REMINDER_KINDS as readonly string[]).includes(value);
}

/** The kinds someone with these roles can receive, in the order Settings lists them. */
export function kindsForRoles(roleIds: readonly number[]): ReminderKind[] {
  const has = (role: RoleId) => roleIds.includes(role);
  return REMINDER_KINDS.filter((kind) => {
    switch (kind) {
      case "deadline":
        return has(ROLE.Student) || has(ROLE.Supervisor);
      case "digest":
        return has(ROLE.Teacher);
      case "warning":
        return has(ROLE.Supervisor);
      case "signing":
        return has(ROLE.Student) || has(ROLE.Supervisor) || has(ROLE.Teacher);
      case "admin":
        return has(ROLE.Admin);
    }
  });
}

/** The opt-outs after a post of the Settings form: the shown kinds not ticked are off; others are kept. */
export function optOutsAfter(
  previous: readonly string[],
  shown: readonly ReminderKind[],
  ticked: readonly string[],
): ReminderKind[] {
  const kept = previous.filter((k): k is ReminderKind => isReminderKind(k) && !shown.includes(k));
  const off = shown.filter((k) => !ticked.includes(k));
  return REMINDER_KINDS.filter((k) => kept.includes(k) || off.includes(k));
}

// ─── Day counts ──────────────────────────────────────────────────────────────

export interface ReminderDays {
  /** Days before the mid-semester date that students and supervisors are reminded. */
  midDaysBefore: number;
  /** Days before the end-semester date. */
  endDaysBefore: number;
  /** A signing form waiting for someone reminds them again after this many days. */
  signingRepeatDays: number;
  /** The administrators hear of classes without schemes or end dates this many weeks before the semester ends. */
  adminWeeksBefore: number;
}

export const DEFAULT_REMINDER_DAYS: ReminderDays = {
  midDaysBefore: 7,
  endDaysBefore: 2,
  signingRepeatDays: 7,
  adminWeeksBefore: 4,
};

export const REMINDER_DAY_FIELDS = ["midDaysBefore", "endDaysBefore", "signingRepeatDays", "adminWeeksBefore"] as const;
export type ReminderDayField = (typeof REMINDER_DAY_FIELDS)[number];

/** Each count's allowed range (a repeat of 0 days would remind every run). */
export const REMINDER_DAY_LIMITS: Record<ReminderDayField, { min: number; max: number }> = {
  midDaysBefore: { min: 0, max: 60 },
  endDaysBefore: { min: 0, max: 60 },
  signingRepeatDays: { min: 1, max: 60 },
  adminWeeksBefore: { min: 0, max: 12 },
};

/** The posted counts, or which fields are wrong (whole numbers in their range; nothing else). */
export function parseReminderDays(
  input: Record<ReminderDayField, unknown>,
): { ok: true; days: ReminderDays } | { ok: false; errors: Partial<Record<ReminderDayField, "range">> } {
  const errors: Partial<Record<ReminderDayField, "range">> = {};
  const days = { ...DEFAULT_REMINDER_DAYS };
  for (const field of REMINDER_DAY_FIELDS) {
    const raw = typeof input[field] === "string" ? input[field].trim() : "";
    const { min, max } = REMINDER_DAY_LIMITS[field];
    if (!/^\d{1,3}$/.test(raw) || Number(raw) < min || Number(raw) > max) errors[field] = "range";
    else days[field] = Number(raw);
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, days };
}

// ─── Calendar ────────────────────────────────────────────────────────────────

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whole days from one yyyy-mm-dd to another (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

export function addDays(isoDate: string, days: number): string {
  return new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** After the deadline, teachers get their digest for this many days (a scheduler that was off catches up; older ones are history). */
export const DIGEST_WINDOW_DAYS = 7;

/**
 * Where `today` stands to a deadline: "remind" from `daysBefore` days before it up to and including
 * the day itself (students and supervisors), "digest" in the days after it (the teacher), else null.
 */
export function deadlinePhase(deadline: string, daysBefore: number, today: string): "remind" | "digest" | null {
  const left = daysBetween(today, deadline);
  if (left >= 0 && left <= daysBefore) return "remind";
  if (left < 0 && -left <= DIGEST_WINDOW_DAYS) return "digest";
  return null;
}

/** A signing form reminds a party at most this many times (the first notice and two repeats). */
export const SIGNING_ROUNDS = 3;

/** Which reminder round a party waiting since `since` is in: 0 at once, 1 after N days, … */
export function signingRound(since: string, today: string, repeatDays: number): number {
  const waited = Math.max(0, daysBetween(since, today));
  return Math.min(SIGNING_ROUNDS - 1, Math.floor(waited / Math.max(1, repeatDays)));
}

/** A given warning is told to its supervisors for this many days (not for warnings older than the feature). */
export const WARNING_WINDOW_DAYS = 14;

// ─── Sending ─────────────────────────────────────────────────────────────────

/** Tries in all before a reminder is given up (about a day with the back-off below). */
export const MAX_ATTEMPTS = 8;
const FIRST_RETRY_MS = 5 * 60 * 1000;
const LONGEST_RETRY_MS = 6 * 60 * 60 * 1000;
/** A reminder taken for sending this long ago whose process never said how it went (it died) is tried again. */
export const SENDING_LEASE_MS = 10 * 60 * 1000;

/** When a reminder that failed for the `attempts`th time is tried again; null: given up. */
export function nextAttemptAt(attempts: number, now: Date): Date | null {
  if (attempts >= MAX_ATTEMPTS) return null;
  const delay = Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
  return new Date(now.getTime() + delay);
}

export type ReminderStatus = "sending" | "sent" | "failed" | "dropped";
export const REMINDER_STATUSES: readonly ReminderStatus[] = ["sending", "sent", "failed", "dropped"];

/** The interval the app runs the scheduler on, from REMINDERS_INTERVAL_MINUTES (0: off). */
export function intervalMs(minutes: number): number | null {
  return minutes > 0 ? minutes * 60 * 1000 : null;
}
