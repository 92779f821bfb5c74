import { useTranslation } from "react-i18next";
import { href } from "~/components/href";
import { Card, LinkButton, SummaryList } from "~/components/ui";

/** The student's class this semester: who follows them and the deadline of the half they are in. */
export function StudentCurrentClass({
  current,
}: {
  current: {
    subjectCode: string;
    subjectName: string;
    semesterName: string;
    teacher: string | null;
    supervisors: string[];
    half: "mid" | "end";
    deadline: string | null;
  };
}) {
  const { t } = useTranslation("student");
  return (
    <>
      <h2>{t("home.currentHeading")}</h2>
      <Card
        title={`${current.subjectCode} ${current.subjectName}`}
        headingLevel={3}
        actions={<LinkButton to={href("/student/forms")}>{t("home.toForms")}</LinkButton>}
      >
        <SummaryList
          rows={[
            { key: t("home.semester"), value: current.semesterName },
            { key: t("home.teacher"), value: current.teacher ?? t("home.nobody") },
            {
              key: t("home.supervisors"),
              value: current.supervisors.length > 0 ? current.supervisors.join(", ") : t("home.nobody"),
            },
            {
              key: current.half === "mid" ? t("home.deadlineMid") : t("home.deadlineEnd"),
              value: current.deadline ?? t("home.notSet"),
            },
          ]}
        />
      </Card>
    </>
  );
}
