import type { ReactNode } from "react";
import { cx } from "./internal";

export type DetailsProps = {
  summary: ReactNode;
  children: ReactNode;
  open?: boolean;
  className?: string;
};

/** Native `<details>`: works without JavaScript and in every supported browser. */
export function Details({ summary, children, open, className }: DetailsProps) {
  return (
    <details className={cx("ui-details", className)} open={open}>
      <summary className="ui-details__summary">
        <span className="ui-details__summary-text">{summary}</span>
      </summary>
      <div className="ui-details__text">{children}</div>
    </details>
  );
}
