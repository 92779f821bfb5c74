import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, Link, useNavigation } from "react-router";
import {
  AlertBanner,
  Button,
  ButtonGroup,
  CheckboxGroup,
  ErrorSummary,
  FieldError,
  Fieldset,
  Hint,
  LinkButton,
  PageHeading,
  RadioGroup,
  Select,
  Table,
  Tag,
  TextField,
  VisuallyHidden,
} from "~/components/ui";
import { errorMessage, firstError } from "~/components/form-errors";
import { listValue, useValidatedForm } from "~/components/use-validated-form";
import {
  adminClassPage,
  classHeaderView,
  copyExpectations,
  createScheme,
  expectationSources,
  removeScheme,
  updateEndSemesterDate,
  updateMidSemesterDate,
} from "~/services/admin/index.server";
import { getDb } from "~/services/platform/db/index.server";
import { redirectWithFlash } from "~/services/platform/flash.server";
import { clientAddress, readFormData } from "~/services/platform/request.server";
import { requireRole } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import { formatDay, osloDate } from "~/services/platform/semesters";
import { getInstance, getLanguage } from "~/services/platform/i18n.server";
import { ClassDetails } from "~/components/app/ClassDetails";
import { PeopleTable } from "~/components/app/PeopleTable";
import { copySchema, endDateSchema, midDateSchema, schemeSchema } from "./class.schema";
import type { Route } from "./+types/class";
import { idParam, notFound } from "~/services/platform/ids";
import enAdminClass from "~/locales/en/adminClass.json";
import nbAdminClass from "~/locales/nb/adminClass.json";
import { provideNamespace } from "~/i18n-client/page-namespaces";

// Only the admin's class pages use these texts: not in the language chunk every page loads (ADR 0012).
provideNamespace("adminClass", { nb: nbAdminClass, en: enAdminClass });

export const handle = { titleKey: "adminClass:title" };

