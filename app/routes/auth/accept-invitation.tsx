import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useNavigate, useNavigation } from "react-router";
import { Button, ButtonGroup, ErrorSummary, PageHeading, TextField } from "~/components/ui";
import { errorSummaryItems, firstError } from "~/components/form-errors";
import { useValidatedForm } from "~/components/use-validated-form";
import {
  completeLogin,
  currentSession,
  logout,
  normaliseEmail,
  offeredProviders,
  startProviderLogin,
} from "~/services/identity/index.server";
import { getDb } from "~/services/platform/db/index.server";
import { flashHeader, redirectWithFlash } from "~/services/platform/flash.server";
import { acceptInvitation, lookUpInvitation } from "~/services/placements/index.server";
import { clientAddress, readFormData } from "~/services/platform/request.server";
import { safeRedirect } from "~/services/identity";
import { INVITED_PHONE_MAX } from "~/services/placements";
import { PERSON_NAME_MAX } from "~/services/platform/field-limits";
import { existingSupervisorSchema, newSupervisorSchema } from "./accept-invitation.schema";
import type { Route } from "./+types/accept-invitation";

export const handle = { titleKey: "student:accept.title" };

/** Where the mail's link lands after a log-in: a same-site path only, so the link cannot send anyone to another site. */
const DEFAULT_LANDING = "/supervisor";
/** A link that cannot be used says so, then sends the visitor to the log-in page after 7 seconds (time to read why). */
const LEAVE_AFTER_MS = 7000;

