import { useTranslation } from "react-i18next";
import { Form, redirect } from "react-router";
import { PrivacyText } from "~/components/app/PrivacyText";
import { Button } from "~/components/ui";
import { acceptPrivacyPolicy, logout, homeOf, requireSession } from "~/services/identity/index.server";
import { audit } from "~/services/platform/audit.server";
import { getDb } from "~/services/platform/db/index.server";
import { redirectWithFlash } from "~/services/platform/flash.server";
import { getLanguage } from "~/services/platform/i18n.server";
import { currentInstitution } from "~/services/platform/institution.server";
import { clientAddress, readFormData } from "~/services/platform/request.server";
import { safeRedirect } from "~/services/identity";
import type { Route } from "./+types/privacy-consent";

export const handle = { titleKey: "common:privacy.consentTitle" };

/** The gate after log-in: nothing else opens until the policy in force is accepted (the processing of personal data rests on it; docs/rules/identity.md). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireSession(request, context, { privacyGate: false });
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "");
  if (session.privacyAccepted) throw redirect(redirectTo || homeOf(session));
  const institution = currentInstitution();
  return { privacy: institution[getLanguage(context)].privacy, redirectTo };
}

export async function action({ request, context }: Route.ActionArgs) {
  const session = requireSession(request, context, { privacyGate: false });
  const form = await readFormData(request);
  const db = await getDb();
  const ip = clientAddress(request);
  if (form.get("intent") === "accept") {
    await acceptPrivacyPolicy(db, session.user.id, currentInstitution().privacyPolicyVersion, ip);
    const target = safeRedirect(form.get("redirectTo"), "");
    return redirect(target || homeOf(session), 303);
  }
  if (form.get("intent") === "decline") {
    await audit(db, { action: "privacy.declined", actorUserId: session.user.id, ip });
    const clear = await logout(db, { sessionId: session.id, userId: session.user.id, ip });
    return redirectWithFlash("/", { type: "info", key: "common:privacy.declined" }, { "Set-Cookie": clear });
  }
  throw new Response("Unknown intent", { status: 400 });
}

export default function PrivacyConsent({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div className="app-content app-prose">
      <h1>{t("privacy.consentTitle")}</h1>
      <p>{t("privacy.consentIntro")}</p>
      <PrivacyText intro={loaderData.privacy.intro} sections={loaderData.privacy.sections} headingLevel={2} />
      <Form method="post" className="app-actions">
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <Button name="intent" value="accept">
          {t("privacy.accept")}
        </Button>
        <Button name="intent" value="decline" variant="secondary">
          {t("privacy.decline")}
        </Button>
      </Form>
    </div>
  );
}
