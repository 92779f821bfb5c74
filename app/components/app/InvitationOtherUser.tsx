import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { Button, PageHeading } from "~/components/ui";

/** Someone else is logged in in this browser: the invitation waits until they have logged out. */
export function InvitationOtherUser({ signedInAs }: { signedInAs: string }) {
  const { t } = useTranslation("student");
  return (
    <div className="app-content">
      <PageHeading>{t("accept.otherUserTitle")}</PageHeading>
      <p>{t("accept.otherUserText", { name: signedInAs })}</p>
      <Form method="post">
        <input type="hidden" name="intent" value="logout" />
        <Button>{t("accept.logOut")}</Button>
      </Form>
    </div>
  );
}
