import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { signingForms, studentReferences } from "~/services/platform/db/schema";
import { ROLE } from "~/services/identity";
import { cookieActingAs, startTestApp, stopTestApp, userIdOf, classIdOf } from "~/test/app";
import { callAction, callLoader, getPage, postForm, flashOf } from "~/test/route";
import * as studentForms from "../student/forms";
import * as supervisorStudent from "../supervisor/student";
import * as teacherStudent from "../teacher/student";
import * as page from "./signing-form";
import { calendar, dateText } from "~/test/calendar";
import { resetEnvForTests } from "~/services/platform/env.server";

let app: Awaited<ReturnType<typeof startTestApp>>;
const db = () => app.database.db;
let classA: number;
let classB: number;
const ids: Record<string, number> = {};
const cookies: Record<string, string> = {};

async function formOf(student: string) {
  const [ref] = await db()
    .select({ id: studentReferences.id })
    .from(studentReferences)
    .where(and(eq(studentReferences.classId, classA), eq(studentReferences.studentUserId, ids[student])));
  const [form] = await db().select().from(signingForms).where(eq(signingForms.studentReferenceId, ref.id));
  return form;
}

interface Reply {
  intent: string;
  result: { status: string; initialValue: Record<string, unknown>; error: Record<string, string[] | null> };
  confirmMid?: {
    answers: Record<string, string>;
    date: string;
    unsent: { name: string; isMidSemester: boolean; missing: string[] }[];
    requireSentForms: boolean;
    error: string | null;
  } | null;
}

beforeAll(async () => {
  app = await startTestApp();
  classA = await classIdOf(db(), "SYK2001");
  classB = await classIdOf(db(), "SYK2002");
  for (const [name, role] of [
    ["laerer1", ROLE.Teacher],
    ["laerer3", ROLE.Teacher],
    ["veileder1", ROLE.Supervisor],
    ["veileder2", ROLE.Supervisor],
    ["student05", ROLE.Student],
    ["student06", ROLE.Student],
    ["student03", ROLE.Student],
  ] as const) {
    ids[name] = await userIdOf(db(), `${name}@example.org`);
    cookies[name] = await cookieActingAs(db(), `${name}@example.org`, role);
  }
  ids.student02 = await userIdOf(db(), "student02@example.org");
});

afterAll(async () => {
  await stopTestApp(app);
});

const AREA = { laerer1: "teacher", laerer3: "teacher", veileder1: "supervisor", veileder2: "supervisor" } as Record<
  string,
  string
>;

/** The signing-form URL of `who` for a student of a class, and its params. */
function place(who: string, student = "student05", classId = classA) {
  const area = AREA[who] ?? "student";
  const path = `/${area}/class/${classId}/student/${ids[student]}/signingform`;
  return { path, params: { classId: String(classId), studentUserId: String(ids[student]) } };
}

async function open(who: string, student = "student05", options: { classId?: number; query?: string } = {}) {
  const { path, params } = place(who, student, options.classId);
  return callLoader(page, getPage(`${path}${options.query ?? ""}`, { cookie: cookies[who] }), params);
}

async function post(who: string, fields: Record<string, string>, student = "student05") {
  const { path, params } = place(who, student);
  return callAction(page, postForm(path, fields, { cookie: cookies[who] }), params);
}

const midFields = {
  intent: "saveMid",
  midSemesterSpecificCompetenceAreasBegun: "yes",
  midSemesterStudentHasGivenFeedback: "notRelevant",
  // The class's mid-semester date: always in the past.
  midSemesterCompletedDate: calendar.classes.SYK2001.midSemesterDate,
};
const endFields = {
  intent: "saveEnd",
  attendancePassed: "yes",
  workRequirementsPassed: "yes",
  specificCompetenceAreasPassed: "yes",
  generalCompetenceAreasPassed: "yes",
  teacherComment: "Godt gjennomført praksis.",
  endSemesterCompletedDate: "",
};

async function expectRedirect(response: Response, flashKey: string) {
  expect(response.status).toBe(303);
  expect(response.headers.get("location")).toMatch(/\/signingform$/);
  expect((await flashOf(response))?.key).toBe(flashKey);
}

