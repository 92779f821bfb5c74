import { useTranslation } from "react-i18next";
import { href } from "~/components/href";
import { ClassTable } from "~/components/app/ClassTable";
import { AlertBanner, Card, Table } from "~/components/ui";
import { getDb } from "~/services/platform/db/index.server";
import { adminOverview } from "~/services/placements/index.server";
import { requireRole } from "~/services/identity/index.server";
import { ROLE, ROLE_NAMES, type RoleId } from "~/services/identity";
import type { Route } from "./+types/home";
import { backupsForAdmin, type When } from "~/services/platform/backups.server";
import enAdmin from "~/locales/en/admin.json";
import nbAdmin from "~/locales/nb/admin.json";
import { provideNamespace } from "~/i18n-client/page-namespaces";

provideNamespace("admin", { nb: nbAdmin, en: enAdmin });

export const handle = { titleKey: "common:home.admin.title" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireRole(request, context, ROLE.Admin);
  const overview = await adminOverview(await getDb());
  return { name: session.user.displayName, ...overview, backups: backupsForAdmin() };
}

const pad = (n: number) => String(n).padStart(2, "0");

/** "i natt kl. 02.30", "24.11.2026 kl. 02.30"; "last night at 02:30", "on 24 November 2026 at 02:30". */
function useWhenText(): (when: When) => string {
  const { t, i18n } = useTranslation("admin");
  const en = i18n.language === "en";
  return (when) => {
    const time = en ? `${pad(when.hour)}:${pad(when.minute)}` : `${pad(when.hour)}.${pad(when.minute)}`;
    const date = en
      ? new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", day: "numeric", month: "long", year: "numeric" }).format(
          Date.UTC(when.year, when.month - 1, when.day),
        )
      : `${when.day}.${when.month}.${when.year}`;
    return t(`backups.when.${when.kind}`, { time, date });
  };
}

/** The backups' part of the page: a warning first on the page when something is wrong, else a line at its end. */
function Backups({ backups }: { backups: Route.ComponentProps["loaderData"]["backups"] }) {
  const { t } = useTranslation("admin");
  const whenText = useWhenText();
  const lastGood = backups.lastGood ? t("backups.lastGood", { when: whenText(backups.lastGood) }) : null;
  const heading = <h2 id="backups-heading">{t("backups.heading")}</h2>;
  if (backups.state === "external" || backups.state === "off") {
    return (
      <section aria-labelledby="backups-heading">
        {heading}
        <p>{t(`backups.${backups.state}`)}</p>
        {lastGood ? <p>{lastGood}</p> : null}
      </section>
    );
  }
  if (backups.state === "ok") {
    return (
      <section aria-labelledby="backups-heading">
        {heading}
        <p>
          {lastGood} {t("backups.nightly")}
        </p>
      </section>
    );
  }
  const hours = Math.floor(backups.ageHours ?? 0);
  const age =
    hours >= 48 ? t("backups.ageDays", { count: Math.floor(hours / 24) }) : t("backups.ageHours", { count: hours });
  return (
    <section aria-labelledby="backups-heading">
      {heading}
      <AlertBanner variant="warning" heading={t("backups.warningHeading")} headingLevel={3}>
        {backups.state === "failing" && backups.lastFailure ? (
          <p>{t("backups.failed", { when: whenText(backups.lastFailure) })}</p>
        ) : null}
        {backups.state === "none" ? <p>{t("backups.none")}</p> : null}
        {backups.state === "old" ? <p>{t("backups.old", { age })}</p> : null}
        {lastGood && backups.state !== "old" ? <p>{lastGood}</p> : null}
        <p>{t("backups.ask")}</p>
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
  { key: "retention", href: "/admin/retention" },
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
