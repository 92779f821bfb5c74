import { useTranslation } from "react-i18next";
import { SummaryList, Table, Tag } from "~/components/ui";
import { debugIdentity, requireRole, requireSession } from "~/services/identity/index.server";
import { getDb } from "~/services/platform/db/index.server";
import { env } from "~/services/platform/env.server";
import { ROLE } from "~/services/identity";
import { formatDay, osloDate } from "~/services/platform/semesters";
import type { Route } from "./+types/fs";
import { provideNamespace } from "~/i18n-client/page-namespaces";
import enAuthPages from "~/locales/en/authPages.json";
import nbAuthPages from "~/locales/nb/authPages.json";

// This page's part of the auth texts is not in the language chunk every page loads (ADR 0012).
provideNamespace("auth", { nb: nbAuthPages, en: enAuthPages });
import { notFound } from "~/services/platform/ids";

export const handle = { titleKey: "auth:debugFs.title" };

/** Admins only, and only where DEBUG_FS is set; to everyone else the page does not exist. */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (!env().DEBUG_FS) notFound();
  const session = requireSession(request, context, { privacyGate: false });
  if (!session.user.roles.includes(ROLE.Admin)) notFound();
  requireRole(request, context, ROLE.Admin);
  return debugIdentity(await getDb(), session.user.id);
}

/** Oslo time, as people read it; the raw data below keeps the exact instants. */
const osloDateTime = {
  nb: new Intl.DateTimeFormat("nb-NO", { timeZone: "Europe/Oslo", dateStyle: "short", timeStyle: "short" }),
  en: new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Oslo", dateStyle: "medium", timeStyle: "short" }),
};

function yesNo(t: (key: string) => string, value: boolean | null | undefined) {
  return value ? t("debugFs.yes") : t("debugFs.no");
}

export default function DebugFs({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("auth");
  const { user, lastFeideLogin, memberships, roles } = loaderData;
  const language = i18n.language === "en" ? "en" : "nb";
  const at = (iso: string | null) => (iso ? osloDateTime[language].format(new Date(iso)) : "–");
  const day = (iso: string | null) => (iso ? formatDay(osloDate(new Date(iso)), language) : "–");
  const none = t("debugFs.none");
  return (
    <div className="app-content">
      <h1>{t("debugFs.title")}</h1>
      <p className="app-lead">{t("debugFs.intro")}</p>

      <h2>{t("debugFs.identity")}</h2>
      <SummaryList
        rows={[
          { key: t("debugFs.userId"), value: user?.id ?? none },
          { key: t("debugFs.name"), value: user?.displayName ?? none },
          { key: t("debugFs.email"), value: user?.email ?? none },
          { key: t("debugFs.phone"), value: user?.phoneNumber ?? none },
          { key: t("debugFs.feideUserId"), value: user?.feideUserId ?? none },
          { key: t("debugFs.active"), value: yesNo(t, user?.isActive) },
          { key: t("debugFs.lastFeideLogin"), value: lastFeideLogin ? at(lastFeideLogin.at) : t("debugFs.neverFeide") },
        ]}
      />

      <h2>{t("debugFs.roles")}</h2>
      {roles.length > 0 ? (
        <ul>
          {roles.map((r) => (
            <li key={r.id}>
              {r.name} (id {r.id})
            </li>
          ))}
        </ul>
      ) : (
        <p>{none}</p>
      )}

      <h2>{t("debugFs.memberships")}</h2>
      {memberships.length > 0 ? (
        <Table
          caption={t("debugFs.memberships")}
          captionHidden
          columns={[
            { header: t("debugFs.group") },
            { header: t("debugFs.subject") },
            { header: t("debugFs.status") },
            { header: t("debugFs.period") },
            { header: t("debugFs.fsRoles") },
            { header: t("debugFs.fetched") },
          ]}
          rows={memberships.map((m) => ({
            key: m.groupId,
            inactive: !m.active,
            cells: [
              <code key="id">{m.groupId}</code>,
              `${m.subjectCode ?? "–"} ${m.subjectVersion ? `(v${m.subjectVersion})` : ""} ${m.displayName}`,
              m.active ? (
                <Tag key="s">{t("debugFs.activeMembership")}</Tag>
              ) : (
                <Tag key="s">{t("debugFs.inactiveMembership")}</Tag>
              ),
              `${day(m.notBefore)} – ${day(m.notAfter)}`,
              m.fsRoles.join(", ") || "–",
              at(m.fetchedAt),
            ],
          }))}
        />
      ) : (
        <p>{t("debugFs.noMemberships")}</p>
      )}

      <h2>{t("debugFs.raw")}</h2>
      <pre className="app-raw" role="region" tabIndex={0} aria-label={t("debugFs.raw")}>
        {JSON.stringify(loaderData, null, 2)}
      </pre>
    </div>
  );
}
