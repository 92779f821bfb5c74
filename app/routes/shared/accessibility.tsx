import { useTranslation } from "react-i18next";
import { getLanguage } from "~/services/platform/i18n.server";
import { currentInstitution } from "~/services/platform/institution.server";
import type { Route } from "./+types/accessibility";
import "~/styles/read-pages.css";
import enAccessibility from "~/locales/en/accessibility.json";
import nbAccessibility from "~/locales/nb/accessibility.json";
import { provideNamespace } from "~/i18n-client/page-namespaces";

provideNamespace("accessibility", { nb: nbAccessibility, en: enAccessibility });

export const handle = { titleKey: "accessibility:title" };

/** Where complaints about universal design go in Norway (the ICT regulation's supervisory authority). */
const AUTHORITY_URL = "https://www.uutilsynet.no/";

/**
 * What Praksis meets of universal design, how it is tested, its known exceptions and whom to
 * contact (a public service's accessibility statement, required by law). Public, like the privacy policy: it holds no personal data. The institution's
 * own statement (uustatus.no) and contact come from its variant file.
 */
export function loader({ context }: Route.LoaderArgs) {
  const institution = currentInstitution();
  return {
    institutionName: institution[getLanguage(context)].institutionName,
    statementUrl: institution.accessibility.statementUrl,
    contactEmail: institution.accessibility.contactEmail,
  };
}

const MEETS = ["wcag", "noJs", "reflow", "keyboard", "screenReader", "language", "chart"] as const;
const TESTING = ["axe", "users", "reflow", "permissions", "pdf"] as const;
const EXCEPTIONS = ["pdf", "timeout", "code", "providers"] as const;

export default function Accessibility({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("accessibility");
  const { institutionName, statementUrl, contactEmail } = loaderData;
  return (
    <div className="app-content read-page">
      <h1>{t("title")}</h1>
      <p className="app-lead">{t("intro", { institution: institutionName })}</p>
      <p>
        <a href={statementUrl}>{t("statement")}</a>
      </p>

      <h2 id="meets">{t("meets.heading")}</h2>
      <ul aria-labelledby="meets">
        {MEETS.map((key) => (
          <li key={key}>{t(`meets.${key}`)}</li>
        ))}
      </ul>

      <h2 id="testing">{t("testing.heading")}</h2>
      <ul aria-labelledby="testing">
        {TESTING.map((key) => (
          <li key={key}>{t(`testing.${key}`)}</li>
        ))}
      </ul>

      <h2 id="exceptions">{t("exceptions.heading")}</h2>
      <ul aria-labelledby="exceptions">
        {EXCEPTIONS.map((key) => (
          <li key={key}>{t(`exceptions.${key}`)}</li>
        ))}
      </ul>

      <h2 id="contact">{t("contact.heading")}</h2>
      <p>
        {t("contact.text", { institution: institutionName })} <a href={`mailto:${contactEmail}`}>{contactEmail}</a>
      </p>
      <p>
        {t("contact.complaint")} <a href={AUTHORITY_URL}>{t("contact.authority")}</a>.
      </p>
    </div>
  );
}
