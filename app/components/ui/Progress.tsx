import type { ReactNode } from "react";
import { cx } from "./internal";

export type ProgressProps = {
  id: string;
  label: ReactNode;
  value: number;
  max: number;
  /** Visible text beside the bar, e.g. "7 av 12 spørsmål besvart". */
  valueText?: ReactNode;
  className?: string;
};

/** A native `<progress>` labelled by a `<label for>`. */
export function Progress({ id, label, value, max, valueText, className }: ProgressProps) {
  return (
    <div className={cx("ui-progress", className)}>
      <label htmlFor={id} className="ui-progress__label">
        {label}
      </label>
      <progress id={id} className="ui-progress__bar" value={value} max={max}>
        {valueText ?? `${value}/${max}`}
      </progress>
      {valueText ? <div className="ui-progress__text">{valueText}</div> : null}
    </div>
  );
}
