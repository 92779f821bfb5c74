import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { answerToken, EMPTY } from "~/services/answering";
import {
  answers,
  answerSets,
  schemes,
  formQuestionGroups,
  formQuestions,
  forms,
  signingForms,
  studentReferences,
} from "~/services/platform/db/schema";
import { ROLE } from "~/services/identity";
import { acceptPrivacyPolicy, createSession } from "~/services/identity/index.server";
import { currentInstitution } from "~/services/platform/institution.server";
import { appCookies } from "~/services/platform/request.server";
import { cookieActingAs, sessionCookieFor, startTestApp, stopTestApp, userIdOf, classIdOf } from "~/test/app";
import { callAction, callLoader, getPage, postForm, flashOf } from "~/test/route";
import * as api from "../api/answers";
import * as page from "./form-page";

let app: Awaited<ReturnType<typeof startTestApp>>;
const db = () => app.database.db;
let classA: number;
let classB: number;
let mainForm: number;
let mid: number;
let student05: number;
let student06: number;
let cookies: Record<string, string>;

beforeAll(async () => {
  app = await startTestApp();
  classA = await classIdOf(db(), "SYK2001");
  classB = await classIdOf(db(), "SYK2002");
  [{ id: mainForm }] = await db()
    .select({ id: forms.id })
    .from(forms)
    .where(eq(forms.name, "Vurdering av kliniske kompetanser"));
  [{ id: mid }] = await db()
    .select({ id: schemes.id })
    .from(schemes)
    .where(and(eq(schemes.classId, classA), eq(schemes.isMidSemester, true)));
  student05 = await userIdOf(db(), "student05@example.org");
  student06 = await userIdOf(db(), "student06@example.org");
  cookies = {
    student05: await cookieActingAs(db(), "student05@example.org", ROLE.Student),
    student06: await cookieActingAs(db(), "student06@example.org", ROLE.Student),
    veileder1: await cookieActingAs(db(), "veileder1@example.org", ROLE.Supervisor),
    laerer1: await cookieActingAs(db(), "laerer1@example.org", ROLE.Teacher),
    laerer3: await cookieActingAs(db(), "laerer3@example.org", ROLE.Teacher),
    admin: await cookieActingAs(db(), "admin@example.org", ROLE.Admin),
  };
});

afterAll(async () => {
  await stopTestApp(app);
});

const studentPath = (studentUserId = student05, schemeId = mid, classId = classA) =>
  `/student/${studentUserId}/form/${mainForm}/class/${classId}/assignment/${schemeId}`;
const teacherPath = (studentUserId = student05) =>
  `/teacher/class/${classA}/student/${studentUserId}/form/${mainForm}/assignment/${mid}`;
const params = (studentUserId = student05, schemeId = mid, classId = classA) => ({
  classId: String(classId),
  formId: String(mainForm),
  schemeId: String(schemeId),
  studentUserId: String(studentUserId),
});

async function open(path: string, cookie: string, p: Record<string, string> = params()) {
  return callLoader(page, getPage(path, { cookie }), p);
}

interface PageData {
  view: {
    page: number;
    pageCount: number;
    mode: string;
    group: {
      id: number;
      type: string;
      readOnly: boolean;
      questions: {
        id: number;
        value: string | null;
        comment: string | null;
        token: string;
        others: { badge: string; comment: string }[];
      }[];
    } | null;
    graded: { done: number; total: number };
  };
  exit: string;
}

async function pageData(path: string, cookie: string, p: Record<string, string> = params()): Promise<PageData> {
  const response = await open(path, cookie, p);
  expect(response.status).toBe(200);
  return response.json();
}

/** The fields of a page as the browser posts them: each question's base, answer and comment. */
function fields(
  data: PageData,
  answersById: Record<number, { value?: string; comment?: string }>,
  extra: Record<string, string>,
) {
  const out: Record<string, string> = { page: String(data.view.page), ...extra };
  for (const q of data.view.group!.questions) {
    out[`b:${q.id}`] = q.token;
    const typed = answersById[q.id];
    const value = typed?.value ?? q.value;
    if (value !== null && value !== undefined) out[`a:${q.id}`] = value;
    out[`c:${q.id}`] = typed?.comment ?? q.comment ?? "";
  }
  return out;
}

