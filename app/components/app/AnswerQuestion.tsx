// One question of the form page (routes/shared/form-page.tsx): the grade or text answer, the comment, the
// others' comments, and what a conflicting save in another tab offers.
import { useTranslation } from "react-i18next";
import { CommentList } from "./CommentList";
import { HelpText } from "./HelpText";
import type { AutosaveConflict } from "./answerAutosave";
import { Button, FieldError, RadioGroup, TextArea, VisuallyHidden } from "~/components/ui";
import { useHydrated } from "~/components/ui/internal";
import { COMMENT_LIMIT, NOT_RELEVANT, TEXT_ANSWER_LIMIT } from "~/services/answering";
import type { FormPageView } from "~/services/answering/index.server";

/** One question of the form page's group, as the service gives it. */
export type Question = NonNullable<FormPageView["group"]>["questions"][number];

export function AnswerQuestion({
  number,
  question,
  group,
  posted,
  token,
  error,
  conflict,
  isExpectations,
  onResolve,
}: {
  number: number;
  question: Question;
  group: NonNullable<FormPageView["group"]>;
  posted: { value: string | null; comment: string | null } | undefined;
  token: string;
  error: string | undefined;
  conflict: AutosaveConflict | undefined;
  isExpectations: boolean;
  onResolve: () => void;
}) {
  const { t } = useTranslation("answers");
  const value = posted ? posted.value : question.value;
  const comment = posted ? posted.comment : question.comment;
  const valueError = error && error !== "commentTooLong" ? t(`errors.${error}`, { limit: COMMENT_LIMIT }) : undefined;
  const commentError = error === "commentTooLong" ? t("errors.commentTooLong", { limit: COMMENT_LIMIT }) : undefined;
  const labelOf = (v: string | null) =>
    v === null ? t("conflict.nothing") : group.type === "grading" ? (group.options[Number(v)] ?? v) : v;
  const legend = (
    <>
      <span className="answer-question__number">{t("question.number", { number })} </span>
      {question.text}
    </>
  );

  return (
    <div className="answer-question" id={`question-${question.id}`}>
      {/* Keyed by the token: a new base from the server replaces the input, an autosave updates it in place. */}
      <input type="hidden" name={`b:${question.id}`} defaultValue={token} key={token} />
      {conflict ? (
        <AnswerConflictBox questionId={question.id} conflict={conflict} labelOf={labelOf} onResolve={onResolve} />
      ) : null}
      {group.type === "grading" ? (
        <RadioGroup
          name={`a:${question.id}`}
          id={`q-${question.id}`}
          legend={legend}
          legendSize="s"
          options={[
            // An expected level is a level of the scale: "Ikke relevant" is not one.
            ...group.options
              .map((label, index) => ({ value: String(index), label }))
              .filter((option) => !isExpectations || option.value !== String(NOT_RELEVANT)),
            // "None" is a choice of its own on the expectations page, so a level can be taken away again.
            ...(isExpectations ? [{ value: "", label: t("expectations.none") }] : []),
          ]}
          defaultValue={isExpectations ? (value ?? "") : value}
          error={valueError}
          inline
          className="answer-question__grades"
        />
      ) : (
        <TextArea
          name={`a:${question.id}`}
          id={`q-${question.id}`}
          label={legend}
          rows={6}
          maxLength={TEXT_ANSWER_LIMIT}
          defaultValue={value ?? ""}
          error={valueError}
        />
      )}
      {question.helpText ? <HelpText question={question.text} text={question.helpText} /> : null}
      {isExpectations || group.type !== "grading" ? null : (
        // Optional, so folded away until wanted; open when there is one (or a message about it).
        <details className="ui-details answer-comment" open={Boolean(comment) || Boolean(commentError) || undefined}>
          <summary className="ui-details__summary">
            <span className="ui-details__summary-text">
              {comment ? t("question.commentSummaryEdit") : t("question.commentSummaryAdd")}
            </span>
            <VisuallyHidden>: {question.text}</VisuallyHidden>
          </summary>
          <TextArea
            name={`c:${question.id}`}
            id={`c-${question.id}`}
            label={t("question.comment")}
            hint={t("question.commentHint")}
            rows={3}
            maxLength={COMMENT_LIMIT}
            defaultValue={comment ?? ""}
            error={commentError}
          />
        </details>
      )}
      {isExpectations ? null : (
        <CommentList
          comments={question.others}
          heading={group.type === "text" ? t("question.othersAnswers") : t("question.othersComments")}
        />
      )}
      {error && !valueError && !commentError ? (
        <FieldError id={`q-${question.id}-error`} message={t(`errors.${error}`)} />
      ) : null}
    </div>
  );
}

/** A save in another tab stored something else for this question: what it was, and the choice to take it. */
function AnswerConflictBox({
  questionId,
  conflict,
  labelOf,
  onResolve,
}: {
  questionId: number;
  conflict: AutosaveConflict;
  labelOf: (value: string | null) => string;
  onResolve: () => void;
}) {
  const { t } = useTranslation("answers");
  const hydrated = useHydrated();
  return (
    <div className="answer-question__conflict" role={hydrated ? "alert" : undefined}>
      <p className="answer-question__conflict-title">{t("conflict.heading")}</p>
      <p>{t("conflict.text", { value: labelOf(conflict.value) })}</p>
      {conflict.comment ? <p>{t("conflict.comment", { comment: conflict.comment })}</p> : null}
      <p>{t("conflict.choose")}</p>
      {hydrated ? (
        <Button
          type="button"
          variant="secondary"
          onClick={(event) => {
            const form = event.currentTarget.form;
            if (form) takeStored(form, questionId, conflict);
            onResolve();
          }}
        >
          {t("conflict.useStored")}
        </Button>
      ) : null}
    </div>
  );
}

/** "Bruk det lagrede svaret": the page takes the answer stored elsewhere, and the next save keeps it. */
function takeStored(form: HTMLFormElement, questionId: number, conflict: AutosaveConflict) {
  // Through the events a person's edit fires, so the counters follow and the autosave sees it.
  const answer = form.elements.namedItem(`a:${questionId}`);
  if (answer instanceof RadioNodeList) {
    for (const radio of Array.from(answer)) {
      if (radio instanceof HTMLInputElement && radio.value === conflict.value && !radio.checked) {
        radio.checked = true;
        radio.dispatchEvent(new Event("change", { bubbles: true }));
      }
    }
  } else if (answer instanceof HTMLTextAreaElement) {
    typeInto(answer, conflict.value ?? "");
  }
  const comment = form.elements.namedItem(`c:${questionId}`);
  if (comment instanceof HTMLTextAreaElement) typeInto(comment, conflict.comment ?? "");
}

/** Sets a text area's value the way typing does (React sees it only through the native setter). */
function typeInto(field: HTMLTextAreaElement, value: string) {
  Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")?.set?.call(field, value);
  field.dispatchEvent(new Event("input", { bubbles: true }));
}

/** A question of the student's own group, seen by staff: the question and the student's sent answer, as text. */
export function ReadOnlyQuestion({ number, question }: { number: number; question: Question }) {
  const { t } = useTranslation("answers");
  return (
    <div className="answer-question" id={`question-${question.id}`}>
      <h3 className="answer-question__text">
        <span className="answer-question__number">{t("question.number", { number })} </span>
        {question.text}
      </h3>
      {question.helpText ? <HelpText question={question.text} text={question.helpText} /> : null}
      {question.others.length > 0 ? (
        <CommentList comments={question.others} heading={t("question.studentAnswer")} />
      ) : (
        <p>{t("question.studentNoAnswer")}</p>
      )}
    </div>
  );
}
