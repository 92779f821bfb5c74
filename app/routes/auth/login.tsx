import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, redirect, useNavigation } from "react-router";
import { Button, ErrorSummary, TextField } from "~/components/ui";
import { errorMessage, errorSummaryItems, firstError } from "~/components/form-errors";
import { useValidatedForm } from "~/components/use-validated-form";
import { requestLoginCode, currentSession, homeOf } from "~/services/identity/index.server";
import { getDb } from "~/services/platform/db/index.server";
import { getInstance, getLanguage } from "~/services/platform/i18n.server";
import { appName, currentInstitution } from "~/services/platform/institution.server";
import { appCookies, clientAddress, readFormData } from "~/services/platform/request.server";
import { isSimpleLogin, safeRedirect } from "~/services/identity";
import { EMAIL_MAX } from "~/services/platform/field-limits";
import { formatDayTime } from "~/services/platform/semesters";
import { schema } from "./login.schema";
import type { Route } from "./+types/login";

export const handle = { titleKey: "auth:login.title" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = currentSession(context);
  if (session) throw redirect(homeOf(session));
  const url = new URL(request.url);
  return { redirectTo: safeRedirect(url.searchParams.get("redirectTo"), ""), simple: isSimpleLogin(request.url) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readFormData(request);
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") {
    return data(submission.reply(), { status: 400 });
  }
  const language = getLanguage(context);
  const outcome = await requestLoginCode(await getDb(), {
    email: submission.value.email,
    ip: clientAddress(request),
    t: getInstance(context).t,
    appName: appName(currentInstitution(), language),
  });
  if (!outcome.ok && outcome.reason === "mail_not_sent") {
    // The typed address comes back in the form; the page says to try again in a while.
    return data(submission.reply({ formErrors: ["auth:errors.mailNotSent"] }), {
      status: 503,
      headers: { "Retry-After": "60" },
    });
  }
  if (!outcome.ok) {
    // Paused after wrong codes: said alike for every address, with or without a user.
    const message = outcome.pausedUntil
      ? errorMessage("auth:errors.codesPaused", { until: formatDayTime(outcome.pausedUntil, language) })
      : "auth:errors.tooManyRequests";
    return data(submission.reply({ formErrors: [message] }), {
      status: 429,
      headers: { "Retry-After": String(outcome.retryAfterSeconds) },
    });
  }
  const simple = isSimpleLogin(request.url);
  const cookie = await appCookies().login.serialize({
    email: submission.value.email.toLowerCase(),
    redirectTo: safeRedirect(submission.value.redirectTo, ""),
  });
  return redirect(simple ? "/otp-simple" : "/otp", { status: 303, headers: { "Set-Cookie": cookie } });
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("auth");
  const navigation = useNavigation();
  const [form, fields] = useValidatedForm(() => import("./login.schema").then((m) => m.schema), actionData);
  return (
    <div className={loaderData.simple ? "app-narrow app-narrow--simple" : "app-narrow"}>
      <ErrorSummary errors={errorSummaryItems(t, [fields.email], { errors: form.errors, fieldId: fields.email.id })} />
      <h1>{t("login.title")}</h1>
      <p>{t("login.intro")}</p>
      <Form method="post" {...getFormProps(form)} noValidate>
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <TextField
          label={t("login.emailLabel")}
          hint={t("login.emailHint")}
          name={fields.email.name}
          id={fields.email.id}
          type="email"
          autoComplete="email"
          spellCheck={false}
          required
          maxLength={EMAIL_MAX}
          defaultValue={fields.email.initialValue ?? ""}
          error={firstError(t, fields.email.errors)}
        />
        <Button disabled={navigation.state === "submitting"}>{t("login.submit")}</Button>
      </Form>
      {loaderData.simple ? null : (
        <p>
          <a href="/">{t("login.otherMethods")}</a>
        </p>
      )}
    </div>
  );
}
