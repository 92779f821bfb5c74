import type { TFunction } from "i18next";
import { Form, useLocation, useNavigate } from "react-router";
import { firstError } from "~/components/form-errors";
import { Button, ButtonGroup, Dialog, LinkButton, RadioGroup, SummaryList, Table } from "~/components/ui";
import { choicesOf, type Choice, type Question } from "~/services/signing";
import type { SigningFormView, TeacherAnswerCount } from "~/services/signing/index.server";

type T = TFunction<"signing">;
type Field = { name: string; id: string; initialValue?: unknown; errors?: string[] };

/** What the teacher's validation section shows: the service's summary, its dates as text. */
export interface ValidationView {
  teacherAnswerSummary: TeacherAnswerCount[];
  archivedCount: number;
  lastArchivedText: string | null;
  submittedText: string | null;
}

export function choiceText(t: T, choice: Choice | null): string {
  return t(`choices.${choice ?? "none"}`);
}

/** A yes/no question (with "Ikke relevant" where it allows it) as a fieldset of radios. */
export function ChoiceQuestion({ question, field, stored, t }: { question: Question; field: Field; stored: Choice | null; t: T }) {
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

export function ValidationSection({
  validation,
  submitResult,
  busy,
  t,
}: {
  validation: ValidationView;
  submitResult: boolean;
  busy: boolean;
  t: T;
}) {
  const rows = validation.teacherAnswerSummary;
  return (
    <section aria-labelledby="validation-heading">
      <h2 id="validation-heading" tabIndex={-1}>
        {t("validation.heading")}
      </h2>
      <p>{t("validation.intro")}</p>
      {rows.length === 0 ? (
        <p>{t("validation.noQuestions")}</p>
      ) : (
        <Table
          caption={t("validation.caption")}
          captionHidden
          rowHeaders
          columns={[{ header: t("validation.part") }, { header: t("validation.type") }, { header: t("validation.answered"), numeric: true }]}
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
export function CancelSection({ student, confirm, busy, t }: { student: string; confirm: boolean; busy: boolean; t: T }) {
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
          onClose={() => navigate(page, { preventScrollReset: true, replace: true })}
        >
          <p>{t("cancel.confirmText")}</p>
          <Form method="post" action={page}>
            <input type="hidden" name="intent" value="cancel" />
            <ButtonGroup>
              <Button variant="warning" disabled={busy}>
                {t("cancel.confirm")}
              </Button>
              <LinkButton variant="secondary" to={page} preventScrollReset>
                {t("cancel.keep")}
              </LinkButton>
            </ButtonGroup>
          </Form>
        </Dialog>
      ) : (
        <LinkButton variant="warning" to={`${page}?confirm=cancel#cancel-heading`}>
          {t("cancel.link")}
        </LinkButton>
      )}
    </section>
  );
}
