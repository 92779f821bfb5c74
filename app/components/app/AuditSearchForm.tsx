import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import { Button, RadioGroup, Select, TextField, type SelectOption } from "~/components/ui";
import type { AuditQuery } from "~/services/admin/index.server";

/**
 * The audit log's search: a person, as whom, an action and a period. A GET form, so a search is a
 * link and works without JavaScript; "Nullstill" is a link to the page without a query.
 */
export function AuditSearchForm({ query, actions }: { query: AuditQuery; actions: SelectOption[] }) {
  const { t } = useTranslation("privacyData");
  return (
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
  );
}
