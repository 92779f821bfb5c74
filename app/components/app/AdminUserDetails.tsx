import { useTranslation } from "react-i18next";
import { Hint, SummaryList, Tag } from "~/components/ui";

/**
 * A user's e-mail (not editable here), mobile number and whether they may log in. An erased person's
 * address is a placeholder that reaches nobody: the page says it was removed instead.
 */
export function AdminUserDetails({
  user,
  erased = false,
}: {
  user: { email: string; phoneNumber: string | null; isActive: boolean };
  erased?: boolean;
}) {
  const { t } = useTranslation("adminUsers");
  return (
    <SummaryList
      rows={[
        {
          key: t("user.email"),
          value: erased ? (
            t("user.erasure.removed")
          ) : (
            <>
              {user.email}
              <Hint id="email-read-only">{t("user.emailReadOnly")}</Hint>
            </>
          ),
        },
        { key: t("user.phone"), value: user.phoneNumber ?? t("user.noPhone") },
        {
          key: t("user.status"),
          value: user.isActive ? t("user.active") : <Tag>{t("user.inactive")}</Tag>,
        },
      ]}
    />
  );
}
