import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { classTeachers, studentReferences } from "~/services/platform/db/schema";
import { ROLE } from "~/services/identity";
import { cookieActingAs, startTestApp, stopTestApp, userIdOf, classIdOf } from "~/test/app";
import { callAction, callLoader, getPage, postForm, flashOf } from "~/test/route";
import * as leavePage from "./leave-class";

let app: Awaited<ReturnType<typeof startTestApp>>;
const db = () => app.database.db;
let syk2001: number;
const cookies: Record<string, string> = {};

beforeAll(async () => {
  app = await startTestApp();
  syk2001 = await classIdOf(db(), "SYK2001");
  cookies.laerer1 = await cookieActingAs(db(), "laerer1@example.org", ROLE.Teacher);
  cookies.laerer3 = await cookieActingAs(db(), "laerer3@example.org", ROLE.Teacher);
  cookies.student = await cookieActingAs(db(), "student01@example.org", ROLE.Student);
});

afterAll(async () => {
  await stopTestApp(app);
});

const path = () => `/teacher/class/${syk2001}/leave`;
const params = () => ({ classId: String(syk2001) });
const open = (cookie: string) => callLoader(leavePage, getPage(path(), { cookie }), params());
const post = (cookie: string, fields: Record<string, string>) =>
  callAction(leavePage, postForm(path(), fields, { cookie }), params());

interface PageData {
  subject: string;
  students: { userId: number; displayName: string }[];
  seen: string;
  classPage: string;
}

test("leaving asks first: the page names the students who lose their teacher; only the confirmation of that list leaves", async () => {
  const laerer1 = await userIdOf(db(), "laerer1@example.org");
  const response = await open(cookies.laerer1);
  expect(response.status).toBe(200);
  const page = (await response.json()) as PageData;
  // laerer1 follows five of SYK2001's students in the demo.
  expect(page.students).toHaveLength(5);
  expect(page.students.map((s) => s.displayName)).toContain("Emma Andersen");
  expect(page.seen.split(",").map(Number)).toEqual(page.students.map((s) => s.userId).sort((a, b) => a - b));
  expect(page).toMatchObject({ subject: "SYK2001 Praksis i sykehjem", classPage: `/teacher/class/${syk2001}` });

  // Without the confirmation's fields nothing happens.
  expect((await post(cookies.laerer1, {})).status).toBe(400);
  expect((await post(cookies.laerer1, { intent: "leave" })).status).toBe(400);
  expect((await post(cookies.laerer1, { intent: "leave", students: "1;2" })).status).toBe(400);
  // A list that is not the one there is now (a student taken meanwhile): shown again, nobody leaves.
  const stale = await post(cookies.laerer1, { intent: "leave", students: page.seen.split(",").slice(1).join(",") });
  expect(stale.status).toBe(303);
  expect(stale.headers.get("Location")).toBe(path());
  expect(await flashOf(stale)).toEqual({ type: "error", key: "confirmSteps:leave.changed" });
  const stillThere = await db()
    .select()
    .from(classTeachers)
    .where(and(eq(classTeachers.classId, syk2001), eq(classTeachers.userId, laerer1)));
  expect(stillThere).toHaveLength(1);

  const left = await post(cookies.laerer1, { intent: "leave", students: page.seen });
  expect(left.status).toBe(303);
  expect(left.headers.get("Location")).toBe("/teacher");
  expect(await flashOf(left)).toMatchObject({
    type: "success",
    key: "teacher:class.leftReleased",
    values: { count: 5 },
  });
  const refs = await db()
    .select()
    .from(studentReferences)
    .where(and(eq(studentReferences.classId, syk2001), eq(studentReferences.teacherUserId, laerer1)));
  expect(refs).toEqual([]);
  // Not a teacher of the class any more: the page is not found.
  expect((await open(cookies.laerer1)).status).toBe(404);
});

test("only the class's teachers: another class's teacher gets 404, another role the role chooser or 403", async () => {
  expect((await open(cookies.laerer3)).status).toBe(404);
  expect((await post(cookies.laerer3, { intent: "leave", students: "" })).status).toBe(404);
  const student = await open(cookies.student);
  expect(student.status).toBe(302);
  expect(student.headers.get("Location")).toMatch(/^\/role\?redirectTo=/);
  expect((await post(cookies.student, { intent: "leave", students: "" })).status).toBe(403);
});
