import { useTranslation } from "react-i18next";
import { data, Link, redirect } from "react-router";
import { href } from "~/components/href";
import { AlertBanner } from "~/components/ui";
import { getDb } from "~/services/platform/db/index.server";
import { getInstance, getLanguage } from "~/services/platform/i18n.server";
import { appName, currentInstitution } from "~/services/platform/institution.server";
import { finishProviderLogin, currentSession, homeOf } from "~/services/identity/index.server";
import { clientAddress } from "~/services/platform/request.server";
import type { Route } from "./+types/provider-callback";
import { provideNamespace } from "~/i18n-client/page-namespaces";
import enAuthPages from "~/locales/en/authPages.json";
import nbAuthPages from "~/locales/nb/authPages.json";

// This page's part of the auth texts is not in the language chunk every page loads (ADR 0012).
provideNamespace("auth", { nb: nbAuthPages, en: enAuthPages });

/**
 * /feide-success and /vipps-success: the provider's answer. A log-in goes on to the user's page (or,
 * for a Vipps number nobody has proved yet, to the page that asks for the account's e-mail code); every
 * other outcome (cancelled, refused, a state that does not match or has expired, the provider down
 * or not set up here) is this page, with its status, what happened, and the way back to log-in.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const provider = new URL(request.url).pathname.startsWith("/vipps") ? "vipps" : "feide";
  const session = currentSession(context);
  if (session) throw redirect(homeOf(session));
  const { t } = getInstance(context);
  const wording = { t, appName: appName(currentInstitution(), getLanguage(context)) };
  const outcome = await finishProviderLogin(await getDb(), provider, request, clientAddress(request), wording);
  if (outcome instanceof Response) return outcome;

  const title = t(outcome.title.key, outcome.title.values);
  const query = outcome.redirectTo ? `?redirectTo=${encodeURIComponent(outcome.redirectTo)}` : "";
  // The removed state cookies (like every page's, the answer is not cached: the security middleware).
  const headers = new Headers();
  for (const cookie of outcome.cookies) headers.append("Set-Cookie", cookie);
  return data(
    {
      pageTitle: title,
      title,
      message: t(outcome.message.key, outcome.message.values),
      reason: outcome.reason,
      loginHref: `${href("/")}${query}`,
      emailHref: `${href("/login")}${query}`,
    },
    { status: outcome.status, headers },
  );
}

export default function ProviderCallback({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("auth");
  return (
    <div className="app-narrow">
      <h1>{loaderData.title}</h1>
      <AlertBanner variant="error">
        <p>{loaderData.message}</p>
      </AlertBanner>
      <p>
        <Link className="ui-button" to={loaderData.loginHref}>
          {t("provider.callback.back")}
        </Link>
      </p>
      <p>
        <Link to={loaderData.emailHref}>{t("provider.callback.email")}</Link>
      </p>
    </div>
  );
}
