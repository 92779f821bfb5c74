import { useTranslation } from "react-i18next";
import { Link, redirect } from "react-router";
import { currentSession, homeOf, requireSession } from "~/services/request.server";
import { safeRedirect } from "~/services/roles";
import type { Route } from "./+types/home";

export const handle = { titleKey: "auth:main.title" };

/** "/" is the log-in page for a visitor and the way home for a user. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const session = currentSession(context);
  if (session) {
    requireSession(request, context);
    throw redirect(homeOf(session));
  }
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "");
  return { redirectTo };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("auth");
  const query = loaderData.redirectTo ? `?redirectTo=${encodeURIComponent(loaderData.redirectTo)}` : "";
  return (
    <div className="app-narrow">
      <h1>{t("main.title")}</h1>
      <p>{t("main.intro")}</p>
      <h2>{t("main.emailHeading")}</h2>
      <p>{t("main.emailText")}</p>
      <p>
        <Link className="ui-button" to={`/login${query}`}>
          {t("main.emailButton")}
        </Link>
      </p>
      <h2>{t("main.otherHeading")}</h2>
      <p>{t("main.otherText")}</p>
    </div>
  );
}
