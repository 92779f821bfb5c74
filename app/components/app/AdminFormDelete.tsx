import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import { href } from "~/components/href";
import { Button, ButtonGroup, LinkButton } from "~/components/ui";

/** Deleting: a link to the confirmation (a URL, so it works without JS), then a form post. */
export function AdminFormDelete({ formId, confirm }: { formId: number; confirm: boolean }) {
  const { t } = useTranslation("adminForms");
  const path = href("/admin/forms/edit/:formId", { formId: String(formId) });
  return (
    <section className="form-editor__delete" id="slett" aria-labelledby="delete-heading">
      <h2 id="delete-heading">{t("delete.heading")}</h2>
      <p className="app-prose">{t("delete.rule")}</p>
      {confirm ? (
        <Form method="post" action={path}>
          <p className="app-prose">{t("delete.text")}</p>
          <ButtonGroup>
            <Button name="intent" value="delete" variant="warning">
              {t("delete.confirm")}
            </Button>
            <LinkButton to={path} variant="secondary">
              {t("delete.cancel")}
            </LinkButton>
          </ButtonGroup>
        </Form>
      ) : (
        <p>
          <Link to={`${path}?slett#slett`}>{t("delete.link")}</Link>
        </p>
      )}
    </section>
  );
}
