// The reminders domain's public surface for any code, the browser's included (no server-only module).
export {
  DEFAULT_REMINDER_DAYS,
  REMINDER_DAY_FIELDS,
  REMINDER_DAY_LIMITS,
  REMINDER_KINDS,
  REMINDER_STATUSES,
  isReminderKind,
  parseReminderDays,
} from "./reminders";
export type { ReminderDayField, ReminderDays, ReminderKind, ReminderStatus } from "./reminders";
