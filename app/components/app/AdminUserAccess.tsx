import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { href } from "~/components/href";
import { AlertBanner, Button, ButtonGroup, LinkButton } from "~/components/ui";

/**
 * Whether the user may log in: activate a deactivated user; deactivate another after a
 * confirmation (`?confirm=deactivate`, a URL, so it works without JavaScript); never oneself.
 */
export function AdminUserAccess({
  user,
  isSelf,
  confirmDeactivate,
}: {
  user: { id: number; displayName: string; isActive: boolean };
  isSelf: boolean;
  confirmDeactivate: boolean;
}) {
  const { t } = useTranslation("adminUsers");
  const page = href("/admin/users/:userId", { userId: String(user.id) });
  return (
    <section aria-labelledby="access-heading">
      <h2 id="access-heading" tabIndex={-1}>
        {t("user.accessHeading")}
      </h2>
      {!user.isActive ? (
        <Form method="post" action={page}>
          <p>{t("user.activateText")}</p>
          <input type="hidden" name="intent" value="activate" />
          <Button>{t("user.activate")}</Button>
        </Form>
      ) : isSelf ? (
        <p>{t("user.cannotDeactivateSelf")}</p>
      ) : confirmDeactivate ? (
        <AlertBanner
          variant="warning"
          heading={t("user.confirmHeading", { name: user.displayName })}
          headingLevel={3}
          className="admin-user-confirm"
        >
          <p>{t("user.confirmText")}</p>
          <Form method="post" action={page}>
            <input type="hidden" name="intent" value="deactivate" />
            <ButtonGroup>
              <Button variant="warning">{t("user.confirmDeactivate")}</Button>
              <LinkButton variant="secondary" to={page}>
                {t("user.cancel")}
              </LinkButton>
            </ButtonGroup>
          </Form>
        </AlertBanner>
      ) : (
        <>
          <p>{t("user.deactivateText")}</p>
          <LinkButton variant="warning" to={`${page}?confirm=deactivate#access-heading`}>
            {t("user.deactivate")}
          </LinkButton>
        </>
      )}
    </section>
  );
}
