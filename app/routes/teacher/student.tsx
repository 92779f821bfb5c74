import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, Link, useNavigation } from "react-router";
import { SigningFormCard } from "~/components/app/SigningFormCard";
import { StudentPlacement } from "~/components/app/StudentPlacement";
import { WarningCard } from "~/components/app/WarningCard";
import { errorSummaryItems, firstError } from "~/components/form-errors";
import { useValidatedForm } from "~/components/use-validated-form";
import { Button, ErrorSummary, FieldError, PageHeading, Select, Table, VisuallyHidden } from "~/components/ui";
import { getDb } from "~/services/platform/db/index.server";
import { redirectWithFlash } from "~/services/platform/flash.server";
import { recordOpening } from "~/services/platform/record-openings.server";
import { getLanguage } from "~/services/platform/i18n.server";
import { idParam, notFound, parseId } from "~/services/platform/ids";
import {
  requireStudentAccess,
  placementOf,
  addExtraSupervisor,
  displayNameOf,
  placementForView,
  removeExtraSupervisor,
  setAssignedSupervisor,
  supervisorsOfClass,
} from "~/services/placements/index.server";
import { clientAddress, readFormData } from "~/services/platform/request.server";
import { requireRole } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import { signingFormCard } from "~/services/signing/index.server";
import { warningFor, warningForView } from "~/services/warnings/index.server";
import { addExtraSchema, removeExtraSchema, supervisorSchema } from "./student.schema";
import type { Route } from "./+types/student";

export const handle = { titleKey: "placement:teacher.title" };

async function guard(args: Route.LoaderArgs | Route.ActionArgs) {
  const session = requireRole(args.request, args.context, ROLE.Teacher);
  const classId = idParam(args.params.classId);
  const studentUserId = idParam(args.params.userId);
  const db = await getDb();
  const access = await requireStudentAccess(
    db,
    { userId: session.user.id, role: ROLE.Teacher },
    classId,
    studentUserId,
  );
  return { session, db, access, classId, studentUserId };
}

export async function loader(args: Route.LoaderArgs) {
  const { session, db, access, classId, studentUserId } = await guard(args);
  const opening = {
    viewerUserId: session.user.id,
    viewerRole: ROLE.Teacher,
    studentUserId,
    classId,
    kind: "studentPage",
  } as const;
  const [placement, supervisors, warning] = await Promise.all([
    placementOf(db, access.referenceId, session.user.id),
    supervisorsOfClass(db, classId),
    warningFor(db, access),
    recordOpening(db, opening),
  ]);
  if (!placement) notFound();
  // The current supervisor stays choosable even when not attached to the class (an invited one).
  const current = placement.advisor;
  const choices =
    current && !supervisors.some((s) => s.userId === current.userId) ? [current, ...supervisors] : supervisors;
  const following = new Set([current?.userId, ...placement.extraSupervisors.map((p) => p.userId)]);
  return {
    placement: placementForView(placement, getLanguage(args.context)),
    warning: warning ? warningForView(warning, getLanguage(args.context)) : null,
    supervisorChoices: choices,
    extraCandidates: supervisors.filter((s) => !following.has(s.userId)),
    classHasSupervisors: supervisors.length > 0,
    signingForm: await signingFormCard(db, access.referenceId, getLanguage(args.context)),
  };
}

