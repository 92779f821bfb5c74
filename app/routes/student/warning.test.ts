import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { auditEvents, classes, semesters, studentReferences, subjects, warnings } from "~/services/platform/db/schema";
import { ROLE } from "~/services/identity";
import { cookieActingAs, silenceMailLog, startTestApp, stopTestApp, userIdOf } from "~/test/app";
import { callAction, callLoader, getPage, postForm, flashOf } from "~/test/route";
import * as teacherWarning from "../teacher/warning";
import * as layout from "./class-layout";
import * as warningPage from "./warning";
import { calendar } from "~/test/calendar";

let app: Awaited<ReturnType<typeof startTestApp>>;
const db = () => app.database.db;
let classB: number;
let cookies: Record<string, string>;

async function warningOf(email: string) {
  const studentUserId = await userIdOf(db(), email);
  const [ref] = await db()
    .select({ id: studentReferences.id })
    .from(studentReferences)
    .where(and(eq(studentReferences.classId, classB), eq(studentReferences.studentUserId, studentUserId)));
  const [row] = await db().select().from(warnings).where(eq(warnings.studentReferenceId, ref.id));
  return row ?? null;
}

beforeAll(async () => {
  app = await startTestApp();
  const [row] = await db()
    .select({ id: classes.id })
    .from(classes)
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .innerJoin(semesters, eq(semesters.id, classes.semesterId))
    .where(and(eq(subjects.subjectCode, "SYK2002"), eq(semesters.name, calendar.current.name)));
  classB = row.id;
  cookies = {
    student18: await cookieActingAs(db(), "student18@example.org", ROLE.Student),
    student15: await cookieActingAs(db(), "student15@example.org", ROLE.Student),
    student25: await cookieActingAs(db(), "student25@example.org", ROLE.Student),
    teacher: await cookieActingAs(db(), "admin@example.org", ROLE.Teacher),
  };
});

afterAll(async () => {
  await stopTestApp(app);
});

beforeEach(() => {
  silenceMailLog();
});

const alertOf = async (cookie: string, path = "/student/forms") => {
  const response = await callLoader(layout, getPage(path, { cookie }));
  expect(response.status).toBe(200);
  return ((await response.json()) as { warningToConfirm: boolean }).warningToConfirm;
};
const open = (cookie: string) => callLoader(warningPage, getPage("/student/warning", { cookie }));
const confirm = (cookie: string, fields: Record<string, string>) =>
  callAction(warningPage, postForm("/student/warning", fields, { cookie }));

interface PageData {
  subject: string;
  warning: null | {
    id: number;
    state: string;
    text: Record<string, string>;
    teacherName: string;
    givenText: string;
    confirmedText: string | null;
  };
  pdf: string;
}

describe("the student's warning", () => {
  test("a given, unconfirmed warning puts the alert on the student's class pages; no warning, no alert", async () => {
    expect(await alertOf(cookies.student18)).toBe(true);
    expect(await alertOf(cookies.student15)).toBe(false);
  });

  test("the page shows the whole warning, who gave it and when, and the way to confirm", async () => {
    const response = await open(cookies.student18);
    expect(response.status).toBe(200);
    const body = (await response.json()) as PageData;
    expect(body.subject).toBe("SYK2002 Praksis i spesialisthelsetjenesten");
    expect(body.warning).toMatchObject({ state: "given", teacherName: "Ada Administrator", confirmedText: null });
    expect(body.warning!.text.passRequirementSummary).toContain("Presis oppmøte");
    expect(body.warning!.givenText).toMatch(/kl\./);
    expect(body.pdf).toBe(
      `/api/classes/${classB}/students/${await userIdOf(db(), "student18@example.org")}/warning/pdf`,
    );
  });

  test("confirming records the time, takes the alert away and shows it as accepted; twice is the same", async () => {
    const warning = await warningOf("student18@example.org");
    const response = await confirm(cookies.student18, { warningId: String(warning.id) });
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/student/warning");
    expect(await flashOf(response)).toEqual({ type: "success", key: "warnings:student.confirmedFlash" });
    const confirmed = await warningOf("student18@example.org");
    expect(confirmed.studentConfirmedWarningAt).not.toBeNull();
    expect(await alertOf(cookies.student18)).toBe(false);
    const body = (await (await open(cookies.student18)).json()) as PageData;
    expect(body.warning).toMatchObject({ state: "confirmed" });
    expect(body.warning!.confirmedText).toMatch(/kl\./);

    expect((await confirm(cookies.student18, { warningId: String(warning.id) })).status).toBe(303);
    expect((await warningOf("student18@example.org")).studentConfirmedWarningAt).toEqual(
      confirmed.studentConfirmedWarningAt,
    );
    const trail = await db().select().from(auditEvents).where(eq(auditEvents.action, "warning.confirmed"));
    expect(trail).toHaveLength(1);
  });

  test("a draft is no warning to the student: no alert, nothing on the page, nothing to confirm", async () => {
    const studentUserId = await userIdOf(db(), "student15@example.org");
    await callAction(
      teacherWarning,
      postForm(
        `/teacher/class/${classB}/student/${studentUserId}/warning`,
        { intent: "save", warningId: "", comment: "Hemmelig utkast" },
        { cookie: cookies.teacher },
      ),
      { classId: String(classB), studentUserId: String(studentUserId) },
    );
    const draft = await warningOf("student15@example.org");
    expect(await alertOf(cookies.student15)).toBe(false);
    const response = await open(cookies.student15);
    const text = await response.text();
    expect(JSON.parse(text).warning).toBeNull();
    expect(text).not.toContain("Hemmelig utkast");

    const refused = await confirm(cookies.student15, { warningId: String(draft.id) });
    expect(refused.status).toBe(303);
    expect(await flashOf(refused)).toEqual({ type: "error", key: "warnings:student.changed" });
    expect((await warningOf("student15@example.org")).studentConfirmedWarningAt).toBeNull();
  });

  test("only the student confirms; a post without the warning's id is 400; a student without a class goes to /student", async () => {
    const warning = await warningOf("student18@example.org");
    expect((await confirm(cookies.teacher, { warningId: String(warning.id) })).status).toBe(403);
    expect((await confirm(cookies.student18, {})).status).toBe(400);
    expect((await confirm(cookies.student18, { warningId: "abc" })).status).toBe(400);
    const classless = await open(cookies.student25);
    expect(classless.status).toBe(302);
    expect(classless.headers.get("Location")).toBe("/student");
    const layoutClassless = await callLoader(layout, getPage("/student/forms", { cookie: cookies.student25 }));
    expect(layoutClassless.status).toBe(302);
  });
});