/** The scheme a "Remove" link asks about (`?remove=<id>`): the confirmation step, the same with and without JavaScript. */
const REMOVE_PARAM = "remove";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  requireRole(request, context, ROLE.Admin);
  const db = await getDb();
  const classId = idParam(params.classId);
  const page = await adminClassPage(db, classId);
  if (!page) notFound();
  const language = getLanguage(context);
  const { header, schemes, ...rest } = page;
  const removeId = Number(new URL(request.url).searchParams.get(REMOVE_PARAM));
  return {
    ...rest,
    header: classHeaderView(header, language),
    schemes: schemes.map(({ createdAt, ...scheme }) => ({
      ...scheme,
      createdText: formatDay(osloDate(createdAt), language),
    })),
    confirmRemove: schemes.some((s) => s.assignmentId === removeId) ? removeId : null,
    sources: await expectationSources(db, classId),
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const session = requireRole(request, context, ROLE.Admin);
  const classId = idParam(params.classId);
  const db = await getDb();
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  const self = `/admin/class/${classId}`;

  if (intent === "endDate") {
    const submission = parseWithZod(formData, { schema: endDateSchema });
    if (submission.status !== "success") {
      return data({ intent: "endDate", result: submission.reply() }, { status: 400 });
    }
    const outcome = await updateEndSemesterDate(db, {
      classId,
      text: submission.value.endSemesterDate,
      actorUserId: session.user.id,
      ip: clientAddress(request),
    });
    if (!outcome.ok) {
      if (outcome.error === "notFound") notFound();
      const reply = submission.reply({
        fieldErrors: { endSemesterDate: [`adminClass:errors.endDate.${outcome.error}`] },
      });
      return data({ intent: "endDate", result: reply }, { status: 400 });
    }
    return redirectWithFlash(self, {
      type: "success",
      key: "adminClass:endDate.saved",
      values: { date: formatDay(outcome.date, getLanguage(context)) },
    });
  }

  if (intent === "midDate") {
    const submission = parseWithZod(formData, { schema: midDateSchema });
    if (submission.status !== "success") {
      return data({ intent: "midDate", result: submission.reply() }, { status: 400 });
    }
    const outcome = await updateMidSemesterDate(db, {
      classId,
      text: submission.value.midSemesterDate,
      actorUserId: session.user.id,
      ip: clientAddress(request),
    });
    if (!outcome.ok) {
      if (outcome.error === "notFound") notFound();
      const reply = submission.reply({
        fieldErrors: { midSemesterDate: [`adminClass:errors.midDate.${outcome.error}`] },
      });
      return data({ intent: "midDate", result: reply }, { status: 400 });
    }
    return redirectWithFlash(self, {
      type: "success",
      key: "adminClass:midDate.saved",
      values: { date: formatDay(outcome.date, getLanguage(context)) },
    });
  }

  if (intent === "removeScheme") {
    const posted = formData.get("assignmentId");
    const assignmentId = typeof posted === "string" && /^\d{1,10}$/.test(posted) ? Number(posted) : 0;
    if (assignmentId < 1 || assignmentId > 2_147_483_647) notFound();
    const outcome = await removeScheme(db, {
      classId,
      assignmentId,
      actorUserId: session.user.id,
      ip: clientAddress(request),
    });
    if (!outcome.ok) {
      if (outcome.error === "notFound") notFound();
      // Answered since the confirmation was shown: the confirmation page says why it cannot go.
      return redirectWithFlash(`${self}?${REMOVE_PARAM}=${assignmentId}#schemes`, {
        type: "error",
        key: "adminClass:schemes.cannotRemoveHeading",
      });
    }
    return redirectWithFlash(`${self}#schemes`, {
      type: "success",
      key: outcome.isMidSemester ? "adminClass:schemes.removedMid" : "adminClass:schemes.removedEnd",
    });
  }

  if (intent === "copyExpectations") {
    const submission = parseWithZod(formData, { schema: copySchema });
    if (submission.status !== "success") {
      return data({ intent: "copyExpectations", result: submission.reply() }, { status: 400 });
    }
    const outcome = await copyExpectations(db, {
      classId,
      sourceClassId: Number(submission.value.sourceClassId),
      actorUserId: session.user.id,
      ip: clientAddress(request),
    });
    if (!outcome.ok) {
      if (outcome.error === "notFound") notFound();
      const key = outcome.error === "noSchemes" ? "adminClass:copy.noSchemes" : "adminClass:errors.sourceRequired";
      return data(
        { intent: "copyExpectations", result: submission.reply({ fieldErrors: { sourceClassId: [key] } }) },
        { status: 400 },
      );
    }
    // The message names forms and halves: put together here, in the reader's language.
    const t = getInstance(context).getFixedT(getLanguage(context), "adminClass");
    const semester =
      (await expectationSources(db, classId)).find((s) => s.classId === Number(submission.value.sourceClassId))
        ?.periodName ?? "";
    const halfText = (isMid: boolean) => t(isMid ? "schemes.halfText.mid" : "schemes.halfText.end");
    const named = (f: { name: string; isMidSemester: boolean }) => `${f.name} (${halfText(f.isMidSemester)})`;
    const parts =
      outcome.copied.length === 0
        ? [t("copyResult.nothingCopied", { semester, forms: outcome.notMatched.map(named).join(", ") })]
        : [
            t("copyResult.copied", {
              semester,
              copied: outcome.copied
                .map((f) =>
                  t("copyResult.copiedForm", { form: f.name, half: halfText(f.isMidSemester), count: f.questions }),
                )
                .join("; "),
            }),
            ...(outcome.notMatched.length > 0
              ? [t("copyResult.notMatched", { semester, forms: outcome.notMatched.map(named).join(", ") })]
              : []),
          ];
    return redirectWithFlash(`${self}#copy-heading`, {
      type: outcome.copied.length === 0 ? "info" : "success",
      key: "adminClass:copy.message",
      values: { message: parts.join(" ") },
    });
  }

  if (intent === "scheme") {
    const submission = parseWithZod(formData, { schema: schemeSchema });
    if (submission.status !== "success") {
      return data({ intent: "scheme", result: submission.reply() }, { status: 400 });
    }
    const { half, formIds } = submission.value;
    const outcome = await createScheme(db, {
      classId,
      isMidSemester: half === "mid",
      formIds: formIds.map(Number),
      actorUserId: session.user.id,
      ip: clientAddress(request),
    });
    if (!outcome.ok) {
      const { error } = outcome;
      if (error.kind === "notFound") notFound();
      const message =
        error.kind === "alreadyInScheme"
          ? errorMessage(
              error.isMidSemester ? "adminClass:errors.alreadyInMidScheme" : "adminClass:errors.alreadyInEndScheme",
              {
                form: error.formName,
              },
            )
          : `adminClass:errors.${error.kind}`;
      return data(
        { intent: "scheme", result: submission.reply({ fieldErrors: { formIds: [message] } }) },
        { status: 400 },
      );
    }
    return redirectWithFlash(self, {
      type: "success",
      key: half === "mid" ? "adminClass:schemes.createdMid" : "adminClass:schemes.createdEnd",
    });
  }

  throw new Response("Bad Request", { status: 400 });
}

