import { describe, expect, test } from "vitest";
import type { StudentRelation } from "~/services/placements/index.server";
import {
  cardState,
  factsOf,
  INTENTS,
  mayAttempt,
  planCancel,
  planEndSave,
  planMidSave,
  planResultSubmission,
  planSign,
  rightsOf,
  type EndPartInput,
  type MidPartInput,
  type StoredSigningForm,
} from "./signing-form";
import { choiceOf, isCalendarDate, overallPassed } from "./questions";
import { endPartSchema, midPartSchema, signSchema } from "./signing-form.schema";

const TODAY = "2026-11-22";
const NOW = new Date("2026-11-22T12:00:00Z");
const EARLIER = new Date("2026-11-20T12:00:00Z");
const TEACHER = 101;
const COLLEAGUE = 102;
const STUDENT = 201;
const SUPERVISOR = 301;

const empty: StoredSigningForm = {
  id: 7,
  attendancePassed: null,
  workRequirementsPassed: null,
  specificCompetenceAreasPassed: null,
  generalCompetenceAreasPassed: null,
  teacherComment: null,
  overallPassed: null,
  isLocked: false,
  midSemesterCompletedDate: null,
  endSemesterCompletedDate: null,
  midSemesterSpecificCompetenceAreasBegun: null,
  midSemesterStudentHasGivenFeedback: null,
  signedByTeacherUserId: null,
  signedByTeacherDate: null,
  signedByStudentUserId: null,
  signedByStudentDate: null,
  signedBySupervisorUserId: null,
  signedBySupervisorDate: null,
  signWithoutSupervisorConfirmedDate: null,
  resultSubmittedAt: null,
};

const midConfirmed: StoredSigningForm = {
  ...empty,
  midSemesterCompletedDate: "2026-10-01",
  midSemesterSpecificCompetenceAreasBegun: true,
  midSemesterStudentHasGivenFeedback: null,
};
const endSaved: StoredSigningForm = {
  ...midConfirmed,
  attendancePassed: true,
  workRequirementsPassed: null,
  specificCompetenceAreasPassed: true,
  generalCompetenceAreasPassed: true,
  overallPassed: true,
  endSemesterCompletedDate: "2026-11-20",
};
const studentSigned: StoredSigningForm = { ...endSaved, signedByStudentUserId: STUDENT, signedByStudentDate: EARLIER };
const supervisorSigned: StoredSigningForm = {
  ...endSaved,
  signedBySupervisorUserId: SUPERVISOR,
  signedBySupervisorDate: EARLIER,
};
const bothSigned: StoredSigningForm = {
  ...studentSigned,
  signedBySupervisorUserId: SUPERVISOR,
  signedBySupervisorDate: EARLIER,
};
const allSigned: StoredSigningForm = {
  ...bothSigned,
  signedByTeacherUserId: TEACHER,
  signedByTeacherDate: EARLIER,
  isLocked: true,
};
const withoutSupervisor: StoredSigningForm = {
  ...studentSigned,
  signedByTeacherUserId: TEACHER,
  signedByTeacherDate: EARLIER,
  signWithoutSupervisorConfirmedDate: EARLIER,
  isLocked: true,
};
const submitted: StoredSigningForm = { ...allSigned, resultSubmittedAt: NOW };
/** An end part saved without the results signing needs (older data; a save today always has them). */
const resultsMissing: StoredSigningForm = { ...endSaved, generalCompetenceAreasPassed: null };

const STATES = {
  notCreated: null,
  started: empty,
  midConfirmed,
  endSaved,
  resultsMissing,
  studentSigned,
  supervisorSigned,
  bothSigned,
  allSigned,
  withoutSupervisor,
  submitted,
} satisfies Record<string, StoredSigningForm | null>;
type StateName = keyof typeof STATES;
const STATE_NAMES = Object.keys(STATES) as StateName[];

const RELATIONS: (StudentRelation | null)[] = ["teacher", "self", "supervisor", "extraSupervisor", "admin", null];
const NOT_TEACHER = RELATIONS.filter((r) => r !== "teacher");

