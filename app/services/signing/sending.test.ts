import { describe, expect, test } from "vitest";
import {
  acknowledgedForAudit,
  missingParties,
  sendingDecision,
  unsentForms,
  type FormSending,
  type SendingFacts,
} from "./sending";

const form = (formId: number, isMidSemester: boolean, sent: Partial<FormSending["sent"]>): FormSending => ({
  schemeId: isMidSemester ? 1 : 2,
  formId,
  name: `Skjema ${formId}`,
  isMidSemester,
  sent: { student: false, supervisor: false, teacher: false, ...sent },
  teacherAnswers: { answered: 0, questions: 3 },
});

const facts: SendingFacts = {
  hasSupervisor: true,
  forms: [
    form(10, true, { student: true, supervisor: true, teacher: true }),
    form(11, true, { student: true }),
    form(10, false, {}),
  ],
};

describe("forms not sent", () => {
  test("who has not sent a form; the supervisor only when the student has one", () => {
    expect(missingParties(facts.forms[1], true)).toEqual(["supervisor", "teacher"]);
    expect(missingParties(facts.forms[1], false)).toEqual(["teacher"]);
    expect(missingParties(facts.forms[0], true)).toEqual([]);
  });

  test("the mid-semester confirmation looks at its half, the signature at every form", () => {
    expect(unsentForms(facts, "mid").map((f) => [f.formId, f.isMidSemester, f.missing])).toEqual([
      [11, true, ["supervisor", "teacher"]],
    ]);
    expect(unsentForms(facts, "sign").map((f) => [f.formId, f.isMidSemester, f.missing])).toEqual([
      [11, true, ["supervisor", "teacher"]],
      [10, false, ["student", "supervisor", "teacher"]],
    ]);
    expect(unsentForms({ ...facts, forms: [facts.forms[0]] }, "sign")).toEqual([]);
  });

  test("go on when all is sent; otherwise only acknowledged, and never where the institution requires every form sent", () => {
    const unsent = unsentForms(facts, "sign");
    expect(sendingDecision([], { acknowledged: false, requireSentForms: true })).toEqual({ ok: true, unsent: [] });
    expect(sendingDecision(unsent, { acknowledged: false, requireSentForms: false })).toMatchObject({
      ok: false,
      why: "acknowledgeUnsent",
    });
    expect(sendingDecision(unsent, { acknowledged: true, requireSentForms: false })).toMatchObject({ ok: true });
    expect(sendingDecision(unsent, { acknowledged: true, requireSentForms: true })).toMatchObject({
      ok: false,
      why: "formsNotSent",
    });
  });

  test("the audit row keeps ids, the half and who had not sent; no names", () => {
    // The scheme's id under its stored name, as the rows written before the rename have it.
    expect(acknowledgedForAudit(unsentForms(facts, "mid"))).toEqual([
      { formId: 11, assignmentId: 1, half: "mid", missing: ["supervisor", "teacher"] },
    ]);
  });
});
