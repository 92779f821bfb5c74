import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, Link, useNavigation } from "react-router";
import { z } from "zod";
import { SubmitButton } from "~/components/app/SubmitButton";
import { errorSummaryItems, firstError } from "~/components/form-errors";
import {
  AlertBanner,
  CheckboxGroup,
  ErrorSummary,
  PageHeading,
  SummaryList,
  TextArea,
  TextField,
} from "~/components/ui";
import { useHydrated } from "~/components/ui/internal";
import { useValidatedForm } from "~/components/use-validated-form";
import { endPartSchema, midPartSchema, signSchema } from "~/services/signing/signing-form.schema";
import { getDb } from "~/services/platform/db/index.server";
import { recordOpening } from "~/services/platform/record-openings.server";
import { redirectWithFlash } from "~/services/platform/flash.server";
import { getInstance, getLanguage } from "~/services/platform/i18n.server";
import { idParam, notFound } from "~/services/platform/ids";
import { currentInstitution } from "~/services/platform/institution.server";
import { clientAddress, readFormData } from "~/services/platform/request.server";
import { requireAreaRole } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import { formatDay, osloDate } from "~/services/platform/semesters";
import {
  INTENTS,
  mayAttempt,
  NEW_FORM_ID,
  missingParties,
  unsentForms,
  type Intent,
  type Refusal,
  END_QUESTIONS,
  MID_QUESTIONS,
  TEACHER_COMMENT_LIMIT,
} from "~/services/signing";
import {
  cancelForm,
  checkMidPart,
  requireSentForms,
  resubmitResult,
  saveEndPart,
  saveMidPart,
  sendingFacts,
  signForm,
  signingFormView,
  signingPlace,
  validationSummary,
  type Submission,
} from "~/services/signing/index.server";
import { FreshPage } from "~/components/fresh-page";
import type { Route } from "./+types/signing-form";
import {
  CancelSection,
  ChoiceQuestion,
  EndResult,
  MidConfirmDialog,
  ValidationSection,
  choiceText,
  type MidConfirmView,
  type SendingView,
} from "~/components/app/SigningFormSections";
import { provideNamespace } from "~/i18n-client/page-namespaces";

export const handle = { titleKey: "signing:page.title" };

/** Cancelling and sending the result again carry nothing but their intent. */
const cancelSchema = z.object({ intent: z.literal("cancel") });
const submitResultSchema = z.object({ intent: z.literal("submitResult") });

const SCHEMAS = {
  saveMid: midPartSchema,
  saveEnd: endPartSchema,
  sign: signSchema,
  cancel: cancelSchema,
  submitResult: submitResultSchema,
} satisfies Record<Intent, z.ZodObject>;

/** The viewer (in the role of the area the page's route entry is in: student, teacher or supervisor) and the student the URL names. */
function guard(args: Route.LoaderArgs | Route.ActionArgs) {
  const session = requireAreaRole(args.request, args.context);
  const role = session.activeRole;
  if (role !== ROLE.Student && role !== ROLE.Teacher && role !== ROLE.Advisor) notFound();
  return {
    viewer: { userId: session.user.id, role },
    classId: idParam(args.params.classId),
    studentUserId: idParam(args.params.studentUserId),
  };
}

/** Where the back link leads: the student's forms page, or the staff member's page of the student. */
function backPath(role: number, classId: number, studentUserId: number): string {
  if (role === ROLE.Student) return "/student/forms";
  return `/${role === ROLE.Teacher ? "teacher" : "supervisor"}/class/${classId}/student/${studentUserId}`;
}

