import { useTranslation } from "react-i18next";
import { href } from "~/components/href";
import { ClassTable } from "~/components/app/ClassTable";
import { AlertBanner, Card, Table } from "~/components/ui";
import { getDb } from "~/services/platform/db/index.server";
import { env } from "~/services/platform/env.server";
import { adminOverview } from "~/services/placements/index.server";
import { requireRole } from "~/services/identity/index.server";
import { ROLE, ROLE_NAMES, type RoleId } from "~/services/identity";
import type { Route } from "./+types/home";
import { backupHealth, osloParts, readBackupStatus } from "../../../scripts/backup-schedule.mjs";
import enAdmin from "~/locales/en/admin.json";
import nbAdmin from "~/locales/nb/admin.json";

export const handle = { titleKey: "common:home.admin.title" };

/** When something happened, as the page says it: "i natt", "i dag", "i går" or a date, with the time (Europe/Oslo). */
interface When {
  kind: "lastNight" | "today" | "yesterday" | "date";
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

/** Hours after which the last good backup is too old: a night's backup missed, and some slack. */
const BACKUP_TOO_OLD_HOURS = 26;

/**
 * The nightly backups as the admin's start page shows them (the status file the schedule in
 * server.mjs writes, as /healthz reads it): all well, or a warning when the latest attempt failed,
 * none has been taken, or the last good one is older than about a day; with DATABASE_URL, a note
 * that the institution's own server is backed up there.
 */
function backupsNow(now = new Date()) {
  const config = env();
  const health = backupHealth(readBackupStatus(config.BACKUP_DIR), { scheduled: config.BACKUPS_SCHEDULED, now });
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
  const state = !health.scheduled
    ? config.embedded
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
  } as const;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireRole(request, context, ROLE.Admin);
  const overview = await adminOverview(await getDb());
  return { name: session.user.displayName, ...overview, backups: backupsNow() };
}

type BackupTexts = typeof nbAdmin.backups;
const pad = (n: number) => String(n).padStart(2, "0");
const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{\{(\w+)\}\}/g, (match, name: string) => String(values[name] ?? match));

/** "i natt kl. 02.30", "24.11.2026 kl. 02.30"; "last night at 02:30", "on 24 November 2026 at 02:30". */
function whenText(texts: BackupTexts, language: string, when: When): string {
  const time = language === "en" ? `${pad(when.hour)}:${pad(when.minute)}` : `${pad(when.hour)}.${pad(when.minute)}`;
  const date =
    language === "en"
      ? new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", day: "numeric", month: "long", year: "numeric" }).format(
          Date.UTC(when.year, when.month - 1, when.day),
        )
      : `${when.day}.${when.month}.${when.year}`;
  return fill(texts.when[when.kind], { time, date });
}

/**
 * The backups' part of the page. Its texts (admin.json) are this page's own, read here by the page's
 * language rather than through `t`: the namespace is not among the ones every page and the server
 * register (app/locales/index.ts).
 */
function Backups({ backups }: { backups: ReturnType<typeof backupsNow> }) {
  const { i18n } = useTranslation();
  const language = i18n.language === "en" ? "en" : "nb";
  const texts = (language === "en" ? enAdmin : nbAdmin).backups;
  const lastGood = backups.lastGood
    ? fill(texts.lastGood, { when: whenText(texts, language, backups.lastGood) })
    : null;
  if (backups.state === "external" || backups.state === "off") {
    return (
      <section aria-labelledby="backups-heading">
        <h2 id="backups-heading">{texts.heading}</h2>
        <p>{texts[backups.state]}</p>
        {lastGood ? <p>{lastGood}</p> : null}
      </section>
    );
  }
  if (backups.state === "ok") {
    return (
      <section aria-labelledby="backups-heading">
        <h2 id="backups-heading">{texts.heading}</h2>
        <p>
          {lastGood} {texts.nightly}
        </p>
      </section>
    );
  }
  const hours = Math.floor(backups.ageHours ?? 0);
  const age =
    hours >= 48 ? fill(texts.ageDays, { count: Math.floor(hours / 24) }) : fill(texts.ageHours, { count: hours });
  return (
    <section aria-labelledby="backups-heading">
      <h2 id="backups-heading">{texts.heading}</h2>
      <AlertBanner variant="warning" heading={texts.warningHeading} headingLevel={3}>
        {backups.state === "failing" && backups.lastFailure ? (
          <p>{fill(texts.failed, { when: whenText(texts, language, backups.lastFailure) })}</p>
        ) : null}
        {backups.state === "none" ? <p>{texts.none}</p> : null}
        {backups.state === "old" ? <p>{fill(texts.old, { age })}</p> : null}
        {lastGood && backups.state !== "old" ? <p>{lastGood}</p> : null}
        <p>{texts.ask}</p>
      </AlertBanner>
    </section>
  );
}

const ADMIN_SECTIONS = [
  { key: "semesters", href: "/admin/semesters" },
  { key: "forms", href: "/admin/forms" },
  { key: "subjects", href: "/admin/subjects" },
  { key: "users", href: "/admin/users" },
  { key: "audit", href: "/admin/audit" },
  { key: "reminders", href: "/admin/reminders" },
] as const;

export default function AdminHome({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const backupWarning = ["failing", "none", "old"].includes(loaderData.backups.state);
  return (
    <div className="app-content">
      <h1>{t("home.admin.title")}</h1>
      <p className="app-lead">{t("home.greeting", { name: loaderData.name })}</p>
      {/* A warning about the backups comes first; all well, they are said last. */}
      {backupWarning ? <Backups backups={loaderData.backups} /> : null}
      <nav aria-label={t("home.admin.sections")}>
        <ul className="card-grid">
          {ADMIN_SECTIONS.map((section) => (
            <li key={section.key}>
              <Card title={t(`menu.admin.${section.key}`)} href={section.href}>
                <p>{t(`home.admin.sectionText.${section.key}`)}</p>
              </Card>
            </li>
          ))}
        </ul>
      </nav>
      <h2>{t("home.admin.currentClasses")}</h2>
      <ClassTable
        caption={t("home.admin.currentClasses")}
        rows={loaderData.currentClasses}
        linkTo={(classId) => href("/admin/class/:classId", { classId: String(classId) })}
      />
      <h2>{t("home.admin.users")}</h2>
      <Table
        caption={t("home.admin.users")}
        captionHidden
        rowHeaders
        stack={false}
        columns={[{ header: t("home.admin.role") }, { header: t("home.admin.activeUsers"), numeric: true }]}
        rows={loaderData.roleCounts.map((r) => ({
          key: String(r.roleId),
          cells: [t(`roles.${ROLE_NAMES[r.roleId as RoleId]}.name`), r.users],
        }))}
      />
      {backupWarning ? null : <Backups backups={loaderData.backups} />}
    </div>
  );
}
