import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ROLE } from "~/services/identity";
import { cookieActingAs, startTestApp, stopTestApp, userIdOf, classIdOf } from "~/test/app";
import { callLoader, getPage } from "~/test/route";
import * as studentPage from "./student";
import { calendar } from "~/test/calendar";

let app: Awaited<ReturnType<typeof startTestApp>>;
let marte: string;
let classA: number;
let classB: number;

const db = () => app.database.db;

beforeAll(async () => {
  app = await startTestApp();
  marte = await cookieActingAs(db(), "veileder1@example.org", ROLE.Supervisor);
  classA = await classIdOf(db(), "SYK2001");
  classB = await classIdOf(db(), "SYK2002");
});

afterAll(async () => {
  await stopTestApp(app);
});

const load = (cookie: string, classId: number, userId: number | string) =>
  callLoader(studentPage, getPage(`/supervisor/class/${classId}/student/${userId}`, { cookie }), {
    classId: String(classId),
    userId: String(userId),
  });

describe("the supervisor's page of a student", () => {
  test("the assigned supervisor sees the placement with who has sent what", async () => {
    const response = await load(marte, classA, await userIdOf(db(), "student01@example.org"));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.relation).toBe("supervisor");
    expect(body.placement.student.displayName).toBe("Emma Andersen");
    expect(body.placement.teacher.displayName).toBe("Ingrid Haugen");
    expect(body.placement.supervisor.displayName).toBe("Marte Solberg");
    const [mid] = body.placement.schemes;
    expect(mid.isMidSemester).toBe(true);
    expect(mid.forms[0]).toMatchObject({ name: "Vurdering av kliniske kompetanser", own: { state: "sent" } });
    expect(mid.forms[0].sentBy.student).toMatch(
      new RegExp(`^\\d{1,2}\\.\\d{1,2}\\.${calendar.current.startDate.slice(0, 4)}$`),
    );
  });

  test("an extra supervisor sees the student too", async () => {
    const response = await load(marte, classA, await userIdOf(db(), "student02@example.org"));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.relation).toBe("extraSupervisor");
    expect(body.placement.supervisor.displayName).toBe("Ole Kristiansen");
    expect(body.placement.extraSupervisors.map((p: { displayName: string }) => p.displayName)).toEqual([
      "Marte Solberg",
    ]);
  });

  test("another supervisor's student, in the same class or another, is a 404 with no data", async () => {
    for (const [classId, email, name] of [
      [classA, "student04@example.org", "Jakob Pedersen"],
      [classA, "student12@example.org", "Filip Halvorsen"],
      [classB, "student13@example.org", "Leah Strand"],
      [classA, "student13@example.org", "Leah Strand"],
    ] as const) {
      const response = await load(marte, classId, await userIdOf(db(), email));
      expect(response.status, email).toBe(404);
      const text = await response.text();
      expect(text).not.toContain(name);
      expect(text).not.toContain(email);
    }
    expect((await load(marte, classA, 999_999)).status).toBe(404);
    expect((await load(marte, classA, "abc")).status).toBe(404);
  });

  test("a teacher is sent to the role chooser; no session goes to log-in", async () => {
    const teacher = await cookieActingAs(db(), "laerer1@example.org", ROLE.Teacher);
    const response = await load(teacher, classA, await userIdOf(db(), "student01@example.org"));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/role\?redirectTo=/);
    const anonymous = await callLoader(studentPage, getPage(`/supervisor/class/${classA}/student/1`), {
      classId: String(classA),
      userId: "1",
    });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toMatch(/^\/\?redirectTo=/);
  });
});