const midInput: MidPartInput = {
  midSemesterSpecificCompetenceAreasBegun: "yes",
  midSemesterStudentHasGivenFeedback: "notRelevant",
  midSemesterCompletedDate: "2026-10-01",
};
const endInput: EndPartInput = {
  attendancePassed: "yes",
  workRequirementsPassed: "notRelevant",
  specificCompetenceAreasPassed: "yes",
  generalCompetenceAreasPassed: "no",
  teacherComment: "  Godt arbeid.  ",
  endSemesterCompletedDate: "2026-11-21",
};

/** The outcome as one word: "ok", "notAllowed", a state refusal, or "invalid:<field>:<error>". */
function outcome(
  result:
    { ok: true } | { ok: false; error: string; reason?: string; fieldErrors?: Record<string, string | undefined> },
): string {
  if (result.ok) return "ok";
  if (result.error === "state") return result.reason!;
  if (result.error === "invalid")
    return `invalid:${Object.entries(result.fieldErrors!)
      .map(([f, e]) => `${f}:${e}`)
      .join(",")}`;
  return result.error;
}

const userOf = (relation: StudentRelation | null) =>
  relation === "teacher" ? TEACHER : relation === "self" ? STUDENT : SUPERVISOR;

describe("each role trying each action in each state", () => {
  // The teacher's column, state by state. Every other relation is refused every teacher action.
  const teacherExpected: Record<StateName, { saveMid: string; saveEnd: string; cancel: string; submitResult: string }> =
    {
      notCreated: { saveMid: "ok", saveEnd: "notCreated", cancel: "notCreated", submitResult: "notCreated" },
      started: { saveMid: "ok", saveEnd: "midNotConfirmed", cancel: "ok", submitResult: "notAllSigned" },
      midConfirmed: { saveMid: "midConfirmed", saveEnd: "ok", cancel: "ok", submitResult: "notAllSigned" },
      endSaved: { saveMid: "midConfirmed", saveEnd: "ok", cancel: "ok", submitResult: "notAllSigned" },
      resultsMissing: { saveMid: "midConfirmed", saveEnd: "ok", cancel: "ok", submitResult: "notAllSigned" },
      studentSigned: { saveMid: "midConfirmed", saveEnd: "endFrozen", cancel: "ok", submitResult: "notAllSigned" },
      supervisorSigned: { saveMid: "midConfirmed", saveEnd: "endFrozen", cancel: "ok", submitResult: "notAllSigned" },
      bothSigned: { saveMid: "midConfirmed", saveEnd: "endFrozen", cancel: "ok", submitResult: "notAllSigned" },
      allSigned: { saveMid: "locked", saveEnd: "locked", cancel: "ok", submitResult: "ok" },
      withoutSupervisor: { saveMid: "locked", saveEnd: "locked", cancel: "ok", submitResult: "ok" },
      submitted: { saveMid: "locked", saveEnd: "locked", cancel: "ok", submitResult: "alreadySubmitted" },
    };

  test.each(STATE_NAMES)("teacher actions in state %s", (name) => {
    const form = STATES[name];
    expect({
      saveMid: outcome(planMidSave(form, "teacher", midInput, TODAY)),
      saveEnd: outcome(planEndSave(form, "teacher", endInput, TODAY)),
      cancel: outcome(planCancel(form, "teacher")),
      submitResult: outcome(planResultSubmission(form, "teacher")),
    }).toEqual(teacherExpected[name]);
  });

  test.each(STATE_NAMES.flatMap((name) => NOT_TEACHER.map((relation) => [name, relation] as const)))(
    "in state %s, %s may not save, cancel or submit",
    (name, relation) => {
      const form = STATES[name];
      expect([
        outcome(planMidSave(form, relation, midInput, TODAY)),
        outcome(planEndSave(form, relation, endInput, TODAY)),
        outcome(planCancel(form, relation)),
        outcome(planResultSubmission(form, relation)),
      ]).toEqual(["notAllowed", "notAllowed", "notAllowed", "notAllowed"]);
    },
  );

  // Signing, per state: the teacher (with the confirmation ticked), the student, the assigned supervisor.
  const signExpected: Record<StateName, { teacher: string; self: string; supervisor: string }> = {
    notCreated: { teacher: "notCreated", self: "notCreated", supervisor: "notCreated" },
    started: { teacher: "endNotSaved", self: "endNotSaved", supervisor: "endNotSaved" },
    midConfirmed: { teacher: "endNotSaved", self: "endNotSaved", supervisor: "endNotSaved" },
    endSaved: { teacher: "studentNotSigned", self: "ok", supervisor: "ok" },
    resultsMissing: { teacher: "resultsMissing", self: "resultsMissing", supervisor: "resultsMissing" },
    studentSigned: { teacher: "ok", self: "alreadySigned", supervisor: "ok" },
    supervisorSigned: { teacher: "studentNotSigned", self: "ok", supervisor: "alreadySigned" },
    bothSigned: { teacher: "ok", self: "alreadySigned", supervisor: "alreadySigned" },
    allSigned: { teacher: "alreadySigned", self: "alreadySigned", supervisor: "alreadySigned" },
    withoutSupervisor: { teacher: "alreadySigned", self: "alreadySigned", supervisor: "locked" },
    submitted: { teacher: "alreadySigned", self: "alreadySigned", supervisor: "alreadySigned" },
  };

  test.each(STATE_NAMES)("signing in state %s", (name) => {
    const form = STATES[name];
    const sign = (relation: StudentRelation) =>
      outcome(planSign(form, relation, userOf(relation), { withoutSupervisor: true }, NOW));
    expect({ teacher: sign("teacher"), self: sign("self"), supervisor: sign("supervisor") }).toEqual(
      signExpected[name],
    );
    for (const other of ["extraSupervisor", "admin", null] as const) {
      expect(outcome(planSign(form, other, SUPERVISOR, { withoutSupervisor: true }, NOW))).toBe("notAllowed");
    }
  });

  test.each(RELATIONS)("what %s may attempt at all is what no state refuses as not allowed", (relation) => {
    const plans = {
      saveMid: (form: StoredSigningForm | null) => planMidSave(form, relation, midInput, TODAY),
      saveEnd: (form: StoredSigningForm | null) => planEndSave(form, relation, endInput, TODAY),
      sign: (form: StoredSigningForm | null) =>
        planSign(form, relation, userOf(relation), { withoutSupervisor: true }, NOW),
      cancel: (form: StoredSigningForm | null) => planCancel(form, relation),
      submitResult: (form: StoredSigningForm | null) => planResultSubmission(form, relation),
    };
    const expected = {
      teacher: ["saveMid", "saveEnd", "sign", "cancel", "submitResult"],
      self: ["sign"],
      supervisor: ["sign"],
      extraSupervisor: [],
      admin: [],
      null: [],
    }[String(relation)];
    expect(INTENTS.filter((intent) => mayAttempt(intent, relation))).toEqual(expected);
    for (const intent of INTENTS) {
      const refusedEverywhere = Object.values(STATES).every((form) => outcome(plans[intent](form)) === "notAllowed");
      expect(refusedEverywhere).toBe(!mayAttempt(intent, relation));
    }
  });

  test.each(STATE_NAMES.flatMap((name) => RELATIONS.map((relation) => [name, relation] as const)))(
    "in state %s the page offers %s exactly what the plans allow",
    (name, relation) => {
      const form = STATES[name];
      const rights = rightsOf(form, relation, userOf(relation));
      expect(rights.saveMid).toBe(planMidSave(form, relation, midInput, TODAY).ok);
      expect(rights.saveEnd).toBe(planEndSave(form, relation, endInput, TODAY).ok);
      expect(rights.cancel).toBe(planCancel(form, relation).ok);
      expect(rights.submitResult).toBe(planResultSubmission(form, relation).ok);
      expect(rights.sign).toBe(planSign(form, relation, userOf(relation), { withoutSupervisor: true }, NOW).ok);
      expect(rights.create).toBe(relation === "teacher" && form === null);
    },
  );
});