describe("the page", () => {
  test("shows one group at a time; ?group= beyond the form is the first page", async () => {
    const first = await pageData(studentPath(), cookies.student05);
    expect(first.view).toMatchObject({ mode: "answers", page: 1 });
    expect(first.view.pageCount).toBeGreaterThan(2);
    const second = await pageData(`${studentPath()}?group=2`, cookies.student05);
    expect(second.view.page).toBe(2);
    expect(second.view.group!.id).not.toBe(first.view.group!.id);
    expect(second.view.group!.questions[0]).toMatchObject({ value: null, comment: null, token: answerToken(EMPTY) });
    expect((await pageData(`${studentPath()}?group=99`, cookies.student05)).view.page).toBe(1);
    expect(first.exit).toBe("/student/forms");
  });

  test("the admin's page sets expected levels: grading groups only", async () => {
    const data = await pageData(`/admin/class/${classA}/form/${mainForm}/assignment/${mid}`, cookies.admin, {
      classId: String(classA),
      formId: String(mainForm),
      schemeId: String(mid),
    });
    expect(data.view.mode).toBe("expectations");
    expect(data.view.group!.type).toBe("grading");
    expect(data.exit).toBe(`/admin/class/${classA}`);
  });

  test("another student's id, a teacher of another class, a scheme of another class: 404, never data", async () => {
    expect((await open(studentPath(student06), cookies.student05, params(student06))).status).toBe(404);
    expect((await open(teacherPath(), cookies.laerer3)).status).toBe(404);
    const [otherScheme] = await db().select({ id: schemes.id }).from(schemes).where(eq(schemes.classId, classB));
    expect(
      (await open(studentPath(student05, otherScheme.id), cookies.student05, params(student05, otherScheme.id))).status,
    ).toBe(404);
    expect((await open(studentPath(), cookies.student05, { ...params(), formId: "x" })).status).toBe(404);
  });
});

describe("the student's own group, for staff", () => {
  // The demo's self-assessment is the student's own group: student01 has sent it, student05 has not begun.
  const student01Path = (id: number) => `/teacher/class/${classA}/student/${id}/form/${mainForm}/assignment/${mid}`;

  test("is shown read-only, with the student's answers as text, where the student has answered; left out where not", async () => {
    const student01 = await userIdOf(db(), "student01@example.org");
    const answered = await pageData(student01Path(student01), cookies.laerer1, params(student01));
    expect(answered.view.pageCount).toBe(5);
    expect(answered.view.group).toMatchObject({ type: "text", readOnly: true });
    expect(answered.view.group!.questions[0].others).toEqual([
      expect.objectContaining({ badge: "S", comment: expect.stringMatching(/^Jeg /) }),
    ]);
    // "n of m" counts the teacher's own grades only.
    expect(answered.view.graded.total).toBe(12);

    const notBegun = await pageData(teacherPath(), cookies.laerer1);
    expect(notBegun.view.pageCount).toBe(4);
    expect(notBegun.view.group).toMatchObject({ type: "grading", readOnly: false });

    // The student answers it as before.
    const own = await pageData(studentPath(), cookies.student05);
    expect(own.view.pageCount).toBe(5);
    expect(own.view.group).toMatchObject({ type: "text", readOnly: false });
  });

  test("a staff post to it is refused (400) and stores nothing, by the page and by the autosave", async () => {
    const student01 = await userIdOf(db(), "student01@example.org");
    const path = student01Path(student01);
    const data = await pageData(path, cookies.laerer1, params(student01));
    const [question] = data.view.group!.questions;
    const body = {
      page: "1",
      intent: "next",
      [`b:${question.id}`]: answerToken(EMPTY),
      [`a:${question.id}`]: "Mitt svar",
    };
    const refused = await callAction(page, postForm(path, body, { cookie: cookies.laerer1 }), params(student01));
    expect(refused.status).toBe(400);
    expect((await refused.json()).refused.formError).toBe("unknownQuestion");
    const viaApi = await callAction(
      api,
      postForm("/api/answers", { ...body, ...params(student01) }, { cookie: cookies.laerer1 }),
    );
    expect(viaApi.status).toBe(400);
    const stored = await db()
      .select({ id: answers.id })
      .from(answers)
      .innerJoin(answerSets, eq(answerSets.id, answers.answerSetId))
      .where(
        and(
          eq(answers.questionId, question.id),
          eq(answerSets.authorUserId, await userIdOf(db(), "laerer1@example.org")),
        ),
      );
    expect(stored).toEqual([]);
  });
});

