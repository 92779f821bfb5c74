import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import { Button, RadioGroup, Select, Table, TextField } from "~/components/ui";
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
  const href = (page: number) => {
    const params = auditQueryParams(query, page).toString();
    return `/admin/audit${params ? `?${params}` : ""}#results-heading`;
  };
  const csvParams = auditQueryParams(query, 1).toString();
  // In words, made here in the reader's language: the page ships the phrases, not the dictionary.
  const fixed = getInstance(context).getFixedT(language, "privacyData");
  const t: AuditTranslate = (key, values) => fixed(key as never, values as never) as unknown as string;
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
    newer: query.page > 1 ? href(query.page - 1) : null,
    older: result.hasNext ? href(query.page + 1) : null,
    csvHref: `/api/audit-csv${csvParams ? `?${csvParams}` : ""}`,
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
  const person = (p: { name: string; email: string | null } | null) =>
    p ? (
      <>
        {p.name}
        {p.email ? (
          <>
            <br />
            <span className="app-audit__email">{p.email}</span>
          </>
        ) : null}
      </>
    ) : (
      t("audit.system")
    );
  return (
    <div className="app-content">
      <h1>{t("audit.title")}</h1>
      <p className="app-lead">{t("audit.intro")}</p>

      <section aria-labelledby="audit-filter-heading" className="app-audit__filter">
        <h2 id="audit-filter-heading">{t("audit.filterHeading")}</h2>
        <Form method="get" action="/admin/audit">
          <TextField
            label={t("audit.person")}
            hint={t("audit.personHint")}
            name="person"
            type="search"
            width="20"
            autoComplete="off"
            spellCheck={false}
            defaultValue={query.person}
          />
          <RadioGroup
            legend={t("audit.as")}
            legendSize="s"
            name="as"
            defaultValue={query.as}
            options={[
              { value: "either", label: t("audit.asEither") },
              { value: "actor", label: t("audit.asActor") },
              { value: "subject", label: t("audit.asSubject") },
            ]}
          />
          <Select
            label={t("audit.action")}
            name="action"
            placeholder={t("audit.allActions")}
            defaultValue={query.action ?? ""}
            options={actions}
          />
          <div className="app-audit__dates">
            <TextField
              label={t("audit.from")}
              hint={t("audit.dateHint")}
              name="from"
              type="date"
              defaultValue={query.from ?? ""}
            />
            <TextField
              label={t("audit.to")}
              hint={t("audit.dateHint")}
              name="to"
              type="date"
              defaultValue={query.to ?? ""}
            />
          </div>
          <div className="app-audit__actions">
            <Button variant="secondary">{t("audit.submit")}</Button>
            <Link to="/admin/audit">{t("audit.reset")}</Link>
          </div>
        </Form>
      </section>

      <section aria-labelledby="results-heading">
        <h2 id="results-heading">{t("audit.resultsHeading")}</h2>
        <p>
          <Link to={csvHref} reloadDocument>
            {t("audit.csv")}
          </Link>
          <br />
          <span className="app-audit__note">{t("audit.csvText", { max: exportLimit.toLocaleString("nb-NO") })}</span>
        </p>
        {entries.length === 0 ? (
          <p>{t("audit.none")}</p>
        ) : (
          <Table
            caption={t("audit.caption")}
            captionHidden
            className="app-audit__table"
            columns={[
              { header: t("audit.when") },
              { header: t("audit.actionColumn") },
              { header: t("audit.actor") },
              { header: t("audit.subject") },
              { header: t("audit.details") },
            ]}
            rows={entries.map((entry) => ({
              key: entry.key,
              cells: [
                <time key="when" dateTime={entry.iso}>
                  {entry.when}
                </time>,
                <span key="action" data-code={entry.code}>
                  {entry.action}
                </span>,
                person(entry.actor),
                entry.subject ? person(entry.subject) : "",
                entry.className || entry.details.length > 0 ? (
                  <dl key="details" className="app-audit__details">
                    {entry.className ? (
                      <div>
                        <dt>{t("audit.classLabel")}:</dt> <dd>{entry.className}</dd>
                      </div>
                    ) : null}
                    {entry.details.map((line) => (
                      <div key={line.label}>
                        <dt>{line.label}:</dt> <dd>{line.value}</dd>
                      </div>
                    ))}
                  </dl>
                ) : (
                  ""
                ),
              ],
            }))}
          />
        )}
        {newer || older ? (
          <nav className="ui-pagination app-pages" aria-label={t("audit.pages")}>
            <p className="ui-pagination__status">{t("audit.page", { page: query.page })}</p>
            {newer ? (
              <Link to={newer} rel="prev" className="ui-button ui-button--secondary ui-pagination__link">
                {t("audit.newer")}
              </Link>
            ) : null}
            {older ? (
              <Link to={older} rel="next" className="ui-button ui-button--secondary ui-pagination__link">
                {t("audit.older")}
              </Link>
            ) : null}
          </nav>
        ) : null}
      </section>
    </div>
  );
}
