import { expect, test } from "vitest";
import resources from "~/locales";
import { parseLevelIndex, readScaleQuery, SCALE_ASPECTS, SCALE_LEVELS } from "./independence-scale";

const query = (search: string) => readScaleQuery(new URLSearchParams(search));

test("the scale has five levels in grading order and ten aspects", () => {
  expect(SCALE_LEVELS).toEqual(["independent", "partiallyIndependent", "supervised", "assisted", "dependent"]);
  expect(SCALE_ASPECTS).toHaveLength(10);
  expect(new Set(SCALE_ASPECTS).size).toBe(10);
});

test("the level names are the default grading labels, in the same order", () => {
  expect(SCALE_LEVELS.map((level) => resources.nb.scale.levels[level])).toEqual([
    "Selvstendig",
    "Delvis selvstendig",
    "Veiledet",
    "Assistert",
    "Uselvstendig",
  ]);
});

test.each(["nb", "en"] as const)("every level has a statement for every aspect in %s, and nothing more", (language) => {
  const { statements, aspects } = resources[language].scale;
  expect(Object.keys(statements).sort()).toEqual([...SCALE_LEVELS].sort());
  expect(Object.keys(aspects).sort()).toEqual([...SCALE_ASPECTS].sort());
  for (const level of SCALE_LEVELS) {
    expect(Object.keys(statements[level]).sort(), level).toEqual([...SCALE_ASPECTS].sort());
  }
});

test("a level index is a single digit from 0 to 4", () => {
  expect(["0", "1", "2", "3", "4"].map(parseLevelIndex)).toEqual([0, 1, 2, 3, 4]);
  for (const bad of [null, "", "5", "9", "-1", "01", "1.0", " 1", "1e0", "0x1", "a", "Selvstendig"]) {
    expect(parseLevelIndex(bad), String(bad)).toBeNull();
  }
});

test("without a query the first and second levels are compared and the close link leads home", () => {
  expect(query("")).toEqual({ first: 0, second: 1, back: null });
});

test("the chosen levels are read from a and b", () => {
  expect(query("a=2&b=4")).toEqual({ first: 2, second: 4, back: null });
  expect(query("a=4&b=0")).toEqual({ first: 4, second: 0, back: null });
});

test("an invalid level falls back to its default, each on its own", () => {
  expect(query("a=5&b=3")).toEqual({ first: 0, second: 3, back: null });
  expect(query("a=2&b=x")).toEqual({ first: 2, second: 1, back: null });
  expect(query("a=&b=%00")).toEqual({ first: 0, second: 1, back: null });
  expect(query("a=99999999999999999999&b=-0")).toEqual({ first: 0, second: 1, back: null });
});

test("the same level twice is kept, as a step on the way to another choice", () => {
  expect(query("a=1&b=1")).toEqual({ first: 1, second: 1, back: null });
});

test("back is kept only when it is a path on this site", () => {
  expect(query("back=/student/forms?x=1").back).toBe("/student/forms?x=1");
  expect(query(`back=${encodeURIComponent("https://evil.example/")}`).back).toBeNull();
  expect(query("back=//evil.example").back).toBeNull();
  expect(query(`back=${encodeURIComponent("/\\evil.example")}`).back).toBeNull();
  expect(query("back=javascript:alert(1)").back).toBeNull();
  expect(query("back=").back).toBeNull();
});
