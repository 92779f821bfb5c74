import { describe, expect, it } from "vitest";
import { placeOf } from "./unsentAnswers";
import { parseUnsentWarning, unsentWarningName } from "./unsentWarning";

describe("a kept warning draft (ADR 0011)", () => {
  it("is named by the class and the student (inside the teacher's seal), never as a form's answers", () => {
    const name = unsentWarningName("3", "42");
    expect(unsentWarningName("3", "43")).not.toBe(name);
    expect(unsentWarningName("4", "42")).not.toBe(name);
    expect(name).not.toBe(placeOf({ classId: "3", formId: "warning", schemeId: "42" }));
  });

  it("reads back the three texts and the warning it continued, and nothing malformed", () => {
    const entry = {
      warningId: "12",
      texts: { comment: "Kommer sent", passRequirement: "Møte presis", passRequirementSummary: "" },
      at: 1000,
    };
    expect(parseUnsentWarning(JSON.stringify(entry))).toEqual(entry);
    expect(parseUnsentWarning(JSON.stringify({ ...entry, warningId: "" }))?.warningId).toBe("");
    expect(parseUnsentWarning(null)).toBeNull();
    expect(parseUnsentWarning("not json")).toBeNull();
    expect(parseUnsentWarning("null")).toBeNull();
    expect(parseUnsentWarning(JSON.stringify({ ...entry, warningId: 12 }))).toBeNull();
    expect(parseUnsentWarning(JSON.stringify({ ...entry, texts: { comment: "x" } }))).toBeNull();
    expect(parseUnsentWarning(JSON.stringify({ ...entry, at: "now" }))).toBeNull();
  });
});