describe("posting a page without JavaScript", () => {
  test("'next' saves the page's answers and goes to the next group, keeping where to return to", async () => {
    const path = `${studentPath()}?group=2&from=${encodeURIComponent("/student/forms")}`;
    const data = await pageData(path, cookies.student05);
    const [q1, q2] = data.view.group!.questions;
    const response = await callAction(
      page,
      postForm(
        path,
        fields(
          data,
          { [q1.id]: { value: "1", comment: "Jeg observerer godt" }, [q2.id]: { value: "5" } },
          { intent: "next" },
        ),
        {
          cookie: cookies.student05,
        },
      ),
      params(),
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe(`${studentPath()}?group=3&from=%2Fstudent%2Fforms`);
    const again = await pageData(`${studentPath()}?group=2`, cookies.student05);
    expect(again.view.group!.questions.slice(0, 2).map((q) => [q.value, q.comment])).toEqual([
      ["1", "Jeg observerer godt"],
      ["5", null],
    ]);
  });

  test("a 2001-character comment is refused with a message, keeping every typed answer; nothing is saved", async () => {
    const path = `${studentPath()}?group=3`;
    const data = await pageData(path, cookies.student05);
    const [q1, q2] = data.view.group!.questions;
    const long = "ø".repeat(2001);
    const response = await callAction(
      page,
      postForm(
        path,
        fields(data, { [q1.id]: { value: "2", comment: long }, [q2.id]: { value: "3" } }, { intent: "next" }),
        { cookie: cookies.student05 },
      ),
      params(),
    );
    expect(response.status).toBe(400);
    const { refused } = await response.json();
    expect(refused.fieldErrors).toEqual({ [q1.id]: "commentTooLong" });
    expect(refused.values[q1.id]).toEqual({ value: "2", comment: long });
    expect(refused.values[q2.id]).toEqual({ value: "3", comment: null });
    const stored = await pageData(path, cookies.student05);
    expect(stored.view.group!.questions.slice(0, 2).map((q) => q.value)).toEqual([null, null]);
  });

  test("a value not among the labels or a question of another form: 400 with a message; a malformed post or intent: 400", async () => {
    const path = `${studentPath()}?group=3`;
    const data = await pageData(path, cookies.student05);
    const [q1] = data.view.group!.questions;
    const post = (body: Record<string, string>) =>
      callAction(page, postForm(path, body, { cookie: cookies.student05 }), params());

    const invalid = await post(fields(data, { [q1.id]: { value: "7" } }, { intent: "next" }));
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).refused.fieldErrors).toEqual({ [q1.id]: "invalidValue" });

    const [foreignQuestion] = await db()
      .select({ id: formQuestions.id })
      .from(formQuestions)
      .innerJoin(formQuestionGroups, eq(formQuestionGroups.id, formQuestions.groupId))
      .innerJoin(forms, eq(forms.id, formQuestionGroups.formId))
      .where(eq(forms.name, "Legemiddelhåndtering"));
    const foreign = await post({
      ...fields(data, {}, { intent: "next" }),
      [`b:${foreignQuestion.id}`]: answerToken(EMPTY),
      [`a:${foreignQuestion.id}`]: "1",
    });
    expect(foreign.status).toBe(400);
    expect((await foreign.json()).refused.formError).toBe("unknownQuestion");

    expect(
      (
        await post({
          intent: "next",
          [`b:${q1.id}`]: "t",
          [`a:${q1.id}`]: "1",
          [`c:${q1.id}`]: "",
          page: "3",
          "a:99": "x",
        })
      ).status,
    ).toBe(400);
    expect((await post({ ...fields(data, {}, {}), intent: "delete" })).status).toBe(400);
    expect((await post(fields(data, {}, {}))).status).toBe(400);
  });

  test("two tabs: a page posted from an older version of an answer gets 409, shows both, and saving again keeps theirs", async () => {
    const path = `${teacherPath(student06)}?group=2`;
    const p = params(student06);
    const tabA = await callLoader(page, getPage(path, { cookie: cookies.laerer1 }), p).then(
      (r) => r.json() as Promise<PageData>,
    );
    const tabB = structuredClone(tabA);
    const [q1] = tabA.view.group!.questions;
    const post = (data: PageData, value: string, intent = "next") =>
      callAction(
        page,
        postForm(path, fields(data, { [q1.id]: { value } }, { intent }), { cookie: cookies.laerer1 }),
        p,
      );
    expect((await post(tabA, "2")).status).toBe(303);
    const conflict = await post(tabB, "4");
    expect(conflict.status).toBe(409);
    const { refused } = await conflict.json();
    expect(refused.conflicts).toEqual({ [q1.id]: { value: "2", comment: null } });
    expect(refused.values[q1.id].value).toBe("4");
    expect((await pageData(path, cookies.laerer1, p)).view.group!.questions[0].value).toBe("2");
    // The page now continues from the stored version: posting again overwrites, by choice.
    tabB.view.group!.questions[0].token = refused.tokens[q1.id];
    expect((await post(tabB, "4")).status).toBe(303);
    expect((await pageData(path, cookies.laerer1, p)).view.group!.questions[0].value).toBe("4");
  });

  test("after a 409, a question this page did not touch shows what is stored now, so posting again keeps the other tab's answer", async () => {
    const path = `${teacherPath(student06)}?group=3`;
    const p = params(student06);
    const tabA = await callLoader(page, getPage(path, { cookie: cookies.laerer1 }), p).then(
      (r) => r.json() as Promise<PageData>,
    );
    const tabB = structuredClone(tabA);
    const [q1, q2] = tabA.view.group!.questions;
    // Tab A changes both questions; tab B, opened before, changes only the second, differently.
    expect(
      (
        await callAction(
          page,
          postForm(
            path,
            fields(
              tabA,
              { [q1.id]: { value: "1", comment: "Fra fane A" }, [q2.id]: { value: "1" } },
              { intent: "next" },
            ),
            { cookie: cookies.laerer1 },
          ),
          p,
        )
      ).status,
    ).toBe(303);
    const refused = await callAction(
      page,
      postForm(path, fields(tabB, { [q2.id]: { value: "3" } }, { intent: "next" }), { cookie: cookies.laerer1 }),
      p,
    );
    expect(refused.status).toBe(409);
    const body = (await refused.json()).refused;
    expect(body.values[q1.id]).toEqual({ value: "1", comment: "Fra fane A" });
    expect(body.values[q2.id]).toEqual({ value: "3", comment: null });
    // The page as redrawn, posted again: the second question is overwritten by choice, the first is left as tab A saved it.
    tabB.view.group!.questions = tabB.view.group!.questions.map((q) => ({
      ...q,
      ...body.values[q.id],
      token: body.tokens[q.id] ?? q.token,
    }));
    expect(
      (await callAction(page, postForm(path, fields(tabB, {}, { intent: "next" }), { cookie: cookies.laerer1 }), p))
        .status,
    ).toBe(303);
    const now = await pageData(path, cookies.laerer1, p);
    expect(now.view.group!.questions.slice(0, 2).map((q) => [q.value, q.comment])).toEqual([
      ["1", "Fra fane A"],
      ["3", null],
    ]);
  });

  test("'send' with grades missing saves and lists them; complete, it sends and returns with a message", async () => {
    const p = params(student06);
    const path = `${studentPath(student06)}?from=${encodeURIComponent("/student/forms")}`;
    const first = await pageData(path, cookies.student06, p);
    const missing = await callAction(
      page,
      postForm(path, fields(first, {}, { intent: "send" }), { cookie: cookies.student06 }),
      p,
    );
    expect(missing.status).toBe(400);
    expect((await missing.json()).refused.missing.length).toBeGreaterThan(0);

    for (let n = 1; n <= first.view.pageCount; n++) {
      const data = await pageData(`${studentPath(student06)}?group=${n}`, cookies.student06, p);
      const typed = Object.fromEntries(
        data.view.group!.questions.map((q) => [
          q.id,
          data.view.group!.type === "grading" ? { value: "2" } : { value: "Refleksjon" },
        ]),
      );
      const intent = n === first.view.pageCount ? "send" : "next";
      const response = await callAction(
        page,
        postForm(`${studentPath(student06)}?group=${n}&from=%2Fstudent%2Fforms`, fields(data, typed, { intent }), {
          cookie: cookies.student06,
        }),
        p,
      );
      expect(response.status, `page ${n}`).toBe(303);
      if (intent === "send") {
        expect(response.headers.get("Location")).toBe("/student/forms");
        expect(await flashOf(response)).toMatchObject({ type: "success", key: "answers:flash.sent" });
      }
    }
    const [set] = await db()
      .select()
      .from(answerSets)
      .where(
        and(
          eq(answerSets.studentUserId, student06),
          eq(answerSets.authorUserId, student06),
          eq(answerSets.schemeId, mid),
        ),
      );
    expect(set.sentAt).not.toBeNull();
  });

  test("'exit' saves and leaves for `from` when it is same-site, else the role's page; another role's post is 403", async () => {
    const data = await pageData(teacherPath(), cookies.laerer1);
    const exit = (from: string) =>
      callAction(
        page,
        postForm(`${teacherPath()}?from=${encodeURIComponent(from)}`, fields(data, {}, { intent: "exit" }), {
          cookie: cookies.laerer1,
        }),
        params(),
      );
    const home = await exit("/teacher");
    expect([home.status, home.headers.get("Location")]).toEqual([303, "/teacher"]);
    expect(await flashOf(home)).toMatchObject({ key: "answers:flash.saved" });
    expect((await exit("https://evil.example/")).headers.get("Location")).toBe(
      `/teacher/class/${classA}/student/${student05}`,
    );
    const asSupervisor = await callAction(
      page,
      postForm(teacherPath(), fields(data, {}, { intent: "exit" }), { cookie: cookies.veileder1 }),
      params(),
    );
    expect(asSupervisor.status).toBe(403);
  });

  test("a locked signing form: the page says so and a post saves nothing", async () => {
    const student07 = await userIdOf(db(), "student07@example.org");
    const cookie = await cookieActingAs(db(), "student07@example.org", ROLE.Student);
    const [ref] = await db()
      .select()
      .from(studentReferences)
      .where(and(eq(studentReferences.classId, classA), eq(studentReferences.studentUserId, student07)));
    const data = await pageData(studentPath(student07), cookie, params(student07));
    await db().insert(signingForms).values({ studentReferenceId: ref.id, isLocked: true });
    const locked = await pageData(studentPath(student07), cookie, params(student07));
    expect(locked.view).toMatchObject({ locked: true });
    const response = await callAction(
      page,
      postForm(
        studentPath(student07),
        fields(data, { [data.view.group!.questions[0].id]: { value: "Tekst" } }, { intent: "next" }),
        { cookie },
      ),
      params(student07),
    );
    expect(response.status).toBe(303);
    expect(await flashOf(response)).toMatchObject({ type: "error", key: "answers:locked.flash" });
    expect(await db().select().from(answerSets).where(eq(answerSets.authorUserId, student07))).toEqual([]);
  });
});

