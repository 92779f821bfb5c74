import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Link } from "react-router";
import { href } from "~/components/href";
import { ErrorSummary, PageHeading } from "~/components/ui";
import { errorMessage, errorSummaryItems, firstError } from "~/components/form-errors";
import { useValidatedForm } from "~/components/use-validated-form";
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
import { AdminClassCopy, copyResultMessage } from "~/components/app/AdminClassCopy";
import { AdminClassDateForm } from "~/components/app/AdminClassDateForm";
import { AdminClassPeople } from "~/components/app/AdminClassPeople";
import { AdminClassSchemeForm, firstFormChoiceId } from "~/components/app/AdminClassSchemeForm";
import { AdminClassSchemes, REMOVE_PARAM } from "~/components/app/AdminClassSchemes";
import { ClassDetails } from "~/components/app/ClassDetails";
import { copySchema, endDateSchema, midDateSchema, schemeSchema } from "./class.schema";
import type { Route } from "./+types/class";
import { idParam, notFound, parseId } from "~/services/platform/ids";
import enAdminClass from "~/locales/en/adminClass.json";
import nbAdminClass from "~/locales/nb/adminClass.json";
import { provideNamespace } from "~/i18n-client/page-namespaces";

// Only the admin's class pages use these texts: not in the language chunk every page loads (ADR 0012).
provideNamespace("adminClass", { nb: nbAdminClass, en: enAdminClass });

export const handle = { titleKey: "adminClass:title" };

/** The page's four forms' schemas, loaded once the page is interactive (ADR 0012). */
const classSchemas = () => import("./class.schema");

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
    confirmRemove: schemes.some((s) => s.schemeId === removeId) ? removeId : null,
    sources: await expectationSources(db, classId),
  };
}

