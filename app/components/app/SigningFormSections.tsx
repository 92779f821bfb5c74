import type { TFunction } from "i18next";
import { Form, Link, useLocation, useNavigate } from "react-router";
import { href } from "~/components/href";
import { firstError } from "~/components/form-errors";
import { Button, CheckboxGroup, LinkButton, RadioGroup, SummaryList, Table } from "~/components/ui";
import { Dialog } from "~/components/ui/Dialog";
import { ConfirmActions } from "./ConfirmStep";
import {
  choicesOf,
  missingParties,
  MID_QUESTIONS,
  unsentForms,
  type Choice,
  type MidQuestion,
  type Question,
  type SendingFacts,
} from "~/services/signing";
import type { SigningFormView, TeacherAnswerCount } from "~/services/signing/index.server";
import type { Party, UnsentForm } from "~/services/signing";
import type { endPartSchema, midPartSchema, signSchema } from "~/services/signing/signing-form.schema";
import type { useValidatedForm } from "~/components/use-validated-form";

export type T = TFunction<"signing">;
export type TC = TFunction<"signingCheck">;
/** A form of the page and its fields, as `useValidatedForm` gives them. */
export type MidForm = ReturnType<typeof useValidatedForm<typeof midPartSchema>>;
export type EndForm = ReturnType<typeof useValidatedForm<typeof endPartSchema>>;
export type SignForm = ReturnType<typeof useValidatedForm<typeof signSchema>>;
type Field = { name: string; id: string; initialValue?: unknown; errors?: string[] };

/** What the teacher's validation section shows: the service's summary, its dates as text. */
export interface ValidationView {
  teacherAnswerSummary: TeacherAnswerCount[];
  archivedCount: number;
  lastArchivedText: string | null;
  submittedText: string | null;
}

/** The service's summary for the validation section, its dates written with `day`. */
export function validationView(
  summary: {
    teacherAnswerSummary: TeacherAnswerCount[];
    archivedCount: number;
    lastArchivedAt: Date | null;
    resultSubmittedAt: Date | null;
  },
  day: (at: Date) => string,
): ValidationView {
  return {
    teacherAnswerSummary: summary.teacherAnswerSummary,
    archivedCount: summary.archivedCount,
    lastArchivedText: summary.lastArchivedAt ? day(summary.lastArchivedAt) : null,
    submittedText: summary.resultSubmittedAt ? day(summary.resultSubmittedAt) : null,
  };
}

export function choiceText(t: T, choice: Choice | null): string {
  return t(`choices.${choice ?? "none"}`);
}

/** A yes/no question (with "Ikke relevant" where it allows it) as a fieldset of radios. */
export function ChoiceQuestion({
  question,
  field,
  stored,
  t,
}: {
  question: Question;
  field: Field;
  stored: Choice | null;
  t: T;
}) {
  return (
    <RadioGroup
      name={field.name}
      id={field.id}
      legend={t(`questions.${question}`)}
      legendSize="s"
      options={choicesOf(question).map((c) => ({ value: c, label: t(`choices.${c}`) }))}
      defaultValue={(field.initialValue as string | undefined) ?? stored}
      error={firstError(t, field.errors)}
      inline
    />
  );
}

export function EndResult({ view, t }: { view: SigningFormView; t: T }) {
  return (
    <p>
      {t("end.result")}: <strong>{view.end.overallPassed ? t("end.passed") : t("end.failed")}</strong>
    </p>
  );
}

/** Who has sent each form of the class (the teacher's check before signing), each form not sent linked to the teacher's form page. */
export interface SendingView {
  forms: {
    key: string;
    name: string;
    isMidSemester: boolean;
    /** The teacher's page of the form, when someone has not sent it. */
    href: string | null;
    student: boolean;
    /** null: the student has no supervisor, whose part is then not waited for. */
    supervisor: boolean | null;
    teacher: boolean;
    answered: number;
    questions: number;
  }[];
  /** Forms someone has not sent (both halves): what the teacher's signature acknowledges. */
  unsent: number;
  requireSentForms: boolean;
}

