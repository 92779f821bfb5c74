import { useTranslation } from "react-i18next";
import { readOutbox } from "~/services/platform/email.server";
import { env } from "~/services/platform/env.server";
import type { Route } from "./+types/outbox";

export const handle = { titleKey: "common:outbox.title" };

/** In demo mode (without SMTP_URL), the mails the app would have sent, so a newcomer can read their code. */
export async function loader() {
  if (!env().devOutbox) throw new Response("Not found", { status: 404 });
  return { mails: await readOutbox(30) };
}

export default function Outbox({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div className="app-content">
      <h1>{t("outbox.title")}</h1>
      <p>{t("outbox.intro")}</p>
      {loaderData.mails.length === 0 ? <p>{t("outbox.empty")}</p> : null}
      <ol className="app-mail-list">
        {loaderData.mails.map((mail) => (
          <li key={mail.id} className="app-mail">
            <h2 className="app-mail__subject">{mail.subject}</h2>
            <p className="app-meta">
              {t("outbox.to")}: {mail.to} · {new Date(mail.sentAt).toLocaleString("nb-NO", { timeZone: "Europe/Oslo" })}
            </p>
            <pre className="app-mail__body">{mail.text}</pre>
          </li>
        ))}
      </ol>
    </div>
  );
}
