// Where everything of the grade chart (GradeChart.tsx) stands: its columns, rows and marks, in SVG
// units, worked out from the props before anything is drawn.
import {
  COLUMN,
  HEADER_FONT,
  HEADER_LINE,
  HEADER_MAX_LINES,
  HEADER_PAD,
  LABEL_FONT,
  LABEL_LEFT,
  LABEL_MAX_LINES,
  LABEL_LINE,
  MARK_SIZE,
  MARK_SPACING,
  NOT_RELEVANT_GAP,
  PLOT_LEFT,
  RIGHT_NUMBERS,
  ROW_PAD,
  footprint,
  isLevel,
  round,
  toLines,
  wrap,
  type GradeChartSeriesKind,
} from "./gradeChartLayout";
import type { MarkStyle } from "./GradeChartMark";

export interface GradeChartSeries {
  /** Stable id, e.g. "student", "supervisor-12". */
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

export type Column = { level: number; label: string; x: number; notRelevant: boolean };

/** The level columns, "Ikke relevant" after a gap, their wrapped headers, and the plot's width. */
export function layoutColumns(levels: readonly string[], notRelevantIndex: number | null) {
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
  const headers = columns.map((c) => wrap(c.label, COLUMN - 8, HEADER_FONT, true, HEADER_MAX_LINES));
  const headerLines = Math.max(1, ...headers.map((h) => h.length));
  return {
    columns,
    scaleRight,
    notRelevantColumn,
    plotRight,
    gridlines,
    width: plotRight + RIGHT_NUMBERS,
    columnOf: new Map(columns.map((c) => [c.level, c])),
    headers,
    headerHeight: HEADER_PAD * 2 + headerLines * HEADER_LINE,
  };
}

export type ColumnLayout = ReturnType<typeof layoutColumns>;

/** Later series of a kind are drawn outlined, so two supervisors differ by more than their badge. */
export function markStyles(series: readonly GradeChartSeries[]): MarkStyle[] {
  const seen = new Map<GradeChartSeriesKind, number>();
  return series.map((s) => {
    const count = seen.get(s.kind) ?? 0;
    seen.set(s.kind, count + 1);
    return { kind: s.kind, outlined: count > 0, short: s.short };
  });
}

const LINE_HEIGHT = MARK_SIZE + 6;

/** Who chose which level of one question (in series order), and how they stand in lines. */
function cellsOf(series: readonly GradeChartSeries[], q: number, levelCount: number, widths: readonly number[]) {
  const byLevel = new Map<number, number[]>();
  series.forEach((s, index) => {
    const value = s.values[q];
    if (!isLevel(value, levelCount)) return;
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
}

/** The question rows, top to bottom, each as high as its label or its lines of marks need. */
export function layoutRows(
  questions: readonly GradeChartQuestion[],
  series: readonly GradeChartSeries[],
  levelCount: number,
  headerHeight: number,
) {
  const widths = series.map((s) => footprint(s.kind, s.short));
  let y = headerHeight;
  const rows = questions.map((question, q) => {
    const number = question.number ?? String(q + 1);
    const label = wrap(question.label, PLOT_LEFT - LABEL_LEFT - 10, LABEL_FONT, false, LABEL_MAX_LINES);
    const cells = cellsOf(series, q, levelCount, widths);
    const markLines = Math.max(1, ...cells.map((cell) => cell.lines.length));
    const height = Math.max(ROW_PAD + markLines * LINE_HEIGHT, ROW_PAD + label.length * LABEL_LINE + 6);
    const row = { question, q, top: y, height, number, label, cells };
    y += height;
    return row;
  });
  return { rows, widths, height: y + 2 };
}

export type Row = ReturnType<typeof layoutRows>["rows"][number];

/** Each person's mark: centred in its cell, side by side with those who chose the same level. */
export function layoutMarks(rows: readonly Row[], columnOf: ColumnLayout["columnOf"], widths: readonly number[]) {
  return rows.flatMap((row) =>
    row.cells.flatMap(({ level, who, lines }) => {
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
            y: round(centreY + (lineIndex - (lines.length - 1) / 2) * LINE_HEIGHT),
            offset: who.length > 1,
          };
        });
      });
    }),
  );
}

export type Mark = ReturnType<typeof layoutMarks>[number];

/** The cells of the admin's expected levels, one per question that has one. */
export function expectedCellsOf(
  expected: GradeChartExpected,
  rows: readonly Row[],
  columnOf: ColumnLayout["columnOf"],
  levelCount: number,
) {
  return rows.flatMap((row) => {
    const value = expected.values[row.q];
    const column = isLevel(value, levelCount) ? columnOf.get(value) : undefined;
    return column ? [{ row, column, level: value as number }] : [];
  });
}