describe("the mid-semester part", () => {
  test("the first save creates the form and confirms the part; 'Ikke relevant' is stored as null", () => {
    expect(planMidSave(null, "teacher", midInput, TODAY)).toEqual({
      ok: true,
      creates: true,
      changes: {
        midSemesterSpecificCompetenceAreasBegun: true,
        midSemesterStudentHasGivenFeedback: null,
        midSemesterCompletedDate: "2026-10-01",
      },
    });
    expect(
      planMidSave(empty, "teacher", { ...midInput, midSemesterSpecificCompetenceAreasBegun: "no" }, TODAY),
    ).toMatchObject({
      ok: true,
      creates: false,
      changes: { midSemesterSpecificCompetenceAreasBegun: false },
    });
  });

  test("the date may be today but not later", () => {
    expect(planMidSave(null, "teacher", { ...midInput, midSemesterCompletedDate: TODAY }, TODAY).ok).toBe(true);
    expect(outcome(planMidSave(null, "teacher", { ...midInput, midSemesterCompletedDate: "2026-11-23" }, TODAY))).toBe(
      "invalid:midSemesterCompletedDate:dateInFuture",
    );
  });

  test("once confirmed the part is locked and the end part opens", () => {
    expect(rightsOf(null, "teacher", TEACHER)).toMatchObject({ create: true, saveMid: true, saveEnd: false });
    expect(rightsOf(midConfirmed, "teacher", TEACHER)).toMatchObject({ create: false, saveMid: false, saveEnd: true });
  });
});

