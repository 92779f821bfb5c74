import type { ReactNode } from "react";
import { cx } from "./internal";

export type LegendSize = "xl" | "l" | "m" | "s";

export type FieldsetProps = {
  legend: ReactNode;
  legendSize?: LegendSize;
  /** Put the legend text in the page's h1 (a one-question page). */
  isPageHeading?: boolean;
  describedBy?: string;
  className?: string;
  children: ReactNode;
};

/** A fieldset whose legend can double as the page heading. */
export function Fieldset({ legend, legendSize = "m", isPageHeading, describedBy, className, children }: FieldsetProps) {
  return (
    <fieldset className={cx("ui-fieldset", className)} aria-describedby={describedBy}>
      <legend className={cx("ui-fieldset__legend", `ui-fieldset__legend--${legendSize}`)}>
        {isPageHeading ? <h1 className="ui-fieldset__heading">{legend}</h1> : legend}
      </legend>
      {children}
    </fieldset>
  );
}
