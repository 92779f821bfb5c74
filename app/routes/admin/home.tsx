import { useTranslation } from "react-i18next";
import { href } from "~/components/href";
import { ClassTable } from "~/components/app/ClassTable";
import { Card, Table } from "~/components/ui";
import { getDb } from "~/services/platform/db/index.server";
import { adminOverview } from "~/services/placements/index.server";
import { requireRole } from "~/services/identity/index.server";
import { ROLE, ROLE_NAMES, type RoleId } from "~/services/identity";
import type { Route } from "./+types/home";

export const handle = { titleKey: "common:home.admin.title" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireRole(request, context, ROLE.Admin);
  const overview = await adminOverview(await getDb());
  return { name: session.user.displayName, ...overview };
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
  return (
    <div className="app-content">
      <h1>{t("home.admin.title")}</h1>
      <p className="app-lead">{t("home.greeting", { name: loaderData.name })}</p>
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
    </div>
  );
}
