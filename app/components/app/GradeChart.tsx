import { useId } from "react";
import { cx } from "~/components/ui/internal";
import "~/styles/grade-chart.css";
import {
  COLUMN,
  HEADER_FONT,
  HEADER_LINE,
  HEADER_MAX_LINES,
  HEADER_PAD,
  LABEL_FONT,
  LABEL_LEFT,
  LABEL_LINE,
  LABEL_MAX_LINES,
  MARK_SIZE,
  MARK_SPACING,
  NOT_RELEVANT_GAP,
  NUMBER_RIGHT,
  PLOT_LEFT,
  RIGHT_NUMBERS,
  ROW_PAD,
  footprint,
  isLevel,
  round,
  toLines,
  truncate,
  wrap,
  type GradeChartSeriesKind,
} from "./gradeChartLayout";
import { MarkShape, type MarkStyle } from "./GradeChartMark";

export type { GradeChartSeriesKind };

export interface GradeChartSeries {
  /** Stable id, e.g. "student", "advisor-12". */
  key: string;
  /** The legend text, translated, e.g. "Student: Emma Andersen". */
  label: string;
  /**
   * The badge drawn in the mark, e.g. "S", "PV", "PL". Two series of the same kind share a
   * shape and colour (the later ones drawn outlined), so give them different badges ("PV2").
   */
  short: string;
  kind: GradeChartSeriesKind;
  /** Per question, in the order of `questions`: the chosen level's index, or null (not graded). */
  values: readonly (number | null)[];
}

export interface GradeChartQuestion {
  key: string;
  /** The full question text; shown truncated beside its row, and in full on hover. */
  label: string;
  /** The number shown on the axis, matching the table; 1, 2, 3 … without. */
  number?: string;
}

export interface GradeChartExpected {
  /** The legend text, e.g. "Forventet nivå". */
  label: string;
  /** Per question: the expected level's index, or null (none set). */
  values: readonly (number | null)[];
}

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

