import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Table, Tag } from "~/components/ui";

export interface ClassRow {
  classId: number;
  subjectCode: string;
  subjectName: string;
  semesterName: string;
  isCurrent: boolean;
  studentCount: number;
  ownStudentCount?: number;
}

/**
 * A list of classes as a table: subject, semester, whether it runs now, and its students. With
 * `linkTo`, the subject links to the class's page.
 */
export function ClassTable({
  caption,
  rows,
  showOwn = false,
  linkTo,
}: {
  caption: string;
  rows: ClassRow[];
  showOwn?: boolean;
  linkTo?: (classId: number) => string;
}) {
  const { t } = useTranslation();
  if (rows.length === 0) return <p>{t("classes.none")}</p>;
  return (
    <Table
      caption={caption}
      captionHidden
      rowHeaders
      columns={[
        { header: t("classes.subject") },
        { header: t("classes.semester") },
        { header: t("classes.students"), numeric: true },
        ...(showOwn ? [{ header: t("classes.ownStudents"), numeric: true }] : []),
      ]}
      rows={rows.map((row) => ({
        key: String(row.classId),
        cells: [
          linkTo ? (
            <Link to={linkTo(row.classId)}>
              {row.subjectCode} {row.subjectName}
            </Link>
          ) : (
            <>
              {row.subjectCode} {row.subjectName}
            </>
          ),
          <>
            {row.semesterName} {row.isCurrent ? <Tag variant="info">{t("classes.current")}</Tag> : null}
          </>,
          row.studentCount,
          ...(showOwn ? [row.ownStudentCount ?? 0] : []),
        ],
      }))}
    />
  );
}
