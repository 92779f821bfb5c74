import { useTranslation } from "react-i18next";
import { Hint, SummaryList, Tag } from "~/components/ui";

/** A user's e-mail (not editable here), mobile number and whether they may log in. */
export function AdminUserDetails({ user }: { user: { email: string; phoneNumber: string | null; isActive: boolean } }) {
  const { t } = useTranslation("adminUsers");
  return (
    <SummaryList
      rows={[
        {
          key: t("user.email"),
          value: (
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
