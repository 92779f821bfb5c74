import type { SubmissionResult } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { Link, useNavigation } from "react-router";
import { errorSummaryItems } from "~/components/form-errors";
import { AlertBanner, ErrorSummary, PageHeading } from "~/components/ui";
import { useValidatedForm } from "~/components/use-validated-form";
import { END_QUESTIONS, MID_QUESTIONS, NEW_FORM_ID, type Intent } from "~/services/signing";
import type { SigningFormView } from "~/services/signing/index.server";
import {
  CancelSection,
  ValidationSection,
  type EndForm,
  type MidConfirmView,
  type MidForm,
  type SendingView,
  type SignForm,
  type T,
  type ValidationView,
} from "./SigningFormSections";
import { SigningEndSection } from "./SigningEndSection";
import { SigningMidSection } from "./SigningMidSection";
import { SigningSignSection } from "./SigningSignSection";

/** The action's answer to a refused post: the form it was (`intent`), conform's reply, and the mid-semester confirmation. */
export interface SigningAnswer {
  intent: Intent;
  result: SubmissionResult<string[]>;
  confirmMid: MidConfirmView | null;
}

export interface SigningFormPageProps {
  view: SigningFormView;
  validation: ValidationView | null;
  sending: SendingView | null;
  back: string;
  confirmCancel: boolean;
  pdfHref: string | null;
  declaration: string;
  today: string;
  answer: SigningAnswer | undefined;
}

function lastResultFor(answer: SigningAnswer | undefined, intent: Intent) {
  return answer?.intent === intent ? answer.result : undefined;
}

/** The heading a refusal's message points at. */
const SECTION_OF: Record<Intent, string> = {
  saveMid: "mid-heading",
  saveEnd: "end-heading",
  sign: "sign-heading",
  cancel: "cancel-heading",
  submitResult: "validation-heading",
};

/** The page's signing form: the parts, the teacher's check, the signatures and cancelling. */
export function SigningFormPage({ answer, ...page }: SigningFormPageProps) {
  const { view, validation, sending, back, confirmCancel, pdfHref, declaration, today } = page;
  const { t } = useTranslation("signing");
  const { t: tc } = useTranslation("signingCheck");
  const { rights } = view;
  const busy = useNavigation().state === "submitting";

  const mid = useValidatedForm(
    () => import("~/services/signing/signing-form.schema").then((m) => m.midPartSchema),
    lastResultFor(answer, "saveMid"),
  );
  const end = useValidatedForm(
    () => import("~/services/signing/signing-form.schema").then((m) => m.endPartSchema),
    lastResultFor(answer, "saveEnd"),
  );
  const sign = useValidatedForm(
    () => import("~/services/signing/signing-form.schema").then((m) => m.signSchema),
    lastResultFor(answer, "sign"),
  );
  const failed = failedSection(t, answer, mid, end, sign);
  const student = view.student.displayName;
  const caption = `${view.relation === "self" ? "" : `${student} · `}${view.header.subjectCode} ${view.header.subjectName}, ${view.header.semesterName}`;
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
      <SigningBanner view={view} t={t} />

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
          <SigningMidSection
            view={view}
            form={mid}
            confirmMid={answer?.confirmMid ?? null}
            today={today}
            t={t}
            tc={tc}
          />
          <SigningEndSection view={view} form={end} today={today} t={t} />
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
          <SigningSignSection view={view} form={sign} sending={sending} declaration={declaration} t={t} tc={tc} />
        </>
      )}

      {rights.cancel ? <CancelSection student={student} confirm={confirmCancel} t={t} /> : null}
    </div>
  );
}

/**
 * The first form whose post failed, for the summary: it names what failed ("Klarte ikke lagre." /
 * "Klarte ikke signere.", the wording of every failed save or signing) and each precise reason.
 */
function failedSection(
  t: T,
  answer: SigningAnswer | undefined,
  [midForm, midFields]: MidForm,
  [endForm, endFields]: EndForm,
  [signForm, signFields]: SignForm,
) {
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
      items: errorSummaryItems(t, [signFields.signWithoutSupervisorConfirmed, signFields.unsentAcknowledged], {
        errors: signForm.errors,
        fieldId: SECTION_OF.sign,
      }),
    },
    ...(["cancel", "submitResult"] as const).map((intent) => ({
      intent,
      items: errorSummaryItems(t, [], {
        errors: lastResultFor(answer, intent)?.error?.[""] ?? undefined,
        fieldId: SECTION_OF[intent],
      }),
    })),
  ];
  return sections.find((s) => s.items.length > 0);
}

/** Signed by all (with the result's sending), or signed by the viewer and waiting for the others. */
function SigningBanner({ view, t }: { view: SigningFormView; t: T }) {
  if (view.rights.banner === "signedByAll") {
    return (
      <AlertBanner variant="success" heading={t("banner.signedByAll")}>
        <p>{t("banner.signedByAllText", { at: view.signedByAllText })}</p>
        <p>
          {view.resultSubmittedText
            ? t("result.submitted", { date: view.resultSubmittedText })
            : `${t("result.label")}: ${t("result.notSubmitted")}`}
        </p>
      </AlertBanner>
    );
  }
  if (view.rights.banner === "youHaveSigned") {
    return (
      <AlertBanner variant="info" heading={t("banner.youHaveSigned")}>
        <p>{t("banner.youHaveSignedText")}</p>
      </AlertBanner>
    );
  }
  return null;
}
