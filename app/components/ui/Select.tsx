import type { ComponentProps, ReactNode } from "react";
import { FieldError } from "./FieldError";
import { Hint, Label } from "./Label";
import { cx, describedBy } from "./internal";

export type SelectOption = { value: string; label: string; disabled?: boolean };

export type SelectProps = Omit<
  ComponentProps<"select">,
  "style" | "id" | "name" | "children" | "aria-invalid" | "value" | "multiple"
> & {
  label: ReactNode;
  name: string;
  id?: string;
  options: SelectOption[];
  /** A first option with an empty value, e.g. "Velg klasse". */
  placeholder?: string;
  hint?: ReactNode;
  error?: string | null;
  isPageHeading?: boolean;
  optional?: boolean;
};

export function Select({
  label,
  name,
  id = name,
  options,
  placeholder,
  hint,
  error,
  isPageHeading,
  optional,
  className,
  "aria-describedby": extraDescribedBy,
  ...rest
}: SelectProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={cx("ui-form-group", error && "ui-form-group--error", className)}>
      <Label htmlFor={id} isPageHeading={isPageHeading} optional={optional}>
        {label}
      </Label>
      {hint ? <Hint id={`${id}-hint`}>{hint}</Hint> : null}
      {error ? <FieldError id={`${id}-error`} message={error} /> : null}
      <select
        id={id}
        name={name}
        className={cx("ui-select", error && "ui-select--error")}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(hintId, errorId, extraDescribedBy)}
        {...rest}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value} disabled={option.disabled}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
