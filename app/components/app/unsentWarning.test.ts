import { describe, expect, it } from "vitest";
import { foreignKeys, unsentKey, userOfKey } from "./unsentAnswers";
import { parseUnsentWarning, unsentWarningKey } from "./unsentWarning";

describe("a kept warning draft (ADR 0011)", () => {
  it("is keyed by the teacher, the class and the student, so logout and another user's page clear it", () => {
    const key = unsentWarningKey("7", "3", "42");
    expect(userOfKey(key)).toBe("7");
    expect(unsentWarningKey("8", "3", "42")).not.toBe(key);
    expect(unsentWarningKey("7", "3", "43")).not.toBe(key);
    // Never the same entry as a form's kept answers.
    expect(key).not.toBe(unsentKey("7", { classId: "3", formId: "warning", assignmentId: "42" }));
    expect(foreignKeys([key, unsentWarningKey("9", "3", "42")], "7")).toEqual([unsentWarningKey("9", "3", "42")]);
  });

  it("reads back the three texts and the warning it continued, and nothing malformed", () => {
    const entry = { warningId: "12", texts: { comment: "Kommer sent", passRequirement: "Møte presis", passRequirementSummary: "" }, at: 1000 };
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
