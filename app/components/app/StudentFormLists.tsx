import { useTranslation } from "react-i18next";
import { StudentFormTable, type StudentFormRow } from "./StudentFormTable";

type Half = "mid" | "end";

/** The forms of the half the student is in now, main forms and subject-specific forms apart, under its deadline. */
export function StudentCurrentForms({
  half,
  deadline,
  mainForms,
  specificForms,
}: {
  half: Half;
  deadline: string | null;
  mainForms: StudentFormRow[];
  specificForms: StudentFormRow[];
}) {
  const { t } = useTranslation("student");
  const currentHeading = half === "mid" ? t("forms.currentMid") : t("forms.currentEnd");
  return (
    <>
      <h2>{currentHeading}</h2>
      <p className="student-deadline">
        {deadline
          ? t(half === "mid" ? "forms.deadlineMid" : "forms.deadlineEnd", { date: deadline })
          : t("forms.noDeadline")}
      </p>
      {mainForms.length + specificForms.length === 0 ? (
        <p>{t("forms.noSchemes")}</p>
      ) : (
        <>
          {mainForms.length > 0 ? (
            <>
              <h3>{t("forms.mainForms")}</h3>
              <StudentFormTable caption={t("forms.mainForms")} rows={mainForms} links />
            </>
          ) : null}
          {specificForms.length > 0 ? (
            <>
              <h3>{t("forms.specificForms")}</h3>
              <StudentFormTable caption={t("forms.specificForms")} rows={specificForms} links />
            </>
          ) : null}
        </>
      )}
    </>
  );
}

/**
 * The other half's forms: the mid-semester half's once it is over, either because the teacher
 * confirmed it (`midConfirmed`: its forms are to be seen) or because its date has passed (its forms
 * can still be sent); or the end-semester half's, to be read ahead, without links.
 */
export function StudentOtherForms({
  half,
  forms,
  midConfirmed,
}: {
  half: Half;
  forms: StudentFormRow[];
  midConfirmed: boolean;
}) {
  const { t } = useTranslation("student");
  if (forms.length === 0) return null;
  const heading = half === "end" ? t("forms.otherEnd") : midConfirmed ? t("forms.otherMid") : t("forms.otherMidLate");
  return (
    <>
      <h2>{heading}</h2>
      {half === "end" ? <p>{t("forms.otherEndHint")}</p> : null}
      <StudentFormTable caption={heading} rows={forms} links={half === "mid"} closed={midConfirmed} />
    </>
  );
}
