import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { studentReferences } from "~/services/platform/db/schema";
import { ROLE } from "~/services/identity";
import { cookieActingAs, startTestApp, stopTestApp, userIdOf, classIdOf } from "~/test/app";
import { callAction, callLoader, getPage, postForm, flashOf } from "~/test/route";
import * as layout from "./class-layout";
import * as homePage from "./home";
import * as joinPage from "./join-class";
import { calendar, dateText } from "~/test/calendar";

let app: Awaited<ReturnType<typeof startTestApp>>;
let student01: string;
let student25: string;
let teacher: string;
let syk2001: number;
let syk2002: number;

const db = () => app.database.db;

async function referencesOf(email: string) {
  return db()
    .select()
    .from(studentReferences)
    .where(eq(studentReferences.studentUserId, await userIdOf(db(), email)));
}

interface Reply {
  status: string;
  initialValue: Record<string, unknown>;
  error: Record<string, string[] | null>;
}

/** The class layout has no loader of its own; its middleware runs in front of a stand-in. */
const guarded = { middleware: layout.middleware, loader: () => ({ passed: true }), action: () => ({ passed: true }) };

beforeAll(async () => {
  app = await startTestApp();
  student01 = await cookieActingAs(db(), "student01@example.org", ROLE.Student);
  student25 = await cookieActingAs(db(), "student25@example.org", ROLE.Student);
  teacher = await cookieActingAs(db(), "laerer1@example.org", ROLE.Teacher);
  syk2001 = await classIdOf(db(), "SYK2001");
  syk2002 = await classIdOf(db(), "SYK2002");
});

afterAll(async () => {
  await stopTestApp(app);
});

describe("/student", () => {
  test("a student with a class sees their subject card and their earlier classes' documents, no join list", async () => {
    const response = await callLoader(homePage, getPage("/student", { cookie: student01 }));
    expect(response.status).toBe(200);
    const body = await response.json();
    const id = await userIdOf(db(), "student01@example.org");
    expect(body.current).toEqual({
      subjectCode: "SYK2001",
      subjectName: "Praksis i sykehjem",
      semesterName: calendar.current.name,
      teacher: "Ingrid Haugen",
      supervisors: ["Marte Solberg"],
      half: "end",
      deadline: dateText(calendar.classes.SYK2001.endSemesterDate),
    });
    expect(body.matching).toEqual([]);
    expect(body.earlier).toHaveLength(1);
    expect(body.earlier[0]).toMatchObject({
      subjectCode: "SYK1002",
      semesterName: calendar.previous.name,
      fullPdf: `/api/classes/${body.earlier[0].classId}/students/${id}/full/pdf`,
      signingFormPdf: `/api/classes/${body.earlier[0].classId}/students/${id}/signingform/pdf`,
    });
    // Nothing about other students.
    expect(JSON.stringify(body)).not.toMatch(/student0[2-9]|student1\d/);
  });

  test("the student's to-do comes with the page: each form not sent with its link and deadline, and no warning where none was given", async () => {
    const body = await (await callLoader(homePage, getPage("/student", { cookie: student01 }))).json();
    const id = await userIdOf(db(), "student01@example.org");
    expect(body.todo.warning).toBeNull();
    expect(body.todo.signingHref).toBeNull();
    // The medication form at mid-semester is overdue; the end-semester forms wait until the end date.
    expect(
      body.todo.forms.map((f: { name: string; isMidSemester: boolean; behind: boolean }) => [
        f.name,
        f.isMidSemester,
        f.behind,
      ]),
    ).toEqual([
      ["Legemiddelhåndtering", true, true],
      ["Vurdering av kliniske kompetanser", false, false],
      ["Legemiddelhåndtering", false, false],
    ]);
    expect(body.todo.forms[1]).toMatchObject({
      deadline: dateText(calendar.classes.SYK2001.endSemesterDate),
      href: expect.stringMatching(new RegExp(`^/student/${id}/form/\\d+/class/${syk2001}/assignment/\\d+$`)),
    });
    const warned = await cookieActingAs(db(), "student18@example.org", ROLE.Student);
    expect((await (await callLoader(homePage, getPage("/student", { cookie: warned }))).json()).todo.warning).toBe(
      "given",
    );
    // A student without a class has no to-do.
    expect((await (await callLoader(homePage, getPage("/student", { cookie: student25 }))).json()).todo).toBeNull();
  });

  test("a student without a class is offered the classes their memberships match", async () => {
    const body = await (await callLoader(homePage, getPage("/student", { cookie: student25 }))).json();
    expect(body.current).toBeNull();
    expect(body.matching.map((c: { classId: number; subjectCode: string }) => [c.classId, c.subjectCode])).toEqual([
      [syk2002, "SYK2002"],
    ]);
    expect(body.earlier).toEqual([]);
  });

  test("another role is sent to the role chooser, no session to the log-in page", async () => {
    const asTeacher = await callLoader(homePage, getPage("/student", { cookie: teacher }));
    expect(asTeacher.status).toBe(302);
    expect(asTeacher.headers.get("Location")).toMatch(/^\/role\?redirectTo=/);
    const anonymous = await callLoader(homePage, getPage("/student"));
    expect(anonymous.headers.get("Location")).toBe("/?redirectTo=%2Fstudent");
  });
});