/** A refused post: the form's reply with its messages, for the form the intent names. */
function refused<Intent extends string>(intent: Intent, result: SubmissionResult<string[]>, status = 400) {
  return data({ intent, result }, { status });
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const session = requireRole(request, context, ROLE.Admin);
  const classId = idParam(params.classId);
  const db = await getDb();
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  const by = { classId, actorUserId: session.user.id, ip: clientAddress(request) };
  const self = href("/admin/class/:classId", { classId: String(classId) });

  if (intent === "midDate" || intent === "endDate") {
    const mid = intent === "midDate";
    const submission = parseWithZod(formData, { schema: mid ? midDateSchema : endDateSchema });
    if (submission.status !== "success") return refused(intent, submission.reply());
    const text =
      "midSemesterDate" in submission.value ? submission.value.midSemesterDate : submission.value.endSemesterDate;
    const outcome = await (mid ? updateMidSemesterDate : updateEndSemesterDate)(db, { ...by, text });
    if (!outcome.ok) {
      if (outcome.error === "notFound") notFound();
      const fieldErrors = {
        [mid ? "midSemesterDate" : "endSemesterDate"]: [`adminClass:errors.${intent}.${outcome.error}`],
      };
      return refused(intent, submission.reply({ fieldErrors }));
    }
    return redirectWithFlash(self, {
      type: "success",
      key: mid ? "adminClass:midDate.saved" : "adminClass:endDate.saved",
      values: { date: formatDay(outcome.date, getLanguage(context)) },
    });
  }

  if (intent === "removeScheme") {
    // A confirmation page loaded before the code said "scheme" still posts the id under its earlier name.
    const posted = formData.get("schemeId") ?? formData.get("assignmentId"); // stored name
    const schemeId = parseId(typeof posted === "string" ? posted : null) ?? notFound();
    const outcome = await removeScheme(db, { ...by, schemeId });
    if (!outcome.ok) {
      if (outcome.error === "notFound") notFound();
      // Answered since the confirmation was shown: the confirmation page says why it cannot go.
      return redirectWithFlash(`${self}?${REMOVE_PARAM}=${schemeId}#schemes`, {
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
    if (submission.status !== "success") return refused(intent, submission.reply());
    const sourceClassId = Number(submission.value.sourceClassId);
    const outcome = await copyExpectations(db, { ...by, sourceClassId });
    if (!outcome.ok) {
      if (outcome.error === "notFound") notFound();
      const key = outcome.error === "noSchemes" ? "adminClass:copy.noSchemes" : "adminClass:errors.sourceRequired";
      return refused(intent, submission.reply({ fieldErrors: { sourceClassId: [key] } }));
    }
    const t = getInstance(context).getFixedT(getLanguage(context), "adminClass");
    return redirectWithFlash(`${self}#copy-heading`, {
      type: outcome.copied.length === 0 ? "info" : "success",
      key: "adminClass:copy.message",
      values: { message: copyResultMessage(t, outcome.sourceSemesterName, outcome) },
    });
  }

  if (intent === "scheme") {
    const submission = parseWithZod(formData, { schema: schemeSchema });
    if (submission.status !== "success") return refused(intent, submission.reply());
    const { half, formIds } = submission.value;
    const outcome = await createScheme(db, { ...by, isMidSemester: half === "mid", formIds: formIds.map(Number) });
    if (!outcome.ok) {
      const { error } = outcome;
      if (error.kind === "notFound") notFound();
      const message =
        error.kind !== "alreadyInScheme"
          ? `adminClass:errors.${error.kind}`
          : errorMessage(`adminClass:errors.${error.isMidSemester ? "alreadyInMidScheme" : "alreadyInEndScheme"}`, {
              form: error.formName,
            });
      return refused(intent, submission.reply({ fieldErrors: { formIds: [message] } }));
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
  const { header, schemes, mainForms, specificForms, teachers, students, supervisors, confirmRemove, sources } =
    loaderData;
  const reply = (intent: string) => (actionData?.intent === intent ? actionData.result : undefined);
  // Each form's id comes from useId, in call order: end, mid, copy, scheme, as the page has always had them.
  const [endForm, end] = useValidatedForm(() => classSchemas().then((m) => m.endDateSchema), reply("endDate"));
  const [midForm, mid] = useValidatedForm(() => classSchemas().then((m) => m.midDateSchema), reply("midDate"));
  const [copyForm, copy] = useValidatedForm(() => classSchemas().then((m) => m.copySchema), reply("copyExpectations"));
  const [schemeForm, scheme] = useValidatedForm(() => classSchemas().then((m) => m.schemeSchema), reply("scheme"));
  const formIdsError = firstError(t, scheme.formIds.errors);
  const summary = [
    ...errorSummaryItems(t, [mid.midSemesterDate, end.endSemesterDate, scheme.half]),
    ...(formIdsError ? [{ fieldId: firstFormChoiceId(scheme.formIds.id, mainForms), message: formIdsError }] : []),
    ...errorSummaryItems(t, [copy.sourceClassId]),
  ];

  return (
    <div className="app-content">
      <p>
        <Link to={href("/admin/semesters/:semesterId", { semesterId: String(header.semesterId) })}>
          {t("backToSemester", { semester: header.semesterName })}
        </Link>
      </p>
      <ErrorSummary errors={summary} />
      <PageHeading caption={header.semesterName}>
        {header.subjectCode} {header.subjectName}
      </PageHeading>
      <ClassDetails header={header} />
      <AdminClassDateForm half="mid" header={header} form={midForm} field={mid.midSemesterDate} />
      <AdminClassDateForm half="end" header={header} form={endForm} field={end.endSemesterDate} />
      <AdminClassSchemes classId={header.classId} schemes={schemes} confirmRemove={confirmRemove} />
      <AdminClassSchemeForm
        schemeCount={schemes.length}
        mainForms={mainForms}
        specificForms={specificForms}
        form={schemeForm}
        fields={scheme}
      />
      <AdminClassCopy hasSchemes={schemes.length > 0} sources={sources} form={copyForm} field={copy.sourceClassId} />
      <AdminClassPeople classId={header.classId} teachers={teachers} students={students} supervisors={supervisors} />
    </div>
  );
}
