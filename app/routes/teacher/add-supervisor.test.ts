import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { auditEvents, classSupervisors, classes, subjects, userRoles, users } from "~/services/platform/db/schema";
import { ROLE } from "~/services/identity";
import { cookieActingAs, mailsTo, silenceMailLog, startTestApp, stopTestApp, userIdOf } from "~/test/app";
import { callAction, callLoader, getPage, postForm, flashOf } from "~/test/route";
import { closedPortUrl } from "~/test/smtp";
import { resetEnvForTests } from "~/services/platform/env.server";
import * as addSupervisor from "./add-supervisor";
import { calendar } from "~/test/calendar";

let app: Awaited<ReturnType<typeof startTestApp>>;
let laerer1: string;
let laerer3: string;
let student: string;
let supervisor: string;
let syk2001: number;

const db = () => app.database.db;

beforeAll(async () => {
  app = await startTestApp({ APP_URL: "https://praksis.example.org" });
  laerer1 = await cookieActingAs(db(), "laerer1@example.org", ROLE.Teacher);
  laerer3 = await cookieActingAs(db(), "laerer3@example.org", ROLE.Teacher);
  student = await cookieActingAs(db(), "student01@example.org", ROLE.Student);
  supervisor = await cookieActingAs(db(), "veileder1@example.org", ROLE.Supervisor);
  const [row] = await db()
    .select({ id: classes.id })
    .from(classes)
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .where(eq(subjects.subjectCode, "SYK2001"));
  syk2001 = row.id;
});

beforeEach(() => silenceMailLog());

afterAll(async () => {
  await stopTestApp(app);
});

const path = (classId: number | string) => `/teacher/class/${classId}/supervisors/add`;
const post = (fields: Record<string, string>, cookie = laerer1, classId: number | string = syk2001) =>
  callAction(addSupervisor, postForm(path(classId), fields, { cookie }), { classId: String(classId) });

async function attached(email: string): Promise<boolean> {
  const rows = await db()
    .select()
    .from(classSupervisors)
    .innerJoin(users, eq(users.id, classSupervisors.userId))
    .where(and(eq(classSupervisors.classId, syk2001), eq(sql`lower(${users.email})`, email.toLowerCase())));
  return rows.length > 0;
}

describe("the add-supervisor page", () => {
  test("opens for a teacher of the class", async () => {
    const response = await callLoader(addSupervisor, getPage(path(syk2001), { cookie: laerer1 }), {
      classId: String(syk2001),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      classId: syk2001,
      subject: "SYK2001 Praksis i sykehjem",
      semesterName: calendar.current.name,
    });
  });

  test("is not found for a teacher not in the class; other roles go to the role chooser", async () => {
    expect(
      (await callLoader(addSupervisor, getPage(path(syk2001), { cookie: laerer3 }), { classId: String(syk2001) }))
        .status,
    ).toBe(404);
    expect(
      (await callLoader(addSupervisor, getPage(path("abc"), { cookie: laerer1 }), { classId: "abc" })).status,
    ).toBe(404);
    const asStudent = await callLoader(addSupervisor, getPage(path(syk2001), { cookie: student }), {
      classId: String(syk2001),
    });
    expect(asStudent.status).toBe(302);
  });
});

