import { useTranslation } from "react-i18next";
import { href } from "~/components/href";
import { AlertBanner, LinkButton } from "~/components/ui";

/**
 * The user page's way to erasure on request: a link to the page that shows what goes and asks to
 * confirm (never oneself); an erased person's page says so instead. Its texts are the user page's
 * own (adminUsers): the records namespace, all the retention page's words, would weigh on every
 * user page.
 */
export function ErasureSection({
  user,
  isSelf,
}: {
  user: { id: number; displayName: string; erased: boolean };
  isSelf: boolean;
}) {
  const { t } = useTranslation("adminUsers");
  return (
    <section aria-labelledby="erasure-heading">
      <h2 id="erasure-heading">{t("user.erasure.heading")}</h2>
      {user.erased ? (
        <p>{t("user.erasure.already")}</p>
      ) : isSelf ? (
        <p>{t("user.erasure.self")}</p>
      ) : (
        <>
          <p>{t("user.erasure.text")}</p>
          <LinkButton variant="warning" to={href("/admin/users/:userId/erase", { userId: String(user.id) })}>
            {t("user.erasure.link", { name: user.displayName })}
          </LinkButton>
        </>
      )}
    </section>
  );
}

/** The banner at the top of an erased person's page. */
export function ErasedBanner() {
  const { t } = useTranslation("adminUsers");
  return <AlertBanner variant="info">{t("user.erasure.erased")}</AlertBanner>;
}
