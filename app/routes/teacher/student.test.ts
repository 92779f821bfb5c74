import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { auditEvents, studentExtraSupervisors, studentReferences } from "~/services/platform/db/schema";
import { ROLE } from "~/services/identity";
import { cookieActingAs, startTestApp, stopTestApp, userIdOf, classIdOf } from "~/test/app";
import { callAction, callLoader, getPage, postForm, flashOf } from "~/test/route";
import * as studentPage from "./student";
import { calendar, dateText } from "~/test/calendar";

let app: Awaited<ReturnType<typeof startTestApp>>;
let laerer1: string;
let laerer3: string;
let classA: number;
let classB: number;
let maja: number;
let leah: number;
let marte: number;
let ole: number;
let hanne: number;

const db = () => app.database.db;

async function referenceOf(classId: number, studentUserId: number) {
  const [row] = await db()
    .select()
    .from(studentReferences)
    .where(and(eq(studentReferences.classId, classId), eq(studentReferences.studentUserId, studentUserId)));
  return row;
}

async function extrasOf(classId: number, studentUserId: number): Promise<number[]> {
  const ref = await referenceOf(classId, studentUserId);
  const rows = await db()
    .select()
    .from(studentExtraSupervisors)
    .where(eq(studentExtraSupervisors.studentReferenceId, ref.id));
  return rows.map((r) => r.userId);
}

interface Reply {
  intent: string;
  result: { status: string; initialValue: Record<string, unknown>; error: Record<string, string[] | null> };
}

beforeAll(async () => {
  app = await startTestApp();
  laerer1 = await cookieActingAs(db(), "laerer1@example.org", ROLE.Teacher);
  laerer3 = await cookieActingAs(db(), "laerer3@example.org", ROLE.Teacher);
  classA = await classIdOf(db(), "SYK2001");
  classB = await classIdOf(db(), "SYK2002");
  maja = await userIdOf(db(), "student11@example.org");
  leah = await userIdOf(db(), "student13@example.org");
  marte = await userIdOf(db(), "veileder1@example.org");
  ole = await userIdOf(db(), "veileder2@example.org");
  hanne = await userIdOf(db(), "veileder3@example.org");
});

afterAll(async () => {
  await stopTestApp(app);
});

const path = (classId: number, userId: number) => `/teacher/class/${classId}/student/${userId}`;
const params = (classId: number, userId: number) => ({ classId: String(classId), userId: String(userId) });
const load = (cookie: string, classId = classA, userId = maja) =>
  callLoader(studentPage, getPage(path(classId, userId), { cookie }), params(classId, userId));
const post = (fields: Record<string, string>, cookie = laerer1, classId = classA, userId = maja) =>
  callAction(studentPage, postForm(path(classId, userId), fields, { cookie }), params(classId, userId));

