import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, Link, useNavigation } from "react-router";
import { href } from "~/components/href";
import { Button, ErrorSummary, PageHeading, TextField } from "~/components/ui";
import { errorMessage, errorSummaryItems, firstError } from "~/components/form-errors";
import { useValidatedForm } from "~/components/use-validated-form";
import { classHeader } from "~/services/admin/index.server";
import { getDb } from "~/services/platform/db/index.server";
import { MailNotSent, sendMail } from "~/services/platform/email.server";
import { redirectWithFlash } from "~/services/platform/flash.server";
import { getInstance } from "~/services/platform/i18n.server";
import { idParam, notFound } from "~/services/platform/ids";
import { appName, currentInstitution } from "~/services/platform/institution.server";
import { requireClassTeacher, addSupervisor, welcomeMail } from "~/services/placements/index.server";
import { clientAddress, mailOrigin, readFormData } from "~/services/platform/request.server";
import { requireRole } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import { SUPERVISOR_EMAIL_MAX, SUPERVISOR_NAME_MAX, SUPERVISOR_PHONE_MAX } from "./add-supervisor.limits";
import { schema } from "./add-supervisor.schema";
import type { Route } from "./+types/add-supervisor";

export const handle = { titleKey: "teacher:addSupervisor.title" };

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const session = requireRole(request, context, ROLE.Teacher);
  const classId = idParam(params.classId);
  const db = await getDb();
  await requireClassTeacher(db, { userId: session.user.id, role: ROLE.Teacher }, classId);
  const header = await classHeader(db, classId);
  if (!header) notFound();
  return { classId, subject: `${header.subjectCode} ${header.subjectName}`, semesterName: header.semesterName };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const session = requireRole(request, context, ROLE.Teacher);
  const classId = idParam(params.classId);
  const db = await getDb();
  await requireClassTeacher(db, { userId: session.user.id, role: ROLE.Teacher }, classId);
  const formData = await readFormData(request);
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { name, email, phone } = submission.value;
  const outcome = await addSupervisor(db, {
    classId,
    name,
    email,
    phone: phone ?? null,
    actorUserId: session.user.id,
    ip: clientAddress(request),
  });
  if (!outcome.ok) {
    if (outcome.error === "notFound") notFound();
    const message =
      outcome.error === "deactivated"
        ? "teacher:errors.deactivated"
        : errorMessage(`teacher:errors.${outcome.error}`, { email: email.toLowerCase() });
    return data(submission.reply({ fieldErrors: { email: [message] } }), { status: 400 });
  }

  const header = (await classHeader(db, classId))!;
  const { user } = outcome;
  const institution = currentInstitution();
  let mailSent = true;
  try {
    await sendMail(
      welcomeMail(getInstance(context).getFixedT("nb", "teacher"), {
        to: user.email,
        name: user.displayName,
        teacherName: session.user.displayName,
        header,
        origin: mailOrigin(),
        appName: appName(institution, "nb"),
        phoneNumber: user.phoneNumber,
      }),
      { purpose: "welcome to a supervisor" },
    );
  } catch (error) {
    if (!(error instanceof MailNotSent)) throw error;
    // The supervisor is added either way (the mail service logged why the mail was not); the
    // teacher is told to pass the word on themselves.
    mailSent = false;
  }
  return redirectWithFlash(href("/teacher/class/:classId", { classId: String(classId) }), {
    type: mailSent ? "success" : "info",
    key: mailSent ? "teacher:addSupervisor.added" : "teacher:addSupervisor.addedMailFailed",
    values: { name: user.displayName, email: user.email },
  });
}

export default function AddSupervisor({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("teacher");
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const { classId, subject, semesterName } = loaderData;
  const [form, fields] = useValidatedForm(() => import("./add-supervisor.schema").then((m) => m.schema), actionData);
  const summary = errorSummaryItems(t, [fields.name, fields.email, fields.phone]);
  const initial = (value: unknown) => (typeof value === "string" ? value : "");

  return (
    <div className="app-content">
      <p>
        <Link to={href("/teacher/class/:classId", { classId: String(classId) })}>
          {t("addSupervisor.backToClass", { subject })}
        </Link>
      </p>
      <ErrorSummary errors={summary} />
      <PageHeading caption={`${subject}, ${semesterName}`}>{t("addSupervisor.heading")}</PageHeading>
      <p className="app-lead">{t("addSupervisor.intro")}</p>
      <Form method="post" {...getFormProps(form)} noValidate>
        <TextField
          label={t("addSupervisor.name")}
          name={fields.name.name}
          id={fields.name.id}
          autoComplete="off"
          width="30"
          required
          maxLength={SUPERVISOR_NAME_MAX}
          defaultValue={initial(fields.name.initialValue)}
          error={firstError(t, fields.name.errors)}
        />
        <TextField
          label={t("addSupervisor.email")}
          hint={t("addSupervisor.emailHint")}
          name={fields.email.name}
          id={fields.email.id}
          type="email"
          autoComplete="off"
          spellCheck={false}
          width="30"
          required
          maxLength={SUPERVISOR_EMAIL_MAX}
          defaultValue={initial(fields.email.initialValue)}
          error={firstError(t, fields.email.errors)}
        />
        <TextField
          label={t("addSupervisor.phone")}
          hint={t("addSupervisor.phoneHint")}
          name={fields.phone.name}
          id={fields.phone.id}
          type="tel"
          autoComplete="off"
          width="20"
          optional
          maxLength={SUPERVISOR_PHONE_MAX}
          defaultValue={initial(fields.phone.initialValue)}
          error={firstError(t, fields.phone.errors)}
        />
        <Button disabled={busy}>{t("addSupervisor.submit")}</Button>
      </Form>
    </div>
  );
}
