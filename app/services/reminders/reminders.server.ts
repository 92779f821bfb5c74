import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import i18next, { type TFunction } from "i18next";
import resources, { DEFAULT_LANGUAGE, type Language } from "~/locales";
import { audit } from "~/services/platform/audit.server";
import type { Db } from "~/services/platform/db/client.server";
import { reminderSettings, reminders, userPreferences, userRoles, users } from "~/services/platform/db/schema";
import { sendMail, type Mail, type MailDelivery } from "~/services/platform/email.server";
import { env } from "~/services/platform/env.server";
import type { Institution } from "~/services/platform/institution.server";
import { osloDate } from "~/services/platform/semesters";
import { renderReminder } from "./mail";
import { dueOccasions, recipientsOf, type Occasion } from "./occasions.server";
import {
  DEFAULT_REMINDER_DAYS,
  isReminderKind,
  kindsForRoles,
  nextAttemptAt,
  optOutsAfter,
  SENDING_LEASE_MS,
  type ReminderDays,
  type ReminderKind,
  type ReminderStatus,
} from "./reminders";

/**
 * Sending reminders exactly once (docs/rules/reminders.md; ADR 0015). A run finds the occasions due (occasions.server.ts),
 * leaves out recipients who are inactive or switched the kind off, and takes each one by inserting
 * its record: `insert … on conflict do nothing returning`. The unique key (kind, recipient,
 * occasion key) lets one insert win, whichever process or instance makes it, now or after a
 * restart: only the process whose insert returned the row sends it. It is marked sent only when
 * SMTP accepted it; a failure is marked failed with the attempt count and the time of the next try
 * (back-off), and a later run takes it again (`for update skip locked`, so again only one process).
 * A process that dies between taking and marking leaves the record "sending"; after a lease it is
 * tried again, the one case in which a mail may go twice (SMTP cannot say whether it was delivered).
 */

/** The institution as the mails need it: its id (for the day counts) and its names in each language. */
export interface ReminderInstitution {
  id: string;
  appName: Record<Language, string>;
  institutionName: Record<Language, string>;
}

export function reminderInstitution(institution: Institution): ReminderInstitution {
  return {
    id: institution.id,
    appName: { nb: `Praksis ${institution.nb.appNameSuffix}`, en: `Praksis ${institution.en.appNameSuffix}` },
    institutionName: { nb: institution.nb.institutionName, en: institution.en.institutionName },
  };
}

export interface RunOptions {
  institution: ReminderInstitution;
  /** APP_URL (or the demo's address): the links in the mails. */
  origin: string;
  now?: Date;
  /** How a mail goes (default: `sendReminder`); a `log` delivery counts as not sent. */
  send?: (mail: Mail) => Promise<void | MailDelivery>;
  /** Mails sent at once by one run. */
  concurrency?: number;
}

export interface RunSummary {
  due: number;
  /** Records this run took: new occasions it won, and retries. */
  taken: number;
  sent: number;
  failed: number;
  dropped: number;
}

let translator: Promise<TFunction> | undefined;
function translations(): Promise<TFunction> {
  translator ??= (async () => {
    const instance = i18next.createInstance();
    await instance.init({
      resources,
      lng: DEFAULT_LANGUAGE,
      fallbackLng: DEFAULT_LANGUAGE,
      interpolation: { escapeValue: false },
    });
    return instance.t.bind(instance);
  })();
  return translator;
}

const occasionId = (o: { kind: string; recipientUserId: number; occasionKey: string }) =>
  `${o.kind}|${o.recipientUserId}|${o.occasionKey}`;

function languageOf(value: string | null): Language {
  return value === "en" ? "en" : "nb";
}

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}

async function inBatches<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

/** Why a reminder was not sent outside demo mode without an SMTP server (the admin's list shows it). */
export const NOT_SENT_WITHOUT_SMTP = "not sent: no SMTP server (MAIL_TRANSPORT=log); tried again later";

/**
 * A reminder goes through SMTP (or, in demo mode, to the demo's outbox). Outside demo mode without
 * an SMTP server (MAIL_TRANSPORT=log) it is not written anywhere and fails, so it is never marked
 * sent for a mail nobody received; the retries send it once SMTP_URL is set, if it is still due.
 */
export async function sendReminder(mail: Mail): Promise<MailDelivery> {
  if (env().mailTransport === "log") throw new Error(NOT_SENT_WITHOUT_SMTP);
  return sendMail(mail, { purpose: "reminder" });
}

