import { describe, expect, test } from "vitest";
import type { StudentRelation } from "~/services/placements/index.server";
import {
  isComplete,
  normaliseWarning,
  normaliseWarningText,
  sameText,
  visibleState,
  WARNING_ACTIONS,
  WARNING_RELATIONS,
  WARNING_STATES,
  WARNING_TEXT_LIMIT,
  warningDecision,
  warningErrors,
  warningState,
  type WarningAction,
  type WarningDecision,
  type WarningState,
} from "./warnings";

describe("warningState", () => {
  const at = new Date("2026-11-20T10:00:00Z");
  test("none without a row, then draft, given and confirmed by the timestamps", () => {
    expect(warningState(null)).toBe("none");
    expect(warningState(undefined)).toBe("none");
    expect(warningState({ submittedAt: null, studentConfirmedWarningAt: null })).toBe("draft");
    expect(warningState({ submittedAt: at, studentConfirmedWarningAt: null })).toBe("given");
    expect(warningState({ submittedAt: at, studentConfirmedWarningAt: at })).toBe("confirmed");
  });
});

/**
 * Every relation × action × state, written out: "ok", "state" (the relation may, but not in this
 * state) or "—" (never). Rows: none, draft, given, confirmed.
 */
const EXPECTED: Record<StudentRelation, Record<WarningAction, [string, string, string, string]>> = {
  //            none   draft   given   confirmed
  teacher: {
    read: ["state", "ok", "ok", "ok"],
    save: ["ok", "ok", "state", "state"],
    submit: ["ok", "ok", "state", "state"],
    delete: ["state", "ok", "ok", "ok"],
    confirm: ["—", "—", "—", "—"],
  },
  self: {
    read: ["state", "state", "ok", "ok"],
    save: ["—", "—", "—", "—"],
    submit: ["—", "—", "—", "—"],
    delete: ["—", "—", "—", "—"],
    confirm: ["state", "state", "ok", "state"],
  },
  supervisor: {
    read: ["state", "state", "ok", "ok"],
    save: ["—", "—", "—", "—"],
    submit: ["—", "—", "—", "—"],
    delete: ["—", "—", "—", "—"],
    confirm: ["—", "—", "—", "—"],
  },
  extraSupervisor: {
    read: ["state", "state", "ok", "ok"],
    save: ["—", "—", "—", "—"],
    submit: ["—", "—", "—", "—"],
    delete: ["—", "—", "—", "—"],
    confirm: ["—", "—", "—", "—"],
  },
  admin: {
    read: ["state", "state", "ok", "ok"],
    save: ["—", "—", "—", "—"],
    submit: ["—", "—", "—", "—"],
    delete: ["—", "—", "—", "—"],
    confirm: ["—", "—", "—", "—"],
  },
};

const DECISION: Record<string, WarningDecision> = { ok: "ok", state: "wrongState", "—": "notAllowed" };

describe("warningDecision", () => {
  test("the table covers every relation, action and state there is", () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...WARNING_RELATIONS].sort());
    for (const relation of WARNING_RELATIONS)
      expect(Object.keys(EXPECTED[relation]).sort()).toEqual([...WARNING_ACTIONS].sort());
    expect(WARNING_STATES).toEqual(["none", "draft", "given", "confirmed"]);
  });

  const cases = WARNING_RELATIONS.flatMap((relation) =>
    WARNING_ACTIONS.flatMap((action) =>
      WARNING_STATES.map((state, i) => [relation, action, state, DECISION[EXPECTED[relation][action][i]]] as const),
    ),
  );
  test.each(cases)("%s → %s when %s: %s", (relation, action, state, expected) => {
    expect(warningDecision(relation, action, state)).toBe(expected);
  });

  test("supervisors never write, give or delete a warning: they read a given one", () => {
    for (const relation of ["supervisor", "extraSupervisor"] as const) {
      for (const action of ["save", "submit", "delete", "confirm"] as const) {
        for (const state of WARNING_STATES) expect(warningDecision(relation, action, state)).toBe("notAllowed");
      }
    }
  });

  test("a given warning is never changed, by anyone", () => {
    for (const relation of WARNING_RELATIONS) {
      for (const state of ["given", "confirmed"] as const) {
        expect(warningDecision(relation, "save", state)).not.toBe("ok");
        expect(warningDecision(relation, "submit", state)).not.toBe("ok");
      }
    }
  });
});

describe("visibleState", () => {
  test("a draft is the teachers' alone: to everyone else there is no warning", () => {
    const seen = (relation: StudentRelation) =>
      WARNING_STATES.map((state: WarningState) => visibleState(relation, state));
    expect(seen("teacher")).toEqual(["none", "draft", "given", "confirmed"]);
    for (const relation of ["self", "supervisor", "extraSupervisor", "admin"] as const) {
      expect(seen(relation), relation).toEqual(["none", "none", "given", "confirmed"]);
    }
  });
});

describe("texts", () => {
  const full = { comment: "Bekymring", passRequirement: "Krav", passRequirementSummary: "Kort" };

  test("line breaks are kept as \\n; blank is empty; other text is kept as typed", () => {
    expect(normaliseWarningText(" Linje 1\r\nLinje 2\rLinje 3 ")).toBe(" Linje 1\nLinje 2\nLinje 3 ");
    expect(normaliseWarningText(" \r\n\t ")).toBe("");
    expect(normaliseWarningText(undefined)).toBe("");
    expect(normaliseWarningText(null)).toBe("");
    expect(normaliseWarning({ comment: "a\r\nb" })).toEqual({
      comment: "a\nb",
      passRequirement: "",
      passRequirementSummary: "",
    });
  });

  test("a draft may be empty or partly written", () => {
    expect(warningErrors(normaliseWarning({}), "draft")).toEqual({});
    expect(warningErrors({ ...full, passRequirement: "" }, "draft")).toEqual({});
  });

  test("giving the warning needs all three texts; blank is missing", () => {
    expect(warningErrors(full, "submit")).toEqual({});
    expect(warningErrors(normaliseWarning({}), "submit")).toEqual({
      comment: "required",
      passRequirement: "required",
      passRequirementSummary: "required",
    });
    expect(warningErrors({ ...full, passRequirementSummary: "   " }, "submit")).toEqual({
      passRequirementSummary: "required",
    });
  });

  test("each text may have 10 000 characters, not 10 001, counted as characters (an emoji is one)", () => {
    const at = "a".repeat(WARNING_TEXT_LIMIT);
    const over = "a".repeat(WARNING_TEXT_LIMIT + 1);
    const emoji = "🙂".repeat(WARNING_TEXT_LIMIT);
    expect(emoji.length).toBe(2 * WARNING_TEXT_LIMIT);
    for (const purpose of ["draft", "submit"] as const) {
      expect(warningErrors({ ...full, comment: at, passRequirement: emoji }, purpose)).toEqual({});
      expect(warningErrors({ ...full, passRequirementSummary: over }, purpose)).toEqual({
        passRequirementSummary: "tooLong",
      });
      expect(warningErrors({ ...full, comment: `${emoji}🙂` }, purpose)).toEqual({ comment: "tooLong" });
    }
  });

  test("complete when all three are written; the same text is the same in every field", () => {
    expect(isComplete(full)).toBe(true);
    expect(isComplete({ ...full, comment: " " })).toBe(false);
    expect(sameText(full, { ...full })).toBe(true);
    expect(sameText(full, { ...full, passRequirement: "Krav." })).toBe(false);
  });
});
