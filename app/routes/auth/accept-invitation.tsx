import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import { href } from "~/components/href";
import { InvitationAccept } from "~/components/app/InvitationAccept";
import { InvitationOtherUser } from "~/components/app/InvitationOtherUser";
import { InvitationUnusable } from "~/components/app/InvitationUnusable";
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
import { flashHeader, redirectWithFlash, type Flash } from "~/services/platform/flash.server";
import { acceptInvitation, lookUpInvitation } from "~/services/placements/index.server";
import { clientAddress, readFormData } from "~/services/platform/request.server";
import { safeRedirect } from "~/services/identity";
import { existingSupervisorSchema, newSupervisorSchema } from "./accept-invitation.schema";
import type { Route } from "./+types/accept-invitation";

export const handle = { titleKey: "student:accept.title" };

/** Where the mail's link lands after a log-in: a same-site path only, so the link cannot send anyone to another site. */
const DEFAULT_LANDING = "/supervisor";

function linkOf(url: URL, form?: FormData) {
  const field = (name: string) => {
    const value = form?.get(name);
    return typeof value === "string" ? value : (url.searchParams.get(name) ?? "");
  };
  const secret = field("verificationGuid");
  const landing = safeRedirect(field("redirect_uri"), DEFAULT_LANDING);
  const self = `${href("/supervisor/accept-invitation")}?${new URLSearchParams({ verificationGuid: secret, redirect_uri: landing })}`;
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

  const welcome: Flash = {
    type: "success",
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

export default function AcceptInvitation({ loaderData, actionData }: Route.ComponentProps) {
  // An existing account types nothing, so the browser must not ask for a name and phone number either.
  const existing = loaderData.state === "valid" && !loaderData.isNew;
  const [form, fields] = useValidatedForm(
    () =>
      import("./accept-invitation.schema").then((m) => (existing ? m.existingSupervisorSchema : m.newSupervisorSchema)),
    loaderData.state === "valid" ? actionData : undefined,
  );
  if (loaderData.state === "otherUser") return <InvitationOtherUser signedInAs={loaderData.signedInAs} />;
  if (loaderData.state !== "valid") return <InvitationUnusable state={loaderData.state} />;
  return (
    <InvitationAccept
      invitation={loaderData}
      formProps={getFormProps(form)}
      formErrors={form.errors}
      fields={{ fullName: fields.fullName, phone: fields.phone }}
    />
  );
}
