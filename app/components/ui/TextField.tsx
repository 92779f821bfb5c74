import type { ComponentProps, ReactNode } from "react";
import { FieldError } from "./FieldError";
import { Hint, Label } from "./Label";
import { cx, describedBy } from "./internal";

/** Widths in characters (GOV.UK's fixed widths) or fractions of the column. */
export type InputWidth = "2" | "3" | "4" | "5" | "10" | "20" | "30" | "full" | "half";

export type TextFieldProps = Omit<
  ComponentProps<"input">,
  "style" | "id" | "name" | "type" | "width" | "children" | "aria-invalid"
> & {
  label: ReactNode;
  name: string;
  /** Defaults to `name`; the error summary links to it. */
  id?: string;
  type?: "text" | "email" | "tel" | "url" | "number" | "password" | "search" | "date";
  hint?: ReactNode;
  /** An already translated error message; marks the field invalid. */
  error?: string | null;
  width?: InputWidth;
  isPageHeading?: boolean;
  optional?: boolean;
};

export function TextField({
  label,
  name,
  id = name,
  type = "text",
  hint,
  error,
  width,
  isPageHeading,
  optional,
  className,
  "aria-describedby": extraDescribedBy,
  ...rest
}: TextFieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={cx("ui-form-group", error && "ui-form-group--error", className)}>
      <Label htmlFor={id} isPageHeading={isPageHeading} optional={optional}>
        {label}
      </Label>
      {hint ? <Hint id={`${id}-hint`}>{hint}</Hint> : null}
      {error ? <FieldError id={`${id}-error`} message={error} /> : null}
      <input
        id={id}
        name={name}
        type={type}
        className={cx("ui-input", width && `ui-input--width-${width}`, error && "ui-input--error")}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(hintId, errorId, extraDescribedBy)}
        {...rest}
      />
    </div>
  );
}
