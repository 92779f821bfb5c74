import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ROLE } from "~/services/identity";
import { cookieActingAs, startTestApp, stopTestApp } from "~/test/app";
import { callLoader, getPage } from "~/test/route";
import * as home from "./home";
import { calendar } from "~/test/calendar";

let app: Awaited<ReturnType<typeof startTestApp>>;

beforeAll(async () => {
  app = await startTestApp();
});

afterAll(async () => {
  await stopTestApp(app);
});

interface ClassRow {
  subjectCode: string;
  semesterName: string;
}

describe("the teacher's home", () => {
  test("lists the teacher's classes, now and earlier, and this semester's other classes", async () => {
    const cookie = await cookieActingAs(app.database.db, "laerer1@example.org", ROLE.Teacher);
    const response = await callLoader(home, getPage("/teacher", { cookie }));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.name).toBe("Ingrid Haugen");
    expect(body.current.map((c: ClassRow) => c.subjectCode)).toEqual(["SYK2001"]);
    expect(body.earlier.map((c: ClassRow) => [c.subjectCode, c.semesterName])).toEqual([
      ["SYK1002", calendar.previous.name],
    ]);
    expect(body.others.map((c: ClassRow) => c.subjectCode)).toEqual(["SYK2002"]);
  });

  test("each teacher sees the classes they have not joined as other classes", async () => {
    const cookie = await cookieActingAs(app.database.db, "admin@example.org", ROLE.Teacher);
    const body = await (await callLoader(home, getPage("/teacher", { cookie }))).json();
    expect(body.current.map((c: ClassRow) => c.subjectCode)).toEqual(["SYK2002"]);
    expect(body.others.map((c: ClassRow) => c.subjectCode)).toEqual(["SYK2001"]);
  });

  test("what waits on the teacher comes first: their students' forms with links in the teacher's area, the warning not confirmed", async () => {
    const laerer1 = await cookieActingAs(app.database.db, "laerer1@example.org", ROLE.Teacher);
    const body = await (await callLoader(home, getPage("/teacher", { cookie: laerer1 }))).json();
    expect(body.todo.formsTotal).toBe(19);
    expect(body.todo.forms[0]).toMatchObject({
      behind: true,
      draft: false,
      href: expect.stringMatching(/^\/teacher\/class\/\d+\/student\/\d+\/form\/\d+\/assignment\/\d+$/),
    });
    const admin = await cookieActingAs(app.database.db, "admin@example.org", ROLE.Teacher);
    const adminBody = await (await callLoader(home, getPage("/teacher", { cookie: admin }))).json();
    expect(adminBody.todo.warnings.map((w: { studentName: string; href: string }) => w.studentName)).toEqual([
      "Aksel Lie",
    ]);
    expect(adminBody.todo.warnings[0].href).toMatch(/^\/teacher\/class\/\d+\/student\/\d+\/warning$/);
    expect(adminBody.todo.withoutSupervisor.map((s: { studentName: string }) => s.studentName)).toEqual([
      "Tobias Myhre",
    ]);
  });

  test("other roles are sent to the role chooser; no session goes to log-in", async () => {
    const cookie = await cookieActingAs(app.database.db, "student01@example.org", ROLE.Student);
    const response = await callLoader(home, getPage("/teacher", { cookie }));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/role\?/);
    const anonymous = await callLoader(home, getPage("/teacher"));
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toBe("/?redirectTo=%2Fteacher");
  });
});
