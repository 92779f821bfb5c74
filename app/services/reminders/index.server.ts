// The reminders domain's public surface for server code: loaders, actions, the app's entry, scripts.
export {
  REMINDER_LOG_PAGE_SIZE,
  reminderDaysOf,
  reminderInstitution,
  reminderLog,
  reminderPreferencesOf,
  runReminders,
  saveLanguagePreference,
  saveReminderDays,
  saveReminderPreferences,
} from "./reminders.server";
export type {
  ReminderInstitution,
  ReminderLogRow,
  ReminderPreferences,
  RunOptions,
  RunSummary,
} from "./reminders.server";
export { scheduleReminders } from "./schedule.server";
export type { Schedule } from "./schedule.server";
