import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Table, Tag, VisuallyHidden } from "~/components/ui";
import type { FormProgress } from "~/services/placements/index.server";

/** One form of the student's list: its state in the student's own words, where to fill it in and see its results. */
export interface StudentFormRow {
  key: string;
  name: string;
  state: FormProgress["own"]["state"];
  at: string | null;
  href: string;
  resultsHref: string;
}

/** `closed`: the teacher has confirmed the half (the mid-semester part), so its forms are there to be seen. */
export function StudentFormTable({
  caption,
  rows,
  links,
  closed = false,
}: {
  caption: string;
  rows: StudentFormRow[];
  links: boolean;
  closed?: boolean;
}) {
  const { t } = useTranslation("student");
  const status = (row: StudentFormRow) =>
    row.state === "sent" ? (
      <Tag variant="success">{t("forms.sent", { date: row.at })}</Tag>
    ) : row.state === "draft" ? (
      <Tag variant="warning">{t("forms.draft", { date: row.at })}</Tag>
    ) : (
      <Tag variant="neutral">{t("forms.notBegun")}</Tag>
    );
  const verb = (row: StudentFormRow) =>
    closed
      ? t("forms.view")
      : row.state === "sent"
        ? t("forms.open")
        : row.state === "draft"
          ? t("forms.continue")
          : t("forms.start");
  return (
    <Table
      caption={caption}
      captionHidden
      rowHeaders
      columns={[
        { header: t("forms.form") },
        { header: t("forms.status") },
        ...(links ? [{ header: <VisuallyHidden>{t("forms.action")}</VisuallyHidden> }] : []),
      ]}
      rows={rows.map((row) => ({
        key: row.key,
        cells: [
          row.name,
          status(row),
          ...(links
            ? [
                <ul className="student-form-links" key="links">
                  <li>
                    <Link to={row.href}>
                      {verb(row)}
                      <VisuallyHidden> {row.name}</VisuallyHidden>
                    </Link>
                  </li>
                  <li>
                    <Link to={row.resultsHref}>
                      {t("forms.results")}
                      <VisuallyHidden> {t("forms.resultsFor", { form: row.name })}</VisuallyHidden>
                    </Link>
                  </li>
                </ul>,
              ]
            : []),
        ],
      }))}
    />
  );
}
