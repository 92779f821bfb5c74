import type { ChangeEventHandler, ReactNode } from "react";
import { FieldError } from "./FieldError";
import { Fieldset, type LegendSize } from "./Fieldset";
import { Hint } from "./Label";
import { cx, describedBy } from "./internal";

export type ChoiceOption = {
  value: string;
  label: ReactNode;
  hint?: ReactNode;
  disabled?: boolean;
};

type ChoiceGroupProps = {
  type: "radio" | "checkbox";
  name: string;
  /** The first input's id; the error summary links here. Defaults to `name`. */
  id?: string;
  legend: ReactNode;
  legendSize?: LegendSize;
  isPageHeading?: boolean;
  options: ChoiceOption[];
  hint?: ReactNode;
  error?: string | null;
  isChecked: (value: string) => boolean;
  required?: boolean;
  disabled?: boolean;
  /** Options side by side (short scales such as 1–5). */
  inline?: boolean;
  /** Associates the inputs with a form elsewhere on the page. */
  form?: string;
  onChange?: ChangeEventHandler<HTMLInputElement>;
  className?: string;
};

/** Shared by RadioGroup and CheckboxGroup: GOV.UK's radios/checkboxes pattern. */
export function ChoiceGroup({
  type,
  name,
  id = name,
  legend,
  legendSize,
  isPageHeading,
  options,
  hint,
  error,
  isChecked,
  required,
  disabled,
  inline,
  form,
  onChange,
  className,
}: ChoiceGroupProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const block = type === "radio" ? "ui-radios" : "ui-checkboxes";
  return (
    <div className={cx("ui-form-group", error && "ui-form-group--error", className)}>
      <Fieldset
        legend={legend}
        legendSize={legendSize}
        isPageHeading={isPageHeading}
        describedBy={describedBy(hintId, errorId)}
      >
        {hint ? <Hint id={`${id}-hint`}>{hint}</Hint> : null}
        {error ? <FieldError id={`${id}-error`} message={error} /> : null}
        <div className={cx(block, inline && `${block}--inline`)}>
          {options.map((option, index) => {
            const inputId = index === 0 ? id : `${id}-${index + 1}`;
            const itemHintId = option.hint ? `${inputId}-item-hint` : undefined;
            return (
              <div className={`${block}__item`} key={option.value}>
                <input
                  className={`${block}__input`}
                  type={type}
                  id={inputId}
                  name={name}
                  value={option.value}
                  defaultChecked={isChecked(option.value)}
                  disabled={disabled || option.disabled}
                  required={type === "radio" ? required : undefined}
                  form={form}
                  aria-describedby={itemHintId}
                  onChange={onChange}
                />
                <label className={`${block}__label`} htmlFor={inputId}>
                  {option.label}
                </label>
                {option.hint ? (
                  <div id={itemHintId} className={`ui-hint ${block}__hint`}>
                    {option.hint}
                  </div>
                ) : null}
              </div>
            );
          })}
        </div>
      </Fieldset>
    </div>
  );
}
