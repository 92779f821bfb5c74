import { useTranslation } from "react-i18next";
import { data, Form } from "react-router";
import { Button, CheckboxGroup, RadioGroup } from "~/components/ui";
import { getDb } from "~/services/platform/db/index.server";
import { redirectWithFlash } from "~/services/platform/flash.server";
import { getLanguage, isLanguage, localeCookie } from "~/services/platform/i18n.server";
import { readFormData } from "~/services/platform/request.server";
import { currentSession } from "~/services/identity/index.server";
import { safeRedirect } from "~/services/identity";
import {
  reminderPreferencesOf,
  saveLanguagePreference,
  saveReminderPreferences,
} from "~/services/reminders/index.server";
import type { Route } from "./+types/settings";
import enReminders from "~/locales/en/reminders.json";
import nbReminders from "~/locales/nb/reminders.json";
import { provideNamespace } from "~/i18n-client/page-namespaces";

provideNamespace("reminders", { nb: nbReminders, en: enReminders });

export const handle = { titleKey: "common:settings.title" };

/** Open to everyone: a visitor on the log-in page may want English too. Logged in, also the e-mail reminders. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const back = safeRedirect(new URL(request.url).searchParams.get("back"), "");
  const session = currentSession(context);
  const reminders = session ? (await reminderPreferencesOf(await getDb(), session.user.id)).kinds : null;
  return { language: getLanguage(context), back, loggedIn: session !== null, reminders };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormData(request);
  const session = currentSession(context);
  if (form.get("intent") === "reminders") {
    // The reminders are a logged-in user's own; a visitor has none to change.
    if (!session) return data({ error: null }, { status: 401 });
    const ticked = form.getAll("kinds").filter((v): v is string => typeof v === "string");
    await saveReminderPreferences(await getDb(), session.user.id, ticked);
    return redirectWithFlash("/settings#reminders", { type: "success", key: "reminders:settings.saved" });
  }
  const language = form.get("language");
  if (!isLanguage(language)) {
    return data({ error: "common:settings.languageRequired" }, { status: 400 });
  }
  // Kept for the mails sent while the user is away (the reminders), as well as in the cookie.
  if (session) await saveLanguagePreference(await getDb(), session.user.id, language);
  const back = safeRedirect(form.get("back"), "/settings");
  return redirectWithFlash(
    back,
    { type: "success", key: "common:settings.saved" },
    { "Set-Cookie": await localeCookie.serialize(language) },
  );
}

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { reminders } = loaderData;
  return (
    <div className="app-content">
      <h1>{t("settings.title")}</h1>
      <Form method="post">
        <input type="hidden" name="back" value={loaderData.back} />
        <RadioGroup
          legend={t("settings.languageLegend")}
          name="language"
          defaultValue={loaderData.language}
          error={actionData?.error ? t(actionData.error as "settings.languageRequired") : undefined}
          options={[
            { value: "nb", label: <span lang="nb">Norsk (bokmål)</span> },
            { value: "en", label: <span lang="en">English</span> },
          ]}
        />
        <Button>{t("settings.save")}</Button>
      </Form>
      {reminders ? (
        <section aria-labelledby="reminders" className="settings-reminders">
          <h2 id="reminders" tabIndex={-1}>
            {t("reminders:settings.heading")}
          </h2>
          {reminders.length === 0 ? (
            <p>{t("reminders:settings.none")}</p>
          ) : (
            <Form method="post">
              <input type="hidden" name="intent" value="reminders" />
              <CheckboxGroup
                legend={t("reminders:settings.legend")}
                legendSize="s"
                name="kinds"
                id="reminder-kinds"
                hint={t("reminders:settings.hint")}
                options={reminders.map((r) => ({ value: r.kind, label: t(`reminders:kinds.${r.kind}`) }))}
                defaultValue={reminders.filter((r) => r.on).map((r) => r.kind)}
              />
              <Button>{t("reminders:settings.save")}</Button>
            </Form>
          )}
        </section>
      ) : null}
    </div>
  );
}
