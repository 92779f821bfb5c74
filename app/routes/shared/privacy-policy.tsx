import { useTranslation } from "react-i18next";
import { PrivacyText } from "~/components/app/PrivacyText";
import { RetentionRuleList } from "~/components/app/RetentionRules";
import { provideNamespace } from "~/i18n-client/page-namespaces";
import enRecords from "~/locales/en/records.json";
import nbRecords from "~/locales/nb/records.json";
import { getLanguage } from "~/services/platform/i18n.server";
import { currentInstitution, formatOrganisationNumber } from "~/services/platform/institution.server";
import { ERASED_NAME, retentionRules } from "~/services/records";
import type { Route } from "./+types/privacy-policy";

provideNamespace("records", { nb: nbRecords, en: enRecords });

export const handle = { titleKey: "common:privacy.title" };

export async function loader({ context }: Route.LoaderArgs) {
  const institution = currentInstitution();
  const language = getLanguage(context);
  return {
    privacy: institution[language].privacy,
    version: institution.privacyPolicyVersion,
    organisationNumber: formatOrganisationNumber(institution.organisationNumber),
    // The periods the daily run keeps to (the institution's file, else the defaults), under the institution's own text.
    retention: retentionRules(institution),
  };
}

export default function PrivacyPolicy({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { t: tr } = useTranslation("records");
  return (
    <div className="app-content app-prose">
      <h1>{t("privacy.title")}</h1>
      <PrivacyText intro={loaderData.privacy.intro} sections={loaderData.privacy.sections} headingLevel={2} />
      <section aria-labelledby="retention-heading">
        <h2 id="retention-heading">{tr("privacy.heading")}</h2>
        <p>{tr("privacy.intro")}</p>
        <RetentionRuleList rules={loaderData.retention} />
        <p>{tr("privacy.anonymised", { name: ERASED_NAME })}</p>
      </section>
      <p className="app-meta">{t("privacy.version", { version: loaderData.version })}</p>
    </div>
  );
}