describe("the end-semester part", () => {
  test("a save stores the answers, the trimmed comment, the derived result and the date", () => {
    expect(planEndSave(midConfirmed, "teacher", endInput, TODAY)).toEqual({
      ok: true,
      changes: {
        attendancePassed: true,
        workRequirementsPassed: null,
        specificCompetenceAreasPassed: true,
        generalCompetenceAreasPassed: false,
        teacherComment: "Godt arbeid.",
        overallPassed: false,
        endSemesterCompletedDate: "2026-11-21",
      },
    });
  });

  test("without a date the end date is today; an empty comment is none", () => {
    const plan = planEndSave(
      midConfirmed,
      "teacher",
      { ...endInput, endSemesterCompletedDate: undefined, teacherComment: "   " },
      TODAY,
    );
    expect(plan).toMatchObject({ ok: true, changes: { endSemesterCompletedDate: TODAY, teacherComment: null } });
  });

  test("the date may be neither after today nor before the mid-semester date", () => {
    expect(
      outcome(planEndSave(midConfirmed, "teacher", { ...endInput, endSemesterCompletedDate: "2026-11-23" }, TODAY)),
    ).toBe("invalid:endSemesterCompletedDate:dateInFuture");
    expect(
      outcome(planEndSave(midConfirmed, "teacher", { ...endInput, endSemesterCompletedDate: "2026-09-30" }, TODAY)),
    ).toBe("invalid:endSemesterCompletedDate:endBeforeMid");
    expect(
      planEndSave(midConfirmed, "teacher", { ...endInput, endSemesterCompletedDate: "2026-10-01" }, TODAY).ok,
    ).toBe(true);
  });

  test("passed overall only when attendance, work requirements (or not relevant) and both competence results are passed", () => {
    const all = {
      attendancePassed: "yes",
      workRequirementsPassed: "yes",
      specificCompetenceAreasPassed: "yes",
      generalCompetenceAreasPassed: "yes",
    } as const;
    expect(overallPassed(all)).toBe(true);
    expect(overallPassed({ ...all, workRequirementsPassed: "notRelevant" })).toBe(true);
    for (const question of Object.keys(all) as (keyof typeof all)[]) {
      expect(overallPassed({ ...all, [question]: "no" })).toBe(false);
    }
  });
});

