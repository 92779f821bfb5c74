import { describe, expect, test } from "vitest";
import { chosenSupervisor, supervisorChoices } from "./supervisor-choices";

const person = (userId: number) => ({ userId, displayName: `Person ${userId}`, email: `p${userId}@example.no` });
const [ann, bo, cai, dag] = [person(1), person(2), person(3), person(4)];

describe("supervisorChoices: the teacher's lists of a student's supervisors", () => {
  test("no supervisor yet: every supervisor of the class, for either list", () => {
    expect(supervisorChoices({ supervisor: null, extraSupervisors: [] }, [ann, bo])).toEqual({
      supervisorChoices: [ann, bo],
      extraCandidates: [ann, bo],
      classHasSupervisors: true,
    });
  });

  test("the assigned and the extra supervisors are no candidates to add as extra", () => {
    const lists = supervisorChoices({ supervisor: ann, extraSupervisors: [bo] }, [ann, bo, cai]);
    expect(lists.supervisorChoices).toEqual([ann, bo, cai]);
    expect(lists.extraCandidates).toEqual([cai]);
  });

  test("an assigned supervisor not attached to the class (invited) stays choosable, first", () => {
    const lists = supervisorChoices({ supervisor: dag, extraSupervisors: [] }, [ann, bo]);
    expect(lists.supervisorChoices).toEqual([dag, ann, bo]);
    expect(lists.extraCandidates).toEqual([ann, bo]);
  });

  test("a class without supervisors: only the current one, and nobody to add", () => {
    expect(supervisorChoices({ supervisor: dag, extraSupervisors: [] }, [])).toEqual({
      supervisorChoices: [dag],
      extraCandidates: [],
      classHasSupervisors: false,
    });
    expect(supervisorChoices({ supervisor: null, extraSupervisors: [] }, []).supervisorChoices).toEqual([]);
  });
});

describe("chosenSupervisor: the assigned supervisor a post chooses", () => {
  test.each([
    ["none", { ok: true, supervisorUserId: null }],
    ["42", { ok: true, supervisorUserId: 42 }],
    ["0", { ok: false, error: "notClassSupervisor" }],
    ["2147483648", { ok: false, error: "notClassSupervisor" }],
    ["", { ok: false, error: "notClassSupervisor" }],
    ["4x", { ok: false, error: "notClassSupervisor" }],
  ])("%j", (posted, chosen) => {
    expect(chosenSupervisor(posted)).toEqual(chosen);
  });
});
