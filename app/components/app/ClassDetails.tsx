import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { SummaryList, Table, Tag } from "~/components/ui";

/** A class's header with its dates as text in the reader's language (classHeaderView). */
export interface ClassDetailsHeader {
  semesterName: string;
  semesterStartText: string | null;
  semesterEndText: string | null;
  midSemesterText: string | null;
  endSemesterText: string | null;
}

/**
 * The class's semester and evaluation dates, the same on the admin's, teacher's and supervisor's
 * class pages; with `deadline`, also the deadline that applies now (deadline.ts).
 */
export function ClassDetails({
  header,
  deadline,
}: {
  header: ClassDetailsHeader;
  deadline?: { half: "mid" | "end"; text: string | null };
}) {
  const { t } = useTranslation();
  const notSet = t("classDetails.notSet");
  return (
    <SummaryList
      rows={[
        {
          key: t("classDetails.semester"),
          value: t("classDetails.semesterValue", {
            name: header.semesterName,
            start: header.semesterStartText,
            end: header.semesterEndText,
          }),
        },
        { key: t("classDetails.midSemesterDate"), value: header.midSemesterText ?? notSet },
        { key: t("classDetails.endSemesterDate"), value: header.endSemesterText ?? notSet },
        ...(deadline
          ? [
              {
                key: t("classDetails.deadline"),
                value: deadline.text
                  ? t(deadline.half === "mid" ? "classDetails.deadlineMid" : "classDetails.deadlineEnd", {
                      date: deadline.text,
                    })
                  : notSet,
              },
            ]
          : []),
      ]}
    />
  );
}

export interface SchemeRow {
  schemeId: number;
  isMidSemester: boolean;
  forms: { formId: number; name: string; isMainForm: boolean }[];
}

/**
 * The class's response schemes as the teacher and the supervisor see them: each half and its forms;
 * with `formHref`, each form's name links to the form to read (`/teacher/form/{formId}`).
 */
export function SchemesTable({ schemes, formHref }: { schemes: SchemeRow[]; formHref?: (formId: number) => string }) {
  const { t } = useTranslation();
  if (schemes.length === 0) return <p>{t("schemes.none")}</p>;
  return (
    <Table
      caption={t("schemes.heading")}
      captionHidden
      rowHeaders
      stack={false}
      columns={[{ header: t("schemes.half") }, { header: t("schemes.forms") }]}
      rows={schemes.map((scheme) => ({
        key: String(scheme.schemeId),
        cells: [
          scheme.isMidSemester ? t("schemes.mid") : t("schemes.end"),
          scheme.forms.length === 0 ? (
            t("schemes.noForms")
          ) : (
            <ul className="placement-list" key="forms">
              {scheme.forms.map((form) => (
                <li key={form.formId}>
                  {formHref ? <Link to={formHref(form.formId)}>{form.name}</Link> : form.name}{" "}
                  <Tag variant={form.isMainForm ? "info" : "neutral"}>
                    {form.isMainForm ? t("schemes.mainForm") : t("schemes.specific")}
                  </Tag>
                </li>
              ))}
            </ul>
          ),
        ],
      }))}
    />
  );
}
