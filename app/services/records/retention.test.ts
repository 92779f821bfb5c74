import { describe, expect, test } from "vitest";
import { institutions, institutionSchema, retentionSchema } from "~/services/platform/institution.server";
import { ALLOWED, DEFAULT_RULES, RECORD_KINDS, keptUntil, retentionRules, ruleProblems } from "./retention";

const example = Object.values(institutions)[0]!;

describe("the records schedule's rules", () => {
  test("without a retention section every kind takes its default", () => {
    expect(retentionRules({ retention: undefined })).toEqual(DEFAULT_RULES);
    expect(retentionRules({}).map((r) => r.kind)).toEqual([...RECORD_KINDS]);
  });

  test("the file's rule wins for its kind; a field it leaves out is the default's", () => {
    const rules = retentionRules({ retention: { answers: { keepDays: 90 }, codes: { keepDays: 0, from: "created" } } });
    expect(rules.find((r) => r.kind === "answers")).toEqual({
      kind: "answers",
      keepDays: 90,
      from: "classEnd",
      action: "delete",
    });
    expect(rules.find((r) => r.kind === "codes")?.keepDays).toBe(0);
    expect(rules.find((r) => r.kind === "people")).toEqual(DEFAULT_RULES.find((r) => r.kind === "people"));
  });

  test("an example's section is read: Nordlys keeps class records 90 days after the class's end, the rest by default", () => {
    const rules = retentionRules(institutions.nordlys);
    expect(rules.find((r) => r.kind === "answers")).toEqual({
      kind: "answers",
      keepDays: 90,
      from: "classEnd",
      action: "delete",
    });
    expect(rules.find((r) => r.kind === "invitations")?.keepDays).toBe(30);
    expect(rules.find((r) => r.kind === "auditEvents")).toEqual(DEFAULT_RULES.find((r) => r.kind === "auditEvents"));
    expect(retentionRules(institutions.fjordbyen)).toEqual(DEFAULT_RULES);
  });

  test("the defaults are rules the file could hold", () => {
    for (const rule of DEFAULT_RULES) expect(ruleProblems(rule)).toEqual([]);
  });

  test("the file's schema allows exactly the events and actions of ALLOWED, per kind", () => {
    for (const kind of RECORD_KINDS) {
      for (const from of ["classEnd", "lastLogIn", "created"] as const)
        expect(retentionSchema.safeParse({ [kind]: { keepDays: 1, from } }).success, `${kind} from ${from}`).toBe(
          ALLOWED[kind].from.includes(from),
        );
      for (const action of ["delete", "anonymise"] as const)
        expect(retentionSchema.safeParse({ [kind]: { keepDays: 1, action } }).success, `${kind} ${action}`).toBe(
          ALLOWED[kind].action.includes(action),
        );
    }
  });

  test("the file refuses negative or broken days, an unknown kind, an unknown field, naming the field", () => {
    const refused = (retention: unknown) => {
      const parsed = institutionSchema.safeParse({ ...example, retention });
      return parsed.success ? [] : parsed.error.issues.map((issue) => issue.path.join("."));
    };
    expect(refused({ answers: { keepDays: -1 } })).toEqual(["retention.answers.keepDays"]);
    expect(refused({ answers: { keepDays: 1.5 } })).toEqual(["retention.answers.keepDays"]);
    expect(refused({ answers: {} })).toEqual(["retention.answers.keepDays"]);
    expect(refused({ codes: { keepDays: 1, from: "classEnd" } })).toEqual(["retention.codes.from"]);
    expect(refused({ people: { keepDays: 1, action: "delete" } })).toEqual(["retention.people.action"]);
    expect(refused({ answer: { keepDays: 1 } })).toEqual(["retention"]);
    expect(refused({ answers: { keepDays: 1, days: 2 } })).toEqual(["retention.answers"]);
    expect(refused({ answers: { keepDays: 0 } })).toEqual([]);
  });

  test("a period counted from a class's end date runs to the day keepDays later", () => {
    expect(keptUntil({ keepDays: 365 }, "2025-06-20")).toBe("2026-06-20");
    expect(keptUntil({ keepDays: 0 }, new Date("2026-01-01T10:00:00Z"))).toBe("2026-01-01");
  });
});
