import { useId, type ReactNode } from "react";
import { cx } from "./internal";

export type TableColumn = {
  header: ReactNode;
  /**
   * The column's name beside each value when the rows are stacked on a narrow screen; by default the
   * header when it is text. Say none for a column whose values speak for themselves (links, buttons).
   */
  label?: string;
  /** Right-aligns the column (numbers, dates). */
  numeric?: boolean;
};

export type TableRow = {
  key: string;
  cells: ReactNode[];
  /** Greys the row out, e.g. a deactivated user. Say so in a cell as well (a Tag). */
  inactive?: boolean;
};

export type TableProps = {
  caption: ReactNode;
  captionHidden?: boolean;
  columns: TableColumn[];
  rows: TableRow[];
  /** Render each row's first cell as its row header (`<th scope="row">`). */
  rowHeaders?: boolean;
  /** Whether the rows stack on narrow screens (by default); if not, the table scrolls in its region. */
  stack?: boolean;
  className?: string;
};

/**
 * A data table in a focusable, labelled region. On a narrow screen (below 40em) each row becomes a
 * block, its cells one under the other, each after its column's name (data-label, shown by the
 * CSS), so nothing scrolls sideways at 320 px (WCAG 1.4.10). It stays a table for screen readers
 * without ARIA roles: today's browsers keep a <table>'s semantics when CSS changes how its parts are
 * displayed, and a role on a tr, th or td inside a table is invalid HTML (ARIA in HTML; the Nu Html
 * Checker and html-validate both refuse it). A table that does not stack scrolls inside its region
 * instead.
 */
export function Table({ caption, captionHidden, columns, rows, rowHeaders, stack = true, className }: TableProps) {
  const captionId = useId();
  const labels = columns.map(
    (column) => column.label ?? (typeof column.header === "string" ? column.header : undefined),
  );
  return (
    <div className="ui-table-wrapper" role="region" aria-labelledby={captionId} tabIndex={0}>
      <table className={cx("ui-table", stack && "ui-table--stack", className)}>
        <caption id={captionId} className={cx("ui-table__caption", captionHidden && "ui-visually-hidden")}>
          {caption}
        </caption>
        <thead className="ui-table__head">
          <tr className="ui-table__row">
            {columns.map((column, index) => (
              <th
                key={index}
                scope="col"

                className={cx("ui-table__header", column.numeric && "ui-table__header--numeric")}
              >
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="ui-table__body">
          {rows.map((row) => (
            <tr
              key={row.key}

              className={cx("ui-table__row", row.inactive && "ui-table__row--inactive")}
            >
              {row.cells.map((cell, index) => {
                const numeric = columns[index]?.numeric;
                const label = stack ? labels[index] : undefined;
                return rowHeaders && index === 0 ? (
                  <th key={index} scope="row" className="ui-table__header ui-table__header--row">
                    {cell}
                  </th>
                ) : (
                  <td
                    key={index}

                    className={cx("ui-table__cell", numeric && "ui-table__cell--numeric")}
                    data-label={label}
                  >
                    {cell}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
