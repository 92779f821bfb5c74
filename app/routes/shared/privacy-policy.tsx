import { useTranslation } from "react-i18next";
import { PrivacyText } from "~/components/app/PrivacyText";
import { getLanguage } from "~/services/platform/i18n.server";
import { currentInstitution, formatOrganisationNumber } from "~/services/platform/institution.server";
import type { Route } from "./+types/privacy-policy";

export const handle = { titleKey: "common:privacy.title" };

export async function loader({ context }: Route.LoaderArgs) {
  const institution = currentInstitution();
  const language = getLanguage(context);
  return {
    privacy: institution[language].privacy,
    version: institution.privacyPolicyVersion,
    organisationNumber: formatOrganisationNumber(institution.organisationNumber),
  };
}

export default function PrivacyPolicy({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div className="app-content app-prose">
      <h1>{t("privacy.title")}</h1>
      <PrivacyText intro={loaderData.privacy.intro} sections={loaderData.privacy.sections} headingLevel={2} />
      <p className="app-meta">{t("privacy.version", { version: loaderData.version })}</p>
    </div>
  );
}