export async function action(args: Route.ActionArgs) {
  const { session, db, access, classId, studentUserId } = await guard(args);
  const formData = await readFormData(args.request);
  const intent = formData.get("intent");
  const self = `/teacher/class/${classId}/student/${studentUserId}`;
  const base = {
    referenceId: access.referenceId,
    classId,
    studentUserId,
    actorUserId: session.user.id,
    ip: clientAddress(args.request),
  };
  const nameOf = (userId: number) => displayNameOf(db, userId);

  if (intent === "setSupervisor") {
    const submission = parseWithZod(formData, { schema: supervisorSchema });
    if (submission.status !== "success") {
      return data({ intent: "setSupervisor", result: submission.reply() }, { status: 400 });
    }
    const chosen = submission.value.advisorUserId;
    const advisorUserId = chosen === "none" ? null : parseId(chosen);
    if (chosen !== "none" && advisorUserId === null) {
      const reply = submission.reply({ fieldErrors: { advisorUserId: ["placement:errors.notClassSupervisor"] } });
      return data({ intent: "setSupervisor", result: reply }, { status: 400 });
    }
    const outcome = await setAssignedSupervisor(db, { ...base, advisorUserId });
    if (!outcome.ok) {
      if (outcome.error === "notFound") notFound();
      const reply = submission.reply({ fieldErrors: { advisorUserId: [`placement:errors.${outcome.error}`] } });
      return data({ intent: "setSupervisor", result: reply }, { status: 400 });
    }
    if (!outcome.changed)
      return redirectWithFlash(self, { type: "info", key: "placement:teacher.supervisorUnchanged" });
    const student = await nameOf(studentUserId);
    return advisorUserId === null
      ? redirectWithFlash(self, { type: "success", key: "placement:teacher.supervisorCleared", values: { student } })
      : redirectWithFlash(self, {
          type: "success",
          key: "placement:teacher.supervisorSaved",
          values: { student, supervisor: await nameOf(advisorUserId) },
        });
  }

  if (intent === "addExtra") {
    const submission = parseWithZod(formData, { schema: addExtraSchema });
    if (submission.status !== "success") {
      return data({ intent: "addExtra", result: submission.reply() }, { status: 400 });
    }
    const userId = parseId(submission.value.extraUserId);
    const outcome =
      userId === null
        ? ({ ok: false, error: "notClassSupervisor" } as const)
        : await addExtraSupervisor(db, { ...base, userId });
    if (!outcome.ok) {
      if (outcome.error === "notFound") notFound();
      const reply = submission.reply({ fieldErrors: { extraUserId: [`placement:errors.${outcome.error}`] } });
      return data({ intent: "addExtra", result: reply }, { status: 400 });
    }
    return redirectWithFlash(self, {
      type: "success",
      key: "placement:teacher.extraAdded",
      values: { supervisor: await nameOf(userId!) },
    });
  }

  if (intent === "removeExtra") {
    const submission = parseWithZod(formData, { schema: removeExtraSchema });
    if (submission.status !== "success") {
      return data({ intent: "removeExtra", result: submission.reply() }, { status: 400 });
    }
    const userId = parseId(submission.value.removeUserId);
    const name = userId === null ? "" : await nameOf(userId);
    const outcome =
      userId === null
        ? ({ ok: false, error: "notExtra" } as const)
        : await removeExtraSupervisor(db, { ...base, userId });
    if (!outcome.ok) {
      const reply = submission.reply({ fieldErrors: { removeUserId: [`placement:errors.${outcome.error}`] } });
      return data({ intent: "removeExtra", result: reply }, { status: 400 });
    }
    return redirectWithFlash(self, {
      type: "success",
      key: "placement:teacher.extraRemoved",
      values: { supervisor: name },
    });
  }

  throw new Response("Bad Request", { status: 400 });
}

