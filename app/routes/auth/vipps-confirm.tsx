import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { errorSummaryItems, firstError } from "~/components/form-errors";
import { useValidatedForm } from "~/components/use-validated-form";
import { AlertBanner, Button, ErrorSummary, TextField } from "~/components/ui";
import {
  confirmVippsLink,
  currentSession,
  homeOf,
  pendingVippsLink,
  type VippsConfirmOutcome,
} from "~/services/identity/index.server";
import { getDb } from "~/services/platform/db/index.server";
import { getInstance } from "~/services/platform/i18n.server";
import { clientAddress, readFormData } from "~/services/platform/request.server";
import { schema } from "./otp.schema";
import type { Route } from "./+types/vipps-confirm";
import { provideNamespace } from "~/i18n-client/page-namespaces";
import enAuthPages from "~/locales/en/authPages.json";
import nbAuthPages from "~/locales/nb/authPages.json";

// This page's part of the auth texts is not in the language chunk every page loads (ADR 0012).
provideNamespace("auth", { nb: nbAuthPages, en: enAuthPages });

export const handle = { titleKey: "auth:vippsLink.title" };

/**
 * /vipps-confirm: a Vipps log-in whose number is only typed on an account (nobody has proved it)
 * comes here, once, for the e-mail code sent to that account's address. The right code binds the
 * Vipps identity to the account and logs in; the page never shows whose account it is.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const session = currentSession(context);
  if (session) throw redirect(homeOf(session));
  if (!(await pendingVippsLink(request))) throw redirect("/");
  return null;
}

const messages: Record<Exclude<VippsConfirmOutcome["reason"], "no_pending" | "refused">, string> = {
  wrong_code: "auth:errors.wrongCode",
  expired: "auth:vippsLink.expired",
  too_many_attempts: "auth:vippsLink.tooManyAttempts",
  rate_limited: "auth:vippsLink.rateLimited",
};

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readFormData(request);
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") return data({ reply: submission.reply(), refused: null }, { status: 400 });
  const outcome = await confirmVippsLink(await getDb(), {
    request,
    code: submission.value.code,
    ip: clientAddress(request),
  });
  if (outcome instanceof Response) return outcome;
  switch (outcome.reason) {
    case "no_pending":
      return redirect("/", 303);
    case "refused": {
      const { t } = getInstance(context);
      const headers = new Headers();
      for (const cookie of outcome.cookies) headers.append("Set-Cookie", cookie);
      const refused = t(outcome.message.key, outcome.message.values);
      return data({ reply: null, refused }, { status: outcome.status, headers });
    }
    default: {
      const status = outcome.reason === "wrong_code" || outcome.reason === "expired" ? 400 : 429;
      const headers =
        outcome.reason === "rate_limited" ? { "Retry-After": String(outcome.retryAfterSeconds) } : undefined;
      return data(
        { reply: submission.reply({ formErrors: [messages[outcome.reason]] }), refused: null },
        { status, headers },
      );
    }
  }
}

export default function VippsConfirm({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation("auth");
  const navigation = useNavigation();
  const [form, fields] = useValidatedForm(
    () => import("./otp.schema").then((m) => m.schema),
    actionData?.reply ?? undefined,
  );
  if (actionData?.refused) {
    return (
      <div className="app-narrow">
        <h1>{t("vippsLink.refusedTitle")}</h1>
        <AlertBanner variant="error">
          <p>{actionData.refused}</p>
        </AlertBanner>
        <p>
          <Link className="ui-button" to="/">
            {t("vippsLink.back")}
          </Link>
        </p>
        <p>
          <Link to="/login">{t("provider.callback.email")}</Link>
        </p>
      </div>
    );
  }
  return (
    <div className="app-narrow">
      <ErrorSummary errors={errorSummaryItems(t, [fields.code], { errors: form.errors, fieldId: fields.code.id })} />
      <h1>{t("vippsLink.title")}</h1>
      <p>{t("vippsLink.intro")}</p>
      <p>{t("vippsLink.validity")}</p>
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
        <Button disabled={navigation.state === "submitting"}>{t("vippsLink.submit")}</Button>
      </Form>
      <p>{t("vippsLink.noCode")}</p>
      <p>
        <Link to="/">{t("vippsLink.back")}</Link>
      </p>
    </div>
  );
}
