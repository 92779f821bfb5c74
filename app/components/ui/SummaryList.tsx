import type { ReactNode } from "react";
import { cx } from "./internal";

export type SummaryListRow = {
  key: ReactNode;
  value: ReactNode;
  /** A link or small form, e.g. "Endre". */
  actions?: ReactNode;
};

export type SummaryListProps = {
  rows: SummaryListRow[];
  className?: string;
};

/** Key/value pairs as a description list. */
export function SummaryList({ rows, className }: SummaryListProps) {
  return (
    <dl className={cx("ui-summary-list", className)}>
      {rows.map((row, index) => (
        <div className="ui-summary-list__row" key={index}>
          <dt className="ui-summary-list__key">{row.key}</dt>
          <dd className="ui-summary-list__value">{row.value}</dd>
          {row.actions ? <dd className="ui-summary-list__actions">{row.actions}</dd> : null}
        </div>
      ))}
    </dl>
  );
}
