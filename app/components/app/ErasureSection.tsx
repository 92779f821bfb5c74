import { useTranslation } from "react-i18next";
import { href } from "~/components/href";
import { AlertBanner, LinkButton } from "~/components/ui";
import { provideNamespace } from "~/i18n-client/page-namespaces";
import enRecords from "~/locales/en/records.json";
import nbRecords from "~/locales/nb/records.json";

provideNamespace("records", { nb: nbRecords, en: enRecords });

/**
 * The user page's way to erasure on request: a link to the page that shows what goes and asks to
 * confirm (never oneself); an erased person's page says so instead.
 */
export function ErasureSection({
  user,
  isSelf,
}: {
  user: { id: number; displayName: string; erased: boolean };
  isSelf: boolean;
}) {
  const { t } = useTranslation("records");
  return (
    <section aria-labelledby="erasure-heading">
      <h2 id="erasure-heading">{t("user.heading")}</h2>
      {user.erased ? (
        <p>{t("erase.already")}</p>
      ) : isSelf ? (
        <p>{t("user.self")}</p>
      ) : (
        <>
          <p>{t("user.text")}</p>
          <LinkButton variant="warning" to={href("/admin/users/:userId/erase", { userId: String(user.id) })}>
            {t("user.link", { name: user.displayName })}
          </LinkButton>
        </>
      )}
    </section>
  );
}

/** The banner at the top of an erased person's page. */
export function ErasedBanner() {
  const { t } = useTranslation("records");
  return <AlertBanner variant="info">{t("user.erased")}</AlertBanner>;
}
