import { useId } from "react";
import { cx } from "~/components/ui/internal";
import "~/styles/grade-chart.css";
import type { GradeChartSeriesKind } from "./gradeChartLayout";
import {
  expectedCellsOf,
  layoutColumns,
  layoutMarks,
  layoutRows,
  markStyles,
  type GradeChartExpected,
  type GradeChartQuestion,
  type GradeChartSeries,
} from "./GradeChartGeometry";
import {
  GradeChartColumns,
  GradeChartExpectedCells,
  GradeChartGrid,
  GradeChartLegend,
  GradeChartMarks,
  GradeChartQuestions,
} from "./GradeChartParts";

export type { GradeChartExpected, GradeChartQuestion, GradeChartSeries, GradeChartSeriesKind };

export interface GradeChartProps {
  /** The chart's accessible name, e.g. "Karakterer, midtveisvurdering". */
  title: string;
  /** Read after the name, e.g. "Spørsmål i rader, nivå i kolonner. Tallene står også i tabellen under." */
  description: string;
  /** The form group's labels in order; a value is an index into this list. */
  levels: readonly string[];
  /**
   * The index of "Ikke relevant", drawn as a column of its own after the scale. Defaults to 5
   * when there are more than five levels; null when the labels have no such choice.
   */
  notRelevantIndex?: number | null;
  questions: readonly GradeChartQuestion[];
  /** One per person, drawn in this order (and in this order side by side when they agree). */
  series: readonly GradeChartSeries[];
  /** The admin's expected levels; omit for viewers who may not see them. */
  expected?: GradeChartExpected | null;
  /** The id of the table that holds the same figures. */
  describedBy?: string;
  /** The heading over the question axis, e.g. "Spørsmål". */
  questionsHeading?: string;
  /** The legend list's accessible name, e.g. "Forklaring". */
  legendLabel?: string;
  className?: string;
}

/**
 * The grade comparison for one form and one semester half: each question's grade by each
 * person on the independence scale, with the admin's expected level behind them. Questions are
 * rows, levels columns, "Ikke relevant" a column of its own after a gap. People who chose the
 * same level for a question stand side by side (in extra lines when many). Pure SVG, drawn on
 * the server; the same figures belong in a table the chart points to (`describedBy`).
 */
export function GradeChart({
  title,
  description,
  levels,
  notRelevantIndex: notRelevantProp,
  questions,
  series,
  expected,
  describedBy,
  questionsHeading,
  legendLabel,
  className,
}: GradeChartProps) {
  const id = useId();
  const titleId = `${id}-title`;
  const descId = `${id}-desc`;

  const notRelevantIndex = notRelevantProp === undefined ? (levels.length > 5 ? 5 : null) : notRelevantProp;
  const layout = layoutColumns(levels, notRelevantIndex);
  const styles = markStyles(series);
  const { rows, widths, height } = layoutRows(questions, series, levels.length, layout.headerHeight);
  const marks = layoutMarks(rows, layout.columnOf, widths);
  const described = [descId, describedBy].filter(Boolean).join(" ");

  return (
    <div className={cx("grade-chart", className)}>
      {series.length > 0 || expected ? (
        <GradeChartLegend series={series} styles={styles} expected={expected} label={legendLabel} />
      ) : null}
      <div className="grade-chart__scroll" role="region" aria-label={title} tabIndex={0}>
        <svg
          className="grade-chart__svg"
          role="img"
          aria-labelledby={titleId}
          aria-describedby={described}
          viewBox={`0 0 ${layout.width} ${height}`}
          width={layout.width}
          height={height}
        >
          <title id={titleId}>{title}</title>
          <desc id={descId}>{description}</desc>
          <GradeChartGrid layout={layout} rows={rows} height={height} />
          <GradeChartColumns layout={layout} questionsHeading={questionsHeading} />
          <GradeChartQuestions rows={rows} plotRight={layout.plotRight} />
          {expected ? (
            <GradeChartExpectedCells cells={expectedCellsOf(expected, rows, layout.columnOf, levels.length)} />
          ) : null}
          <GradeChartMarks marks={marks} series={series} styles={styles} />
        </svg>
      </div>
    </div>
  );
}
