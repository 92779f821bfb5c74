import { useTranslation } from "react-i18next";
import { data, Form } from "react-router";
import { Button, RadioGroup } from "~/components/ui";
import { redirectWithFlash } from "~/services/platform/flash.server";
import { getLanguage, isLanguage, localeCookie } from "~/services/platform/i18n.server";
import { readFormData } from "~/services/platform/request.server";
import { currentSession } from "~/services/identity/index.server";
import { safeRedirect } from "~/services/identity";
import type { Route } from "./+types/settings";

export const handle = { titleKey: "common:settings.title" };

/** Open to everyone: a visitor on the log-in page may want English too. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const back = safeRedirect(new URL(request.url).searchParams.get("back"), "");
  return { language: getLanguage(context), back, loggedIn: currentSession(context) !== null };
}

export async function action({ request }: Route.ActionArgs) {
  const form = await readFormData(request);
  const language = form.get("language");
  if (!isLanguage(language)) {
    return data({ error: "common:settings.languageRequired" }, { status: 400 });
  }
  const back = safeRedirect(form.get("back"), "/settings");
  return redirectWithFlash(
    back,
    { type: "success", key: "common:settings.saved" },
    { "Set-Cookie": await localeCookie.serialize(language) },
  );
}

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
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
    </div>
  );
}