describe("signing", () => {
  test("the student's signature records who and when, and does not lock the form", () => {
    expect(planSign(endSaved, "self", STUDENT, { withoutSupervisor: false }, NOW)).toEqual({
      ok: true,
      signer: "student",
      changes: { signedByStudentUserId: STUDENT, signedByStudentDate: NOW },
      withoutSupervisor: false,
      allSigned: false,
    });
    expect(planSign(endSaved, "supervisor", SUPERVISOR, { withoutSupervisor: false }, NOW)).toMatchObject({
      ok: true,
      signer: "supervisor",
      changes: { signedBySupervisorUserId: SUPERVISOR, signedBySupervisorDate: NOW },
    });
  });

  test("the teacher's signature after both others completes and locks the form; no confirmation is recorded", () => {
    expect(planSign(bothSigned, "teacher", COLLEAGUE, { withoutSupervisor: true }, NOW)).toEqual({
      ok: true,
      signer: "teacher",
      changes: { signedByTeacherUserId: COLLEAGUE, signedByTeacherDate: NOW, isLocked: true },
      withoutSupervisor: false,
      allSigned: true,
    });
  });

  test("without the supervisor the teacher must confirm it, and the confirmation's date is recorded", () => {
    expect(outcome(planSign(studentSigned, "teacher", TEACHER, { withoutSupervisor: false }, NOW))).toBe(
      "invalid:signWithoutSupervisorConfirmed:confirmWithoutSupervisor",
    );
    expect(planSign(studentSigned, "teacher", TEACHER, { withoutSupervisor: true }, NOW)).toEqual({
      ok: true,
      signer: "teacher",
      changes: {
        signedByTeacherUserId: TEACHER,
        signedByTeacherDate: NOW,
        signWithoutSupervisorConfirmedDate: NOW,
        isLocked: true,
      },
      withoutSupervisor: true,
      allSigned: true,
    });
    expect(rightsOf(studentSigned, "teacher", TEACHER).confirmWithoutSupervisor).toBe(true);
    expect(rightsOf(bothSigned, "teacher", TEACHER).confirmWithoutSupervisor).toBe(false);
    expect(rightsOf(endSaved, "teacher", TEACHER).confirmWithoutSupervisor).toBe(false);
  });

  test("banners: 'you have signed' for the one who signed, 'signed by all' for everyone once complete", () => {
    expect(rightsOf(studentSigned, "self", STUDENT).banner).toBe("youHaveSigned");
    expect(rightsOf(studentSigned, "supervisor", SUPERVISOR).banner).toBeNull();
    expect(rightsOf(studentSigned, "teacher", TEACHER).banner).toBeNull();
    // A colleague signed for the teacher's side: this teacher did not.
    expect(
      rightsOf({ ...bothSigned, signedByTeacherUserId: COLLEAGUE, signedByTeacherDate: EARLIER }, "teacher", TEACHER)
        .banner,
    ).toBe("signedByAll");
    expect(
      rightsOf(
        { ...studentSigned, signedBySupervisorUserId: COLLEAGUE, signedBySupervisorDate: EARLIER },
        "supervisor",
        SUPERVISOR,
      ).banner,
    ).toBeNull();
    for (const relation of RELATIONS) {
      expect(rightsOf(allSigned, relation, userOf(relation)).banner).toBe("signedByAll");
      expect(rightsOf(withoutSupervisor, relation, userOf(relation)).banner).toBe("signedByAll");
    }
  });

  test("why a signer waits is told, and nothing is told to those who do not sign", () => {
    expect(rightsOf(midConfirmed, "self", STUDENT)).toMatchObject({
      signAs: "student",
      sign: false,
      signBlocked: "endNotSaved",
    });
    expect(rightsOf(endSaved, "teacher", TEACHER)).toMatchObject({
      signAs: "teacher",
      sign: false,
      signBlocked: "studentNotSigned",
    });
    expect(rightsOf(endSaved, "supervisor", SUPERVISOR)).toMatchObject({
      signAs: "supervisor",
      sign: true,
      signBlocked: null,
    });
    expect(rightsOf(endSaved, "extraSupervisor", SUPERVISOR)).toMatchObject({
      signAs: null,
      sign: false,
      signBlocked: null,
    });
  });
});