export async function loader(args: Route.LoaderArgs) {
  const { viewer, classId, studentUserId } = guard(args);
  const db = await getDb();
  const language = getLanguage(args.context);
  const place = await signingPlace(db, viewer, classId, studentUserId);
  const opening = {
    viewerUserId: viewer.userId,
    viewerRole: viewer.role,
    studentUserId,
    classId,
    kind: "signingForm",
  } as const;
  const teacher = place.relation === "teacher";
  const [view, summary, facts] = await Promise.all([
    signingFormView(db, place, viewer.userId, language),
    teacher ? validationSummary(db, place, viewer.userId) : null,
    teacher ? sendingFacts(db, place, viewer.userId) : null,
    recordOpening(db, opening),
  ]);
  const studentPage = `/teacher/class/${classId}/student/${studentUserId}`;
  const sending: SendingView | null = facts && {
    forms: facts.forms.map((form) => {
      const missing = missingParties(form, facts.hasSupervisor);
      return {
        key: `${form.assignmentId}-${form.formId}`,
        name: form.name,
        isMidSemester: form.isMidSemester,
        href: missing.length > 0 ? `${studentPage}/form/${form.formId}/assignment/${form.assignmentId}` : null,
        student: form.sent.student,
        advisor: facts.hasSupervisor ? form.sent.advisor : null,
        teacher: form.sent.teacher,
        answered: form.teacherAnswers.answered,
        questions: form.teacherAnswers.questions,
      };
    }),
    unsent: unsentForms(facts, "sign").length,
    requireSentForms: requireSentForms(),
  };
  const url = new URL(args.request.url);
  return {
    view,
    validation: summary && {
      teacherAnswerSummary: summary.teacherAnswerSummary,
      archivedCount: summary.archivedCount,
      lastArchivedText: summary.lastArchivedAt ? formatDay(osloDate(summary.lastArchivedAt), language) : null,
      submittedText: summary.resultSubmittedAt ? formatDay(osloDate(summary.resultSubmittedAt), language) : null,
    },
    sending,
    // The texts of the teacher's check and the mid-semester confirmation come with the page's data,
    // in its language only: the page's script stays within its weight (they are the teacher's alone).
    checkTexts: teacher
      ? {
          language,
          texts: getInstance(args.context).getResourceBundle(language, "signingCheck") as Record<string, unknown>,
        }
      : null,
    back: backPath(viewer.role, classId, studentUserId),
    confirmCancel: url.searchParams.get("confirm") === "cancel" && view.rights.cancel,
    pdfHref: view.id === NEW_FORM_ID ? null : `/api/classes/${classId}/students/${studentUserId}/signingform/pdf`,
    declaration: currentInstitution()[language].signingForm.declaration,
    today: osloDate(new Date()),
  };
}

function refusedReply(
  intent: Intent,
  result: SubmissionResult<string[]>,
  status: 400 | 409,
  confirmMid: MidConfirmView | null = null,
) {
  return data({ intent, result, confirmMid }, { status });
}

/** The refusals about forms not sent have their texts with this page's check (signingCheck). */
const refusedKey = (reason: string) =>
  reason === "formsNotSent" ? `signingCheck:refused.${reason}` : `signing:refused.${reason}`;
const errorKey = (error: string) =>
  error === "acknowledgeUnsent" ? `signingCheck:errors.${error}` : `signing:errors.${error}`;