describe("the class layout", () => {
  test("lets a student with a class through, and sends one without to /student (303 for a post)", async () => {
    expect(await (await callLoader(guarded, getPage("/student/forms", { cookie: student01 }))).json()).toEqual({
      passed: true,
    });
    const get = await callLoader(guarded, getPage("/student/forms", { cookie: student25 }));
    expect([get.status, get.headers.get("Location")]).toEqual([302, "/student"]);
    const post = await callAction(
      guarded,
      postForm("/student/supervisor/invite", { email: "a@example.org" }, { cookie: student25 }),
    );
    expect([post.status, post.headers.get("Location")]).toEqual([303, "/student"]);
  });

  test("another role posting is refused with 403", async () => {
    const post = await callAction(
      guarded,
      postForm("/student/supervisor/invite", { email: "a@example.org" }, { cookie: teacher }),
    );
    expect(post.status).toBe(403);
  });
});

describe("/student/join-class", () => {
  const post = (fields: Record<string, string>, cookie = student25) =>
    callAction(joinPage, postForm("/student/join-class", fields, { cookie }));

  test("a student with a class is sent to the forms page", async () => {
    const response = await callLoader(joinPage, getPage("/student/join-class", { cookie: student01 }));
    expect([response.status, response.headers.get("Location")]).toEqual([302, "/student/forms"]);
  });

  test("no choice, a malformed id, a class that does not match, or an unknown one: a message, 400, nothing joined", async () => {
    for (const [fields, key] of [
      [{}, "student:errors.chooseClass"],
      [{ classId: "" }, "student:errors.chooseClass"],
      [{ classId: "abc" }, "student:errors.notMatching"],
      [{ classId: "1".repeat(300) }, "student:errors.notMatching"],
      [{ classId: String(syk2001) }, "student:errors.notMatching"],
      [{ classId: "999999" }, "student:errors.notMatching"],
    ] as [Record<string, string>, string][]) {
      const response = await post(fields);
      expect(response.status, JSON.stringify(fields)).toBe(400);
      const reply = (await response.json()) as Reply;
      expect(reply.error.classId, JSON.stringify(fields)).toEqual([key]);
    }
    expect(await referencesOf("student25@example.org")).toEqual([]);
  });

  test("another role may not join", async () => {
    expect((await post({ classId: String(syk2002) }, teacher)).status).toBe(403);
  });

  test("the student joins the matching class and lands on the forms page; a second join is refused", async () => {
    const loaded = await (await callLoader(joinPage, getPage("/student/join-class", { cookie: student25 }))).json();
    expect(loaded.matching.map((c: { subjectCode: string }) => c.subjectCode)).toEqual(["SYK2002"]);

    const response = await post({ classId: String(syk2002) });
    expect([response.status, response.headers.get("Location")]).toEqual([303, "/student/forms"]);
    expect(await flashOf(response)).toEqual({
      type: "success",
      key: "student:join.joined",
      values: { subject: "SYK2002 Praksis i spesialisthelsetjenesten" },
    });
    expect((await referencesOf("student25@example.org")).map((r) => r.classId)).toEqual([syk2002]);

    const again = await post({ classId: String(syk2002) });
    expect([again.status, again.headers.get("Location")]).toEqual([303, "/student/forms"]);
    expect(await flashOf(again)).toMatchObject({ type: "error", key: "student:join.alreadyInClass" });
    expect(await referencesOf("student25@example.org")).toHaveLength(1);

    const home = await (await callLoader(homePage, getPage("/student", { cookie: student25 }))).json();
    expect(home.current).toMatchObject({ subjectCode: "SYK2002", teacher: null, supervisors: [] });
    expect(home.matching).toEqual([]);
  });

  test("a student in a class posting a crafted class id of another class joins nothing", async () => {
    const response = await post({ classId: String(syk2002) }, student01);
    expect(response.status).toBe(303);
    expect(await flashOf(response)).toMatchObject({
      type: "error",
      key: "student:join.alreadyInClass",
      values: { subject: "SYK2001" },
    });
    expect((await referencesOf("student01@example.org")).filter((r) => r.classId === syk2002)).toEqual([]);
  });
});
