import { useTranslation } from "react-i18next";
import { data, Form } from "react-router";
import { href } from "~/components/href";
import { Button, ErrorSummary, Select, Table, Tag, TextField } from "~/components/ui";
import { Pagination } from "~/components/ui/Pagination";
import { getDb } from "~/services/platform/db/index.server";
import { redirectWithFlash } from "~/services/platform/flash.server";
import { currentInstitution } from "~/services/platform/institution.server";
import { clientAddress, readFormData } from "~/services/platform/request.server";
import { formatDayTime } from "~/services/platform/semesters";
import { requireRole } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import {
  REMINDER_LOG_PAGE_SIZE,
  reminderDaysOf,
  reminderLog,
  saveReminderDays,
} from "~/services/reminders/index.server";
import {
  parseReminderDays,
  REMINDER_DAY_FIELDS,
  REMINDER_DAY_LIMITS,
  REMINDER_STATUSES,
  type ReminderDayField,
  type ReminderStatus,
} from "~/services/reminders";
import type { Route } from "./+types/reminders";
import enReminders from "~/locales/en/reminders.json";
import nbReminders from "~/locales/nb/reminders.json";
import { provideNamespace } from "~/i18n-client/page-namespaces";

provideNamespace("reminders", { nb: nbReminders, en: enReminders });

export const handle = { titleKey: "reminders:admin.title" };

/** "Show more" is a plain link that shows the newest `shown + 25`; the list stops here. */
const MAX_LISTED = 1000;

function readQuery(url: URL): { status: ReminderStatus | null; limit: number } {
  const status = url.searchParams.get("status");
  const limit = Number(url.searchParams.get("limit"));
  return {
    status: (REMINDER_STATUSES as readonly string[]).includes(status ?? "") ? (status as ReminderStatus) : null,
    limit:
      Number.isInteger(limit) && limit > REMINDER_LOG_PAGE_SIZE ? Math.min(limit, MAX_LISTED) : REMINDER_LOG_PAGE_SIZE,
  };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  requireRole(request, context, ROLE.Admin);
  const db = await getDb();
  const query = readQuery(new URL(request.url));
  const [days, log] = await Promise.all([reminderDaysOf(db, currentInstitution().id), reminderLog(db, query)]);
  const shown = log.rows.length;
  const params = new URLSearchParams();
  if (query.status) params.set("status", query.status);
  params.set("limit", String(shown + REMINDER_LOG_PAGE_SIZE));
  return {
    days,
    status: query.status,
    rows: log.rows,
    total: log.total,
    moreHref:
      shown < log.total && shown < MAX_LISTED ? `${href("/admin/reminders")}?${params}#reminder-${shown + 1}` : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const session = requireRole(request, context, ROLE.Admin);
  const form = await readFormData(request);
  const posted = Object.fromEntries(REMINDER_DAY_FIELDS.map((f) => [f, form.get(f)])) as Record<
    ReminderDayField,
    unknown
  >;
  const parsed = parseReminderDays(posted);
  if (!parsed.ok) {
    const values = Object.fromEntries(
      REMINDER_DAY_FIELDS.map((f) => [f, typeof posted[f] === "string" ? posted[f].slice(0, 10) : ""]),
    );
    return data({ errors: parsed.errors, values }, { status: 400 });
  }
  await saveReminderDays(await getDb(), {
    institutionId: currentInstitution().id,
    days: parsed.days,
    actorUserId: session.user.id,
    ip: clientAddress(request),
  });
  return redirectWithFlash("/admin/reminders", { type: "success", key: "reminders:admin.saved" });
}

export default function AdminReminders({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("reminders");
  const language = i18n.language === "en" ? "en" : "nb";
  const { days, rows, total, moreHref, status } = loaderData;
  const errors = actionData?.errors ?? {};
  const errorOf = (field: ReminderDayField) =>
    errors[field] ? t("admin.rangeError", REMINDER_DAY_LIMITS[field]) : null;
  return (
    <div className="app-content">
      <h1>{t("admin.title")}</h1>
      <p className="app-lead">{t("admin.intro")}</p>

      <section aria-labelledby="reminder-days-heading">
        <h2 id="reminder-days-heading">{t("admin.daysHeading")}</h2>
        <ErrorSummary
          errors={REMINDER_DAY_FIELDS.filter((f) => errors[f]).map((f) => ({
            fieldId: f,
            message: `${t(`admin.${f}`)}: ${errorOf(f)}`,
          }))}
        />
        <Form method="post" noValidate>
          {REMINDER_DAY_FIELDS.map((field) => (
            <TextField
              key={field}
              label={t(`admin.${field}`)}
              name={field}
              inputMode="numeric"
              width="3"
              autoComplete="off"
              error={errorOf(field)}
              defaultValue={actionData?.values?.[field] ?? String(days[field])}
            />
          ))}
          <Button>{t("admin.save")}</Button>
        </Form>
      </section>

      <section aria-labelledby="reminder-log-heading">
        <h2 id="reminder-log-heading">{t("admin.listHeading")}</h2>
        <Form method="get" action="/admin/reminders" className="admin-reminders-filter">
          <Select
            label={t("admin.status")}
            name="status"
            placeholder={t("admin.allStatuses")}
            defaultValue={status ?? ""}
            options={REMINDER_STATUSES.map((s) => ({ value: s, label: t(`admin.statuses.${s}`) }))}
          />
          <Button variant="secondary">{t("admin.filter")}</Button>
        </Form>
        {rows.length === 0 ? (
          <p>{t("admin.none")}</p>
        ) : (
          <Table
            className="admin-reminders"
            caption={t("admin.caption")}
            captionHidden
            columns={[
              { header: t("admin.col.time") },
              { header: t("admin.col.kind") },
              { header: t("admin.col.recipient") },
              { header: t("admin.col.subject") },
              { header: t("admin.col.status") },
              { header: t("admin.col.attempts"), numeric: true },
              { header: t("admin.col.details") },
            ]}
            rows={rows.map((row, index) => ({
              key: String(row.id),
              cells: [
                <span key="time" id={`reminder-${index + 1}`}>
                  {formatDayTime(new Date(row.sentAt ?? row.createdAt), language)}
                </span>,
                t(`admin.kindNames.${row.kind}`, { defaultValue: row.kind }),
                <span key="recipient">
                  {row.recipientName}
                  <br />
                  {row.email}
                </span>,
                row.subject,
                row.status === "failed" ? (
                  <Tag key="status">{t("admin.statuses.failed")}</Tag>
                ) : (
                  t(`admin.statuses.${row.status}`)
                ),
                row.attempts,
                row.status === "failed"
                  ? [
                      row.nextAttemptAt
                        ? t("admin.nextAttempt", { at: formatDayTime(new Date(row.nextAttemptAt), language) })
                        : t("admin.gaveUp"),
                      row.lastError,
                    ]
                      .filter(Boolean)
                      .join(". ")
                  : "",
              ],
            }))}
          />
        )}
        {rows.length > 0 ? (
          <Pagination
            href={moreHref ?? undefined}
            label={t("admin.loadMore")}
            status={t("admin.shown", { shown: rows.length, total })}
          />
        ) : null}
      </section>
    </div>
  );
}