describe("who sees the page", () => {
  test("the teacher, the student and the assigned supervisor; only the teacher may create it and sees the check", async () => {
    const teacher = await open("laerer1");
    expect(teacher.status).toBe(200);
    const t = await teacher.json();
    expect(t.view).toMatchObject({
      id: -1,
      relation: "teacher",
      rights: { create: true, saveMid: true, sign: false, cancel: false },
    });
    expect(t.validation.teacherAnswerSummary.length).toBeGreaterThan(0);
    expect(t).toMatchObject({
      back: `/teacher/class/${classA}/student/${ids.student05}`,
      pdfHref: null,
      confirmCancel: false,
    });
    expect(t.declaration).toMatch(/^Underskriftene bekrefter/);

    const s = await (await open("student05")).json();
    expect(s.view).toMatchObject({
      relation: "self",
      rights: { create: false, saveMid: false, signAs: "student", signBlocked: "notCreated" },
    });
    expect(s).toMatchObject({ validation: null, back: "/student/forms" });
    const v = await (await open("veileder1")).json();
    expect(v.view).toMatchObject({ relation: "supervisor", rights: { create: false, signAs: "supervisor" } });
    expect(v.validation).toBeNull();
  });

  test("a foreign class or student is a 404, never data; a malformed id too", async () => {
    expect((await open("laerer3")).status).toBe(404);
    expect((await open("veileder2")).status).toBe(404);
    expect((await open("student06")).status).toBe(404);
    expect((await open("student05", "student05", { classId: classB })).status).toBe(404);
    const malformed = await callLoader(
      page,
      getPage(`/teacher/class/x/student/${ids.student05}/signingform`, { cookie: cookies.laerer1 }),
      {
        classId: "x",
        studentUserId: String(ids.student05),
      },
    );
    expect(malformed.status).toBe(404);
  });

  test("acting in another role: a page sends to the role chooser, a post is refused", async () => {
    const { path, params } = place("laerer1");
    const studentOnTeacherPage = await callLoader(page, getPage(path, { cookie: cookies.student05 }), params);
    expect(studentOnTeacherPage.status).toBe(302);
    expect(studentOnTeacherPage.headers.get("location")).toMatch(/^\/role\?redirectTo=/);
    expect((await callAction(page, postForm(path, midFields, { cookie: cookies.student05 }), params)).status).toBe(403);
  });
});

describe("posts that may never succeed", () => {
  test("an unknown or missing intent is a bad request", async () => {
    expect((await post("laerer1", { intent: "delete" })).status).toBe(400);
    expect((await post("laerer1", {})).status).toBe(400);
  });

  test("a student or supervisor saving or cancelling, an extra supervisor signing: 403 however the post is filled in", async () => {
    expect((await post("student05", midFields)).status).toBe(403);
    expect((await post("student05", { intent: "saveMid" })).status).toBe(403);
    expect((await post("veileder1", { intent: "cancel" })).status).toBe(403);
    expect((await post("veileder1", endFields)).status).toBe(403);
    expect((await post("student05", { intent: "submitResult" })).status).toBe(403);
    // veileder1 follows student 02 as an extra supervisor: they see the form, but do not sign it.
    expect((await open("veileder1", "student02")).status).toBe(200);
    expect((await post("veileder1", { intent: "sign" }, "student02")).status).toBe(403);
  });
});

