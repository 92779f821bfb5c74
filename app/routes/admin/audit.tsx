import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { href } from "~/components/href";
import { AuditEntriesTable } from "~/components/app/AuditEntriesTable";
import { AuditSearchForm } from "~/components/app/AuditSearchForm";
import { Pagination } from "~/components/ui/Pagination";
import { provideNamespace } from "~/i18n-client/page-namespaces";
import enPrivacyData from "~/locales/en/privacyData.json";
import nbPrivacyData from "~/locales/nb/privacyData.json";
import {
  AUDIT_EXPORT_LIMIT,
  SEARCHABLE_ACTIONS,
  auditInWords,
  auditQueryParams,
  isFiltered,
  readAuditQuery,
  searchAuditLog,
  type AuditTranslate,
} from "~/services/admin/index.server";
import { ROLE } from "~/services/identity";
import { requireRole } from "~/services/identity/index.server";
import { audit } from "~/services/platform/audit.server";
import { getDb } from "~/services/platform/db/index.server";
import { getInstance, getLanguage } from "~/services/platform/i18n.server";
import { clientAddress } from "~/services/platform/request.server";
import { formatDayTime } from "~/services/platform/semesters";
import type { Route } from "./+types/audit";

provideNamespace("privacyData", { nb: nbPrivacyData, en: enPrivacyData });

export const handle = { titleKey: "privacyData:audit.title" };

/**
 * The administrator's audit search (who opened whose data; docs/rules/admin.md): a GET form, so a search is a link and works without
 * JavaScript. A search with any filter is itself written to the audit log, beside the page's query.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireRole(request, context, ROLE.Admin);
  const query = readAuditQuery(new URL(request.url).searchParams);
  const db = await getDb();
  const [result] = await Promise.all([
    searchAuditLog(db, query),
    isFiltered(query) || query.page > 1
      ? audit(db, {
          action: "audit.searched",
          actorUserId: session.user.id,
          ip: clientAddress(request),
          details: {
            person: query.person,
            as: query.as,
            action: query.action,
            from: query.from,
            to: query.to,
            page: query.page,
          },
        })
      : null,
  ]);
  const language = getLanguage(context);
  const pageHref = (page: number) => {
    const params = auditQueryParams(query, page).toString();
    return `${href("/admin/audit")}${params ? `?${params}` : ""}#results-heading`;
  };
  const csvParams = auditQueryParams(query, 1).toString();
  // In words, made here in the reader's language: the page ships the phrases, not the dictionary.
  const fixed = getInstance(context).getFixedT(language, "privacyData");
  const t: AuditTranslate = (key, values) => fixed(key, values);
  const words = await auditInWords(db, result.entries, t);
  return {
    query,
    entries: result.entries.map((entry, index) => ({
      key: String(index),
      when: formatDayTime(entry.at, language),
      iso: entry.at.toISOString(),
      action: words[index].action,
      code: entry.action,
      actor: entry.actorName ? { name: entry.actorName, email: entry.actorEmail } : null,
      subject: entry.subjectName ? { name: entry.subjectName, email: entry.subjectEmail } : null,
      className: words[index].className,
      details: words[index].details,
    })),
    newer: query.page > 1 ? pageHref(query.page - 1) : null,
    older: result.hasNext ? pageHref(query.page + 1) : null,
    csvHref: `${href("/api/audit-csv")}${csvParams ? `?${csvParams}` : ""}`,
    actions: SEARCHABLE_ACTIONS.map((action) => ({
      value: action,
      label: t(`audit.actions.${action.replaceAll(".", "_")}`, { defaultValue: action }),
    })),
    exportLimit: AUDIT_EXPORT_LIMIT,
  };
}

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("privacyData");
  const { query, entries, newer, older, csvHref, actions, exportLimit } = loaderData;
  return (
    <div className="app-content">
      <h1>{t("audit.title")}</h1>
      <p className="app-lead">{t("audit.intro")}</p>

      <AuditSearchForm query={query} actions={actions} />

      <section aria-labelledby="results-heading">
        <h2 id="results-heading">{t("audit.resultsHeading")}</h2>
        <p>
          <Link to={csvHref} reloadDocument>
            {t("audit.csv")}
          </Link>
          <br />
          <span className="app-audit__note">{t("audit.csvText", { max: exportLimit.toLocaleString("nb-NO") })}</span>
        </p>
        {entries.length === 0 ? <p>{t("audit.none")}</p> : <AuditEntriesTable entries={entries} />}
        {newer || older ? (
          <Pagination
            navLabel={t("audit.pages")}
            className="app-pages"
            status={t("audit.page", { page: query.page })}
            prev={newer ? { href: newer, label: t("audit.newer") } : undefined}
            href={older ?? undefined}
            label={t("audit.older")}
          />
        ) : null}
      </section>
    </div>
  );
}
