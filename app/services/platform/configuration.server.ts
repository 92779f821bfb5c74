import { checkMailTransport, mailTransportSummary } from "./email.server";
import { env } from "./env.server";
import { checkInstitutionForUse, currentInstitution, institutionSource } from "./institution.server";

/**
 * What start-up checks beyond the variables themselves: outside demo mode, the institution must be
 * the operator's own (no example value) and mail must go through SMTP unless a trial chose
 * MAIL_TRANSPORT=log. Each throws an EnvError whose message names what to change.
 */
export function checkConfiguration(): void {
  currentInstitution();
  checkInstitutionForUse();
  checkMailTransport();
}

/** Where the database is: its kind, host and port (or socket folder) and name; never the user or password. */
export function databaseSummary(url: string | undefined, embedded: boolean): string {
  const kind = embedded ? "embedded" : "external";
  if (!url) return kind;
  try {
    const parsed = new URL(url);
    const socket = parsed.searchParams.get("host");
    const where = socket ? `socket ${socket}` : `${parsed.hostname}:${parsed.port || "5432"}`;
    return `${kind} ${where}, database ${decodeURIComponent(parsed.pathname.replace(/^\//, ""))}`;
  } catch {
    return kind;
  }
}

/**
 * The configuration in effect, for one start-up line: the institution (its id and where it comes
 * from), APP_URL, how mail goes, the database, demo mode, the reminder interval and NODE_ENV. No
 * secret: no password, user or session secret, nothing of SMTP_URL but its host and port.
 */
export function configurationSummary(): { message: string; settings: Record<string, string | number | boolean> } {
  const config = env();
  const source = institutionSource();
  const settings = {
    institution: currentInstitution().id,
    institutionFrom: source.kind === "file" ? source.file : `example ${source.id}`,
    appUrl: config.APP_URL ?? "(not set)",
    mail: mailTransportSummary(),
    database: databaseSummary(config.DATABASE_URL, config.embedded),
    demoMode: config.demoMode,
    remindersEveryMinutes: config.REMINDERS_INTERVAL_MINUTES,
    nodeEnv: config.NODE_ENV,
  };
  const message =
    `in effect: institution ${settings.institution} (${source.kind === "file" ? `INSTITUTION_FILE ${source.file}` : `the example ${source.id}`}), ` +
    `APP_URL ${settings.appUrl}, mail ${settings.mail}, database ${settings.database}, demo mode ${config.demoMode ? "on" : "off"}, ` +
    `reminders ${config.REMINDERS_INTERVAL_MINUTES === 0 ? "off (cron)" : `every ${config.REMINDERS_INTERVAL_MINUTES} min`}, NODE_ENV ${config.NODE_ENV}`;
  return { message, settings };
}
