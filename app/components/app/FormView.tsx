import { useTranslation } from "react-i18next";
import { Details, Fieldset, RadioGroup, TextArea } from "~/components/ui";
import { GRADING, type DraftGroupType } from "~/services/admin";

export interface FormViewQuestion {
  /** Unique within the form; part of the inputs' ids. */
  key: string;
  text: string;
  /** Shown to supervisors as a "help text" disclosure. */
  helpText?: string | null;
}

export interface FormViewGroup {
  key: string;
  name: string;
  type: DraftGroupType;
  /** Grading labels; the answer is the chosen label's index ("0"–"5"). */
  options: readonly string[];
  questions: readonly FormViewQuestion[];
}

export interface FormViewProps {
  groups: readonly FormViewGroup[];
  /** Makes the inputs' ids unique on the page. */
  idPrefix: string;
  /** The posted name of a question's answer; the answering page names them by question id. */
  inputName: (group: FormViewGroup, question: FormViewQuestion) => string;
  /** Answers already given, by input name. */
  values?: Readonly<Record<string, string>>;
  /** Errors (already translated), by input name. */
  errors?: Readonly<Record<string, string>>;
  disabled?: boolean;
}

/**
 * A form as the people who answer it see it: a fieldset per group with the group's name as its
 * legend; a grading question as radios of the group's labels; a text question as a text area; a
 * supervisor's help text as a disclosure. It renders fields only — the page that uses it owns the
 * `<form>` (the editor's preview, the answering page).
 */
export function FormView({ groups, idPrefix, inputName, values = {}, errors = {}, disabled }: FormViewProps) {
  const { t } = useTranslation();
  const withQuestions = groups.filter((group) => group.questions.length > 0);
  if (withQuestions.length === 0) return <p>{t("formView.empty")}</p>;
  return (
    <div className="form-view">
      {withQuestions.map((group) => (
        <Fieldset key={group.key} legend={group.name} legendSize="m" className="form-view__group">
          {group.questions.map((question) => {
            const name = inputName(group, question);
            const id = `${idPrefix}-${group.key}-${question.key}`;
            return (
              <div key={question.key} className="form-view__question">
                {group.type === GRADING ? (
                  <RadioGroup
                    name={name}
                    id={id}
                    legend={question.text}
                    legendSize="s"
                    inline
                    options={group.options.map((label, index) => ({ value: String(index), label }))}
                    defaultValue={values[name] ?? null}
                    error={errors[name]}
                    disabled={disabled}
                  />
                ) : (
                  <TextArea
                    name={name}
                    id={id}
                    label={question.text}
                    rows={4}
                    defaultValue={values[name] ?? ""}
                    error={errors[name]}
                    disabled={disabled}
                  />
                )}
                {question.helpText ? (
                  <Details summary={t("formView.help")} className="form-view__help">
                    <p>{question.helpText}</p>
                  </Details>
                ) : null}
              </div>
            );
          })}
        </Fieldset>
      ))}
    </div>
  );
}
