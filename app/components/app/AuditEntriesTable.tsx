import { useTranslation } from "react-i18next";
import { Table } from "~/components/ui";
import type { DetailLine } from "~/services/admin/index.server";

/** Who acted or whose data it was: a name and an e-mail address; none for the system itself. */
export type AuditPerson = { name: string; email: string | null } | null;

/** One line of the audit log, in the reader's words and language (the loader's auditInWords). */
export interface AuditEntryRow {
  key: string;
  /** The time as text, and as an ISO timestamp for <time>. */
  when: string;
  iso: string;
  /** The action in words, and its code. */
  action: string;
  code: string;
  actor: AuditPerson;
  subject: AuditPerson;
  className: string | null;
  details: DetailLine[];
}

/** The audit log's results: when, what, who did it, to whom, and the details of each entry. */
export function AuditEntriesTable({ entries }: { entries: AuditEntryRow[] }) {
  const { t } = useTranslation("privacyData");
  const person = (p: AuditPerson) =>
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
  );
}
