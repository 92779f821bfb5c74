import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { errorMessage, errorSummaryItems, firstError } from "~/components/form-errors";
import { useValidatedForm } from "~/components/use-validated-form";
import { Button, ErrorSummary, TextField } from "~/components/ui";
import {
  completeLogin,
  createAuthenticator,
  LoginError,
  currentSession,
  homeOf,
} from "~/services/identity/index.server";
import { getDb } from "~/services/platform/db/index.server";
import { getLanguage } from "~/services/platform/i18n.server";
import { formatDayTime } from "~/services/platform/semesters";
import { appCookies, clientAddress, readFormData } from "~/services/platform/request.server";
import { isSimpleLogin } from "~/services/identity";
import { schema } from "./otp.schema";
import type { Route } from "./+types/otp";

export const handle = { titleKey: "auth:otp.title" };

const authenticator = createAuthenticator(getDb, clientAddress);

async function pendingLogin(request: Request): Promise<{ email: string; redirectTo: string } | null> {
  const value = (await appCookies().login.parse(request.headers.get("cookie"))) as unknown;
  if (!value || typeof value !== "object") return null;
  const { email, redirectTo } = value as Record<string, unknown>;
  if (typeof email !== "string" || !email) return null;
  return { email, redirectTo: typeof redirectTo === "string" ? redirectTo : "" };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = currentSession(context);
  if (session) throw redirect(homeOf(session));
  const pending = await pendingLogin(request);
  const simple = isSimpleLogin(request.url);
  if (!pending) throw redirect(simple ? "/login-simple" : "/login");
  return { email: pending.email, simple };
}

const messages: Record<LoginError["reason"], string> = {
  wrong_code: "auth:errors.wrongCode",
  expired: "auth:errors.codeExpired",
  too_many_attempts: "auth:errors.tooManyAttempts",
  rate_limited: "auth:errors.tooManyRequests",
  paused: "auth:errors.codesPaused",
  no_access: "auth:errors.noAccess",
};

export async function action({ request, context }: Route.ActionArgs) {
  const pending = await pendingLogin(request);
  if (!pending) return redirect(isSimpleLogin(request.url) ? "/login-simple" : "/login", 303);
  const formData = await readFormData(request.clone());
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });

  const body = new URLSearchParams({ email: pending.email, code: submission.value.code });
  // The strategy reads a url-encoded body, whatever encoding the browser posted.
  const headers = new Headers(request.headers);
  headers.delete("content-type");
  const verification = new Request(request.url, { method: "POST", headers, body });
  try {
    const user = await authenticator.authenticate("email-code", verification);
    return completeLogin(await getDb(), {
      user,
      request,
      ip: clientAddress(request),
      method: "email-code",
      redirectTo: pending.redirectTo,
    });
  } catch (error) {
    if (!(error instanceof LoginError)) throw error;
    if (error.reason === "paused" && error.pausedUntil) {
      // The same words for every address, with or without a user: wrong codes paused it, until then.
      const until = formatDayTime(error.pausedUntil, getLanguage(context));
      const retryAfter = Math.max(1, Math.ceil((error.pausedUntil.getTime() - Date.now()) / 1000));
      return data(submission.reply({ formErrors: [errorMessage(messages.paused, { until })] }), {
        status: error.status,
        headers: { "Retry-After": String(retryAfter) },
      });
    }
    return data(submission.reply({ formErrors: [messages[error.reason]] }), { status: error.status });
  }
}

export default function Otp({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("auth");
  const navigation = useNavigation();
  const [form, fields] = useValidatedForm(() => import("./otp.schema").then((m) => m.schema), actionData);
  const again = loaderData.simple ? "/login-simple" : "/login";
  return (
    <div className={loaderData.simple ? "app-narrow app-narrow--simple" : "app-narrow"}>
      <ErrorSummary errors={errorSummaryItems(t, [fields.code], { errors: form.errors, fieldId: fields.code.id })} />
      <h1>{t("otp.title")}</h1>
      <p>{t("otp.intro", { email: loaderData.email })}</p>
      <Form method="post" {...getFormProps(form)} noValidate>
        <TextField
          label={t("otp.codeLabel")}
          hint={t("otp.codeHint")}
          name={fields.code.name}
          id={fields.code.id}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          width="5"
          required
          defaultValue={fields.code.initialValue ?? ""}
          error={firstError(t, fields.code.errors)}
        />
        <Button disabled={navigation.state === "submitting"}>{t("otp.submit")}</Button>
      </Form>
      <p>
        <Link to={again}>{t("otp.newCode")}</Link>
      </p>
    </div>
  );
}