function linkOf(url: URL, form?: FormData) {
  const field = (name: string) => {
    const value = form?.get(name);
    return typeof value === "string" ? value : (url.searchParams.get(name) ?? "");
  };
  const secret = field("verificationGuid");
  const landing = safeRedirect(field("redirect_uri"), DEFAULT_LANDING);
  const self = `/supervisor/accept-invitation?${new URLSearchParams({ verificationGuid: secret, redirect_uri: landing })}`;
  return { secret, landing, self };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { secret, landing } = linkOf(new URL(request.url));
  const lookup = await lookUpInvitation(await getDb(), secret);
  if (lookup.state !== "valid") {
    return data({ state: lookup.state }, { status: lookup.state === "unknown" ? 404 : 410 });
  }
  // Shown before anything is typed: this link cannot make this account a supervisor.
  if (lookup.account === "deactivated" || lookup.account === "notSupervisor") {
    return data({ state: lookup.account }, { status: 403 });
  }
  const session = currentSession(context);
  if (session && normaliseEmail(session.user.email) !== normaliseEmail(lookup.email)) {
    return data({ state: "otherUser" as const, signedInAs: session.user.displayName }, { status: 409 });
  }
  return {
    state: "valid" as const,
    secret,
    landing,
    email: lookup.email,
    isNew: lookup.account === "new",
    // Offered to a new supervisor only: the link may bind Vipps to the account it creates, never to one that exists.
    vipps: lookup.account === "new" && offeredProviders().vipps,
    studentName: lookup.studentName,
    subject: `${lookup.subjectCode} ${lookup.subjectName}`,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const db = await getDb();
  const formData = await readFormData(request);
  const { secret, landing, self } = linkOf(new URL(request.url), formData);
  const session = currentSession(context);
  const ip = clientAddress(request);
  const intent = formData.get("intent");

  if (intent === "logout") {
    if (!session) return redirect(self, 303);
    const clear = await logout(db, { sessionId: session.id, userId: session.user.id, ip });
    return redirect(self, { status: 303, headers: { "Set-Cookie": clear } });
  }
  if (intent !== "accept" && intent !== "accept-vipps") throw new Response("Bad Request", { status: 400 });

  // A link that cannot be used (any more) is shown as the page for it, which moves on after 7 seconds.
  const lookup = await lookUpInvitation(db, secret);
  if (lookup.state !== "valid" || lookup.account === "deactivated" || lookup.account === "notSupervisor") {
    return redirect(self, 303);
  }
  const submission = parseWithZod(formData, {
    schema: lookup.account === "new" ? newSupervisorSchema : existingSupervisorSchema,
  });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  // Accepting in a browser where someone else is logged in would link the wrong person.
  if (session && normaliseEmail(session.user.email) !== normaliseEmail(lookup.email)) {
    return data(submission.reply({ formErrors: ["student:errors.otherUser"] }), { status: 409 });
  }

  const outcome = await acceptInvitation(db, {
    secret,
    name: submission.value.fullName,
    phone: submission.value.phone,
    ip,
  });
  if (!outcome.ok) {
    switch (outcome.error) {
      case "phoneInvalid":
        return data(submission.reply({ fieldErrors: { phone: ["student:errors.phoneInvalid"] } }), { status: 400 });
      case "nameRequired":
        return data(submission.reply({ fieldErrors: { fullName: ["student:errors.nameRequired"] } }), { status: 400 });
      case "isTheStudent":
      case "studentInClass":
      case "isTeacher":
        return data(submission.reply({ formErrors: [`student:errors.${outcome.error}`] }), { status: 403 });
      default:
        return redirect(self, 303);
    }
  }

  const welcome = {
    type: "success" as const,
    key: "student:accept.acceptedFlash",
    values: { student: lookup.studentName },
  };
  // Only an account this very link created is logged in by it; anyone else logs in as they always do.
  if (outcome.createdUser) {
    // The link proved the address and made this account just now: the Vipps log-in that follows in
    // this browser is bound to it (the proof travels in the signed log-in cookie).
    if (intent === "accept-vipps" && offeredProviders().vipps) {
      return startProviderLogin("vipps", request, landing, outcome.user.id);
    }
    const response = await completeLogin(db, {
      user: outcome.user,
      request,
      ip,
      method: "invitation",
      redirectTo: landing,
    });
    response.headers.append("Set-Cookie", await flashHeader(welcome));
    return response;
  }
  if (session) return redirectWithFlash(landing, welcome);
  return redirectWithFlash(`/?${new URLSearchParams({ redirectTo: landing })}`, {
    type: "success",
    key: "student:accept.acceptedLogIn",
    values: { student: lookup.studentName },
  });
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

export default function AcceptInvitation({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("student");
  const navigation = useNavigation();
  // An existing account types nothing, so the browser must not ask for a name and phone number either.
  const existing = loaderData.state === "valid" && !loaderData.isNew;
  const [form, fields] = useValidatedForm(
    () =>
      import("./accept-invitation.schema").then((m) => (existing ? m.existingSupervisorSchema : m.newSupervisorSchema)),
    loaderData.state === "valid" ? actionData : undefined,
  );

  if (loaderData.state === "otherUser") {
    return (
      <div className="app-content">
        <PageHeading>{t("accept.otherUserTitle")}</PageHeading>
        <p>{t("accept.otherUserText", { name: loaderData.signedInAs })}</p>
        <Form method="post">
          <input type="hidden" name="intent" value="logout" />
          <Button>{t("accept.logOut")}</Button>
        </Form>
      </div>
    );
  }

  if (loaderData.state !== "valid") {
    return (
      <div className="app-content">
        <PageHeading>{t(`accept.${loaderData.state}Title`)}</PageHeading>
        <p>{t(`accept.${loaderData.state}Text`)}</p>
        <LeaveSoon />
      </div>
    );
  }

  const { isNew } = loaderData;
  const summary = errorSummaryItems(t, [fields.fullName, fields.phone], {
    errors: form.errors,
    fieldId: isNew ? fields.fullName.id : "accept-submit",
  });
  return (
    <div className="app-content">
      <ErrorSummary errors={summary} />
      <PageHeading>{t("accept.title")}</PageHeading>
      <p>{t("accept.intro", { student: loaderData.studentName, subject: loaderData.subject })}</p>
      <p>{isNew ? t("accept.introNew") : t("accept.introExisting", { email: loaderData.email })}</p>
      <Form method="post" {...getFormProps(form)} noValidate>
        <input type="hidden" name="verificationGuid" value={loaderData.secret} />
        <input type="hidden" name="redirect_uri" value={loaderData.landing} />
        {isNew ? <NewSupervisorFields email={loaderData.email} fields={fields} /> : null}
        {loaderData.vipps ? <p>{t("accept.vippsHint")}</p> : null}
        <ButtonGroup>
          <Button id="accept-submit" name="intent" value="accept" disabled={navigation.state === "submitting"}>
            {isNew ? t("accept.submit") : t("accept.submitExisting")}
          </Button>
          {loaderData.vipps ? (
            <Button variant="secondary" name="intent" value="accept-vipps" disabled={navigation.state === "submitting"}>
              {t("accept.submitVipps")}
            </Button>
          ) : null}
        </ButtonGroup>
      </Form>
    </div>
  );
}

/** Name, the invited address and a phone number: what a new supervisor's account is made of. */
function NewSupervisorFields({
  email,
  fields,
}: {
  email: string;
  fields: ReturnType<typeof useValidatedForm<typeof existingSupervisorSchema>>[1];
}) {
  const { t } = useTranslation("student");
  return (
    <>
      <TextField
        label={t("accept.nameLabel")}
        name={fields.fullName.name}
        id={fields.fullName.id}
        autoComplete="name"
        required
        maxLength={PERSON_NAME_MAX}
        width="30"
        defaultValue={fields.fullName.initialValue ?? ""}
        error={firstError(t, fields.fullName.errors)}
      />
      <TextField
        label={t("accept.emailLabel")}
        hint={t("accept.emailHint")}
        name="invitedEmail"
        id="invitedEmail"
        type="email"
        readOnly
        width="30"
        value={email}
      />
      <TextField
        label={t("accept.phoneLabel")}
        hint={t("accept.phoneHint")}
        name={fields.phone.name}
        id={fields.phone.id}
        type="tel"
        autoComplete="tel"
        inputMode="tel"
        required
        maxLength={INVITED_PHONE_MAX}
        width="20"
        defaultValue={fields.phone.initialValue ?? ""}
        error={firstError(t, fields.phone.errors)}
      />
    </>
  );
}