/** Who has sent each form (the service's facts), each form someone has not sent linked to the teacher's page of it. */
export function sendingView(
  facts: SendingFacts,
  place: { classId: number; studentUserId: number },
  requireSentForms: boolean,
): SendingView {
  const ids = { classId: String(place.classId), studentUserId: String(place.studentUserId) };
  return {
    forms: facts.forms.map((form) => {
      const missing = missingParties(form, facts.hasSupervisor);
      const formIds = { ...ids, formId: String(form.formId), schemeId: String(form.schemeId) };
      return {
        key: `${form.schemeId}-${form.formId}`,
        name: form.name,
        isMidSemester: form.isMidSemester,
        href:
          missing.length > 0
            ? href("/teacher/class/:classId/student/:studentUserId/form/:formId/assignment/:schemeId", formIds)
            : null,
        student: form.sent.student,
        supervisor: facts.hasSupervisor ? form.sent.supervisor : null,
        teacher: form.sent.teacher,
        answered: form.teacherAnswers.answered,
        questions: form.teacherAnswers.questions,
      };
    }),
    unsent: unsentForms(facts, "sign").length,
    requireSentForms,
  };
}

function SendingTable({ sending, tc }: { sending: SendingView; tc: TC }) {
  if (sending.forms.length === 0) return <p>{tc("forms.none")}</p>;
  const sent = (value: boolean | null) =>
    value === null ? tc("forms.noSupervisor") : value ? tc("forms.sent") : tc("forms.notSent");
  return (
    <>
      <p>{sending.unsent === 0 ? tc("forms.allSent") : tc("forms.someNotSent", { count: sending.unsent })}</p>
      <Table
        caption={tc("forms.caption")}
        captionHidden
        rowHeaders
        columns={[
          { header: tc("forms.form") },
          { header: tc("forms.student") },
          { header: tc("forms.supervisor") },
          { header: tc("forms.teacher") },
        ]}
        rows={sending.forms.map((form) => {
          const name = tc("forms.formName", {
            name: form.name,
            half: tc(form.isMidSemester ? "forms.mid" : "forms.end"),
          });
          return {
            key: form.key,
            cells: [
              form.href ? <Link to={form.href}>{name}</Link> : name,
              sent(form.student),
              sent(form.supervisor),
              form.teacher
                ? tc("forms.sent")
                : tc("forms.teacherNotSent", { answered: form.answered, questions: form.questions }),
            ],
          };
        })}
      />
    </>
  );
}

export function ValidationSection({
  validation,
  sending,
  submitResult,
  busy,
  t,
  tc,
}: {
  validation: ValidationView;
  sending: SendingView | null;
  submitResult: boolean;
  busy: boolean;
  t: T;
  tc: TC;
}) {
  const rows = validation.teacherAnswerSummary;
  return (
    <section aria-labelledby="validation-heading">
      <h2 id="validation-heading" tabIndex={-1}>
        {t("validation.heading")}
      </h2>
      {sending ? <SendingTable sending={sending} tc={tc} /> : null}
      <p>{t("validation.intro")}</p>
      {rows.length === 0 ? (
        <p>{t("validation.noQuestions")}</p>
      ) : (
        <Table
          caption={t("validation.caption")}
          captionHidden
          rowHeaders
          columns={[
            { header: t("validation.part") },
            { header: t("validation.type") },
            { header: t("validation.answered"), numeric: true },
          ]}
          rows={rows.map((row) => ({
            key: `${row.isMidSemester}-${row.formQuestionType}`,
            cells: [
              row.isMidSemester ? t("validation.mid") : t("validation.end"),
              t(`validation.${row.formQuestionType}`),
              t("validation.count", { answers: row.totalAnswers, questions: row.totalQuestions }),
            ],
          }))}
        />
      )}
      <SummaryList
        rows={[
          {
            key: t("validation.archived"),
            value:
              validation.archivedCount > 0
                ? t("validation.archivedYes", { count: validation.archivedCount, date: validation.lastArchivedText })
                : t("validation.archivedNo"),
          },
          { key: t("validation.submitted"), value: validation.submittedText ?? t("result.notSubmitted") },
        ]}
      />
      {submitResult ? (
        <Form method="post">
          <input type="hidden" name="intent" value="submitResult" />
          <Button variant="secondary" disabled={busy}>
            {t("result.resend")}
          </Button>
        </Form>
      ) : null}
    </section>
  );
}

/**
 * Cancelling asks first: a link to `?confirm=cancel` (a URL, so it works without JavaScript), where
 * the confirmation is a section of the page, or with JavaScript a modal dialog; then a form post.
 */
