import { useTranslation } from "react-i18next";
import { Form, useNavigation } from "react-router";
import { href } from "~/components/href";
import { Button, TextField } from "~/components/ui";

/** The admin's correction of a user's mobile number; after a refusal it shows what was typed and why. */
export function AdminUserPhoneForm({
  userId,
  stored,
  refused,
}: {
  userId: number;
  stored: string | null;
  refused: { error: string; typed: string } | undefined;
}) {
  const { t } = useTranslation("adminUsers");
  const navigation = useNavigation();
  return (
    <>
      <h2 id="phone-heading">{t("user.phoneForm.heading")}</h2>
      <Form method="post" action={href("/admin/users/:userId", { userId: String(userId) })} noValidate>
        <input type="hidden" name="intent" value="phone" />
        <TextField
          label={t("user.phoneForm.label")}
          hint={t("user.phoneForm.hint")}
          name="phoneNumber"
          id="phoneNumber"
          type="tel"
          width="20"
          autoComplete="off"
          maxLength={32}
          defaultValue={refused ? refused.typed : (stored ?? "")}
          error={refused ? t(refused.error) : undefined}
        />
        <Button variant="secondary" disabled={navigation.state === "submitting"}>
          {t("user.phoneForm.submit")}
        </Button>
      </Form>
    </>
  );
}
