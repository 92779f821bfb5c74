import { useTranslation } from "react-i18next";
import { Form, useNavigation } from "react-router";
import { AlertBanner, Button } from "~/components/ui";

/**
 * For a teacher who is not one of the class's teachers: joining it (a post to the class page), or,
 * once the semester has ended, why that is no longer possible. `error` is the refused join's message key.
 */
export function TeacherClassJoin({ ended, error }: { ended: boolean; error?: string }) {
  const { t } = useTranslation("teacher");
  const busy = useNavigation().state === "submitting";
  return (
    <section aria-labelledby="join-heading">
      <h2 id="join-heading">{t("class.outsider.heading")}</h2>
      {error ? <AlertBanner variant="error">{t(error)}</AlertBanner> : null}
      {ended ? (
        <p>{t("class.outsider.ended")}</p>
      ) : (
        <>
          <p>{t("class.outsider.text")}</p>
          <Form method="post">
            <input type="hidden" name="intent" value="join" />
            <Button disabled={busy}>{t("class.outsider.join")}</Button>
          </Form>
        </>
      )}
    </section>
  );
}
