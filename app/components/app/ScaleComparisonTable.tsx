export type ScaleComparisonTableProps = {
  /** Names the two levels compared (visually hidden: the form above says it). */
  caption: string;
  /** The header of the aspects' column ("Område"). */
  aspectHeader: string;
  /** The two levels' names, the columns. */
  levels: [string, string];
  /** One row per aspect of the scale: its name and its statement at each of the two levels. */
  aspects: { key: string; name: string; statements: [string, string] }[];
};

const columnIds = ["scale-compare-first", "scale-compare-second"];

/**
 * The independence scale's two levels side by side, aspect by aspect (the scale page on a narrow
 * screen). Each row is an aspect: its name is the row's header, then its statement at each level.
 * Each statement's `headers` names its own column's header and its own row's header (WCAG technique
 * H43), as scope="col" and scope="row" also say. The stylesheet puts the aspect's name above its two
 * statements, as the screen is narrow; the aspects' column header is for screen readers only.
 */
export function ScaleComparisonTable({ caption, aspectHeader, levels, aspects }: ScaleComparisonTableProps) {
  return (
    <table className="scale-compare__table">
      <caption className="ui-visually-hidden">{caption}</caption>
      <thead>
        <tr className="scale-compare__row">
          <th id="scale-compare-aspect" scope="col" className="ui-visually-hidden">
            {aspectHeader}
          </th>
          {levels.map((level, index) => (
            <th key={columnIds[index]} id={columnIds[index]} scope="col" className="scale-compare__level">
              {level}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {aspects.map((aspect) => (
          <tr key={aspect.key} className="scale-compare__row">
            <th id={`scale-compare-${aspect.key}`} scope="row" className="scale-compare__aspect">
              {aspect.name}
            </th>
            {aspect.statements.map((statement, index) => (
              <td
                key={columnIds[index]}
                headers={`${columnIds[index]} scale-compare-${aspect.key}`}
                className="scale-compare__statement"
              >
                {statement}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
