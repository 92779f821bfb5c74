import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { Form, Link, useNavigation } from "react-router";
import { href } from "~/components/href";
import type { ZodObject, ZodString } from "zod";
import { errorSummaryItems, firstError } from "~/components/form-errors";
import { useValidatedForm } from "~/components/use-validated-form";
import { Button, FieldError, Select, Table, VisuallyHidden } from "~/components/ui";
import type { PlacementView, SupervisorOption } from "~/services/placements/index.server";

/**
 * The state of the page's supervisor forms (useValidatedForm): the choice of the assigned supervisor,
 * the extra supervisor to add, and a refused removal's messages, from the action's `reply` to the form
 * it names; and their error summary, which the page shows above its heading.
 */
export function useSupervisorForms(
  reply: { intent: string; result: SubmissionResult<string[]> } | undefined,
  schemas: {
    supervisor: () => Promise<ZodObject<{ supervisorUserId: ZodString }>>;
    extra: () => Promise<ZodObject<{ extraUserId: ZodString }>>;
  },
) {
  const { t } = useTranslation("placement");
  const [supervisorForm, supervisorFields] = useValidatedForm(
    schemas.supervisor,
    reply?.intent === "setSupervisor" ? reply.result : undefined,
  );
  const [extraForm, extraFields] = useValidatedForm(
    schemas.extra,
    reply?.intent === "addExtra" ? reply.result : undefined,
  );
  const removeErrors = reply?.intent === "removeExtra" ? reply.result.error?.removeUserId : undefined;
  return {
    supervisor: { form: getFormProps(supervisorForm), field: supervisorFields.supervisorUserId },
    extra: { form: getFormProps(extraForm), field: extraFields.extraUserId },
    removeErrors,
    summary: [
      ...errorSummaryItems(t, [supervisorFields.supervisorUserId, extraFields.extraUserId]),
      ...(removeErrors?.length ? [{ fieldId: "extra-supervisors", message: firstError(t, removeErrors)! }] : []),
    ],
  };
}

/**
 * The teacher's choice of a student's supervisors, last on the student's page: the assigned supervisor
 * (one of the class's, or none), and the extra supervisors who follow the student too, each removable.
 * The forms' state is the page's: its error summary, above the heading, names their messages.
 */
export function TeacherStudentSupervisors({
  placement,
  supervisorChoices,
  extraCandidates,
  classHasSupervisors,
  forms: { supervisor, extra, removeErrors },
}: {
  placement: PlacementView;
  supervisorChoices: SupervisorOption[];
  extraCandidates: SupervisorOption[];
  classHasSupervisors: boolean;
  forms: ReturnType<typeof useSupervisorForms>;
}) {
  const { t } = useTranslation("placement");
  const busy = useNavigation().state === "submitting";
  const { header, student } = placement;
  const classId = header.classId;
  const option = (s: SupervisorOption) => ({ value: String(s.userId), label: `${s.displayName} (${s.email})` });
  return (
    <>
      <h2>{t("teacher.supervisorHeading")}</h2>
      {supervisorChoices.length === 0 ? (
        <p>
          {t("teacher.noClassSupervisors")}{" "}
          <Link to={href("/teacher/class/:classId", { classId: String(classId) })}>{t("teacher.toClassPage")}</Link>
        </p>
      ) : (
        <Form
          method="post"
          {...supervisor.form}
          key={`supervisor-${placement.supervisor?.userId ?? "none"}`}
          noValidate
        >
          <input type="hidden" name="intent" value="setSupervisor" />
          <Select
            label={t("teacher.supervisorLabel", { name: student.displayName })}
            hint={t("teacher.supervisorHint")}
            name={supervisor.field.name}
            id={supervisor.field.id}
            options={[{ value: "none", label: t("teacher.noSupervisor") }, ...supervisorChoices.map(option)]}
            defaultValue={
              supervisor.field.initialValue ?? (placement.supervisor ? String(placement.supervisor.userId) : "none")
            }
            error={firstError(t, supervisor.field.errors)}
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
              <Link
                key="name"
                to={href("/teacher/class/:classId/supervisor/:userId", {
                  classId: String(classId),
                  userId: String(p.userId),
                })}
              >
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
        <Form method="post" {...extra.form} key={`extra-${placement.extraSupervisors.length}`} noValidate>
          <input type="hidden" name="intent" value="addExtra" />
          <Select
            label={t("teacher.extraLabel")}
            name={extra.field.name}
            id={extra.field.id}
            placeholder={t("teacher.extraPlaceholder")}
            options={extraCandidates.map(option)}
            defaultValue={extra.field.initialValue ?? ""}
            error={firstError(t, extra.field.errors)}
          />
          <Button variant="secondary" disabled={busy}>
            {t("teacher.addExtra")}
          </Button>
        </Form>
      )}
    </>
  );
}
