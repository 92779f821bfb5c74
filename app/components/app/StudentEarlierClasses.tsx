import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Table, VisuallyHidden } from "~/components/ui";

/** The student's classes of earlier semesters, with their documents to download. */
export function StudentEarlierClasses({
  earlier,
}: {
  earlier: {
    classId: number;
    subjectCode: string;
    subjectName: string;
    semesterName: string;
    fullPdf: string;
    signingFormPdf: string | null;
  }[];
}) {
  const { t } = useTranslation("student");
  if (earlier.length === 0) return null;
  return (
    <>
      <h2>{t("home.earlierHeading")}</h2>
      <Table
        caption={t("home.earlierHeading")}
        captionHidden
        rowHeaders
        columns={[{ header: t("home.subject") }, { header: t("home.semester") }, { header: t("home.documents") }]}
        rows={earlier.map((c) => {
          const context = t("home.downloadFor", { subject: c.subjectCode, semester: c.semesterName });
          return {
            key: String(c.classId),
            cells: [
              `${c.subjectCode} ${c.subjectName}`,
              c.semesterName,
              <ul className="student-downloads" key="documents">
                <li>
                  <Link to={c.fullPdf} reloadDocument>
                    {t("home.downloadForms")}
                    <VisuallyHidden> {context}</VisuallyHidden>
                  </Link>
                </li>
                {c.signingFormPdf ? (
                  <li>
                    <Link to={c.signingFormPdf} reloadDocument>
                      {t("home.downloadSigningForm")}
                      <VisuallyHidden> {context}</VisuallyHidden>
                    </Link>
                  </li>
                ) : null}
              </ul>,
            ],
          };
        })}
      />
    </>
  );
}
