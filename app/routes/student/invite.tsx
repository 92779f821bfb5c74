import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, Link, useNavigation } from "react-router";
import { AlertBanner, Button, ErrorSummary, PageHeading, Tag, TextField } from "~/components/ui";
import { errorSummaryItems, firstError } from "~/components/form-errors";
import { useValidatedForm } from "~/components/use-validated-form";
import { getDb } from "~/services/platform/db/index.server";
import { redirectWithFlash } from "~/services/platform/flash.server";
import { getLanguage } from "~/services/platform/i18n.server";
import { notFound } from "~/services/platform/ids";
import {
  createInvitation,
  invitationStatus,
  requireStudentAccess,
  placementOf,
  hasSupervisor,
  requireCurrentReference,
} from "~/services/placements/index.server";
import { clientAddress, mailOrigin, readFormData } from "~/services/platform/request.server";
import { requireRole } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import { formatDayTime, osloDate } from "~/services/platform/semesters";
import { EMAIL_MAX } from "~/services/platform/field-limits";
import { schema } from "./invite.schema";
import type { Route } from "./+types/invite";

export const handle = { titleKey: "student:invite.title" };

/** The student's class, after the role and data-level checks every student page makes. */
async function studentReference(request: Request, context: Route.LoaderArgs["context"]) {
  const session = requireRole(request, context, ROLE.Student);
  const userId = session.user.id;
  const db = await getDb();
  const reference = await requireCurrentReference(db, request, userId, osloDate(new Date()));
  await requireStudentAccess(db, { userId, role: ROLE.Student }, reference.classId, userId);
  return { db, userId, reference };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, userId, reference } = await studentReference(request, context);
  const placement = (await placementOf(db, reference.referenceId, userId)) ?? notFound();
  const status = await invitationStatus(db, reference.referenceId);
  const language = getLanguage(context);
  return {
    subject: `${reference.subjectCode} ${reference.subjectName}`,
    hasSupervisor: hasSupervisor(placement),
    // An accepted invitation is done with (it cannot be accepted twice): the student now simply has a supervisor.
    status:
      status && status.state !== "accepted"
        ? { state: status.state, email: status.email, expiresText: formatDayTime(status.expiresAt, language) }
        : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { db, userId, reference } = await studentReference(request, context);
  const formData = await readFormData(request);
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });

  const outcome = await createInvitation(db, {
    referenceId: reference.referenceId,
    studentUserId: userId,
    email: submission.value.email,
    origin: mailOrigin(),
    ip: clientAddress(request),
  });
  if (!outcome.ok) {
    switch (outcome.error) {
      case "notFound":
        return notFound();
      case "ownAddress":
        return data(submission.reply({ fieldErrors: { email: ["student:errors.ownAddress"] } }), { status: 400 });
      case "hasSupervisor":
        return data(submission.reply({ formErrors: ["student:errors.hasSupervisor"] }), { status: 409 });
      case "mailFailed":
        return data(submission.reply({ formErrors: ["student:errors.mailFailed"] }), { status: 503 });
      case "rateLimited":
        return data(submission.reply({ formErrors: ["student:errors.rateLimited"] }), {
          status: 429,
          headers: { "Retry-After": String(outcome.retryAfterSeconds) },
        });
    }
  }
  return redirectWithFlash("/student/supervisor/invite", {
    type: "success",
    key: "student:invite.sentFlash",
    values: { email: outcome.email },
  });
}

const STATE_TAG = { sent: "info", expired: "warning" } as const;

export default function InviteSupervisor({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("student");
  const navigation = useNavigation();
  const [form, fields] = useValidatedForm(() => import("./invite.schema").then((m) => m.schema), actionData);
  const { subject, hasSupervisor, status } = loaderData;
  const stateLabel = { sent: t("invite.stateSent"), expired: t("invite.stateExpired") };

  return (
    <div className="app-content">
      <p>
        <Link to="/student/forms">{t("invite.backToForms")}</Link>
      </p>
      <ErrorSummary errors={errorSummaryItems(t, [fields.email], { errors: form.errors, fieldId: fields.email.id })} />
      <PageHeading caption={subject}>{t("invite.title")}</PageHeading>

      {status ? (
        <>
          <h2>{t("invite.statusHeading")}</h2>
          <p>
            <Tag variant={STATE_TAG[status.state]}>{stateLabel[status.state]}</Tag>{" "}
            {status.state === "sent"
              ? t("invite.sentText", { email: status.email, date: status.expiresText })
              : t("invite.expiredText", { email: status.email, date: status.expiresText })}
          </p>
        </>
      ) : null}

      {hasSupervisor ? (
        <AlertBanner variant="info">{t("invite.hasSupervisor")}</AlertBanner>
      ) : (
        <Form method="post" {...getFormProps(form)} noValidate>
          <p>{t("invite.intro")}</p>
          <TextField
            label={t("invite.emailLabel")}
            hint={t("invite.emailHint")}
            name={fields.email.name}
            id={fields.email.id}
            type="email"
            autoComplete="off"
            spellCheck={false}
            required
            maxLength={EMAIL_MAX}
            width="30"
            defaultValue={fields.email.initialValue ?? ""}
            error={firstError(t, fields.email.errors)}
          />
          <Button disabled={navigation.state === "submitting"}>
            {status ? t("invite.sendNew") : t("invite.submit")}
          </Button>
        </Form>
      )}
    </div>
  );
}
