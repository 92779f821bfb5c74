import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { GradeChart, type GradeChartProps, type GradeChartSeries } from "./GradeChart";

const levels = ["Selvstendig", "Delvis selvstendig", "Veiledet", "Assistert", "Uselvstendig", "Ikke relevant"];

const questions = [
  { key: "q1", label: "Observerer og vurderer pasientens behov for sykepleie" },
  { key: "q2", label: "Kommuniserer med pasient og pårørende" },
  { key: "q3", label: "Håndterer legemidler forsvarlig" },
  { key: "q4", label: "Tar ansvar for egen læring" },
];

const student: GradeChartSeries = {
  key: "student",
  label: "Student: Emma Andersen",
  short: "S",
  kind: "student",
  values: [1, 2, 5, null],
};
const supervisor: GradeChartSeries = {
  key: "supervisor-12",
  label: "Praksisveileder: Kari Nordmann",
  short: "PV",
  kind: "supervisor",
  values: [1, 3, 5, null],
};
const teacher: GradeChartSeries = {
  key: "teacher-3",
  label: "Praksislærer: Ola Hansen",
  short: "PL",
  kind: "teacher",
  values: [1, 3, 0, null],
};

function props(overrides: Partial<GradeChartProps> = {}): GradeChartProps {
  return {
    title: "Karakterer, midtveisvurdering",
    description: "Spørsmål i rader, nivå i kolonner. Tallene står også i tabellen under.",
    levels,
    questions,
    series: [student, supervisor, teacher],
    ...overrides,
  };
}

function render(p: GradeChartProps): string {
  const html = renderToString(<GradeChart {...p} />);
  // House rule (CSP): no inline styles.
  expect(html).not.toMatch(/\sstyle=/);
  return html;
}

type Attributes = Record<string, string>;

