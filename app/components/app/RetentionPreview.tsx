import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { kindKey, ruleKey } from "~/components/app/RetentionRules";
import { Table } from "~/components/ui";
import { Pagination } from "~/components/ui/Pagination";
import type { RecordKind, RetentionRule } from "~/services/records";

type Count = { kind: RecordKind; countText: string };

/** The retention page's data, in the reader's language (the route makes it). */
export interface RetentionPreviewView {
  kinds: { rule: RetentionRule; count: number; countText: string }[];
  classes: { key: string; href: string; subject: string; semester: string; counts: Count[] }[];
  page: number;
  pages: number;
  previous: string | null;
  next: string | null;
  nextRun: string | null;
  lastRun: { when: string; counts: Count[] } | null;
}

/** "Svar og kommentarer: 12, Varsler: 1": what goes of one class, or of one run. */
function CountList({ counts }: { counts: Count[] }) {
  const { t } = useTranslation("records");
  return (
    <ul>
      {counts.map((c) => (
        <li key={c.kind}>{t("retention.countOf", { kind: t(kindKey(c.kind)), count: c.countText })}</li>
      ))}
    </ul>
  );
}

/** What the next run removes, per kind and per class, and when the runs are: the admin's /admin/retention. */
export function RetentionPreviewPage(view: RetentionPreviewView) {
  const { t } = useTranslation("records");
  const { kinds, classes, lastRun } = view;
  return (
    <>
      <>
        <h2 id="kinds-heading">{t("retention.rulesHeading")}</h2>
        {kinds.every((k) => k.count === 0) ? <p>{t("retention.nothing")}</p> : null}
        <Table
          caption={t("retention.rulesHeading")}
          captionHidden
          rowHeaders
          columns={[
            { header: t("retention.kind") },
            { header: t("retention.rule") },
            { header: t("retention.count"), numeric: true },
          ]}
          rows={kinds.map((k) => ({
            key: k.rule.kind,
            cells: [t(kindKey(k.rule.kind)), t(ruleKey(k.rule), { count: k.rule.keepDays }), k.countText],
          }))}
        />
        <p>{t("retention.fileNote")}</p>
      </>

      <section aria-labelledby="classes-heading">
        <h2 id="classes-heading" tabIndex={-1}>
          {t("retention.classesHeading")}
        </h2>
        {classes.length === 0 ? (
          <p>{t("retention.noClasses")}</p>
        ) : (
          <Table
            caption={t("retention.classesCaption")}
            captionHidden
            rowHeaders
            columns={[
              { header: t("retention.subject") },
              { header: t("retention.semester") },
              { header: t("retention.removed") },
            ]}
            rows={classes.map((c) => ({
              key: c.key,
              cells: [<Link to={c.href}>{c.subject}</Link>, c.semester, <CountList counts={c.counts} />],
            }))}
          />
        )}
        {view.pages > 1 ? (
          <Pagination
            navLabel={t("retention.pages")}
            className="app-pages"
            status={t("retention.page", { page: view.page, pages: view.pages })}
            prev={view.previous ? { href: view.previous, label: t("retention.previous") } : undefined}
            href={view.next ?? undefined}
            label={t("retention.next")}
          />
        ) : null}
      </section>

      <section aria-labelledby="runs-heading">
        <h2 id="runs-heading">{t("retention.runsHeading")}</h2>
        <p>{view.nextRun ? t("retention.nextRun", { when: view.nextRun }) : t("retention.nextRunUnknown")}</p>
        {!lastRun ? (
          <p>{t("retention.noLastRun")}</p>
        ) : lastRun.counts.length === 0 ? (
          <p>{t("retention.lastRunNothing", { when: lastRun.when })}</p>
        ) : (
          <>
            <p>{t("retention.lastRun", { when: lastRun.when })}</p>
            <CountList counts={lastRun.counts} />
          </>
        )}
      </section>
    </>
  );
}