describe("adding a supervisor", () => {
  test("creates the supervisor, attaches them to the class and mails them how to log in", async () => {
    const response = await post({ name: "Per Hansen", email: "Per.Hansen@Example.org", phone: "+47 987 65 432" });
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe(`/teacher/class/${syk2001}`);
    expect(await flashOf(response)).toEqual({
      type: "success",
      key: "teacher:addSupervisor.added",
      values: { name: "Per Hansen", email: "per.hansen@example.org" },
    });
    expect(await attached("per.hansen@example.org")).toBe(true);
    const userId = await userIdOf(db(), "per.hansen@example.org");
    const roles = await db().select().from(userRoles).where(eq(userRoles.userId, userId));
    expect(roles.map((r) => r.roleId)).toEqual([ROLE.Supervisor]);
    const [mail] = await mailsTo("per.hansen@example.org");
    expect(mail.subject).toBe("Du er praksisveileder i SYK2001 Praksis i sykehjem");
    expect(mail.text).toContain("Hei, Per Hansen!");
    expect(mail.text).toContain("Ingrid Haugen har lagt deg til som praksisveileder");
    expect(mail.text).toContain("https://praksis.example.org/login");
    expect(mail.text).toContain("Skriv inn e-postadressen per.hansen@example.org");
    expect(mail.text).toContain("Vipps");
    const [event] = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "advisor.added_to_class"), eq(auditEvents.subjectUserId, userId)));
    expect(event).toMatchObject({ actorUserId: await userIdOf(db(), "laerer1@example.org"), classId: syk2001 });
  });

  test("an existing supervisor keeps their name; a user who is not a supervisor is refused with a message", async () => {
    const supervisor = await post({ name: "Noe Annet", email: "veileder3@example.org" });
    expect(supervisor.status).toBe(303);
    expect((await flashOf(supervisor))?.values).toEqual({ name: "Hanne Berg", email: "veileder3@example.org" });
    expect(await mailsTo("veileder3@example.org")).toHaveLength(1);

    const teacher = await post({ name: "Noe Annet", email: "laerer3@example.org", phone: "400 00 003" });
    expect(teacher.status).toBe(400);
    const reply = await teacher.json();
    expect(reply.error.email).toEqual(["teacher:errors.notSupervisor?email=laerer3%40example.org"]);
    expect(reply.initialValue).toMatchObject({ name: "Noe Annet", email: "laerer3@example.org", phone: "400 00 003" });
    const [user] = await db().select().from(users).where(eq(users.email, "laerer3@example.org"));
    expect(user).toMatchObject({ displayName: "Siri Lunde", phoneNumber: null });
    const roles = await db().select().from(userRoles).where(eq(userRoles.userId, user.id));
    expect(roles.map((r) => r.roleId)).toEqual([ROLE.Teacher]);
    expect(await attached("laerer3@example.org")).toBe(false);
    expect(await mailsTo("laerer3@example.org")).toEqual([]);
  });

  test("NUL characters in what was typed are dropped, not a server error", async () => {
    const response = await post({ name: "\u0000Nul\u0000 Nilsen", email: "nul.nilsen@example.org\u0000", phone: "" });
    expect(response.status).toBe(303);
    const [user] = await db().select().from(users).where(eq(users.email, "nul.nilsen@example.org"));
    expect(user.displayName).toBe("Nul Nilsen");
  });

  test("a supervisor already in the class, or a deactivated user, is refused with a clear message", async () => {
    const again = await post({ name: "Marte Solberg", email: "VEILEDER1@example.org", phone: "" });
    expect(again.status).toBe(400);
    const reply = await again.json();
    expect(reply.error.email).toEqual(["teacher:errors.alreadyAttached?email=veileder1%40example.org"]);
    expect(reply.initialValue).toMatchObject({ name: "Marte Solberg", email: "VEILEDER1@example.org" });
    const deactivated = await post({ name: "Dina", email: "deaktivert@example.org" });
    expect(deactivated.status).toBe(400);
    expect((await deactivated.json()).error.email).toEqual(["teacher:errors.deactivated"]);
    expect(await attached("deaktivert@example.org")).toBe(false);
    expect(await mailsTo("deaktivert@example.org")).toEqual([]);
  });

  test("missing, malformed or over-long fields get their messages and keep what was typed", async () => {
    const empty = await post({ name: "  ", email: "" });
    expect(empty.status).toBe(400);
    expect((await empty.json()).error).toMatchObject({
      name: ["teacher:errors.nameRequired"],
      email: ["teacher:errors.emailRequired"],
    });
    const bad = await post({ name: "x".repeat(201), email: "ikke-en-adresse", phone: "12ab" });
    expect(bad.status).toBe(400);
    const reply = await bad.json();
    expect(reply.error).toMatchObject({
      name: ["teacher:errors.nameTooLong"],
      email: ["teacher:errors.emailInvalid"],
      phone: ["teacher:errors.phoneInvalid"],
    });
    expect(reply.initialValue).toMatchObject({ email: "ikke-en-adresse", phone: "12ab" });
    const longEmail = await post({ name: "Lang", email: `${"a".repeat(250)}@example.org` });
    expect((await longEmail.json()).error.email).toEqual(["teacher:errors.emailTooLong"]);
    const longPhone = await post({ name: "Lang", email: "lang@example.org", phone: "1".repeat(40) });
    expect((await longPhone.json()).error.phone).toEqual(["teacher:errors.phoneInvalid"]);
    expect(await attached("lang@example.org")).toBe(false);
  });

  test("a teacher not in the class gets 404; other roles 403; nothing is created", async () => {
    const foreign = await post({ name: "Kari Nordmann", email: "kari@example.org" }, laerer3);
    expect(foreign.status).toBe(404);
    expect((await post({ name: "Kari Nordmann", email: "kari@example.org" }, student)).status).toBe(403);
    expect((await post({ name: "Kari Nordmann", email: "kari@example.org" }, supervisor)).status).toBe(403);
    expect((await post({ name: "Kari Nordmann", email: "kari@example.org" }, laerer1, 999_999)).status).toBe(404);
    const [user] = await db().select().from(users).where(eq(users.email, "kari@example.org"));
    expect(user).toBeUndefined();
    expect(await mailsTo("kari@example.org")).toEqual([]);
  });
});

describe("when the welcome mail cannot be sent", () => {
  test("a closed mail port: the supervisor is added, the teacher is told to pass the word on, one warning in the log", async () => {
    process.env.SMTP_URL = await closedPortUrl();
    resetEnvForTests();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const response = await post({ name: "Uten Post", email: "uten.post@example.org", phone: "" });
      expect(response.status).toBe(303);
      expect(await flashOf(response)).toEqual({
        type: "info",
        key: "teacher:addSupervisor.addedMailFailed",
        values: { name: "Uten Post", email: "uten.post@example.org" },
      });
      expect(await attached("uten.post@example.org")).toBe(true);
      expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
        expect.stringMatching(/^\[mail\] not sent \(welcome to a supervisor\): unreachable: /),
      ]);
    } finally {
      delete process.env.SMTP_URL;
      resetEnvForTests();
    }
  });
});