/** The attributes of every opening tag that has the given attribute (and value, when given). */
function tagsWith(html: string, name: string, value?: string): Attributes[] {
  const tags = html.match(/<[a-zA-Z]+(?:\s+[^\s=>]+(?:="[^"]*")?)*\s*\/?>/g) ?? [];
  return tags
    .map((tag) => {
      const attributes: Attributes = { tag: tag.match(/^<([a-zA-Z]+)/)![1] };
      for (const [, key, val] of tag.matchAll(/\s([^\s=>]+)(?:="([^"]*)")?/g)) {
        attributes[key] = val ?? "";
      }
      return attributes;
    })
    .filter((a) => name in a && (value === undefined || a[name] === value));
}

function translate(mark: Attributes): { x: number; y: number } {
  const match = mark.transform.match(/translate\(([-\d.]+) ([-\d.]+)\)/);
  if (!match) throw new Error(`no translate in ${mark.transform}`);
  return { x: Number(match[1]), y: Number(match[2]) };
}

/** Column left edges by level, from the column headers. */
function columnsOf(html: string): Map<number, { x: number; notRelevant: boolean }> {
  return new Map(
    tagsWith(html, "data-column-x").map((a) => [
      Number(a["data-level"]),
      { x: Number(a["data-column-x"]), notRelevant: a["data-not-relevant"] === "true" },
    ]),
  );
}

const marks = (html: string, series?: string) => tagsWith(html, "data-series", series).filter((a) => a.tag === "g");

describe("GradeChart", () => {
  it("is an image with a name and a description, pointing to the table with the same figures", () => {
    const html = render(props({ describedBy: "grades-table" }));
    const [svg] = tagsWith(html, "role", "img");
    expect(svg.tag).toBe("svg");
    expect(svg.viewBox).toMatch(/^0 0 \d+(\.\d+)? \d+(\.\d+)?$/);

    const [titleId, ...rest] = svg["aria-labelledby"].split(" ");
    expect(rest).toEqual([]);
    expect(html).toContain(`<title id="${titleId}">Karakterer, midtveisvurdering</title>`);

    const described = svg["aria-describedby"].split(" ");
    expect(described).toHaveLength(2);
    expect(html).toContain(
      `<desc id="${described[0]}">Spørsmål i rader, nivå i kolonner. Tallene står også i tabellen under.</desc>`,
    );
    expect(described[1]).toBe("grades-table");
  });

  it("describes itself only by its own description when no table id is given", () => {
    const html = render(props());
    const [svg] = tagsWith(html, "role", "img");
    expect(svg["aria-describedby"].split(" ")).toHaveLength(1);
  });

  it("sits in a keyboard-reachable, named scroll region for narrow screens", () => {
    const html = render(props());
    const [region] = tagsWith(html, "role", "region");
    expect(region.tabindex).toBe("0");
    expect(region["aria-label"]).toBe("Karakterer, midtveisvurdering");
  });

  it("draws one mark per graded question for each series, none for null", () => {
    const html = render(props());
    expect(marks(html, "student")).toHaveLength(3);
    expect(marks(html, "supervisor-12")).toHaveLength(3);
    expect(marks(html, "teacher-3")).toHaveLength(3);
    // Nobody graded question 4 (index 3): nothing drawn for it.
    expect(marks(html).filter((m) => m["data-question"] === "3")).toEqual([]);
  });

  it("places each mark in the column of its level", () => {
    const html = render(props());
    const columns = columnsOf(html);
    for (const mark of marks(html)) {
      const level = Number(mark["data-level"]);
      const series = [student, supervisor, teacher].find((s) => s.key === mark["data-series"])!;
      expect(series.values[Number(mark["data-question"])]).toBe(level);
      const { x } = translate(mark);
      const column = columns.get(level)!;
      expect(x).toBeGreaterThan(column.x);
      expect(x).toBeLessThan(column.x + 100);
    }
    const [teacherOnFirstLevel] = marks(html, "teacher-3").filter((m) => m["data-question"] === "2");
    expect(teacherOnFirstLevel["data-level"]).toBe("0");
  });

  it("draws the levels left to right and the questions top to bottom, in order", () => {
    const html = render(props({ series: [{ ...student, values: [0, 1, 2, 4] }] }));
    const positions = marks(html).map(translate);
    const xs = positions.map((p) => p.x);
    const ys = positions.map((p) => p.y);
    expect([...xs].sort((a, b) => a - b)).toEqual(xs);
    expect([...ys].sort((a, b) => a - b)).toEqual(ys);
    expect(new Set(xs).size).toBe(4);
  });

  it("gives 'Ikke relevant' a column of its own, after a gap", () => {
    const html = render(props());
    expect(tagsWith(html, "data-column-x")).toHaveLength(6);
    const columns = columnsOf(html);
    expect(columns.size).toBe(6);
    const notRelevant = columns.get(5)!;
    expect(notRelevant.notRelevant).toBe(true);
    const scale = [0, 1, 2, 3, 4].map((level) => columns.get(level)!);
    expect(scale.every((c) => !c.notRelevant)).toBe(true);
    const step = scale[1].x - scale[0].x;
    expect(notRelevant.x).toBeGreaterThan(scale[4].x + step);

    const notRelevantMarks = marks(html).filter((m) => m["data-level"] === "5");
    expect(notRelevantMarks.map((m) => m["data-series"])).toEqual(["student", "supervisor-12"]);
    for (const mark of notRelevantMarks) {
      expect(translate(mark).x).toBeGreaterThan(notRelevant.x);
    }
  });

  it("honours an explicit notRelevantIndex, and none", () => {
    const five = levels.slice(0, 5);
    const withoutNotRelevant = render(props({ levels: five, series: [] }));
    expect([...columnsOf(withoutNotRelevant).values()].some((c) => c.notRelevant)).toBe(false);

    const none = render(props({ notRelevantIndex: null, series: [] }));
    expect([...columnsOf(none).values()].some((c) => c.notRelevant)).toBe(false);
    expect(columnsOf(none).size).toBe(6);

    const first = render(props({ notRelevantIndex: 0, series: [] }));
    const columns = columnsOf(first);
    expect(columns.get(0)!.notRelevant).toBe(true);
    expect(columns.get(0)!.x).toBeGreaterThan(columns.get(5)!.x);
  });

  it("sets people who chose the same level side by side instead of on top of each other", () => {
    const html = render(props());
    const sameCell = marks(html).filter((m) => m["data-question"] === "0");
    expect(sameCell).toHaveLength(3);
    expect(sameCell.every((m) => m["data-level"] === "1" && m["data-offset"] === "true")).toBe(true);
    const spots = sameCell.map((m) => {
      const { x, y } = translate(m);
      return `${x},${y}`;
    });
    expect(new Set(spots).size).toBe(3);
    const xs = sameCell.map((m) => translate(m).x);
    // At least a mark's width apart (28 units).
    for (let i = 1; i < xs.length; i++) expect(xs[i] - xs[i - 1]).toBeGreaterThanOrEqual(28);

    const alone = marks(html, "teacher-3").find((m) => m["data-question"] === "2")!;
    expect(alone["data-offset"]).toBeUndefined();
  });

  it("wraps many people at one level onto a second line within the row", () => {
    const many: GradeChartSeries[] = [
      student,
      supervisor,
      teacher,
      {
        key: "supervisor-40",
        label: "Ekstra PV",
        short: "PV2",
        kind: "supervisor",
        values: [1, null, null, null],
      },
      {
        key: "teacher-9",
        label: "Ekstra PL",
        short: "PL2",
        kind: "teacher",
        values: [1, null, null, null],
      },
    ];
    const html = render(props({ series: many }));
    const cell = marks(html)
      .filter((m) => m["data-question"] === "0")
      .map(translate);
    expect(cell).toHaveLength(5);
    expect(new Set(cell.map((p) => `${p.x},${p.y}`)).size).toBe(5);
    expect(new Set(cell.map((p) => p.y)).size).toBe(2);
    // The taller row pushes the next one down, so marks never spill into it.
    const nextRow = marks(html)
      .filter((m) => m["data-question"] === "1")
      .map(translate);
    const lowest = Math.max(...cell.map((p) => p.y));
    expect(Math.min(...nextRow.map((p) => p.y))).toBeGreaterThan(lowest + 28);
  });

  it("draws the expected level only when given, and nothing for a question without one", () => {
    expect(tagsWith(render(props()), "data-expected")).toEqual([]);
    expect(render(props())).not.toContain('data-legend="expected"');

    const html = render(props({ expected: { label: "Forventet nivå", values: [1, null, 5, 2] } }));
    const expected = tagsWith(html, "data-expected");
    expect(expected.map((e) => [e["data-question"], e["data-level"]])).toEqual([
      ["0", "1"],
      ["2", "5"],
      ["3", "2"],
    ]);
    const columns = columnsOf(html);
    for (const band of expected) {
      expect(Number(band.x)).toBeGreaterThanOrEqual(columns.get(Number(band["data-level"]))!.x);
    }
    // Drawn behind the marks.
    expect(html.indexOf("data-expected")).toBeLessThan(html.indexOf("data-series"));
    expect(html).toContain('data-legend="expected"');
    expect(html).toContain("Forventet nivå");
  });

  it("ignores values that are not a level instead of failing", () => {
    const html = render(
      props({
        series: [{ ...student, values: [7, -1, 1.5, 2] }],
        expected: { label: "Forventet", values: [9, null] },
      }),
    );
    expect(marks(html).map((m) => m["data-question"])).toEqual(["3"]);
    expect(tagsWith(html, "data-expected")).toEqual([]);
  });

  it("has an HTML legend with each series' shape, badge and label, in order", () => {
    const html = render(
      props({
        legendLabel: "Forklaring",
        expected: { label: "Forventet nivå", values: [1, 1, 1, 1] },
      }),
    );
    const [legend] = tagsWith(html, "aria-label", "Forklaring");
    expect(legend.tag).toBe("ul");
    expect(tagsWith(html, "data-legend").map((a) => a["data-legend"])).toEqual([
      "student",
      "supervisor-12",
      "teacher-3",
      "expected",
    ]);
    for (const label of [student.label, supervisor.label, teacher.label]) {
      expect(html).toContain(`<span class="grade-chart__legend-text">${label}</span>`);
    }
    const legendSymbols = tagsWith(html, "class", "grade-chart__legend-symbol");
    expect(legendSymbols).toHaveLength(4);
    expect(legendSymbols.every((s) => s["aria-hidden"] === "true")).toBe(true);
  });

  it("tells people apart by shape and badge, not colour alone", () => {
    const second: GradeChartSeries = { ...supervisor, key: "supervisor-40", short: "PV2" };
    const html = render(props({ series: [student, supervisor, teacher, second] }));
    const shapes = (kind: string) =>
      html.match(new RegExp(`grade-chart__mark--${kind}[^"]*"><(circle|rect|path)`, "g")) ?? [];
    expect(shapes("student")[0]).toMatch(/<circle$/);
    expect(shapes("supervisor")[0]).toMatch(/<rect$/);
    expect(shapes("teacher")[0]).toMatch(/<path$/);
    for (const badge of ["S", "PV", "PL", "PV2"]) {
      expect(html).toContain(`dy="0.35em">${badge}</text>`);
    }
    // The second supervisor is drawn outlined, the first filled.
    const supervisorMarks = html.match(/grade-chart__mark grade-chart__mark--supervisor[^"]*/g) ?? [];
    expect(supervisorMarks.some((c) => c.endsWith("--outlined"))).toBe(true);
    expect(supervisorMarks.some((c) => !c.endsWith("--outlined"))).toBe(true);
  });

  it("labels the rows with the question numbers and the columns with the levels", () => {
    const html = render(props({ questions: questions.map((q, i) => ({ ...q, number: `2.${i + 1}` })) }));
    // Left of the row, and again right of the columns for a reader scrolled sideways.
    expect(html.match(/>2\.1<\/text>/g)).toHaveLength(2);
    expect(html).toContain(`<title>2.1. ${questions[0].label}</title>`);
    expect(html).toContain(">Selvstendig</tspan>");
    expect(html).toContain(">Ikke relevant</tspan>");
  });

  it("renders an empty chart without questions or series", () => {
    const html = render(props({ questions: [], series: [] }));
    expect(marks(html)).toEqual([]);
    expect(html).not.toContain("<ul");
    expect(tagsWith(html, "role", "img")).toHaveLength(1);
  });
});
