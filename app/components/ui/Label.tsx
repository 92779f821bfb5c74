import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { cx } from "./internal";

export type LabelProps = {
  htmlFor: string;
  children: ReactNode;
  /** Wrap the label in the page's h1 (a one-question page). */
  isPageHeading?: boolean;
  /** Append "(valgfritt)" to the label. */
  optional?: boolean;
  className?: string;
};

/** A `<label for>`; exported so custom controls can use the same look. */
export function Label({ htmlFor, children, isPageHeading, optional, className }: LabelProps) {
  const { t } = useTranslation("ui");
  const label = (
    <label htmlFor={htmlFor} className={cx("ui-label", isPageHeading && "ui-label--page-heading", className)}>
      {children}
      {optional ? <span className="ui-label__optional">{` ${t("optional")}`}</span> : null}
    </label>
  );
  return isPageHeading ? <h1 className="ui-label-wrapper">{label}</h1> : label;
}

/** A hint under a label or legend. */
export function Hint({ id, children }: { id: string; children: ReactNode }) {
  return (
    <div id={id} className="ui-hint">
      {children}
    </div>
  );
}
