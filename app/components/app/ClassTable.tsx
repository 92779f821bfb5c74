import { useTranslation } from "react-i18next";
import { Table, Tag } from "~/components/ui";

export interface ClassRow {
  classId: number;
  subjectCode: string;
  subjectName: string;
  periodName: string;
  isCurrent: boolean;
  studentCount: number;
  ownStudentCount?: number;
}

/** A list of classes as a table: subject, semester, whether it runs now, and its students. */
export function ClassTable({ caption, rows, showOwn = false }: { caption: string; rows: ClassRow[]; showOwn?: boolean }) {
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
          <>
            {row.subjectCode} {row.subjectName}
          </>,
          <>
            {row.periodName} {row.isCurrent ? <Tag variant="info">{t("classes.current")}</Tag> : null}
          </>,
          row.studentCount,
          ...(showOwn ? [row.ownStudentCount ?? 0] : []),
        ],
      }))}
    />
  );
}