/** One run: every reminder due now is sent by this run or by another, once. */
export async function runReminders(db: Db, options: RunOptions): Promise<RunSummary> {
  const now = options.now ?? new Date();
  const today = osloDate(now);
  const send = options.send ?? sendReminder;
  const days = await reminderDaysOf(db, options.institution.id);
  const t = await translations();

  const found = await dueOccasions(db, days, now, today);
  const recipients = await recipientsOf(
    db,
    found.map((o) => o.recipientUserId),
  );
  const due = new Map<string, { occasion: Occasion; mail: Mail }>();
  for (const occasion of found) {
    const recipient = recipients.get(occasion.recipientUserId);
    if (!recipient || recipient.optOuts.includes(occasion.kind)) continue;
    const language = languageOf(recipient.language);
    const rendered = renderReminder(occasion.content, recipient.name, {
      t: ((key: string, values?: Record<string, unknown>) => t(key, { ...values, lng: language })) as TFunction,
      language,
      origin: options.origin,
      appName: options.institution.appName[language],
      institutionName: options.institution.institutionName[language],
    });
    due.set(occasionId(occasion), { occasion, mail: { to: recipient.email, ...rendered } });
  }

  const summary: RunSummary = { due: due.size, taken: 0, sent: 0, failed: 0, dropped: 0 };
  const work: { id: number; attempts: number; mail: Mail }[] = [];

  // Retries first: failed records whose time has come, and records a dead process left "sending".
  const retries = await db.execute(sql`
    update reminders set status = 'sending', attempts = attempts + 1, claimed_at = ${now.toISOString()}::timestamptz, updated_at = now()
     where id in (
       select id from reminders
        where (status = 'failed' and next_attempt_at <= ${now.toISOString()}::timestamptz)
           or (status = 'sending' and claimed_at < ${new Date(now.getTime() - SENDING_LEASE_MS).toISOString()}::timestamptz)
        order by id limit 500
        for update skip locked)
    returning id, kind, recipient_user_id, occasion_key, attempts`);
  const retried = (Array.isArray(retries) ? retries : (retries as { rows: unknown[] }).rows) as {
    id: number | string;
    kind: string;
    recipient_user_id: number;
    occasion_key: string;
    attempts: number;
  }[];
  const noLongerDue: number[] = [];
  for (const row of retried) {
    const entry = due.get(
      occasionId({ kind: row.kind, recipientUserId: row.recipient_user_id, occasionKey: row.occasion_key }),
    );
    if (entry) work.push({ id: Number(row.id), attempts: row.attempts, mail: entry.mail });
    else noLongerDue.push(Number(row.id));
  }
  if (noLongerDue.length > 0) {
    await db
      .update(reminders)
      .set({ status: "dropped", nextAttemptAt: null })
      .where(inArray(reminders.id, noLongerDue));
    summary.dropped += noLongerDue.length;
  }

  // New occasions: the insert that returns the row is this run's to send.
  const entries = [...due.values()];
  for (let i = 0; i < entries.length; i += 500) {
    const batch = entries.slice(i, i + 500);
    const taken = await db
      .insert(reminders)
      .values(
        batch.map(({ occasion, mail }) => ({
          kind: occasion.kind,
          recipientUserId: occasion.recipientUserId,
          occasionKey: occasion.occasionKey,
          status: "sending",
          email: mail.to,
          subject: mail.subject,
          attempts: 1,
          claimedAt: now,
        })),
      )
      .onConflictDoNothing({ target: [reminders.kind, reminders.recipientUserId, reminders.occasionKey] })
      .returning({
        id: reminders.id,
        kind: reminders.kind,
        recipientUserId: reminders.recipientUserId,
        occasionKey: reminders.occasionKey,
      });
    for (const row of taken) work.push({ id: row.id, attempts: 1, mail: due.get(occasionId(row))!.mail });
  }
  summary.taken = work.length;

  await inBatches(work, options.concurrency ?? 4, async ({ id, attempts, mail }) => {
    try {
      // Sent only when an SMTP server accepted it (or the demo's outbox took it), never for a log line.
      if ((await send(mail)) === "log") throw new Error(NOT_SENT_WITHOUT_SMTP);
    } catch (error) {
      await db
        .update(reminders)
        .set({
          status: "failed",
          lastError: errorText(error),
          nextAttemptAt: nextAttemptAt(attempts, now),
          email: mail.to,
          subject: mail.subject,
        })
        .where(and(eq(reminders.id, id), eq(reminders.status, "sending")));
      summary.failed++;
      return;
    }
    await db
      .update(reminders)
      .set({
        status: "sent",
        sentAt: new Date(),
        lastError: null,
        nextAttemptAt: null,
        email: mail.to,
        subject: mail.subject,
      })
      .where(eq(reminders.id, id));
    summary.sent++;
  });
  return summary;
}

// ─── The day counts (admin) ──────────────────────────────────────────────────

