import { getFormProps, type FieldMetadata, type FormMetadata } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { Form, useNavigation } from "react-router";
import { firstError } from "~/components/form-errors";
import { Button, CheckboxGroup, FieldError, Fieldset, Hint, RadioGroup } from "~/components/ui";
import { listValue } from "~/components/use-validated-form";

interface FormChoice {
  formId: number;
  name: string;
}

const specificFormsId = (formIdsId: string) => `${formIdsId}-specific`;

/** The first checkbox of the form choice: the main forms' if there are any, else the specific competencies'. */
export function firstFormChoiceId(formIdsId: string, mainForms: readonly unknown[]): string {
  return mainForms.length > 0 ? formIdsId : specificFormsId(formIdsId);
}

/**
 * A new response scheme: mid- or end-semester, and its forms, main forms and specific competencies
 * as two groups of checkboxes with one name. Mounted afresh when a scheme has been added.
 */
export function AdminClassSchemeForm({
  schemeCount,
  mainForms,
  specificForms,
  form,
  fields,
}: {
  schemeCount: number;
  mainForms: FormChoice[];
  specificForms: FormChoice[];
  form: FormMetadata;
  fields: { half: FieldMetadata<string>; formIds: FieldMetadata<string[]> };
}) {
  const { t } = useTranslation("adminClass");
  const busy = useNavigation().state === "submitting";
  const { half, formIds } = fields;
  const formIdsError = firstError(t, formIds.errors);
  const chosenForms = listValue(formIds.initialValue);
  if (mainForms.length + specificForms.length === 0) {
    return (
      <>
        <h3>{t("schemes.addHeading")}</h3>
        <p>{t("schemes.noFormsAvailable")}</p>
      </>
    );
  }
  return (
    <>
      <h3>{t("schemes.addHeading")}</h3>
      <Form method="post" {...getFormProps(form)} key={`scheme-${schemeCount}`} noValidate>
        <input type="hidden" name="intent" value="scheme" />
        <RadioGroup
          name={half.name}
          id={half.id}
          legend={t("schemes.halfLegend")}
          legendSize="s"
          inline
          required
          options={[
            { value: "mid", label: t("schemes.mid") },
            { value: "end", label: t("schemes.end") },
          ]}
          defaultValue={half.initialValue ?? null}
          error={firstError(t, half.errors)}
        />
        <div className={formIdsError ? "ui-form-group ui-form-group--error" : "ui-form-group"}>
          <Fieldset
            legend={t("schemes.formsLegend")}
            legendSize="s"
            describedBy={formIdsError ? `${formIds.id}-hint ${formIds.id}-error` : `${formIds.id}-hint`}
          >
            <Hint id={`${formIds.id}-hint`}>{t("schemes.formsHint")}</Hint>
            {formIdsError ? <FieldError id={`${formIds.id}-error`} message={formIdsError} /> : null}
            {mainForms.length > 0 ? (
              <CheckboxGroup
                name={formIds.name}
                id={formIds.id}
                legend={t("schemes.mainFormsLegend")}
                legendSize="s"
                options={mainForms.map((f) => ({ value: String(f.formId), label: f.name }))}
                defaultValue={chosenForms}
              />
            ) : null}
            {specificForms.length > 0 ? (
              <CheckboxGroup
                name={formIds.name}
                id={specificFormsId(formIds.id)}
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
    </>
  );
}
