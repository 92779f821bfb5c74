import { useId, type ReactNode } from "react";
import { cx } from "./internal";

export type TableColumn = {
  header: ReactNode;
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
  className?: string;
};

/**
 * A data table. It sits in a focusable, labelled scroll region so a wide table scrolls on
 * its own at 320 px instead of making the page scroll sideways (WCAG 1.4.10).
 */
export function Table({
  caption,
  captionHidden,
  columns,
  rows,
  rowHeaders,
  className,
}: TableProps) {
  const captionId = useId();
  return (
    <div className="ui-table-wrapper" role="region" aria-labelledby={captionId} tabIndex={0}>
      <table className={cx("ui-table", className)}>
        <caption
          id={captionId}
          className={cx("ui-table__caption", captionHidden && "ui-visually-hidden")}
        >
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
                return rowHeaders && index === 0 ? (
                  <th key={index} scope="row" className="ui-table__header ui-table__header--row">
                    {cell}
                  </th>
                ) : (
                  <td
                    key={index}
                    className={cx("ui-table__cell", numeric && "ui-table__cell--numeric")}
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
