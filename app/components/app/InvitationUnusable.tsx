import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { PageHeading } from "~/components/ui";

/** A link that cannot be used says so, then sends the visitor to the log-in page after 7 seconds (time to read why). */
const LEAVE_AFTER_MS = 7000;

/** Why an invitation's link cannot be used (unknown, expired, used, or not for this account), and the way on. */
export function InvitationUnusable({ state }: { state: string }) {
  const { t } = useTranslation("student");
  return (
    <div className="app-content">
      <PageHeading>{t(`accept.${state}Title`)}</PageHeading>
      <p>{t(`accept.${state}Text`)}</p>
      <LeaveSoon />
    </div>
  );
}

/** Without JS only the link; with JS a notice, and the move after 7 seconds. */
function LeaveSoon() {
  const { t } = useTranslation("student");
  const navigate = useNavigate();
  const [live, setLive] = useState(false);
  useEffect(() => {
    setLive(true);
    const timer = setTimeout(() => void navigate("/"), LEAVE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [navigate]);
  return (
    <>
      <p role="status">{live ? t("accept.redirecting") : null}</p>
      <p>
        <Link to="/">{t("accept.toLogin")}</Link>
      </p>
    </>
  );
}