describe("the autosave endpoint", () => {
  const place = (studentUserId = student05) => ({
    classId: String(classA),
    formId: String(mainForm),
    schemeId: String(mid),
    studentUserId: String(studentUserId),
  });
  const autosave = (body: Record<string, string>, cookie: string) =>
    callAction(api, postForm("/api/answers", body, { cookie }));

  test("saves the changed answers and answers with their new tokens", async () => {
    const data = await pageData(`${teacherPath()}?group=4`, cookies.laerer1);
    const q = data.view.group!.questions[1];
    const response = await autosave(
      { ...place(), [`b:${q.id}`]: q.token, [`a:${q.id}`]: "3", [`c:${q.id}`]: "Lagret automatisk" },
      cookies.laerer1,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const body = await response.json();
    expect(body.tokens).toEqual({ [q.id]: answerToken({ value: "3", comment: "Lagret automatisk" }) });
    // Stale: the same base again with another value is a conflict, reported, not a failure.
    const stale = await autosave(
      { ...place(), [`b:${q.id}`]: q.token, [`a:${q.id}`]: "1", [`c:${q.id}`]: "" },
      cookies.laerer1,
    );
    expect(stale.status).toBe(200);
    expect((await stale.json()).conflicts).toEqual([{ questionId: q.id, value: "3", comment: "Lagret automatisk" }]);
  });

  test("a page loaded before the rename posts its scheme as assignmentId: saved the same", async () => {
    const data = await pageData(`${teacherPath()}?group=4`, cookies.laerer1);
    const q = data.view.group!.questions[1];
    const { schemeId, ...rest } = place();
    const response = await autosave(
      {
        ...rest,
        assignmentId: schemeId,
        [`b:${q.id}`]: q.token,
        [`a:${q.id}`]: "4",
        [`c:${q.id}`]: "Fra en eldre side",
      },
      cookies.laerer1,
    );
    expect(response.status).toBe(200);
    expect((await response.json()).tokens).toEqual({
      [q.id]: answerToken({ value: "4", comment: "Fra en eldre side" }),
    });
  });

  test("a missing place, another student, a too-long comment, or a GET: a clear 4xx, in JSON", async () => {
    const malformed = await autosave({ formId: String(mainForm) }, cookies.student05);
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ error: "malformed" });
    // Another student's place: 404 as on the page, which hides whether it exists.
    const foreign = await autosave(place(student06), cookies.student05);
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ error: "notFound" });
    const data = await pageData(`${studentPath()}?group=4`, cookies.student05);
    const q = data.view.group!.questions[0];
    const long = await autosave(
      { ...place(), [`b:${q.id}`]: q.token, [`a:${q.id}`]: "1", [`c:${q.id}`]: "x".repeat(2001) },
      cookies.student05,
    );
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({ error: "invalid", fieldErrors: { [q.id]: "commentTooLong" } });
    const get = await callLoader(api, getPage("/api/answers", { cookie: cookies.student05 }));
    expect(get.status).toBe(405);
    expect(get.headers.get("Allow")).toBe("POST");
    expect(await get.json()).toEqual({ error: "methodNotAllowed" });
  });

  test("the script's refusals in JSON: logged out 401, policy not accepted or no role 403, never a redirect to a page", async () => {
    const q = (await pageData(`${studentPath()}?group=4`, cookies.student05)).view.group!.questions[0];
    const answer = { ...place(), [`b:${q.id}`]: q.token, [`a:${q.id}`]: "2", [`c:${q.id}`]: "" };
    const anonymous = await callAction(api, postForm("/api/answers", answer));
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("Location")).toBeNull();
    expect(anonymous.headers.get("Cache-Control")).toBe("no-store");
    expect(await anonymous.json()).toEqual({ error: "loggedOut" });
    // A session that ended (the cookie of a logged-out session) is logged out too.
    const ended = cookies.student05.replace(/=.*/, "=s%3Anot-a-session.x");
    const stale = await callAction(api, postForm("/api/answers", answer, { cookie: ended }));
    expect(stale.status).toBe(401);
    expect(await stale.json()).toEqual({ error: "loggedOut" });

    const notAccepted = await sessionCookieFor(db(), "student25@example.org");
    const gate = await callAction(api, postForm("/api/answers", answer, { cookie: notAccepted }));
    expect(gate.status).toBe(403);
    expect(await gate.json()).toEqual({ error: "privacyNotAccepted" });

    const student05Id = await userIdOf(db(), "student05@example.org");
    await acceptPrivacyPolicy(
      db(),
      await userIdOf(db(), "admin@example.org"),
      currentInstitution().privacyPolicyVersion,
      "192.0.2.1",
    );
    const { token } = await createSession(db(), { userId: await userIdOf(db(), "admin@example.org") });
    const noRole = (await appCookies().session.serialize(token)).split(";")[0];
    const chooser = await callAction(api, postForm("/api/answers", answer, { cookie: noRole }));
    expect(chooser.status).toBe(403);
    expect(await chooser.json()).toEqual({ error: "forbidden" });
    // None of them wrote anything.
    const [set] = await db()
      .select({ id: answerSets.id })
      .from(answerSets)
      .where(and(eq(answerSets.authorUserId, student05Id), eq(answerSets.studentUserId, student05Id)));
    const stored = set
      ? await db()
          .select()
          .from(answers)
          .where(and(eq(answers.answerSetId, set.id), eq(answers.questionId, q.id)))
      : [];
    expect(stored.map((a) => a.value)).not.toContain("2");
  });
});
