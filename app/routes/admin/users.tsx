import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import { href } from "~/components/href";
import { Button, CheckboxGroup, Select, Table, Tag, TextField } from "~/components/ui";
import { Pagination } from "~/components/ui/Pagination";
import { USER_SEARCH_MAX_LENGTH } from "~/services/admin";
import { listUsers, USERS_PAGE_SIZE } from "~/services/admin/index.server";
import { getDb } from "~/services/platform/db/index.server";
import { requireRole } from "~/services/identity/index.server";
import { isRoleId, ROLE, ROLE_NAMES, type RoleId } from "~/services/identity";
import type { Route } from "./+types/users";
import enAdminUsers from "~/locales/en/adminUsers.json";
import nbAdminUsers from "~/locales/nb/adminUsers.json";
import { provideNamespace } from "~/i18n-client/page-namespaces";

provideNamespace("adminUsers", { nb: nbAdminUsers, en: enAdminUsers });

export const handle = { titleKey: "adminUsers:users.title" };

/**
 * "Load more" is a plain link (`?offset=20`, then 40 …) that shows the first offset + 20 users, so it
 * works without JavaScript; the list stops growing here and asks for a narrower search instead.
 */
const MAX_LISTED = 500;

interface Filters {
  roleId: RoleId | null;
  search: string;
  includeInactive: boolean;
  offset: number;
}

/** Unknown or malformed parameters fall back to the unfiltered first page rather than failing. */
function readFilters(url: URL): Filters {
  const role = Number(url.searchParams.get("role"));
  const offset = Number(url.searchParams.get("offset"));
  return {
    roleId: Number.isInteger(role) && isRoleId(role) ? role : null,
    search: (url.searchParams.get("search") ?? "").trim().slice(0, USER_SEARCH_MAX_LENGTH),
    includeInactive: url.searchParams.get("includeInactive") === "1",
    offset: Number.isInteger(offset) && offset >= USERS_PAGE_SIZE ? Math.min(offset, MAX_LISTED - USERS_PAGE_SIZE) : 0,
  };
}

function listUrl(filters: Filters, offset: number): string {
  const params = new URLSearchParams();
  if (filters.roleId) params.set("role", String(filters.roleId));
  if (filters.search) params.set("search", filters.search);
  if (filters.includeInactive) params.set("includeInactive", "1");
  // The list grows 20 at a time: the offset is sent only from 20 upward.
  if (offset >= USERS_PAGE_SIZE) params.set("offset", String(offset));
  const query = params.toString();
  return query ? `${href("/admin/users")}?${query}` : href("/admin/users");
}

export async function loader({ request, context }: Route.LoaderArgs) {
  requireRole(request, context, ROLE.Admin);
  const filters = readFilters(new URL(request.url));
  const { rows, total } = await listUsers(await getDb(), {
    roleId: filters.roleId,
    search: filters.search,
    includeInactive: filters.includeInactive,
    offset: 0,
    limit: filters.offset + USERS_PAGE_SIZE,
  });
  const shown = rows.length;
  const more = shown < total && shown < MAX_LISTED;
  return {
    filters,
    users: rows,
    total,
    // The fragment takes the reader to the first newly loaded user, with or without JavaScript.
    moreHref: more ? `${listUrl(filters, shown)}#user-${shown + 1}` : null,
    limitReached: shown < total && !more,
  };
}

export default function Users({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("adminUsers");
  const { filters, users, total, moreHref, limitReached } = loaderData;
  const roleName = (roleId: RoleId) => t(`common:roles.${ROLE_NAMES[roleId]}.name`);
  return (
    <div className="app-content">
      <h1>{t("users.title")}</h1>
      <p className="app-lead">{t("users.intro")}</p>

      <section aria-labelledby="user-filter-heading" className="admin-users-filter">
        <h2 id="user-filter-heading">{t("users.filterHeading")}</h2>
        <Form method="get" action="/admin/users">
          <div className="admin-users-filter__fields">
            <Select
              label={t("users.role")}
              name="role"
              placeholder={t("users.allRoles")}
              defaultValue={filters.roleId ? String(filters.roleId) : ""}
              options={Object.values(ROLE).map((id) => ({ value: String(id), label: roleName(id) }))}
            />
            <TextField
              label={t("users.search")}
              name="search"
              type="search"
              width="20"
              autoComplete="off"
              spellCheck={false}
              maxLength={USER_SEARCH_MAX_LENGTH}
              defaultValue={filters.search}
            />
          </div>
          <CheckboxGroup
            legend={t("users.show")}
            legendSize="s"
            name="includeInactive"
            options={[{ value: "1", label: t("users.includeInactive") }]}
            defaultValue={filters.includeInactive ? ["1"] : []}
          />
          <Button variant="secondary">{t("users.submit")}</Button>
        </Form>
      </section>

      {users.length === 0 ? (
        <p>{t("users.none")}</p>
      ) : (
        <Table
          caption={t("users.caption")}
          captionHidden
          rowHeaders
          columns={[
            { header: t("users.name") },
            { header: t("users.email") },
            { header: t("users.roles") },
            { header: t("users.status") },
          ]}
          rows={users.map((user, index) => ({
            key: String(user.id),
            inactive: !user.isActive,
            cells: [
              <Link key="name" id={`user-${index + 1}`} to={href("/admin/users/:userId", { userId: String(user.id) })}>
                {user.displayName}
              </Link>,
              user.email,
              user.roles.length > 0 ? user.roles.map(roleName).join(", ") : t("users.noRoles"),
              user.isActive ? t("users.active") : <Tag key="status">{t("users.inactive")}</Tag>,
            ],
          }))}
        />
      )}
      {users.length > 0 ? (
        <Pagination href={moreHref ?? undefined} status={t("users.shown", { shown: users.length, total })} />
      ) : null}
      {limitReached ? <p>{t("users.limitReached", { max: MAX_LISTED })}</p> : null}
    </div>
  );
}