export async function action(args: Route.ActionArgs) {
  const { viewer, classId, studentUserId } = guard(args);
  const db = await getDb();
  const place = await signingPlace(db, viewer, classId, studentUserId);
  const formData = await readFormData(args.request);
  const intent = formData.get("intent");
  if (typeof intent !== "string" || !(INTENTS as readonly string[]).includes(intent)) {
    throw new Response("Bad Request", { status: 400 });
  }
  if (!mayAttempt(intent as Intent, place.relation)) throw new Response("Forbidden", { status: 403 });

  const page = new URL(args.request.url).pathname;
  const actor = { userId: viewer.userId, ip: clientAddress(args.request) };
  const submission = parseWithZod(formData, { schema: SCHEMAS[intent as Intent] });
  if (submission.status !== "success") return refusedReply(intent as Intent, submission.reply(), 400);

  const refusal = (outcome: Refusal) => {
    switch (outcome.error) {
      case "notAllowed":
        throw new Response("Forbidden", { status: 403 });
      case "state":
        return refusedReply(intent as Intent, submission.reply({ formErrors: [refusedKey(outcome.reason)] }), 409);
      case "invalid":
        return refusedReply(
          intent as Intent,
          submission.reply({
            fieldErrors: Object.fromEntries(
              Object.entries(outcome.fieldErrors).map(([field, error]) => [field, [errorKey(error!)]]),
            ),
          }),
          400,
        );
    }
  };

  const value = submission.value;
  switch (value.intent) {
    case "saveMid": {
      // Two steps, as cancelling: the first post shows what will be confirmed (nothing is kept),
      // the second (confirmed=yes) confirms it; "back" brings the form back with what was typed.
      const { intent: _, ...input } = value;
      const step = formData.get("step") === "back" ? "back" : formData.get("confirmed") === "yes" ? "confirm" : "check";
      if (step === "back") return data({ intent: "saveMid", result: submission.reply(), confirmMid: null });
      const acknowledged = formData.get("unsentAcknowledged") === "yes";
      const outcome =
        step === "confirm" ? await saveMidPart(db, place, actor, { ...input, unsentAcknowledged: acknowledged }) : null;
      if (outcome?.ok) return redirectWithFlash(page, { type: "success", key: "signing:flash.saved" });
      // Refused for forms not sent: the confirmation is shown again, saying why.
      const unacknowledged =
        outcome?.ok === false && outcome.error === "invalid" && outcome.fieldErrors.unsentAcknowledged !== undefined;
      const notSent = outcome?.ok === false && outcome.error === "state" && outcome.reason === "formsNotSent";
      if (outcome && !unacknowledged && !notSent) return refusal(outcome);
      const check = await checkMidPart(db, place, actor, input);
      if (!check.ok) return refusal(check);
      const confirmMid: MidConfirmView = {
        answers: {
          midSemesterSpecificCompetenceAreasBegun: input.midSemesterSpecificCompetenceAreasBegun,
          midSemesterStudentHasGivenFeedback: input.midSemesterStudentHasGivenFeedback,
        },
        date: input.midSemesterCompletedDate,
        dateText: formatDay(input.midSemesterCompletedDate, getLanguage(args.context)),
        unsent: check.unsent,
        requireSentForms: check.requireSentForms,
        error: unacknowledged ? "signingCheck:errors.acknowledgeUnsent" : null,
      };
      return data({ intent: "saveMid", result: submission.reply(), confirmMid }, { status: outcome ? 400 : 200 });
    }
    case "saveEnd": {
      const { intent: _, ...input } = value;
      const outcome = await saveEndPart(db, place, actor, input);
      return outcome.ok ? redirectWithFlash(page, { type: "success", key: "signing:flash.saved" }) : refusal(outcome);
    }
    case "sign": {
      const outcome = await signForm(db, place, actor, {
        withoutAdvisor: value.signWithoutAdvisorConfirmed === "yes",
        unsentAcknowledged: value.unsentAcknowledged === "yes",
      });
      if (!outcome.ok) return refusal(outcome);
      if (!outcome.allSigned) return redirectWithFlash(page, { type: "success", key: "signing:flash.signed" });
      const key: Record<Submission, string> = {
        submitted: "signing:flash.signedByAllSubmitted",
        failed: "signing:flash.signedByAllFailed",
        skipped: "signing:flash.signedByAll",
      };
      return redirectWithFlash(page, {
        type: outcome.submission === "failed" ? "info" : "success",
        key: key[outcome.submission],
      });
    }
    case "cancel": {
      const outcome = await cancelForm(db, place, actor);
      return outcome.ok
        ? redirectWithFlash(page, { type: "success", key: "signing:flash.cancelled" })
        : refusal(outcome);
    }
    case "submitResult": {
      const outcome = await resubmitResult(db, place, actor);
      if (!outcome.ok) return refusal(outcome);
      return outcome.submission === "failed"
        ? redirectWithFlash(page, { type: "error", key: "signing:flash.resultFailed" })
        : redirectWithFlash(page, { type: "success", key: "signing:flash.resultSubmitted" });
    }
  }
}

type ActionData = Route.ComponentProps["actionData"];

/** Mounted afresh on every navigation, with the action's answer it was mounted with (FreshPage). */
export default function SigningFormPage(props: Route.ComponentProps) {
  return <FreshPage page={SigningPage} props={props} />;
}

