import { getFormProps } from "@conform-to/react";
import { useState } from "react";
import { Form } from "react-router";
import { SubmitButton } from "~/components/app/SubmitButton";
import { firstError } from "~/components/form-errors";
import { SummaryList, TextField } from "~/components/ui";
import { MID_QUESTIONS } from "~/services/signing";
import type { SigningFormView } from "~/services/signing/index.server";
import {
  ChoiceQuestion,
  MidConfirmDialog,
  choiceText,
  type MidConfirmView,
  type MidForm,
  type T,
  type TC,
} from "./SigningFormSections";

/** The mid-semester part: the teacher's form (and its confirmation), or what was confirmed. */
export function SigningMidSection({
  view,
  form: [midForm, midFields],
  confirmMid,
  today,
  t,
  tc,
}: {
  view: SigningFormView;
  form: MidForm;
  /** The confirmation, as the server checked the first post. */
  confirmMid: MidConfirmView | null;
  today: string;
  t: T;
  tc: TC;
}) {
  const { rights } = view;
  // Closing the confirmation (Esc) keeps what was typed.
  const [midDialogClosed, setMidDialogClosed] = useState(false);
  return (
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
          student={view.student.displayName}
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
  );
}