type Column = { level: number; label: string; x: number; notRelevant: boolean };

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
  const hasNotRelevant = isLevel(notRelevantIndex, levels.length);

  const columns: Column[] = [];
  levels.forEach((label, level) => {
    if (hasNotRelevant && level === notRelevantIndex) return;
    columns.push({ level, label, x: PLOT_LEFT + columns.length * COLUMN, notRelevant: false });
  });
  const scaleRight = PLOT_LEFT + columns.length * COLUMN;
  if (hasNotRelevant) {
    columns.push({
      level: notRelevantIndex,
      label: levels[notRelevantIndex],
      x: scaleRight + NOT_RELEVANT_GAP,
      notRelevant: true,
    });
  }
  const notRelevantColumn = columns.find((c) => c.notRelevant);
  const plotRight = notRelevantColumn ? notRelevantColumn.x + COLUMN : scaleRight;
  const gridlines = [...columns.map((c) => c.x), scaleRight, plotRight].filter((x, i, all) => all.indexOf(x) === i);
  const width = plotRight + RIGHT_NUMBERS;
  const columnOf = new Map(columns.map((c) => [c.level, c]));

  const headers = columns.map((c) => wrap(c.label, COLUMN - 8, HEADER_FONT, true, HEADER_MAX_LINES));
  const headerLines = Math.max(1, ...headers.map((h) => h.length));
  const headerHeight = HEADER_PAD * 2 + headerLines * HEADER_LINE;

  // Later series of a kind are drawn outlined, so two supervisors differ by more than their badge.
  const seen = new Map<GradeChartSeriesKind, number>();
  const styles: MarkStyle[] = series.map((s) => {
    const count = seen.get(s.kind) ?? 0;
    seen.set(s.kind, count + 1);
    return { kind: s.kind, outlined: count > 0, short: s.short };
  });

  const widths = series.map((s) => footprint(s.kind, s.short));
  const lineHeight = MARK_SIZE + 6;

  // Who chose which level, per question (in series order), and how they stand in lines.
  const cells = questions.map((_, q) => {
    const byLevel = new Map<number, number[]>();
    series.forEach((s, index) => {
      const value = s.values[q];
      if (!isLevel(value, levels.length)) return;
      byLevel.set(value, [...(byLevel.get(value) ?? []), index]);
    });
    return Array.from(byLevel, ([level, who]) => ({
      level,
      who,
      lines: toLines(
        who.map((index) => widths[index]),
        COLUMN - 6,
      ).map((line) => line.map((i) => who[i])),
    }));
  });

  let y = headerHeight;
  const rows = questions.map((question, q) => {
    const number = question.number ?? String(q + 1);
    const label = wrap(question.label, PLOT_LEFT - LABEL_LEFT - 10, LABEL_FONT, false, LABEL_MAX_LINES);
    const markLines = Math.max(1, ...cells[q].map((cell) => cell.lines.length));
    const height = Math.max(ROW_PAD + markLines * lineHeight, ROW_PAD + label.length * LABEL_LINE + 6);
    const row = { question, q, top: y, height, number, label };
    y += height;
    return row;
  });
  const height = y + 2;

  const marks = rows.flatMap((row) =>
    cells[row.q].flatMap(({ level, who, lines }) => {
      const column = columnOf.get(level);
      if (!column) return [];
      const centreY = row.top + row.height / 2;
      return lines.flatMap((line, lineIndex) => {
        const lineWidth = line.reduce((sum, index) => sum + widths[index], 0) + (line.length - 1) * MARK_SPACING;
        let left = column.x + (COLUMN - lineWidth) / 2;
        return line.map((seriesIndex) => {
          const x = left + widths[seriesIndex] / 2;
          left += widths[seriesIndex] + MARK_SPACING;
          return {
            seriesIndex,
            q: row.q,
            level,
            x: round(x),
            y: round(centreY + (lineIndex - (lines.length - 1) / 2) * lineHeight),
            offset: who.length > 1,
          };
        });
      });
    }),
  );

  const expectedCells = expected
    ? rows.flatMap((row) => {
        const value = expected.values[row.q];
        const column = isLevel(value, levels.length) ? columnOf.get(value) : undefined;
        return column ? [{ row, column, level: value as number }] : [];
      })
    : [];

  const described = [descId, describedBy].filter(Boolean).join(" ");

  return (
    <div className={cx("grade-chart", className)}>
      {series.length > 0 || expected ? (
        <ul className="grade-chart__legend" aria-label={legendLabel}>
          {series.map((s, index) => (
            <li key={s.key} className="grade-chart__legend-item" data-legend={s.key}>
              <svg
                className="grade-chart__legend-symbol"
                aria-hidden="true"
                width={36}
                height={36}
                viewBox="-18 -18 36 36"
              >
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
      ) : null}
      <div className="grade-chart__scroll" role="region" aria-label={title} tabIndex={0}>
        <svg
          className="grade-chart__svg"
          role="img"
          aria-labelledby={titleId}
          aria-describedby={described}
          viewBox={`0 0 ${width} ${height}`}
          width={width}
          height={height}
        >
          <title id={titleId}>{title}</title>
          <desc id={descId}>{description}</desc>

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
              <rect
                className="grade-chart__not-relevant"
                x={notRelevantColumn.x}
                y={0}
                width={COLUMN}
                height={height}
              />
            ) : null}
            <line className="grade-chart__baseline" x1={0} x2={width} y1={headerHeight} y2={headerHeight} />
            <line className="grade-chart__baseline" x1={0} x2={width} y1={height - 1} y2={height - 1} />
            {notRelevantColumn ? (
              <rect
                className="grade-chart__gap"
                x={scaleRight + 1}
                y={0}
                width={NOT_RELEVANT_GAP - 2}
                height={height}
              />
            ) : null}
            {gridlines.map((x) => (
              <line key={x} className="grade-chart__gridline" x1={x} x2={x} y1={0} y2={height} />
            ))}
          </g>

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

          {expected ? (
            <g className="grade-chart__expected-cells">
              {expectedCells.map(({ row, column, level }) => (
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
          ) : null}

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
        </svg>
      </div>
    </div>
  );
}
