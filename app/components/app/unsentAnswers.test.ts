import { describe, expect, it } from "vitest";
import { forgetUnsent, keepUnsent, parseUnsent, placeOf, planRestore } from "./unsentAnswers";

const place = { classId: "3", formId: "1", schemeId: "7", studentUserId: "42" };

describe("kept answers (ADR 0011)", () => {
  // Whose they are is the sealing key's business (unsentStore.test.ts): an entry names its answer set and question only inside the seal.
  it("name their answer set: class, form, scheme and student", () => {
    expect(placeOf(place)).toBe("3:1:7:42");
    expect(placeOf({ ...place, schemeId: "8" })).not.toBe(placeOf(place));
    // The admin's expected levels have no student.
    expect(placeOf({ classId: "3", formId: "1", schemeId: "7" })).toBe("3:1:7:-");
  });

  it("read back what was kept, and nothing malformed", () => {
    const kept = keepUnsent({}, { "5": { base: "t5", value: "2", comment: "Bra" } }, 1000);
    expect(parseUnsent(JSON.stringify(kept))).toEqual({ "5": { base: "t5", value: "2", comment: "Bra", at: 1000 } });
    expect(parseUnsent(null)).toEqual({});
    expect(parseUnsent("not json")).toEqual({});
    expect(parseUnsent("[1,2]")).toEqual({});
    expect(parseUnsent(JSON.stringify({ x: { base: "", value: "", comment: "", at: 1 } }))).toEqual({});
    expect(parseUnsent(JSON.stringify({ "5": { base: "t", value: 2, comment: "", at: 1 } }))).toEqual({});
  });

  it("keep the newest typing per question and forget what reached the server", () => {
    let kept = keepUnsent(
      {},
      { "5": { base: "t5", value: "1", comment: "" }, "6": { base: "t6", value: "3", comment: "" } },
      1000,
    );
    kept = keepUnsent(kept, { "5": { base: "t5", value: "2", comment: "Mer" } }, 2000);
    expect(kept["5"]).toEqual({ base: "t5", value: "2", comment: "Mer", at: 2000 });
    expect(kept["6"].at).toBe(1000);
    expect(forgetUnsent(kept, ["5"])).toEqual({ "6": kept["6"] });
    expect(forgetUnsent(kept, ["5", "6"])).toEqual({});
  });

  it("on load: put back what the page does not show, drop what it does, leave other pages' questions kept", () => {
    const kept = keepUnsent(
      {},
      {
        // Not saved: the page shows the stored answer, not the typed one.
        "5": { base: "t5", value: "2", comment: "" },
        // The save did arrive after all: the page shows it.
        "6": { base: "t6", value: "3", comment: "Ok" },
        // On another page of the form.
        "9": { base: "t9", value: "1", comment: "" },
      },
      1000,
    );
    const { restore, drop } = planRestore(kept, {
      "5": { value: "4", comment: "" },
      "6": { value: "3", comment: "Ok" },
    });
    // Put back with the base it started from: the server decides (a change made elsewhere meanwhile is a conflict, ADR 0007).
    expect(restore).toEqual([{ id: "5", base: "t5", value: "2", comment: "", at: 1000 }]);
    expect(drop).toEqual(["6"]);
  });

  it("on load: a comment alone differing is put back too", () => {
    const kept = keepUnsent({}, { "5": { base: "t5", value: "2", comment: "Ny kommentar" } }, 1);
    expect(planRestore(kept, { "5": { value: "2", comment: "" } }).restore.map((r) => r.id)).toEqual(["5"]);
  });
});