describe("the whole form through the page", () => {
  test("bad input is 400 with the reasons and what was typed; the first good save creates and confirms", async () => {
    const missing = await post("laerer1", {
      intent: "saveMid",
      midSemesterSpecificCompetenceAreasBegun: "kanskje",
      midSemesterCompletedDate: "1.10.2026",
    });
    expect(missing.status).toBe(400);
    const reply = (await missing.json()) as Reply;
    expect(reply.intent).toBe("saveMid");
    expect(reply.result.error).toEqual({
      midSemesterSpecificCompetenceAreasBegun: ["signing:errors.required.midSemesterSpecificCompetenceAreasBegun"],
      midSemesterStudentHasGivenFeedback: ["signing:errors.required.midSemesterStudentHasGivenFeedback"],
      midSemesterCompletedDate: ["signing:errors.dateInvalid"],
    });
    expect(reply.result.initialValue).toMatchObject({ midSemesterCompletedDate: "1.10.2026" });

    const future = await post("laerer1", { ...midFields, midSemesterCompletedDate: "2099-01-01" });
    expect(future.status).toBe(400);
    const futureReply = (await future.json()) as Reply;
    expect(futureReply.result.error).toEqual({ midSemesterCompletedDate: ["signing:errors.dateInFuture"] });
    expect(futureReply.result.initialValue).toMatchObject({
      midSemesterSpecificCompetenceAreasBegun: "yes",
      midSemesterCompletedDate: "2099-01-01",
    });
    expect(await formOf("student05")).toBeUndefined();

    // The first post only asks: what will be confirmed, and the mid-semester forms not sent; nothing is kept.
    const asked = await post("laerer1", midFields);
    expect(asked.status).toBe(200);
    const confirm = ((await asked.json()) as Reply).confirmMid!;
    expect(confirm).toMatchObject({
      answers: { midSemesterSpecificCompetenceAreasBegun: "yes", midSemesterStudentHasGivenFeedback: "notRelevant" },
      date: midFields.midSemesterCompletedDate,
      requireSentForms: false,
      error: null,
    });
    expect(confirm.unsent.map((f) => [f.name, f.isMidSemester, f.missing])).toEqual([
      ["Vurdering av kliniske kompetanser", true, ["student", "supervisor", "teacher"]],
      ["Legemiddelhåndtering", true, ["student", "supervisor", "teacher"]],
    ]);
    expect(await formOf("student05")).toBeUndefined();
    // "Nei, gå tilbake": the form again with what was typed, nothing kept.
    const back = await post("laerer1", { ...midFields, confirmed: "yes", step: "back" });
    expect(((await back.json()) as Reply).confirmMid).toBeNull();
    expect(await formOf("student05")).toBeUndefined();
    // Confirmed, but with forms not sent and the box not ticked: refused, the confirmation shown again saying why.
    const unticked = await post("laerer1", { ...midFields, confirmed: "yes" });
    expect(unticked.status).toBe(400);
    expect(((await unticked.json()) as Reply).confirmMid).toMatchObject({
      error: "signingCheck:errors.acknowledgeUnsent",
    });
    expect(await formOf("student05")).toBeUndefined();
    await expectRedirect(
      await post("laerer1", { ...midFields, confirmed: "yes", unsentAcknowledged: "yes" }),
      "signing:flash.saved",
    );
    const again = await post("laerer1", midFields);
    expect(again.status).toBe(409);
    expect(((await again.json()) as Reply).result.error).toEqual({ "": ["signing:refused.midConfirmed"] });

    const page2 = await (await open("laerer1")).json();
    expect(page2.view).toMatchObject({
      mid: {
        confirmed: true,
        dateText: dateText(calendar.classes.SYK2001.midSemesterDate),
        answers: { midSemesterStudentHasGivenFeedback: "notRelevant" },
      },
      rights: { saveMid: false, saveEnd: true, cancel: true },
    });
    expect(page2.pdfHref).toBe(`/api/classes/${classA}/students/${ids.student05}/signingform/pdf`);
  });

  test("signing before the end part is refused with the reason; the end part saves with today's date when none is given", async () => {
    const early = await post("student05", { intent: "sign" });
    expect(early.status).toBe(409);
    expect(((await early.json()) as Reply).result.error).toEqual({ "": ["signing:refused.endNotSaved"] });

    const notRelevant = await post("laerer1", { ...endFields, attendancePassed: "notRelevant" });
    expect(notRelevant.status).toBe(400);
    expect(((await notRelevant.json()) as Reply).result.error).toEqual({
      attendancePassed: ["signing:errors.required.attendancePassed"],
    });

    await expectRedirect(await post("laerer1", endFields), "signing:flash.saved");
    const view = (await (await open("student05")).json()).view;
    expect(view.end).toMatchObject({ saved: true, overallPassed: true, teacherComment: "Godt gjennomført praksis." });
    expect(view.end.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(view.rights).toMatchObject({ sign: true });
  });

  test("the teacher cannot sign before the student, nor without the supervisor unless confirmed", async () => {
    const first = await post("laerer1", { intent: "sign" });
    expect(first.status).toBe(409);
    expect(((await first.json()) as Reply).result.error).toEqual({ "": ["signing:refused.studentNotSigned"] });

    await expectRedirect(await post("student05", { intent: "sign" }), "signing:flash.signed");
    const student = (await (await open("student05")).json()).view;
    expect(student.rights).toMatchObject({ banner: "youHaveSigned", sign: false });

    const unconfirmed = await post("laerer1", { intent: "sign" });
    expect(unconfirmed.status).toBe(400);
    expect(((await unconfirmed.json()) as Reply).result.error).toEqual({
      signWithoutSupervisorConfirmed: ["signing:errors.confirmWithoutSupervisor"],
      unsentAcknowledged: ["signingCheck:errors.acknowledgeUnsent"],
    });
    expect((await (await open("laerer1")).json()).view.rights.confirmWithoutSupervisor).toBe(true);
    // After a signature the end part is what was signed.
    const late = await post("laerer1", endFields);
    expect(late.status).toBe(409);
    expect(((await late.json()) as Reply).result.error).toEqual({ "": ["signing:refused.endFrozen"] });
  });

  test("the supervisor signs, then the teacher: signed by all, locked and submitted; the cards say so", async () => {
    await expectRedirect(await post("veileder1", { intent: "sign" }), "signing:flash.signed");
    expect((await (await open("laerer1")).json()).view.rights.confirmWithoutSupervisor).toBe(false);
    // The forms are not all sent: the teacher's result needs the box ticked.
    const unticked = await post("laerer1", { intent: "sign" });
    expect(unticked.status).toBe(400);
    expect(((await unticked.json()) as Reply).result.error).toEqual({
      unsentAcknowledged: ["signingCheck:errors.acknowledgeUnsent"],
    });
    expect((await formOf("student05")).signedByTeacherDate).toBeNull();
    await expectRedirect(
      await post("laerer1", { intent: "sign", unsentAcknowledged: "yes" }),
      "signing:flash.signedByAllSubmitted",
    );

    const view = (await (await open("veileder1")).json()).view;
    expect(view).toMatchObject({ allSigned: true, rights: { banner: "signedByAll", sign: false } });
    expect(view.resultSubmittedText).toMatch(/^\d{1,2}\.\d{1,2}\.\d{4}$/);
    const teacher = await (await open("laerer1")).json();
    expect(teacher.validation.submittedText).toBe(view.resultSubmittedText);
    expect(teacher.view.rights).toMatchObject({ submitResult: false, cancel: true, saveEnd: false });
    const resend = await post("laerer1", { intent: "submitResult" });
    expect(resend.status).toBe(409);
    expect(((await resend.json()) as Reply).result.error).toEqual({ "": ["signing:refused.alreadySubmitted"] });

    const teacherPage = await callLoader(
      teacherStudent,
      getPage(`/teacher/class/${classA}/student/${ids.student05}`, { cookie: cookies.laerer1 }),
      { classId: String(classA), userId: String(ids.student05) },
    );
    expect((await teacherPage.json()).signingForm).toMatchObject({
      state: "submitted",
      signedBy: ["student", "supervisor", "teacher"],
    });
    const supervisorPage = await callLoader(
      supervisorStudent,
      getPage(`/supervisor/class/${classA}/student/${ids.student05}`, { cookie: cookies.veileder1 }),
      { classId: String(classA), userId: String(ids.student05) },
    );
    expect((await supervisorPage.json()).signingForm.state).toBe("submitted");
    const formsPage = await (
      await callLoader(studentForms, getPage("/student/forms", { cookie: cookies.student05 }))
    ).json();
    expect(formsPage.signingForm.state).toBe("submitted");
    expect(formsPage.signingFormHref).toBe(`/student/class/${classA}/student/${ids.student05}/signingform`);
  });

  test("the teacher cancels through the confirmation: archived, empty again, the card back to 'not created'", async () => {
    expect((await (await open("laerer1", "student05", { query: "?confirm=cancel" })).json()).confirmCancel).toBe(true);
    expect((await (await open("veileder1", "student05", { query: "?confirm=cancel" })).json()).confirmCancel).toBe(
      false,
    );
    await expectRedirect(await post("laerer1", { intent: "cancel" }), "signing:flash.cancelled");
    const teacher = await (await open("laerer1")).json();
    expect(teacher.view).toMatchObject({ id: -1, rights: { create: true } });
    expect(teacher.validation).toMatchObject({ archivedCount: 1 });
    expect(teacher.validation.lastArchivedText).toMatch(/^\d{1,2}\.\d{1,2}\.\d{4}$/);
    const formsPage = await (
      await callLoader(studentForms, getPage("/student/forms", { cookie: cookies.student05 }))
    ).json();
    expect(formsPage.signingForm.state).toBe("notCreated");
    const again = await post("laerer1", { intent: "cancel" });
    expect(again.status).toBe(409);
    expect(((await again.json()) as Reply).result.error).toEqual({ "": ["signing:refused.notCreated"] });
  });
});

describe("the check before signing", () => {
  test("the teacher sees who has sent each form, each form not sent linked to their form page; the others see no check", async () => {
    const t = await (await open("laerer1", "student06")).json();
    expect(t.sending.requireSentForms).toBe(false);
    expect(t.sending.forms).toHaveLength(4);
    expect(t.sending.unsent).toBe(4);
    expect(t.sending.forms[0]).toMatchObject({
      name: "Vurdering av kliniske kompetanser",
      isMidSemester: true,
      student: expect.any(Boolean),
      supervisor: expect.any(Boolean),
      teacher: false,
      answered: 0,
      questions: expect.any(Number),
    });
    expect(t.sending.forms[0].href).toMatch(
      new RegExp(`^/teacher/class/${classA}/student/${ids.student06}/form/\\d+/assignment/\\d+$`),
    );
    expect((await (await open("student06", "student06")).json()).sending).toBeNull();
  });

  test("where the institution's file requires every form sent, the page says so and the post is refused, ticked or not", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "praksis-signing-"));
    const own = JSON.parse(fs.readFileSync("app/test/institution.json", "utf8")) as Record<string, unknown>;
    fs.writeFileSync(
      path.join(dir, "institution.json"),
      JSON.stringify({ ...own, signing: { requireSentForms: true } }),
    );
    const before = process.env.INSTITUTION_FILE;
    process.env.INSTITUTION_FILE = path.join(dir, "institution.json");
    resetEnvForTests();
    try {
      expect((await (await open("laerer1", "student06")).json()).sending.requireSentForms).toBe(true);
      const refused = await post("laerer1", { ...midFields, confirmed: "yes", unsentAcknowledged: "yes" }, "student06");
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as Reply).confirmMid).toMatchObject({ requireSentForms: true, error: null });
      expect(await formOf("student06")).toBeUndefined();
    } finally {
      if (before === undefined) delete process.env.INSTITUTION_FILE;
      else process.env.INSTITUTION_FILE = before;
      resetEnvForTests();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("two posts at the same moment", () => {
  test("the student and the supervisor sign at once through the page: both signatures stand", async () => {
    await post("laerer1", { ...midFields, confirmed: "yes", unsentAcknowledged: "yes" }, "student03");
    await post("laerer1", endFields, "student03");
    const responses = await Promise.all([
      post("student03", { intent: "sign" }, "student03"),
      post("veileder1", { intent: "sign" }, "student03"),
    ]);
    expect(responses.map((r) => r.status)).toEqual([303, 303]);
    const form = await formOf("student03");
    expect(form.signedByStudentDate).not.toBeNull();
    expect(form.signedBySupervisorDate).not.toBeNull();
  });
});
