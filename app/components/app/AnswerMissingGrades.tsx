// The form page's list of grades still missing after "Send": each links to the page of its question.
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { AlertBanner } from "~/components/ui";
import type { FormPageView } from "~/services/answering/index.server";

export function AnswerMissingGrades({ missing, view }: { missing: number[]; view: FormPageView }) {
  const { t } = useTranslation("answers");
  const location = useLocation();
  const search = new URLSearchParams(location.search);
  const hrefOf = (id: number) => {
    search.set("group", String(view.pageOfQuestion[id]));
    return `${location.pathname}?${search}#q-${id}`;
  };
  return (
    <div id="missing-grades" tabIndex={-1}>
      <AlertBanner variant="warning" heading={t("missing.heading", { count: missing.length })}>
        <p>{t("missing.text")}</p>
        <ul>
          {missing.map((id) => (
            <li key={id}>
              <Link to={hrefOf(id)}>
                {t("missing.item", { page: view.pageOfQuestion[id], question: view.questionText[id] })}
              </Link>
            </li>
          ))}
        </ul>
      </AlertBanner>
    </div>
  );
}
