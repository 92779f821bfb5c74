import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { classes, subjects } from "~/services/platform/db/schema";
import { ROLE } from "~/services/identity";
import { cookieActingAs, startTestApp, stopTestApp, userIdOf } from "~/test/app";
import { callLoader, getPage } from "~/test/route";
import * as supervisorPage from "./supervisor";

let app: Awaited<ReturnType<typeof startTestApp>>;
let laerer1: string;
let laerer3: string;
let student: string;
let syk2001: number;
let veileder1: number;
let veileder3: number;

const db = () => app.database.db;

beforeAll(async () => {
  app = await startTestApp();
  laerer1 = await cookieActingAs(db(), "laerer1@example.org", ROLE.Teacher);
  laerer3 = await cookieActingAs(db(), "laerer3@example.org", ROLE.Teacher);
  student = await cookieActingAs(db(), "student01@example.org", ROLE.Student);
  const [row] = await db()
    .select({ id: classes.id })
    .from(classes)
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .where(eq(subjects.subjectCode, "SYK2001"));
  syk2001 = row.id;
  veileder1 = await userIdOf(db(), "veileder1@example.org");
  veileder3 = await userIdOf(db(), "veileder3@example.org");
});

afterAll(async () => {
  await stopTestApp(app);
});

const open = (classId: number | string, userId: number | string, cookie: string) =>
  callLoader(supervisorPage, getPage(`/teacher/class/${classId}/supervisor/${userId}`, { cookie }), {
    classId: String(classId),
    userId: String(userId),
  });

describe("a supervisor's students", () => {
  test("a teacher of the class sees the supervisor's students, assigned and extra", async () => {
    const response = await open(syk2001, veileder1, laerer1);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.supervisor).toMatchObject({ displayName: "Marte Solberg", email: "veileder1@example.org" });
    expect(body.subject).toBe("SYK2001 Praksis i sykehjem");
    expect(body.students).toHaveLength(6);
    expect(
      body.students
        .filter((s: { relation: string }) => s.relation === "extra")
        .map((s: { displayName: string }) => s.displayName),
    ).toEqual(["Noah Johansen"]);
  });

  test("a supervisor of another class, an unknown user or class is not found", async () => {
    expect((await open(syk2001, veileder3, laerer1)).status).toBe(404);
    expect((await open(syk2001, 999_999, laerer1)).status).toBe(404);
    expect((await open(999_999, veileder1, laerer1)).status).toBe(404);
    expect((await open(syk2001, "x", laerer1)).status).toBe(404);
  });

  test("a teacher not in the class gets 404 with nothing of the supervisor's students", async () => {
    const response = await open(syk2001, veileder1, laerer3);
    expect(response.status).toBe(404);
    const text = await response.text();
    expect(text).not.toContain("Emma Andersen");
    expect(text).not.toContain("Marte Solberg");
  });

  test("other roles are sent to the role chooser", async () => {
    const response = await open(syk2001, veileder1, student);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/role\?/);
  });
});
