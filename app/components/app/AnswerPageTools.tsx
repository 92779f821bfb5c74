// The bar above the form page's questions: the step, how much is answered or sent, and the reference links.
import { useTranslation } from "react-i18next";
import { VisuallyHidden } from "~/components/ui";
import { Progress } from "~/components/ui/Progress";
import type { FormPageView } from "~/services/answering/index.server";

export function AnswerPageTools({
  view,
  scaleHref,
  guidanceHref,
}: {
  view: FormPageView;
  scaleHref: string;
  guidanceHref: string | null;
}) {
  const { t } = useTranslation("answers");
  const group = view.group!;
  return (
    <div className="answer-page__tools">
      <Progress
        id="answer-progress"
        label={t("page.progressLabel", { page: view.page, count: view.pageCount })}
        value={view.page}
        max={view.pageCount}
        valueText={t("page.progressText", { page: view.page, count: view.pageCount, group: group.name })}
      />
      <p className="answer-page__meta">
        {view.mode === "expectations"
          ? t("expectations.count", { done: view.graded.done, total: view.graded.total })
          : view.sentText
            ? t("page.sent", { date: view.sentText })
            : t("page.notSent", { done: view.graded.done, total: view.graded.total })}
      </p>
      <p className="answer-page__links">
        <a href={scaleHref} target="_blank" rel="noopener">
          {t("page.scale")}
          <VisuallyHidden> {t("page.newTab")}</VisuallyHidden>
        </a>
        {guidanceHref ? (
          <>
            {" · "}
            <a href={guidanceHref} target="_blank" rel="noopener">
              {t("page.guidance")}
              <VisuallyHidden> {t("page.newTab")}</VisuallyHidden>
            </a>
          </>
        ) : null}
      </p>
    </div>
  );
}