export async function reminderDaysOf(db: Db, institutionId: string): Promise<ReminderDays> {
  const [row] = await db.select().from(reminderSettings).where(eq(reminderSettings.institutionId, institutionId));
  return row
    ? {
        midDaysBefore: row.midDaysBefore,
        endDaysBefore: row.endDaysBefore,
        signingRepeatDays: row.signingRepeatDays,
        adminWeeksBefore: row.adminWeeksBefore,
      }
    : { ...DEFAULT_REMINDER_DAYS };
}

export async function saveReminderDays(
  db: Db,
  input: { institutionId: string; days: ReminderDays; actorUserId: number; ip?: string | null },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .insert(reminderSettings)
      .values({ institutionId: input.institutionId, ...input.days, updatedByUserId: input.actorUserId })
      .onConflictDoUpdate({
        target: reminderSettings.institutionId,
        set: { ...input.days, updatedByUserId: input.actorUserId, updatedAt: new Date() },
      });
    await audit(tx, {
      action: "reminders.settings_saved",
      actorUserId: input.actorUserId,
      ip: input.ip ?? null,
      details: { institution: input.institutionId, ...input.days },
    });
  });
}

// ─── A user's own choices (Settings) ─────────────────────────────────────────

export interface ReminderPreferences {
  /** The kinds the user's roles can receive, in order, and whether each is on. */
  kinds: { kind: ReminderKind; on: boolean }[];
}

async function rolesOf(db: Db, userId: number): Promise<number[]> {
  const rows = await db.select({ roleId: userRoles.roleId }).from(userRoles).where(eq(userRoles.userId, userId));
  return rows.map((r) => r.roleId);
}

async function optOutsOf(db: Db, userId: number): Promise<string[]> {
  const [row] = await db
    .select({ optOuts: userPreferences.reminderOptOuts })
    .from(userPreferences)
    .where(eq(userPreferences.userId, userId));
  return row?.optOuts ?? [];
}

export async function reminderPreferencesOf(db: Db, userId: number): Promise<ReminderPreferences> {
  const [roles, optOuts] = await Promise.all([rolesOf(db, userId), optOutsOf(db, userId)]);
  return { kinds: kindsForRoles(roles).map((kind) => ({ kind, on: !optOuts.includes(kind) })) };
}

/** The Settings form's post: the kinds shown that were ticked stay on, the others go off. */
export async function saveReminderPreferences(db: Db, userId: number, ticked: readonly string[]): Promise<void> {
  const [roles, previous] = await Promise.all([rolesOf(db, userId), optOutsOf(db, userId)]);
  const optOuts = optOutsAfter(previous, kindsForRoles(roles), ticked.filter(isReminderKind));
  await db
    .insert(userPreferences)
    .values({ userId, reminderOptOuts: optOuts })
    .onConflictDoUpdate({ target: userPreferences.userId, set: { reminderOptOuts: optOuts, updatedAt: new Date() } });
}

/** The language chosen in Settings, kept for the mails the user is sent when not at the screen. */
export async function saveLanguagePreference(db: Db, userId: number, language: Language): Promise<void> {
  await db
    .insert(userPreferences)
    .values({ userId, language })
    .onConflictDoUpdate({ target: userPreferences.userId, set: { language, updatedAt: new Date() } });
}

// ─── What was sent (admin) ───────────────────────────────────────────────────

export const REMINDER_LOG_PAGE_SIZE = 25;

export interface ReminderLogRow {
  id: number;
  kind: string;
  status: ReminderStatus;
  email: string;
  recipientName: string;
  subject: string;
  attempts: number;
  createdAt: Date;
  sentAt: Date | null;
  nextAttemptAt: Date | null;
  lastError: string | null;
}

/** The newest records first, optionally of one status; `limit` grows with "show more" (works without JS). */
export async function reminderLog(
  db: Db,
  input: { status: ReminderStatus | null; limit: number },
): Promise<{ rows: ReminderLogRow[]; total: number }> {
  const where = input.status ? eq(reminders.status, input.status) : undefined;
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        id: reminders.id,
        kind: reminders.kind,
        status: reminders.status,
        email: reminders.email,
        recipientName: users.displayName,
        subject: reminders.subject,
        attempts: reminders.attempts,
        createdAt: reminders.createdAt,
        sentAt: reminders.sentAt,
        nextAttemptAt: reminders.nextAttemptAt,
        lastError: reminders.lastError,
      })
      .from(reminders)
      .innerJoin(users, eq(users.id, reminders.recipientUserId))
      .where(where)
      .orderBy(desc(reminders.createdAt), desc(reminders.id))
      .limit(input.limit),
    db.select({ total: count() }).from(reminders).where(where),
  ]);
  return { rows: rows.map((r) => ({ ...r, status: r.status as ReminderStatus })), total };
}