describe("the teacher's page of a student", () => {
  test("a teacher of the class sees the student's placement, forms and the supervisors to choose from", async () => {
    const response = await load(laerer1);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.placement.student).toMatchObject({ displayName: "Maja Moen", email: "student11@example.org" });
    expect(body.placement.supervisor).toBeNull();
    expect(body.placement.header.subjectCode).toBe("SYK2001");
    expect(body.placement.half).toMatchObject({
      half: "end",
      deadlineText: dateText(calendar.classes.SYK2001.endSemesterDate),
    });
    expect(body.placement.schemes).toHaveLength(2);
    expect(body.supervisorChoices.map((s: { displayName: string }) => s.displayName)).toEqual([
      "Marte Solberg",
      "Ole Kristiansen",
    ]);
    expect(body.extraCandidates.map((s: { displayName: string }) => s.displayName)).toEqual([
      "Marte Solberg",
      "Ole Kristiansen",
    ]);
  });

  test("a teacher of another class, or a student of another class, is a 404 with nothing of the student", async () => {
    for (const [cookie, classId, userId] of [
      [laerer3, classA, maja],
      [laerer1, classB, leah],
      [laerer1, classA, leah],
      [laerer1, classA, 999_999],
    ] as const) {
      const response = await load(cookie, classId, userId);
      expect(response.status).toBe(404);
      const text = await response.text();
      expect(text).not.toMatch(/Maja Moen|student11|Leah Strand|student13/);
    }
    const malformed = await callLoader(
      studentPage,
      getPage(`/teacher/class/${classA}/student/x`, { cookie: laerer1 }),
      {
        classId: String(classA),
        userId: "x",
      },
    );
    expect(malformed.status).toBe(404);
  });

  test("other roles: a GET goes to the role chooser, a POST is forbidden and changes nothing", async () => {
    const supervisor = await cookieActingAs(db(), "veileder1@example.org", ROLE.Supervisor);
    const asSupervisor = await load(supervisor);
    expect(asSupervisor.status).toBe(302);
    expect(asSupervisor.headers.get("Location")).toMatch(/^\/role\?redirectTo=/);
    const student = await cookieActingAs(db(), "student11@example.org", ROLE.Student);
    const admin = await cookieActingAs(db(), "admin@example.org", ROLE.Admin);
    for (const cookie of [student, admin, supervisor]) {
      const response = await post({ intent: "setSupervisor", supervisorUserId: String(marte) }, cookie);
      expect(response.status).toBe(403);
    }
    expect((await referenceOf(classA, maja)).supervisorUserId).toBeNull();
  });
});

describe("choosing the student's supervisor", () => {
  test("the teacher sets a supervisor of the class, then none; each audited, with a message", async () => {
    const set = await post({ intent: "setSupervisor", supervisorUserId: String(ole) });
    expect(set.status).toBe(303);
    expect(set.headers.get("Location")).toBe(path(classA, maja));
    expect(await flashOf(set)).toEqual({
      type: "success",
      key: "placement:teacher.supervisorSaved",
      values: { student: "Maja Moen", supervisor: "Ole Kristiansen" },
    });
    expect((await referenceOf(classA, maja)).supervisorUserId).toBe(ole);
    const [event] = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "student.advisor_assigned"), eq(auditEvents.subjectUserId, maja)));
    expect(event).toMatchObject({
      actorUserId: await userIdOf(db(), "laerer1@example.org"),
      details: { from: null, to: ole },
    });

    const same = await post({ intent: "setSupervisor", supervisorUserId: String(ole) });
    expect(await flashOf(same)).toMatchObject({ type: "info", key: "placement:teacher.supervisorUnchanged" });

    const cleared = await post({ intent: "setSupervisor", supervisorUserId: "none" });
    expect(cleared.status).toBe(303);
    expect(await flashOf(cleared)).toMatchObject({ key: "placement:teacher.supervisorCleared" });
    expect((await referenceOf(classA, maja)).supervisorUserId).toBeNull();
  });

  test("a supervisor of another class, a stranger, junk or nothing is a 400 with a message, keeping the choice", async () => {
    for (const [supervisorUserId, key] of [
      [String(hanne), "placement:errors.notClassSupervisor"],
      [String(maja), "placement:errors.notClassSupervisor"],
      ["999999", "placement:errors.notClassSupervisor"],
      ["99999999999", "placement:errors.notClassSupervisor"],
      ["Marte", "placement:errors.notClassSupervisor"],
      ["1".repeat(5000), "placement:errors.notClassSupervisor"],
    ]) {
      const response = await post({ intent: "setSupervisor", supervisorUserId });
      expect(response.status, supervisorUserId.slice(0, 20)).toBe(400);
      const body = (await response.json()) as Reply;
      expect(body.intent).toBe("setSupervisor");
      expect(body.result.error.supervisorUserId).toEqual([key]);
      expect(body.result.initialValue.supervisorUserId).toBe(supervisorUserId);
    }
    const missing = await post({ intent: "setSupervisor" });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as Reply).result.error.supervisorUserId).toEqual([
      "placement:errors.supervisorRequired",
    ]);
    expect((await referenceOf(classA, maja)).supervisorUserId).toBeNull();
  });

  test("an unknown intent or a body that is no form is a bad request", async () => {
    expect((await post({ intent: "delete" })).status).toBe(400);
    expect((await post({})).status).toBe(400);
    const broken = new Request(`http://localhost${path(classA, maja)}`, {
      method: "POST",
      headers: { Origin: "http://localhost", Cookie: laerer1, "Content-Type": "multipart/form-data; boundary=x" },
      body: "nonsense",
    });
    expect((await callAction(studentPage, broken, params(classA, maja))).status).toBe(400);
  });

  test("a teacher of another class posting is a 404 and changes nothing", async () => {
    const response = await post({ intent: "setSupervisor", supervisorUserId: String(marte) }, laerer3);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain("Maja Moen");
    expect((await referenceOf(classA, maja)).supervisorUserId).toBeNull();
  });
});