function lastResultFor(actionData: ActionData, intent: Intent) {
  return actionData?.intent === intent ? actionData.result : undefined;
}

/** The heading a refusal's message points at. */
const SECTION_OF: Record<Intent, string> = {
  saveMid: "mid-heading",
  saveEnd: "end-heading",
  sign: "sign-heading",
  cancel: "cancel-heading",
  submitResult: "validation-heading",
};

function SigningPage({ loaderData, actionData }: Route.ComponentProps) {
  const { view, validation, sending, checkTexts, back, confirmCancel, pdfHref, declaration, today } = loaderData;
  if (checkTexts) provideNamespace("signingCheck", { [checkTexts.language]: checkTexts.texts });
  const { t } = useTranslation("signing");
  const { t: tc } = useTranslation("signingCheck");
  const { rights } = view;
  const busy = useNavigation().state === "submitting";

  const [midForm, midFields] = useValidatedForm(
    () => import("~/services/signing/signing-form.schema").then((m) => m.midPartSchema),
    lastResultFor(actionData, "saveMid"),
  );
  const [endForm, endFields] = useValidatedForm(
    () => import("~/services/signing/signing-form.schema").then((m) => m.endPartSchema),
    lastResultFor(actionData, "saveEnd"),
  );
  const [signForm, signFields] = useValidatedForm(
    () => import("~/services/signing/signing-form.schema").then((m) => m.signSchema),
    lastResultFor(actionData, "sign"),
  );
  // Signing needs the confirmation box ticked: with JS the sign button waits for the box; without JS the server refuses an unticked one.
  const hydrated = useHydrated();
  const [confirmedWithoutAdvisor, setConfirmedWithoutAdvisor] = useState(false);
  // The mid-semester part's confirmation, as the server checked the first post; closing it (Esc) keeps what was typed.
  const confirmMid = actionData && "confirmMid" in actionData ? actionData.confirmMid : null;
  const [midDialogClosed, setMidDialogClosed] = useState(false);
  // The teacher's signature with forms not sent asks for the box (or is not offered where the institution requires them sent).
  const unsent = sending !== null && rights.signAs === "teacher" && sending.unsent > 0;

  // The summary names what failed ("Klarte ikke lagre." / "Klarte ikke signere.", the wording of every failed save or signing) and each precise reason.
  const sections: { intent: Intent; items: { fieldId: string; message: string }[] }[] = [
    {
      intent: "saveMid",
      items: errorSummaryItems(t, [...MID_QUESTIONS.map((q) => midFields[q]), midFields.midSemesterCompletedDate], {
        errors: midForm.errors,
        fieldId: SECTION_OF.saveMid,
      }),
    },
    {
      intent: "saveEnd",
      items: errorSummaryItems(
        t,
        [...END_QUESTIONS.map((q) => endFields[q]), endFields.teacherComment, endFields.endSemesterCompletedDate],
        { errors: endForm.errors, fieldId: SECTION_OF.saveEnd },
      ),
    },
    {
      intent: "sign",
      items: errorSummaryItems(t, [signFields.signWithoutAdvisorConfirmed, signFields.unsentAcknowledged], {
        errors: signForm.errors,
        fieldId: SECTION_OF.sign,
      }),
    },
    ...(["cancel", "submitResult"] as const).map((intent) => ({
      intent,
      items: errorSummaryItems(t, [], {
        errors: lastResultFor(actionData, intent)?.error?.[""] ?? undefined,
        fieldId: SECTION_OF[intent],
      }),
    })),
  ];
  const failed = sections.find((s) => s.items.length > 0);
  const student = view.student.displayName;
  const caption = `${view.relation === "self" ? "" : `${student} · `}${view.header.subjectCode} ${view.header.subjectName}, ${view.header.periodName}`;
  const notCreated = view.id === NEW_FORM_ID;

  return (
    <div className="app-content">
      <p>
        <Link to={back}>
          {view.relation === "self" ? t("page.backToForms") : t("page.backToStudent", { name: student })}
        </Link>
      </p>
      {failed ? <ErrorSummary title={t(`failed.${failed.intent}`)} errors={failed.items} /> : null}
      <PageHeading caption={caption}>{t("page.title")}</PageHeading>

      {rights.banner === "signedByAll" ? (
        <AlertBanner variant="success" heading={t("banner.signedByAll")}>
          <p>{t("banner.signedByAllText", { at: view.signedByAllText })}</p>
          <p>
            {view.resultSubmittedText
              ? t("result.submitted", { date: view.resultSubmittedText })
              : `${t("result.label")}: ${t("result.notSubmitted")}`}
          </p>
        </AlertBanner>
      ) : rights.banner === "youHaveSigned" ? (
        <AlertBanner variant="info" heading={t("banner.youHaveSigned")}>
          <p>{t("banner.youHaveSignedText")}</p>
        </AlertBanner>
      ) : null}

      {notCreated && !rights.create ? (
        <p>{t("page.notCreated")}</p>
      ) : (
        <>
          {notCreated ? <p>{t("page.notCreatedTeacher")}</p> : null}
          {pdfHref ? (
            <p>
              {/* A resource route (a file), so a full document request rather than client navigation. */}
              <a href={pdfHref}>{t("page.downloadPdf")}</a>
            </p>
          ) : null}

          <section aria-labelledby="mid-heading">
            <h2 id="mid-heading" tabIndex={-1}>
              {t("mid.heading")}
            </h2>
            {rights.saveMid ? (
              <Form method="post" {...getFormProps(midForm)} noValidate>
                <input type="hidden" name="intent" value="saveMid" />
                <p>{t("mid.intro")}</p>
                {MID_QUESTIONS.map((q) => (
                  <ChoiceQuestion key={q} question={q} field={midFields[q]} stored={view.mid.answers[q]} t={t} />
                ))}
                <TextField
                  type="date"
                  label={t("mid.date")}
                  hint={t("mid.dateHint")}
                  name={midFields.midSemesterCompletedDate.name}
                  id={midFields.midSemesterCompletedDate.id}
                  max={today}
                  width="10"
                  defaultValue={midFields.midSemesterCompletedDate.initialValue ?? view.mid.date ?? ""}
                  error={firstError(t, midFields.midSemesterCompletedDate.errors)}
                />
                <SubmitButton>{t("mid.save")}</SubmitButton>
              </Form>
            ) : null}
            {rights.saveMid && confirmMid && !midDialogClosed ? (
              <MidConfirmDialog
                confirm={confirmMid}
                student={student}
                t={t}
                tc={tc}
                onClose={() => setMidDialogClosed(true)}
              />
            ) : null}
            {rights.saveMid ? null : view.mid.confirmed ? (
              <SummaryList
                rows={[
                  ...MID_QUESTIONS.map((q) => ({
                    key: t(`questions.${q}`),
                    value: choiceText(t, view.mid.answers[q]),
                  })),
                  { key: t("mid.dateLabel"), value: view.mid.dateText },
                ]}
              />
            ) : (
              <p>{t("mid.notConfirmed")}</p>
            )}
          </section>

          <section aria-labelledby="end-heading">
            <h2 id="end-heading" tabIndex={-1}>
              {t("end.heading")}
            </h2>
            {!view.mid.confirmed ? (
              <p>{t("end.waiting")}</p>
            ) : rights.saveEnd ? (
              <Form method="post" {...getFormProps(endForm)} noValidate>
                <input type="hidden" name="intent" value="saveEnd" />
                {END_QUESTIONS.map((q) => (
                  <ChoiceQuestion key={q} question={q} field={endFields[q]} stored={view.end.answers[q]} t={t} />
                ))}
                <TextArea
                  label={t("end.comment")}
                  name={endFields.teacherComment.name}
                  id={endFields.teacherComment.id}
                  rows={5}
                  maxLength={TEACHER_COMMENT_LIMIT}
                  optional
                  defaultValue={endFields.teacherComment.initialValue ?? view.end.teacherComment ?? ""}
                  error={firstError(t, endFields.teacherComment.errors)}
                />
                <TextField
                  type="date"
                  label={t("end.date")}
                  hint={t("end.dateHint")}
                  name={endFields.endSemesterCompletedDate.name}
                  id={endFields.endSemesterCompletedDate.id}
                  max={today}
                  width="10"
                  optional
                  defaultValue={endFields.endSemesterCompletedDate.initialValue ?? view.end.date ?? ""}
                  error={firstError(t, endFields.endSemesterCompletedDate.errors)}
                />
                {view.end.saved ? <EndResult view={view} t={t} /> : null}
                <SubmitButton>{t("end.save")}</SubmitButton>
              </Form>
            ) : view.end.saved ? (
              <>
                <SummaryList
                  rows={[
                    ...END_QUESTIONS.map((q) => ({
                      key: t(`questions.${q}`),
                      value: choiceText(t, view.end.answers[q]),
                    })),
                    { key: t("end.comment"), value: view.end.teacherComment ?? t("end.noComment") },
                    { key: t("end.dateLabel"), value: view.end.dateText },
                  ]}
                />
                <EndResult view={view} t={t} />
                {view.relation === "teacher" && !view.allSigned ? <p>{t("end.frozen")}</p> : null}
              </>
            ) : (
              <p>{t("end.notSaved")}</p>
            )}
          </section>

          {validation ? (
            <ValidationSection
              validation={validation}
              sending={sending}
              submitResult={rights.submitResult}
              busy={busy}
              t={t}
              tc={tc}
            />
          ) : null}

          <section aria-labelledby="sign-heading">
            <h2 id="sign-heading" tabIndex={-1}>
              {t("sign.heading")}
            </h2>
            <p>{declaration}</p>
            <SummaryList
              rows={view.signatures.map((s) => ({
                key: t(`sign.signers.${s.signer}`),
                value:
                  s.atText && s.name
                    ? t("sign.signedBy", { name: s.name, at: s.atText })
                    : s.signer === "advisor" && view.withoutAdvisorText
                      ? t("sign.withoutAdvisor", { at: view.withoutAdvisorText })
                      : t("sign.notSigned"),
              }))}
            />
            {rights.sign && unsent && sending.requireSentForms ? (
              <p>{tc("sign.required")}</p>
            ) : rights.sign ? (
              <Form
                method="post"
                {...getFormProps(signForm)}
                noValidate
                onChange={(event) => {
                  const target = event.target as unknown as HTMLInputElement;
                  if (target.name === signFields.signWithoutAdvisorConfirmed.name)
                    setConfirmedWithoutAdvisor(target.checked);
                }}
              >
                <input type="hidden" name="intent" value="sign" />
                <p>{t("sign.intro")}</p>
                {rights.confirmWithoutAdvisor ? (
                  <CheckboxGroup
                    legend={t("sign.confirmLegend")}
                    legendSize="s"
                    hint={t("sign.confirmHint")}
                    name={signFields.signWithoutAdvisorConfirmed.name}
                    id={signFields.signWithoutAdvisorConfirmed.id}
                    options={[{ value: "yes", label: t("sign.confirmLabel") }]}
                    error={firstError(t, signFields.signWithoutAdvisorConfirmed.errors)}
                  />
                ) : null}
                {unsent ? (
                  <CheckboxGroup
                    legend={tc("sign.legend")}
                    legendSize="s"
                    hint={tc("sign.hint")}
                    name={signFields.unsentAcknowledged.name}
                    id={signFields.unsentAcknowledged.id}
                    options={[{ value: "yes", label: tc("sign.label") }]}
                    error={firstError(t, signFields.unsentAcknowledged.errors)}
                  />
                ) : null}
                <SubmitButton disabled={hydrated && rights.confirmWithoutAdvisor && !confirmedWithoutAdvisor}>
                  {t("sign.button")}
                </SubmitButton>
              </Form>
            ) : rights.signBlocked &&
              !["alreadySigned", "notCreated"].includes(rights.signBlocked) &&
              rights.banner === null ? (
              <p>{t(`refused.${rights.signBlocked}`)}</p>
            ) : null}
          </section>
        </>
      )}

      {rights.cancel ? <CancelSection student={student} confirm={confirmCancel} t={t} /> : null}
    </div>
  );
}