export function CancelSection({ student, confirm, t }: { student: string; confirm: boolean; t: T }) {
  const location = useLocation();
  const navigate = useNavigate();
  const page = location.pathname;
  return (
    <section aria-labelledby="cancel-heading">
      <h2 id="cancel-heading" tabIndex={-1}>
        {t("cancel.heading")}
      </h2>
      <p>{t("cancel.intro")}</p>
      {confirm ? (
        <Dialog
          title={t("cancel.confirmTitle", { name: student })}
          closeHref={page}
          onClose={() => void navigate(page, { preventScrollReset: true, replace: true })}
        >
          <p>{t("cancel.confirmText")}</p>
          <ConfirmActions
            action={page}
            fields={{ intent: "cancel" }}
            confirm={t("cancel.confirm")}
            back={{ label: t("cancel.keep"), href: page }}
          />
        </Dialog>
      ) : (
        <LinkButton variant="warning" to={`${page}?confirm=cancel#cancel-heading`}>
          {t("cancel.link")}
        </LinkButton>
      )}
    </section>
  );
}

/** "studenten og praksisveileder": who has not sent a form, in words. */
export function whoText(tc: TC, missing: readonly Party[]): string {
  const names = missing.map((party) => tc(`who.${party}`));
  return names.length <= 1
    ? (names[0] ?? "")
    : `${names.slice(0, -1).join(", ")} ${tc("who.and")} ${names[names.length - 1]}`;
}

/** What the teacher is about to confirm of the mid-semester part, as the server checked it. */
export interface MidConfirmView {
  answers: Record<MidQuestion, Choice>;
  /** As posted (yyyy-mm-dd), and as people read it. */
  date: string;
  dateText: string;
  unsent: UnsentForm[];
  requireSentForms: boolean;
  /** The box was not ticked (a post that came back refused). */
  error: string | null;
}

/** The confirmation of the mid-semester part as posted (`input`) and as the service checked it. */
export function midConfirmView(
  input: Record<MidQuestion, Choice> & { midSemesterCompletedDate: string },
  check: { unsent: UnsentForm[]; requireSentForms: boolean },
  dateText: string,
  unacknowledged: boolean,
): MidConfirmView {
  return {
    answers: {
      midSemesterSpecificCompetenceAreasBegun: input.midSemesterSpecificCompetenceAreasBegun,
      midSemesterStudentHasGivenFeedback: input.midSemesterStudentHasGivenFeedback,
    },
    date: input.midSemesterCompletedDate,
    dateText,
    unsent: check.unsent,
    requireSentForms: check.requireSentForms,
    error: unacknowledged ? "signingCheck:errors.acknowledgeUnsent" : null,
  };
}

/**
 * Confirming the mid-semester part asks first, as cancelling does: the answers and the date as
 * they will be kept, the mid-semester forms not sent (a box to tick to go on, or none where the
 * institution requires them sent), then a post with `confirmed=yes`. "Nei, gå tilbake" posts
 * `step=back`, which brings the form back with what was typed.
 */
export function MidConfirmDialog({
  confirm,
  student,
  t,
  tc,
  onClose,
}: {
  confirm: MidConfirmView;
  student: string;
  t: T;
  tc: TC;
  onClose: () => void;
}) {
  const refused = confirm.unsent.length > 0 && confirm.requireSentForms;
  const values = { ...confirm.answers, midSemesterCompletedDate: confirm.date };
  return (
    <Dialog title={tc("mid.title", { name: student })} titleLevel={3} onClose={onClose}>
      <p>{tc("mid.text")}</p>
      <SummaryList
        rows={[
          ...MID_QUESTIONS.map((q) => ({ key: t(`questions.${q}`), value: choiceText(t, confirm.answers[q]) })),
          { key: t("mid.dateLabel"), value: confirm.dateText },
        ]}
      />
      {confirm.unsent.length > 0 ? (
        <>
          <h4>{tc("mid.unsentHeading")}</h4>
          <ul>
            {confirm.unsent.map((form) => (
              <li key={`${form.schemeId}-${form.formId}`}>
                {tc("mid.missing", { name: form.name, who: whoText(tc, form.missing) })}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {refused ? <p>{tc("mid.required")}</p> : null}
      <ConfirmActions
        fields={{ intent: "saveMid", ...values, ...(refused ? {} : { confirmed: "yes" }) }}
        confirm={refused ? undefined : tc("mid.confirm")}
        back={{ label: tc("mid.back"), name: "step", value: "back" }}
        variant="primary"
      >
        {confirm.unsent.length > 0 && !refused ? (
          <CheckboxGroup
            legend={tc("mid.legend")}
            legendSize="s"
            name="unsentAcknowledged"
            id="mid-unsent-acknowledged"
            options={[{ value: "yes", label: tc("mid.label") }]}
            error={confirm.error ? tc(confirm.error) : undefined}
          />
        ) : null}
      </ConfirmActions>
    </Dialog>
  );
}