export default function AdminClass({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("adminClass");
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const { header, schemes, mainForms, specificForms, teachers, students, supervisors, confirmRemove, sources } =
    loaderData;
  const classId = header.classId;

  const [dateForm, dateFields] = useValidatedForm(
    () => import("./class.schema").then((m) => m.endDateSchema),
    actionData?.intent === "endDate" ? actionData.result : undefined,
  );
  const [midForm, midFields] = useValidatedForm(
    () => import("./class.schema").then((m) => m.midDateSchema),
    actionData?.intent === "midDate" ? actionData.result : undefined,
  );
  const [copyForm, copyFields] = useValidatedForm(
    () => import("./class.schema").then((m) => m.copySchema),
    actionData?.intent === "copyExpectations" ? actionData.result : undefined,
  );
  const [schemeForm, schemeFields] = useValidatedForm(
    () => import("./class.schema").then((m) => m.schemeSchema),
    actionData?.intent === "scheme" ? actionData.result : undefined,
  );

  const formIdsError = firstError(t, schemeFields.formIds.errors);
  const specificFormsId = `${schemeFields.formIds.id}-specific`;
  const firstFormChoiceId = mainForms.length > 0 ? schemeFields.formIds.id : specificFormsId;
  const chosenForms = listValue(schemeFields.formIds.initialValue);
  const summary = [
    ...(midFields.midSemesterDate.errors?.length
      ? [{ fieldId: midFields.midSemesterDate.id, message: firstError(t, midFields.midSemesterDate.errors)! }]
      : []),
    ...(dateFields.endSemesterDate.errors?.length
      ? [{ fieldId: dateFields.endSemesterDate.id, message: firstError(t, dateFields.endSemesterDate.errors)! }]
      : []),
    ...(schemeFields.half.errors?.length
      ? [{ fieldId: schemeFields.half.id, message: firstError(t, schemeFields.half.errors)! }]
      : []),
    ...(formIdsError ? [{ fieldId: firstFormChoiceId, message: formIdsError }] : []),
    ...(copyFields.sourceClassId.errors?.length
      ? [{ fieldId: copyFields.sourceClassId.id, message: firstError(t, copyFields.sourceClassId.errors)! }]
      : []),
  ];
  const formNames = (scheme: (typeof schemes)[number]) => scheme.forms.map((f) => f.name).join(", ");
  const removing = schemes.find((s) => s.assignmentId === confirmRemove);

  const halfName = (isMidSemester: boolean) => (isMidSemester ? t("schemes.mid") : t("schemes.end"));
  const halfText = (isMidSemester: boolean) => (isMidSemester ? t("schemes.halfText.mid") : t("schemes.halfText.end"));
  const peopleText = {
    nameHeader: t("people.name"),
    emailHeader: t("people.email"),
    deactivatedLabel: t("people.deactivated"),
  };

  return (
    <div className="app-content">
      <p>
        <Link to={`/admin/semesters/${header.periodId}`}>{t("backToSemester", { semester: header.periodName })}</Link>
      </p>
      <ErrorSummary errors={summary} />
      <PageHeading caption={header.periodName}>
        {header.subjectCode} {header.subjectName}
      </PageHeading>

      <ClassDetails header={header} />

      <h2>{t("midDate.heading")}</h2>
      <Form method="post" {...getFormProps(midForm)} key={`mid-${header.midSemesterDate ?? ""}`} noValidate>
        <input type="hidden" name="intent" value="midDate" />
        <TextField
          type="date"
          width="10"
          label={t("midDate.label")}
          hint={t("midDate.hint", { start: header.periodStartText, end: header.periodEndText })}
          name={midFields.midSemesterDate.name}
          id={midFields.midSemesterDate.id}
          min={header.periodStart}
          max={header.endSemesterDate ?? header.periodEnd}
          required
          defaultValue={midFields.midSemesterDate.initialValue ?? header.midSemesterDate ?? ""}
          error={firstError(t, midFields.midSemesterDate.errors)}
        />
        <Button disabled={busy}>{t("midDate.submit")}</Button>
      </Form>

      <h2>{t("endDate.heading")}</h2>
      <Form method="post" {...getFormProps(dateForm)} key={`end-${header.endSemesterDate ?? ""}`} noValidate>
        <input type="hidden" name="intent" value="endDate" />
        <TextField
          type="date"
          width="10"
          label={t("endDate.label")}
          hint={t("endDate.hint", { start: header.periodStartText, end: header.periodEndText })}
          name={dateFields.endSemesterDate.name}
          id={dateFields.endSemesterDate.id}
          min={header.midSemesterDate ?? header.periodStart}
          max={header.periodEnd}
          required
          defaultValue={dateFields.endSemesterDate.initialValue ?? header.endSemesterDate ?? ""}
          error={firstError(t, dateFields.endSemesterDate.errors)}
        />
        <Button disabled={busy}>{t("endDate.submit")}</Button>
      </Form>

      <h2 id="schemes" tabIndex={-1}>
        {t("schemes.heading")}
      </h2>
      {removing ? (
        removing.answerSets > 0 ? (
          <AlertBanner variant="warning" heading={t("schemes.cannotRemoveHeading")} headingLevel={3}>
            <p>{t("schemes.cannotRemove", { count: removing.answerSets })}</p>
            <p>
              <Link to={`/admin/class/${classId}#schemes`}>{t("schemes.cancel")}</Link>
            </p>
          </AlertBanner>
        ) : (
          <AlertBanner
            variant="warning"
            heading={t("schemes.confirmHeading", { half: halfText(removing.isMidSemester) })}
            headingLevel={3}
          >
            <p>{t("schemes.confirmText", { forms: formNames(removing) })}</p>
            <Form method="post" action={`/admin/class/${classId}`}>
              <input type="hidden" name="intent" value="removeScheme" />
              <input type="hidden" name="assignmentId" value={removing.assignmentId} />
              <ButtonGroup>
                <Button variant="warning" disabled={busy}>
                  {t("schemes.confirmRemove")}
                </Button>
                <LinkButton variant="secondary" to={`/admin/class/${classId}#schemes`}>
                  {t("schemes.cancel")}
                </LinkButton>
              </ButtonGroup>
            </Form>
          </AlertBanner>
        )
      ) : null}
      {schemes.length === 0 ? (
        <p>{t("schemes.none")}</p>
      ) : (
        <Table
          caption={t("schemes.heading")}
          captionHidden
          rowHeaders
          columns={[
            { header: t("schemes.half") },
            { header: t("schemes.forms") },
            { header: t("schemes.created"), numeric: true },
            { header: t("schemes.sentAnswers"), numeric: true },
            { header: t("schemes.actions") },
          ]}
          rows={schemes.map((scheme) => ({
            key: String(scheme.assignmentId),
            cells: [
              halfName(scheme.isMidSemester),
              <ul className="admin-class-forms" key="forms">
                {scheme.forms.map((form) => (
                  <li key={form.formId}>
                    {form.name}
                    {form.isMainForm ? (
                      <>
                        {" "}
                        <Tag variant="info">{t("schemes.mainForm")}</Tag>
                      </>
                    ) : null}
                    {form.deleted ? (
                      <>
                        {" "}
                        <Tag variant="neutral">{t("schemes.deletedForm")}</Tag>
                      </>
                    ) : (
                      <>
                        {" "}
                        <Link to={`/admin/class/${classId}/form/${form.formId}/assignment/${scheme.assignmentId}`}>
                          {t("schemes.expectations")}
                          <VisuallyHidden>
                            {" "}
                            {t("schemes.expectationsFor", { form: form.name, half: halfName(scheme.isMidSemester) })}
                          </VisuallyHidden>
                        </Link>
                      </>
                    )}
                  </li>
                ))}
              </ul>,
              scheme.createdText,
              scheme.sentAnswerSets,
              <Link key="remove" to={`?${REMOVE_PARAM}=${scheme.assignmentId}#schemes`} preventScrollReset>
                {t("schemes.remove")}
                <VisuallyHidden>
                  {" "}
                  {t("schemes.removeFor", { half: halfText(scheme.isMidSemester), forms: formNames(scheme) })}
                </VisuallyHidden>
              </Link>,
            ],
          }))}
        />
      )}

      <h3>{t("schemes.addHeading")}</h3>
      {mainForms.length + specificForms.length === 0 ? (
        <p>{t("schemes.noFormsAvailable")}</p>
      ) : (
        <Form method="post" {...getFormProps(schemeForm)} key={`scheme-${schemes.length}`} noValidate>
          <input type="hidden" name="intent" value="scheme" />
          <RadioGroup
            name={schemeFields.half.name}
            id={schemeFields.half.id}
            legend={t("schemes.halfLegend")}
            legendSize="s"
            inline
            required
            options={[
              { value: "mid", label: t("schemes.mid") },
              { value: "end", label: t("schemes.end") },
            ]}
            defaultValue={schemeFields.half.initialValue ?? null}
            error={firstError(t, schemeFields.half.errors)}
          />
          <div className={formIdsError ? "ui-form-group ui-form-group--error" : "ui-form-group"}>
            <Fieldset
              legend={t("schemes.formsLegend")}
              legendSize="s"
              describedBy={
                formIdsError
                  ? `${schemeFields.formIds.id}-hint ${schemeFields.formIds.id}-error`
                  : `${schemeFields.formIds.id}-hint`
              }
            >
              <Hint id={`${schemeFields.formIds.id}-hint`}>{t("schemes.formsHint")}</Hint>
              {formIdsError ? <FieldError id={`${schemeFields.formIds.id}-error`} message={formIdsError} /> : null}
              {mainForms.length > 0 ? (
                <CheckboxGroup
                  name={schemeFields.formIds.name}
                  id={schemeFields.formIds.id}
                  legend={t("schemes.mainFormsLegend")}
                  legendSize="s"
                  options={mainForms.map((f) => ({ value: String(f.formId), label: f.name }))}
                  defaultValue={chosenForms}
                />
              ) : null}
              {specificForms.length > 0 ? (
                <CheckboxGroup
                  name={schemeFields.formIds.name}
                  id={specificFormsId}
                  legend={t("schemes.specificFormsLegend")}
                  legendSize="s"
                  hint={t("schemes.specificFormsHint")}
                  options={specificForms.map((f) => ({ value: String(f.formId), label: f.name }))}
                  defaultValue={chosenForms}
                />
              ) : null}
            </Fieldset>
          </div>
          <Button disabled={busy}>{t("schemes.submit")}</Button>
        </Form>
      )}

      <h3 id="copy-heading" tabIndex={-1}>
        {t("copy.heading")}
      </h3>
      {schemes.length === 0 ? (
        <p>{t("copy.noSchemes")}</p>
      ) : sources.length === 0 ? (
        <p>{t("copy.none")}</p>
      ) : (
        <Form method="post" {...getFormProps(copyForm)} noValidate>
          <input type="hidden" name="intent" value="copyExpectations" />
          <p>{t("copy.intro")}</p>
          <Select
            label={t("copy.label")}
            name={copyFields.sourceClassId.name}
            id={copyFields.sourceClassId.id}
            // Not `required`: the list has no empty choice, so a semester is always chosen (and HTML
            // allows `required` on a single select only when its first option is an empty placeholder).
            options={sources.map((s) => ({
              value: String(s.classId),
              label: t("copy.option", { semester: s.periodName, count: s.levels }),
            }))}
            defaultValue={copyFields.sourceClassId.initialValue ?? String(sources[0].classId)}
            error={firstError(t, copyFields.sourceClassId.errors)}
          />
          <Button variant="secondary" disabled={busy}>
            {t("copy.submit")}
          </Button>
        </Form>
      )}

      <h2>{t("people.teachers", { count: teachers.length })}</h2>
      <PeopleTable
        {...peopleText}
        caption={t("people.teachersCaption")}
        empty={t("people.noTeachers")}
        people={teachers}
        href={(p) => `/admin/users/${p.userId}`}
        columns={[{ header: t("people.assignedStudents"), numeric: true, cell: (p) => p.studentCount }]}
      />

      <h2>{t("people.students", { count: students.length })}</h2>
      <PeopleTable
        {...peopleText}
        caption={t("people.studentsCaption")}
        empty={t("people.noStudents")}
        people={students}
        href={(p) => `/admin/users/${p.userId}`}
        columns={[
          { header: t("people.teacher"), cell: (p) => p.teacherName ?? t("people.none") },
          { header: t("people.supervisor"), cell: (p) => p.advisorName ?? t("people.none") },
        ]}
      />

      <h2>{t("people.supervisors", { count: supervisors.length })}</h2>
      <PeopleTable
        {...peopleText}
        caption={t("people.supervisorsCaption")}
        empty={t("people.noSupervisors")}
        people={supervisors}
        href={(p) => `/admin/class/${classId}/advisor/${p.userId}`}
        columns={[{ header: t("people.followedStudents"), numeric: true, cell: (p) => p.studentCount }]}
      />
    </div>
  );
}
