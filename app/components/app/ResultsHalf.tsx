import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { GradeChart, type GradeChartSeries } from "~/components/app/GradeChart";
import { ResultsGroup, type Group, type Half } from "./ResultsGroup";

const toLevel = (value: string | null) => (value === null || !/^\d+$/.test(value) ? null : Number(value));

const CHART_KIND = { student: "student", supervisor: "supervisor", teacher: "teacher" } as const;

/** Consecutive grading groups with the same labels share one chart (normally all of them: the independence scale). */
function chartRuns(groups: readonly Group[]): { options: readonly string[]; groups: Group[] }[] {
  const runs: { options: readonly string[]; groups: Group[] }[] = [];
  for (const group of groups) {
    if (group.type !== "grading") continue;
    const last = runs.at(-1);
    if (last && last.options.join("\u0000") === group.options.join("\u0000")) last.groups.push(group);
    else runs.push({ options: group.options, groups: [group] });
  }
  return runs;
}

/** One chart series per column; a second supervisor or teacher gets a numbered badge (PV2, PL2). */
function chartSeries(
  half: Half,
  groups: readonly Group[],
  t: (key: string, values?: Record<string, string>) => string,
): GradeChartSeries[] {
  const seen: Record<string, number> = {};
  return half.columns.map((column, i) => {
    const count = (seen[column.badge] = (seen[column.badge] ?? 0) + 1);
    const kind =
      column.kind === "other"
        ? column.badge === "S"
          ? "student"
          : column.badge === "PV"
            ? "supervisor"
            : "teacher"
        : CHART_KIND[column.kind];
    return {
      key: column.key,
      label: t(`results.series.${column.badge}`, { name: column.authorName }),
      short: count > 1 ? `${column.badge}${count}` : column.badge,
      kind,
      values: groups.flatMap((group) => group.rows.map((row) => toLevel(row.values[i]))),
    };
  });
}

/** One semester half's results: a link to answer it, the grade charts, and each group's answers. */
export function ResultsHalf({ half, answerHref }: { half: Half; answerHref: string }) {
  const { t } = useTranslation("answers");
  const halfName = half.isMidSemester ? t("half.mid") : t("half.end");
  const headingId = `half-${half.isMidSemester ? "mid" : "end"}`;
  // Grading questions numbered through the half, the same in the chart and the tables.
  const numbers = new Map(
    half.groups
      .filter((g) => g.type === "grading")
      .flatMap((g) => g.rows.map((row) => row.questionId))
      .map((id, i) => [id, i + 1]),
  );
  return (
    <section aria-labelledby={headingId} className="results-half">
      <h2 id={headingId}>{halfName}</h2>
      <p>
        <Link to={answerHref}>{t("results.answer", { half: halfName.toLowerCase() })}</Link>
      </p>
      {half.columns.length === 0 ? (
        <p>{t("results.none")}</p>
      ) : (
        <>
          {chartRuns(half.groups).map((run) => (
            <GradeChart
              key={run.groups[0].id}
              className="results-chart"
              title={t("results.chartTitle", { half: halfName })}
              description={t("results.chartDescription")}
              levels={run.options}
              questions={run.groups.flatMap((group) =>
                group.rows.map((row) => ({
                  key: String(row.questionId),
                  label: row.text,
                  number: String(numbers.get(row.questionId)),
                })),
              )}
              series={chartSeries(half, run.groups, t)}
              expected={
                half.expectationsShown
                  ? {
                      label: t("results.expected"),
                      values: run.groups.flatMap((group) => group.rows.map((row) => toLevel(row.expected))),
                    }
                  : null
              }
              questionsHeading={t("results.question")}
              legendLabel={t("results.legend")}
            />
          ))}
          {half.groups.map((group) => (
            <ResultsGroup key={group.id} group={group} half={half} halfName={halfName} numbers={numbers} />
          ))}
        </>
      )}
    </section>
  );
}
