import { useTranslation } from "react-i18next";
import { isRouteErrorResponse, Link, useLocation } from "react-router";

/**
 * The form page's own error page, inside the app's frame: a page that cannot be shown (the database
 * restarting, say) says so, and that what was typed is kept in this browser and comes back with the
 * page (the autosave's keeper); other errors read as on the app's error page.
 */
export function AnswerPageError({ error }: { error: unknown }) {
  const { t } = useTranslation(["answers", "common"]);
  const location = useLocation();
  const status = isRouteErrorResponse(error) ? error.status : null;
  if (status === 404 || status === 400) {
    const name = status === 404 ? "notFound" : "badRequest";
    return (
      <div className="app-content">
        <h1>{t(`common:errors.${name}Title`)}</h1>
        <p>{t(`common:errors.${name}Text`)}</p>
        <p>
          <Link to="/">{t("common:errors.home")}</Link>
        </p>
      </div>
    );
  }
  return (
    <div className="app-content">
      <h1>{t("answers:pagePost.errorHeading")}</h1>
      <p>{t("answers:pagePost.errorText")}</p>
      <p>
        {/* A plain link: the whole page is loaded again, and the autosave puts back what it kept. */}
        <a href={location.pathname + location.search}>{t("answers:pagePost.reload")}</a>
      </p>
      <p>
        <Link to="/">{t("common:errors.home")}</Link>
      </p>
    </div>
  );
}
