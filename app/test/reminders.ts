import { sql } from "drizzle-orm";
import type { Db } from "~/services/platform/db/client.server";
import { answerSets, classes, reminders, signingForms, userPreferences, warnings } from "~/services/platform/db/schema";
import type { ReminderInstitution } from "~/services/reminders/index.server";

/** The moment, institution and address the reminder tests run at (the demo's classes, dates far ahead). */
export const REMINDER_NOW = new Date("2026-10-01T08:00:00Z");
export const REMINDER_INSTITUTION: ReminderInstitution = {
  id: "fjordbyen",
  appName: { nb: "Praksis Fjordbyen", en: "Praksis Fjordbyen" },
  institutionName: { nb: "Fjordbyen høgskole", en: "Fjordbyen University College" },
};
export const REMINDER_ORIGIN = "https://praksis.example.org";

/**
 * Before each reminder test: no reminder taken yet, nothing answered, warned or signed, no one's
 * preferences or the institution's day counts changed, and every class's dates far from now (so a
 * test moves only the dates it is about).
 */
export async function clearReminderState(db: Db): Promise<void> {
  await db.delete(reminders);
  await db.delete(answerSets);
  await db.delete(warnings);
  await db.delete(signingForms);
  await db.delete(userPreferences);
  await db.execute(sql`delete from reminder_settings`);
  await db.update(classes).set({ midSemesterDate: "2030-01-10", endSemesterDate: "2030-02-10" });
}
