import { cx } from "~/components/ui/internal";
import { MARK_SIZE, markWidth, type GradeChartSeriesKind } from "./gradeChartLayout";

export type MarkStyle = { kind: GradeChartSeriesKind; outlined: boolean; short: string };

/** One person's mark, centred on 0,0: a shape per kind (not colour alone) and the badge text. */
export function MarkShape({ kind, outlined, short }: MarkStyle) {
  const half = markWidth(short) / 2;
  const shapeClass = "grade-chart__shape";
  let shape;
  if (kind === "student") {
    shape = <circle className={shapeClass} r={half} />;
  } else if (kind === "supervisor") {
    const side = half - 1;
    shape = <rect className={shapeClass} x={-side} y={-side} width={side * 2} height={side * 2} rx={3} />;
  } else if (kind === "teacher") {
    const r = half + 1;
    shape = <path className={shapeClass} d={`M0 ${-r}L${r} 0L0 ${r}L${-r} 0Z`} />;
  } else {
    const w = half;
    const h = MARK_SIZE / 2;
    const s = h * 0.55;
    shape = <path className={shapeClass} d={`M${-w + s} ${-h}H${w - s}L${w} 0L${w - s} ${h}H${-w + s}L${-w} 0Z`} />;
  }
  return (
    <g className={cx("grade-chart__mark", `grade-chart__mark--${kind}`, outlined && "grade-chart__mark--outlined")}>
      {shape}
      <text className="grade-chart__badge" textAnchor="middle" dy="0.35em">
        {short}
      </text>
    </g>
  );
}