describe("facts and the card", () => {
  test("locked when all have signed, even if the flag was not stored; the flag alone also locks", () => {
    expect(factsOf({ ...allSigned, isLocked: false }).locked).toBe(true);
    expect(factsOf({ ...endSaved, isLocked: true }).locked).toBe(true);
    expect(factsOf(bothSigned).locked).toBe(false);
  });

  test.each([
    ["notCreated", null, []],
    ["started", empty, []],
    ["midConfirmed", midConfirmed, []],
    ["endSaved", endSaved, []],
    ["partlySigned", studentSigned, ["student"]],
    ["partlySigned", bothSigned, ["student", "supervisor"]],
    ["signed", allSigned, ["student", "supervisor", "teacher"]],
    ["signed", withoutSupervisor, ["student", "teacher"]],
    ["submitted", submitted, ["student", "supervisor", "teacher"]],
  ] as const)("card state %s", (state, form, signedBy) => {
    expect(cardState(form)).toEqual({ state, signedBy });
  });
});

describe("answers and what is posted", () => {
  test("null is 'Ikke relevant' once the part is saved, where the question allows it; else unanswered", () => {
    expect(choiceOf("workRequirementsPassed", null, true)).toBe("notRelevant");
    expect(choiceOf("workRequirementsPassed", null, false)).toBeNull();
    expect(choiceOf("attendancePassed", null, true)).toBeNull();
    expect(choiceOf("midSemesterStudentHasGivenFeedback", null, true)).toBe("notRelevant");
    expect(choiceOf("attendancePassed", true, false)).toBe("yes");
    expect(choiceOf("generalCompetenceAreasPassed", false, true)).toBe("no");
  });

  test("calendar dates only", () => {
    expect(isCalendarDate("2026-02-28")).toBe(true);
    expect(isCalendarDate("2026-02-30")).toBe(false);
    expect(isCalendarDate("2026-2-3")).toBe(false);
    expect(isCalendarDate("i dag")).toBe(false);
  });

  test("the mid part needs both answers and a date; 'Ikke relevant' is a choice there", () => {
    const parsed = midPartSchema.safeParse({
      intent: "saveMid",
      midSemesterSpecificCompetenceAreasBegun: "notRelevant",
      midSemesterStudentHasGivenFeedback: "yes",
      midSemesterCompletedDate: " 2026-10-01 ",
    });
    expect(parsed.success && parsed.data.midSemesterCompletedDate).toBe("2026-10-01");
    const missing = midPartSchema.safeParse({ intent: "saveMid", midSemesterCompletedDate: "2026-13-01" });
    expect(missing.success).toBe(false);
    expect(Object.fromEntries(missing.error!.issues.map((i) => [i.path.join("."), i.message]))).toEqual({
      midSemesterSpecificCompetenceAreasBegun: "signing:errors.required.midSemesterSpecificCompetenceAreasBegun",
      midSemesterStudentHasGivenFeedback: "signing:errors.required.midSemesterStudentHasGivenFeedback",
      midSemesterCompletedDate: "signing:errors.dateInvalid",
    });
  });

  test("the end part: attendance and the competence results are yes or no; work requirements may be not relevant", () => {
    const base = {
      intent: "saveEnd",
      attendancePassed: "yes",
      workRequirementsPassed: "notRelevant",
      specificCompetenceAreasPassed: "no",
      generalCompetenceAreasPassed: "yes",
    };
    expect(endPartSchema.safeParse(base).success).toBe(true);
    for (const question of ["attendancePassed", "specificCompetenceAreasPassed", "generalCompetenceAreasPassed"]) {
      const result = endPartSchema.safeParse({ ...base, [question]: "notRelevant" });
      expect(result.error?.issues[0]).toMatchObject({
        path: [question],
        message: `signing:errors.required.${question}`,
      });
    }
    expect(endPartSchema.safeParse({ ...base, teacherComment: "x".repeat(2001) }).error?.issues[0].message).toBe(
      "signing:errors.commentTooLong",
    );
    expect(endPartSchema.safeParse({ ...base, endSemesterCompletedDate: "31.12.2026" }).error?.issues[0].message).toBe(
      "signing:errors.dateInvalid",
    );
  });

  test("the sign form's confirmation is 'yes' or absent", () => {
    expect(signSchema.safeParse({ intent: "sign" }).success).toBe(true);
    expect(signSchema.safeParse({ intent: "sign", signWithoutSupervisorConfirmed: "yes" }).success).toBe(true);
    expect(signSchema.safeParse({ intent: "sign", signWithoutSupervisorConfirmed: "no" }).success).toBe(false);
  });
});
