import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { classes, forms, semesters, subjects } from "~/services/platform/db/schema";
import { ROLE } from "~/services/identity";
import { cookieActingAs, startTestApp, stopTestApp, userIdOf } from "~/test/app";
import { callLoader, getPage } from "~/test/route";
import * as results from "./form-results";
import { calendar } from "~/test/calendar";

let app: Awaited<ReturnType<typeof startTestApp>>;
const db = () => app.database.db;
let classA: number;
let mainForm: number;

beforeAll(async () => {
  app = await startTestApp();
  [{ id: classA }] = await db()
    .select({ id: classes.id })
    .from(classes)
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .innerJoin(semesters, eq(semesters.id, classes.semesterId))
    .where(and(eq(subjects.subjectCode, "SYK2001"), eq(semesters.name, calendar.current.name)));
  [{ id: mainForm }] = await db()
    .select({ id: forms.id })
    .from(forms)
    .where(eq(forms.name, "Vurdering av kliniske kompetanser"));
});

afterAll(async () => {
  await stopTestApp(app);
});

async function open(
  area: "student" | "teacher" | "supervisor",
  email: string,
  role: (typeof ROLE)[keyof typeof ROLE],
  studentEmail: string,
) {
  const studentUserId = await userIdOf(db(), studentEmail);
  const path =
    area === "student"
      ? `/student/${studentUserId}/form/${mainForm}/class/${classA}/results`
      : `/${area}/class/${classA}/student/${studentUserId}/form/${mainForm}/results`;
  const cookie = await cookieActingAs(db(), email, role);
  return callLoader(results, getPage(path, { cookie }), {
    classId: String(classA),
    formId: String(mainForm),
    studentUserId: String(studentUserId),
  });
}

test("the student sees their results without expected levels; the teacher and supervisor with them", async () => {
  const own = await open("student", "student01@example.org", ROLE.Student, "student01@example.org");
  expect(own.status).toBe(200);
  const body = await own.json();
  expect(body.pageTitle).toBe("Vurdering av kliniske kompetanser");
  expect(body.view.halves[0]).toMatchObject({ isMidSemester: true, expectationsShown: false });
  expect(body.view.halves[0].columns.map((c: { badge: string }) => c.badge)).toEqual(["S", "PV", "PL"]);
  expect(body.back).toBe("/student/forms");

  const teacher = await (await open("teacher", "laerer1@example.org", ROLE.Teacher, "student01@example.org")).json();
  expect(teacher.view.halves[0].expectationsShown).toBe(true);
  const supervisor = await open("supervisor", "veileder1@example.org", ROLE.Supervisor, "student01@example.org");
  expect(supervisor.status).toBe(200);
});

test("someone else's results by URL: 404, never data", async () => {
  expect((await open("student", "student01@example.org", ROLE.Student, "student02@example.org")).status).toBe(404);
  // veileder2 supervises in SYK2001 but not student01.
  expect((await open("supervisor", "veileder2@example.org", ROLE.Supervisor, "student01@example.org")).status).toBe(
    404,
  );
  expect((await open("teacher", "laerer3@example.org", ROLE.Teacher, "student01@example.org")).status).toBe(404);
});
