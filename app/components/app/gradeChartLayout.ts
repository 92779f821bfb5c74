// The grade chart's geometry and text layout (GradeChart.tsx): sizes in SVG units, and how labels
// are measured, wrapped and shortened without a browser to measure them.

/** Whose mark a series is: each kind has its own shape. */
export type GradeChartSeriesKind = "student" | "supervisor" | "teacher" | "other";

// Geometry in SVG user units; at natural size one unit is one CSS pixel.
export const NUMBER_RIGHT = 28;
export const LABEL_LEFT = 38;
/** Where the first level column starts: the question numbers and texts sit left of it. */
export const PLOT_LEFT = 214;
export const COLUMN = 104;
export const NOT_RELEVANT_GAP = 16;
/** Room for the question numbers again right of the columns, for a reader scrolled sideways. */
export const RIGHT_NUMBERS = 32;
export const HEADER_FONT = 13;
export const HEADER_LINE = 16;
export const HEADER_MAX_LINES = 3;
export const HEADER_PAD = 12;
export const LABEL_FONT = 14;
export const LABEL_LINE = 17;
export const LABEL_MAX_LINES = 2;
const BADGE_FONT = 11;
export const MARK_SIZE = 28;
export const MARK_SPACING = 3;
export const ROW_PAD = 12;

/** Rough advance widths (em) of a sans-serif, enough to wrap and truncate without measuring. */
function textWidth(text: string, fontSize: number, bold = false): number {
  let ems = 0;
  for (const ch of text) {
    if ("iljtfrI.,:;'!|() ".includes(ch)) ems += 0.3;
    else if ("mwMW".includes(ch)) ems += 0.86;
    else if (ch >= "A" && ch <= "Z") ems += 0.68;
    else if ("ÆØÅ".includes(ch)) ems += 0.78;
    else if (ch >= "0" && ch <= "9") ems += 0.56;
    else ems += 0.54;
  }
  return ems * fontSize * (bold ? 1.07 : 1);
}

export function truncate(text: string, width: number, fontSize: number, bold = false): string {
  if (textWidth(text, fontSize, bold) <= width) return text;
  let end = text.length;
  while (end > 0 && textWidth(`${text.slice(0, end).trimEnd()}…`, fontSize, bold) > width) end--;
  return `${text.slice(0, end).trimEnd()}…`;
}

/** Greedy word wrap into at most `maxLines`, the last line truncated when words are left over. */
export function wrap(text: string, width: number, fontSize: number, bold: boolean, maxLines: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (!line || textWidth(candidate, fontSize, bold) <= width) {
      line = candidate;
    } else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  const kept =
    lines.length <= maxLines ? lines : [...lines.slice(0, maxLines - 1), lines.slice(maxLines - 1).join(" ")];
  return kept.map((l) => truncate(l, width, fontSize, bold));
}

export const round = (n: number) => Math.round(n * 10) / 10;

export function isLevel(value: number | null | undefined, levelCount: number): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value < levelCount;
}

export function markWidth(short: string): number {
  return Math.max(MARK_SIZE, Math.ceil(textWidth(short, BADGE_FONT, true)) + 10);
}

/** The room a mark takes in a row: the diamond reaches a little further than the others. */
export function footprint(kind: GradeChartSeriesKind, short: string): number {
  return markWidth(short) + (kind === "teacher" ? 2 : 0);
}

/**
 * Splits the marks of one cell into as few lines as fit the column, as evenly as possible,
 * keeping series order.
 */
export function toLines(widths: readonly number[], room: number): number[][] {
  const indices = widths.map((_, i) => i);
  for (let lines = 1; lines < widths.length; lines++) {
    const perLine = Math.ceil(widths.length / lines);
    const chunks: number[][] = [];
    for (let i = 0; i < indices.length; i += perLine) chunks.push(indices.slice(i, i + perLine));
    const fits = chunks.every(
      (chunk) => chunk.reduce((sum, i) => sum + widths[i], 0) + (chunk.length - 1) * MARK_SPACING <= room,
    );
    if (fits) return chunks;
  }
  return indices.map((i) => [i]);
}
