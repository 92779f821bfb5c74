import { getFormProps } from "@conform-to/react";
import { Form } from "react-router";
import { SubmitButton } from "~/components/app/SubmitButton";
import { firstError } from "~/components/form-errors";
import { SummaryList, TextArea, TextField } from "~/components/ui";
import { END_QUESTIONS, TEACHER_COMMENT_LIMIT } from "~/services/signing";
import type { SigningFormView } from "~/services/signing/index.server";
import { ChoiceQuestion, EndResult, choiceText, type EndForm, type T } from "./SigningFormSections";

/** The end-semester part: the teacher's form once the mid-semester part is confirmed, or what was saved. */
export function SigningEndSection({
  view,
  form: [endForm, endFields],
  today,
  t,
}: {
  view: SigningFormView;
  form: EndForm;
  today: string;
  t: T;
}) {
  return (
    <section aria-labelledby="end-heading">
      <h2 id="end-heading" tabIndex={-1}>
        {t("end.heading")}
      </h2>
      {!view.mid.confirmed ? (
        <p>{t("end.waiting")}</p>
      ) : view.rights.saveEnd ? (
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
  );
}
