import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { href } from "~/components/href";
import { SubmitButton } from "~/components/app/SubmitButton";
import { RadioGroup } from "~/components/ui";

/** A student without a class this semester: the classes of their subjects (from Feide) to join. */
export function StudentJoinClass({
  matching,
}: {
  matching: { classId: number; subjectCode: string; subjectName: string; semesterName: string }[];
}) {
  const { t } = useTranslation("student");
  return (
    <>
      <h2>{t("home.joinHeading")}</h2>
      {matching.length === 0 ? (
        <p>{t("join.noneMatching")}</p>
      ) : (
        <>
          <p>{t("home.joinIntro")}</p>
          <p>{t("join.onlyMatching")}</p>
          <Form method="post" action={href("/student/join-class")} noValidate>
            <RadioGroup
              name="classId"
              id="classId"
              legend={t("join.legend")}
              legendSize="s"
              required
              options={matching.map((c) => ({
                value: String(c.classId),
                label: `${c.subjectCode} ${c.subjectName}`,
                hint: c.semesterName,
              }))}
            />
            <SubmitButton>{t("join.submit")}</SubmitButton>
          </Form>
        </>
      )}
    </>
  );
}
