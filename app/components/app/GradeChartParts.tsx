// The grade chart's parts (GradeChart.tsx), each drawn from the geometry of GradeChartGeometry.ts.
import { cx } from "~/components/ui/internal";
import {
  COLUMN,
  HEADER_FONT,
  HEADER_LINE,
  HEADER_PAD,
  LABEL_LEFT,
  LABEL_LINE,
  NOT_RELEVANT_GAP,
  NUMBER_RIGHT,
  PLOT_LEFT,
  RIGHT_NUMBERS,
  truncate,
} from "./gradeChartLayout";
import type { ColumnLayout, GradeChartExpected, GradeChartSeries, Mark, Row } from "./GradeChartGeometry";
import { MarkShape, type MarkStyle } from "./GradeChartMark";

/** Each person's mark and name, and the expected level's cell, above the chart. */
export function GradeChartLegend({
  series,
  styles,
  expected,
  label,
}: {
  series: readonly GradeChartSeries[];
  styles: readonly MarkStyle[];
  expected: GradeChartExpected | null | undefined;
  label: string | undefined;
}) {
  return (
    <ul className="grade-chart__legend" aria-label={label}>
      {series.map((s, index) => (
        <li key={s.key} className="grade-chart__legend-item" data-legend={s.key}>
          <svg className="grade-chart__legend-symbol" aria-hidden="true" width={36} height={36} viewBox="-18 -18 36 36">
            <MarkShape {...styles[index]} />
          </svg>
          <span className="grade-chart__legend-text">{s.label}</span>
        </li>
      ))}
      {expected ? (
        <li className="grade-chart__legend-item" data-legend="expected">
          <svg className="grade-chart__legend-symbol" aria-hidden="true" width={36} height={36} viewBox="0 0 36 36">
            <rect className="grade-chart__expected" x={2} y={4} width={32} height={28} rx={4} />
          </svg>
          <span className="grade-chart__legend-text">{expected.label}</span>
        </li>
      ) : null}
    </ul>
  );
}

/** The rows' stripes, the "Ikke relevant" column and its gap, the baselines and the gridlines. */
export function GradeChartGrid({
  layout,
  rows,
  height,
}: {
  layout: ColumnLayout;
  rows: readonly Row[];
  height: number;
}) {
  const { width, headerHeight, notRelevantColumn, scaleRight, gridlines } = layout;
  return (
    <g className="grade-chart__grid">
      {rows.map((row) => (
        <rect
          key={row.question.key}
          className={cx("grade-chart__row", row.q % 2 === 1 && "grade-chart__row--alt")}
          x={0}
          y={row.top}
          width={width}
          height={row.height}
        />
      ))}
      {notRelevantColumn ? (
        <rect className="grade-chart__not-relevant" x={notRelevantColumn.x} y={0} width={COLUMN} height={height} />
      ) : null}
      <line className="grade-chart__baseline" x1={0} x2={width} y1={headerHeight} y2={headerHeight} />
      <line className="grade-chart__baseline" x1={0} x2={width} y1={height - 1} y2={height - 1} />
      {notRelevantColumn ? (
        <rect className="grade-chart__gap" x={scaleRight + 1} y={0} width={NOT_RELEVANT_GAP - 2} height={height} />
      ) : null}
      {gridlines.map((x) => (
        <line key={x} className="grade-chart__gridline" x1={x} x2={x} y1={0} y2={height} />
      ))}
    </g>
  );
}

/** The levels' headers over their columns, and the heading over the questions. */
export function GradeChartColumns({
  layout,
  questionsHeading,
}: {
  layout: ColumnLayout;
  questionsHeading: string | undefined;
}) {
  const { columns, headers, headerHeight } = layout;
  return (
    <g className="grade-chart__columns">
      {columns.map((c, index) => (
        <text
          key={c.level}
          className={cx("grade-chart__level", c.notRelevant && "grade-chart__level--not-relevant")}
          x={c.x + COLUMN / 2}
          y={headerHeight - HEADER_PAD - (headers[index].length - 1) * HEADER_LINE - 3}
          textAnchor="middle"
          data-level={c.level}
          data-column-x={c.x}
          data-not-relevant={c.notRelevant ? "true" : undefined}
        >
          {headers[index].map((line, i) => (
            <tspan key={i} x={c.x + COLUMN / 2} dy={i === 0 ? 0 : HEADER_LINE}>
              {line}
            </tspan>
          ))}
        </text>
      ))}
      {questionsHeading ? (
        <text className="grade-chart__axis-heading" x={LABEL_LEFT} y={headerHeight - HEADER_PAD - 3}>
          {truncate(questionsHeading, PLOT_LEFT - LABEL_LEFT - 8, HEADER_FONT, true)}
        </text>
      ) : null}
    </g>
  );
}

/** Each question's number (left and right of the columns) and its label, in full on hover. */
export function GradeChartQuestions({ rows, plotRight }: { rows: readonly Row[]; plotRight: number }) {
  return (
    <g className="grade-chart__questions">
      {rows.map((row) => (
        <g key={row.question.key} data-question={row.q}>
          <title>{`${row.number}. ${row.question.label}`}</title>
          <text
            className="grade-chart__question-number"
            x={NUMBER_RIGHT}
            y={row.top + row.height / 2 - ((row.label.length - 1) * LABEL_LINE) / 2}
            dy="0.35em"
            textAnchor="end"
          >
            {row.number}
          </text>
          <text
            className="grade-chart__question-number"
            x={plotRight + RIGHT_NUMBERS / 2}
            y={row.top + row.height / 2}
            dy="0.35em"
            textAnchor="middle"
          >
            {row.number}
          </text>
          <text
            className="grade-chart__question"
            x={LABEL_LEFT}
            y={row.top + row.height / 2 - ((row.label.length - 1) * LABEL_LINE) / 2}
          >
            {row.label.map((line, i) => (
              <tspan key={i} x={LABEL_LEFT} dy={i === 0 ? "0.35em" : LABEL_LINE}>
                {line}
              </tspan>
            ))}
          </text>
        </g>
      ))}
    </g>
  );
}

/** The admin's expected level of each question, a cell behind the marks. */
export function GradeChartExpectedCells({
  cells,
}: {
  cells: readonly { row: Row; column: ColumnLayout["columns"][number]; level: number }[];
}) {
  return (
    <g className="grade-chart__expected-cells">
      {cells.map(({ row, column, level }) => (
        <rect
          key={row.question.key}
          className="grade-chart__expected"
          x={column.x + 3}
          y={row.top + 3}
          width={COLUMN - 6}
          height={row.height - 6}
          rx={5}
          data-expected="true"
          data-question={row.q}
          data-level={level}
        />
      ))}
    </g>
  );
}

/** Every person's mark in its cell. */
export function GradeChartMarks({
  marks,
  series,
  styles,
}: {
  marks: readonly Mark[];
  series: readonly GradeChartSeries[];
  styles: readonly MarkStyle[];
}) {
  return (
    <g className="grade-chart__marks">
      {marks.map((m) => (
        <g
          key={`${series[m.seriesIndex].key}-${m.q}`}
          transform={`translate(${m.x} ${m.y})`}
          data-series={series[m.seriesIndex].key}
          data-question={m.q}
          data-level={m.level}
          data-offset={m.offset ? "true" : undefined}
        >
          <MarkShape {...styles[m.seriesIndex]} />
        </g>
      ))}
    </g>
  );
}