export default function TeacherStudent({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("placement");
  const busy = useNavigation().state === "submitting";
  const { placement, warning, supervisorChoices, extraCandidates, classHasSupervisors, signingForm } = loaderData;
  const { header, student } = placement;
  const classId = header.classId;
  const classLink = `/teacher/class/${classId}`;

  const [supervisorForm, supervisorFields] = useValidatedForm(
    () => import("./student.schema").then((m) => m.supervisorSchema),
    actionData?.intent === "setSupervisor" ? actionData.result : undefined,
  );
  const [extraForm, extraFields] = useValidatedForm(
    () => import("./student.schema").then((m) => m.addExtraSchema),
    actionData?.intent === "addExtra" ? actionData.result : undefined,
  );
  const removeErrors = actionData?.intent === "removeExtra" ? actionData.result.error?.removeUserId : undefined;

  const summary = [
    ...errorSummaryItems(t, [supervisorFields.advisorUserId, extraFields.extraUserId]),
    ...(removeErrors?.length ? [{ fieldId: "extra-supervisors", message: firstError(t, removeErrors)! }] : []),
  ];
  const chosenSupervisor =
    supervisorFields.advisorUserId.initialValue ?? (placement.advisor ? String(placement.advisor.userId) : "none");

  // Choosing the student's supervisors: last on the page, after the assessment and who follows the student.
  const controls = (
    <>
      <h2>{t("teacher.supervisorHeading")}</h2>
      {supervisorChoices.length === 0 ? (
        <p>
          {t("teacher.noClassSupervisors")} <Link to={classLink}>{t("teacher.toClassPage")}</Link>
        </p>
      ) : (
        <Form
          method="post"
          {...getFormProps(supervisorForm)}
          key={`supervisor-${placement.advisor?.userId ?? "none"}`}
          noValidate
        >
          <input type="hidden" name="intent" value="setSupervisor" />
          <Select
            label={t("teacher.supervisorLabel", { name: student.displayName })}
            hint={t("teacher.supervisorHint")}
            name={supervisorFields.advisorUserId.name}
            id={supervisorFields.advisorUserId.id}
            options={[
              { value: "none", label: t("teacher.noSupervisor") },
              ...supervisorChoices.map((s) => ({ value: String(s.userId), label: `${s.displayName} (${s.email})` })),
            ]}
            defaultValue={chosenSupervisor}
            error={firstError(t, supervisorFields.advisorUserId.errors)}
          />
          <Button disabled={busy}>{t("teacher.saveSupervisor")}</Button>
        </Form>
      )}

      <h2 id="extra-supervisors" tabIndex={-1}>
        {t("teacher.extraHeading")}
      </h2>
      <p>{t("teacher.extraIntro")}</p>
      {removeErrors?.length ? <FieldError id="extra-supervisors-error" message={firstError(t, removeErrors)!} /> : null}
      {placement.extraSupervisors.length === 0 ? (
        <p>{t("teacher.extraNone")}</p>
      ) : (
        <Table
          caption={t("teacher.extraCaption", { name: student.displayName })}
          captionHidden
          rowHeaders
          columns={[
            { header: t("teacher.name") },
            { header: t("teacher.email") },
            { header: <VisuallyHidden>{t("teacher.actions")}</VisuallyHidden> },
          ]}
          rows={placement.extraSupervisors.map((p) => ({
            key: String(p.userId),
            cells: [
              <Link key="name" to={`/teacher/class/${classId}/advisor/${p.userId}`}>
                {p.displayName}
              </Link>,
              p.email,
              <Form method="post" key="remove" className="placement-inline-form">
                <input type="hidden" name="intent" value="removeExtra" />
                <input type="hidden" name="removeUserId" value={p.userId} />
                <Button variant="secondary" disabled={busy}>
                  {t("teacher.remove")}
                  <VisuallyHidden> {t("teacher.removeContext", { name: p.displayName })}</VisuallyHidden>
                </Button>
              </Form>,
            ],
          }))}
        />
      )}
      {extraCandidates.length === 0 ? (
        classHasSupervisors ? (
          <p>{t("teacher.noCandidates")}</p>
        ) : null
      ) : (
        <Form method="post" {...getFormProps(extraForm)} key={`extra-${placement.extraSupervisors.length}`} noValidate>
          <input type="hidden" name="intent" value="addExtra" />
          <Select
            label={t("teacher.extraLabel")}
            name={extraFields.extraUserId.name}
            id={extraFields.extraUserId.id}
            placeholder={t("teacher.extraPlaceholder")}
            options={extraCandidates.map((s) => ({ value: String(s.userId), label: `${s.displayName} (${s.email})` }))}
            defaultValue={extraFields.extraUserId.initialValue ?? ""}
            error={firstError(t, extraFields.extraUserId.errors)}
          />
          <Button variant="secondary" disabled={busy}>
            {t("teacher.addExtra")}
          </Button>
        </Form>
      )}
    </>
  );

  return (
    <div className="app-content">
      <p>
        <Link to={classLink}>
          {t("backToClass", { subjectCode: header.subjectCode, subjectName: header.subjectName })}
        </Link>
      </p>
      <ErrorSummary errors={summary} />
      <PageHeading caption={`${header.subjectCode} ${header.subjectName}, ${header.periodName}`}>
        {student.displayName}
      </PageHeading>

      <StudentPlacement
        placement={placement}
        formHref={(f) =>
          `/teacher/class/${classId}/student/${student.userId}/form/${f.formId}/assignment/${f.assignmentId}`
        }
        resultsHref={(f) => `/teacher/class/${classId}/student/${student.userId}/form/${f.formId}/results`}
        supervisorHref={(userId) => `/teacher/class/${classId}/advisor/${userId}`}
        controls={controls}
      >
        <SigningFormCard
          card={signingForm}
          href={`/teacher/class/${classId}/student/${student.userId}/signingform`}
          mayCreate
        />
        <WarningCard warning={warning} href={`/teacher/class/${classId}/student/${student.userId}/warning`} />
      </StudentPlacement>
    </div>
  );
}
