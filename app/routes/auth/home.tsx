import { useTranslation } from "react-i18next";
import { Form, Link, redirect } from "react-router";
import { href } from "~/components/href";
import { Button } from "~/components/ui";
import { offeredProviders, currentSession, homeOf, requireSession } from "~/services/identity/index.server";
import { safeRedirect } from "~/services/identity";
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
  return { redirectTo, providers: offeredProviders() };
}

/** A plain form post (also with JS): the answer is a redirect to another site. */
function ProviderButton({ provider, label, redirectTo }: { provider: string; label: string; redirectTo: string }) {
  return (
    <Form method="post" action={href("/auth/:provider", { provider })} reloadDocument className="app-provider-form">
      {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
      <Button className={`app-provider-button app-provider-button--${provider}`}>{label}</Button>
    </Form>
  );
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("auth");
  const { redirectTo, providers } = loaderData;
  const query = redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : "";
  return (
    <div className="app-narrow">
      <h1>{t("main.title")}</h1>
      <p>{t("main.intro")}</p>

      <h2>{t("main.feideHeading")}</h2>
      {providers.feide ? (
        <>
          <p>{t("main.feideText")}</p>
          <ProviderButton provider="feide" label={t("main.feideButton")} redirectTo={redirectTo} />
        </>
      ) : (
        <p>{t("main.feideMissing")}</p>
      )}

      <h2>{t("main.supervisorHeading")}</h2>
      {providers.vipps ? (
        <>
          <p>{t("main.vippsText")}</p>
          <ProviderButton provider="vipps" label={t("main.vippsButton")} redirectTo={redirectTo} />
        </>
      ) : (
        <p>{t("main.vippsMissing")}</p>
      )}

      <h2>{t("main.emailHeading")}</h2>
      <p>{t("main.emailText")}</p>
      <p>
        <Link className="ui-button ui-button--secondary" to={`${href("/login")}${query}`}>
          {t("main.emailButton")}
        </Link>
      </p>
    </div>
  );
}