describe("extra supervisors", () => {
  test("added, refused when repeated or assigned, removed; nothing else changes", async () => {
    const added = await post({ intent: "addExtra", extraUserId: String(marte) });
    expect(added.status).toBe(303);
    expect(await flashOf(added)).toEqual({
      type: "success",
      key: "placement:teacher.extraAdded",
      values: { supervisor: "Marte Solberg" },
    });
    expect(await extrasOf(classA, maja)).toEqual([marte]);

    const again = await post({ intent: "addExtra", extraUserId: String(marte) });
    expect(again.status).toBe(400);
    expect(((await again.json()) as Reply).result.error.extraUserId).toEqual(["placement:errors.alreadyExtra"]);

    const page = await (await load(laerer1)).json();
    expect(page.placement.extraSupervisors.map((p: { displayName: string }) => p.displayName)).toEqual([
      "Marte Solberg",
    ]);
    expect(page.extraCandidates.map((p: { displayName: string }) => p.displayName)).toEqual(["Ole Kristiansen"]);

    // Making the extra supervisor the assigned one moves them, in one step.
    expect((await post({ intent: "setSupervisor", supervisorUserId: String(marte) })).status).toBe(303);
    expect(await extrasOf(classA, maja)).toEqual([]);
    const assigned = await post({ intent: "addExtra", extraUserId: String(marte) });
    expect(assigned.status).toBe(400);
    expect(((await assigned.json()) as Reply).result.error.extraUserId).toEqual(["placement:errors.isAssigned"]);

    expect((await post({ intent: "addExtra", extraUserId: String(ole) })).status).toBe(303);
    const removed = await post({ intent: "removeExtra", removeUserId: String(ole) });
    expect(removed.status).toBe(303);
    expect(await flashOf(removed)).toEqual({
      type: "success",
      key: "placement:teacher.extraRemoved",
      values: { supervisor: "Ole Kristiansen" },
    });
    expect(await extrasOf(classA, maja)).toEqual([]);
    expect((await referenceOf(classA, maja)).supervisorUserId).toBe(marte);
  });

  test("bad input: nobody chosen, another class's supervisor, someone who is no extra", async () => {
    for (const [fields, field, key] of [
      [{ intent: "addExtra" }, "extraUserId", "placement:errors.extraRequired"],
      [{ intent: "addExtra", extraUserId: "" }, "extraUserId", "placement:errors.extraRequired"],
      [{ intent: "addExtra", extraUserId: String(hanne) }, "extraUserId", "placement:errors.notClassSupervisor"],
      [{ intent: "addExtra", extraUserId: "x".repeat(3000) }, "extraUserId", "placement:errors.notClassSupervisor"],
      [{ intent: "removeExtra", removeUserId: String(ole) }, "removeUserId", "placement:errors.notExtra"],
      [{ intent: "removeExtra" }, "removeUserId", "placement:errors.notExtra"],
    ] as const) {
      const response = await post(fields);
      expect(response.status, JSON.stringify(fields).slice(0, 60)).toBe(400);
      expect(((await response.json()) as Reply).result.error[field]).toEqual([key]);
    }
  });
});
