// The top of the form page: the way back, the form's name with its half, subject and student, and the step.
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { PageHeading, VisuallyHidden } from "~/components/ui";
import type { FormPageView } from "~/services/answering/index.server";

export function AnswerPageHeading({ view, exit }: { view: FormPageView; exit: string }) {
  const { t } = useTranslation("answers");
  const caption = [
    view.isMidSemester ? t("half.mid") : t("half.end"),
    view.subject,
    view.self ? null : view.student?.displayName,
  ]
    .filter(Boolean)
    .join(" · ");
  return (
    <>
      <p>
        <Link to={exit}>{t("page.back")}</Link>
      </p>
      <PageHeading caption={caption}>
        {view.formName}
        {/* The step is read with the heading, where focus goes after each move between the pages. */}
        {view.group && !view.locked ? (
          <VisuallyHidden>{` – ${t("page.progressText", { page: view.page, count: view.pageCount, group: view.group.name })}`}</VisuallyHidden>
        ) : null}
      </PageHeading>
    </>
  );
}
