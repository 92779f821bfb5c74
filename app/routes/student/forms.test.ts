import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { supervisorInvitations } from "~/services/platform/db/schema";
import { ROLE } from "~/services/identity";
import { cookieActingAs, mailsTo, silenceMailLog, startTestApp, stopTestApp, userIdOf } from "~/test/app";
import { callAction, callLoader, getPage, postForm, flashOf } from "~/test/route";
import * as formsPage from "./forms";
import * as invitePage from "./invite";
import { calendar, dateText } from "~/test/calendar";

let app: Awaited<ReturnType<typeof startTestApp>>;
let student01: string;
let student02: string;
let student11: string;
let student12: string;
let student25: string;
let teacher: string;

const db = () => app.database.db;

interface Reply {
  status: string;
  initialValue: Record<string, unknown>;
  error: Record<string, string[] | null>;
}

beforeEach(() => {
  silenceMailLog();
});

beforeAll(async () => {
  app = await startTestApp();
  student01 = await cookieActingAs(db(), "student01@example.org", ROLE.Student);
  student02 = await cookieActingAs(db(), "student02@example.org", ROLE.Student);
  student11 = await cookieActingAs(db(), "student11@example.org", ROLE.Student);
  student12 = await cookieActingAs(db(), "student12@example.org", ROLE.Student);
  student25 = await cookieActingAs(db(), "student25@example.org", ROLE.Student);
  teacher = await cookieActingAs(db(), "laerer1@example.org", ROLE.Teacher);
});

afterAll(async () => {
  await stopTestApp(app);
});

describe("/student/forms", () => {
  test("shows the student's class, people, deadline, and forms by half with their own state", async () => {
    const response = await callLoader(formsPage, getPage("/student/forms", { cookie: student01 }));
    expect(response.status).toBe(200);
    const body = await response.json();
    const id = await userIdOf(db(), "student01@example.org");
    expect(body.header).toEqual({
      subjectCode: "SYK2001",
      subjectName: "Praksis i sykehjem",
      semesterName: calendar.current.name,
    });
    expect(body.documents.fullPdf).toMatch(new RegExp(`^/api/classes/\\d+/students/${id}/full/pdf$`));
    // Student 01 has no signing form this semester, so there is no document to link to.
    expect(body.documents.signingFormPdf).toBeNull();
    expect(body.teacher).toMatchObject({ displayName: "Ingrid Haugen" });
    expect(body.supervisor).toMatchObject({ displayName: "Marte Solberg" });
    expect(body.extraSupervisors).toEqual([]);
    expect(body.mayInvite).toBe(false);
    expect([body.half, body.deadline]).toEqual(["end", dateText(calendar.classes.SYK2001.endSemesterDate)]);
    expect(body.mainForms.map((f: { name: string; state: string }) => [f.name, f.state])).toEqual([
      ["Vurdering av kliniske kompetanser", "none"],
    ]);
    expect(body.specificForms.map((f: { name: string }) => f.name)).toEqual(["Legemiddelhåndtering"]);
    expect(body.mainForms[0].href).toMatch(new RegExp(`^/student/${id}/form/\\d+/class/\\d+/assignment/\\d+$`));
    expect(body.other.half).toBe("mid");
    const sentMid = body.other.forms.find((f: { name: string }) => f.name === "Vurdering av kliniske kompetanser");
    expect(sentMid.state).toBe("sent");
    expect(sentMid.at).toMatch(new RegExp(`^\\d{1,2}\\.\\d{1,2}\\.${calendar.current.startDate.slice(0, 4)}$`));
  });

  test("an extra supervisor is listed apart; a student with no supervisor may invite one", async () => {
    const two = await (await callLoader(formsPage, getPage("/student/forms", { cookie: student02 }))).json();
    expect(two.supervisor).toMatchObject({ displayName: "Ole Kristiansen" });
    expect(two.extraSupervisors.map((p: { displayName: string }) => p.displayName)).toEqual(["Marte Solberg"]);
    expect(two.mayInvite).toBe(false);
    const eleven = await (await callLoader(formsPage, getPage("/student/forms", { cookie: student11 }))).json();
    expect([eleven.teacher, eleven.supervisor, eleven.extraSupervisors, eleven.mayInvite]).toEqual([
      null,
      null,
      [],
      true,
    ]);
    // Only the student's own answers count as "own": student11 has begun nothing.
    expect(eleven.other.forms.every((f: { state: string }) => f.state === "none")).toBe(true);
  });

  test("a student without a class is sent to /student; another role to the role chooser", async () => {
    const none = await callLoader(formsPage, getPage("/student/forms", { cookie: student25 }));
    expect([none.status, none.headers.get("Location")]).toEqual([302, "/student"]);
    const asTeacher = await callLoader(formsPage, getPage("/student/forms", { cookie: teacher }));
    expect(asTeacher.headers.get("Location")).toMatch(/^\/role\?redirectTo=/);
  });
});

describe("/student/supervisor/invite", () => {
  const post = (fields: Record<string, string>, cookie = student11) =>
    callAction(invitePage, postForm("/student/supervisor/invite", fields, { cookie }));

  test("bad addresses get a message, keep what was typed, and send nothing", async () => {
    for (const [typed, key] of [
      ["", "student:errors.emailRequired"],
      ["ikke en adresse", "student:errors.emailInvalid"],
      [`${"a".repeat(250)}@example.org`, "student:errors.emailInvalid"],
      ["STUDENT11@example.org", "student:errors.ownAddress"],
    ]) {
      const response = await post({ email: typed });
      expect(response.status, typed).toBe(400);
      const reply = (await response.json()) as Reply;
      expect(reply.error.email, typed).toEqual([key]);
      if (typed) expect(reply.initialValue.email).toBe(typed);
    }
    expect((await post({})).status).toBe(400);
    expect(await db().select().from(supervisorInvitations)).toEqual([]);
  });

  test("the student invites a supervisor: a mail with the link, a message, and the status 'sent'", async () => {
    const before = await (
      await callLoader(invitePage, getPage("/student/supervisor/invite", { cookie: student11 }))
    ).json();
    expect(before).toEqual({ subject: "SYK2001 Praksis i sykehjem", hasSupervisor: false, status: null });

    const response = await post({ email: " Ny.PV@Example.org " });
    expect([response.status, response.headers.get("Location")]).toEqual([303, "/student/supervisor/invite"]);
    expect(await flashOf(response)).toEqual({
      type: "success",
      key: "student:invite.sentFlash",
      values: { email: "ny.pv@example.org" },
    });
    const [mail] = await mailsTo("ny.pv@example.org");
    // Without APP_URL the link goes to the local address the app listens on, never to the request's host.
    expect(mail.text).toMatch(
      /http:\/\/localhost:3000\/supervisor\/accept-invitation\?verificationGuid=[\w-]{43}&redirect_uri=%2Fsupervisor/,
    );

    const after = await (
      await callLoader(invitePage, getPage("/student/supervisor/invite", { cookie: student11 }))
    ).json();
    expect(after.status).toMatchObject({ state: "sent", email: "ny.pv@example.org" });
    expect(after.status.expiresText).toMatch(/^\d{1,2}\.\d{1,2}\.\d{4} kl\. \d{2}:\d{2}$/);
  });

  test("a request to another host name cannot point the mail's link there", async () => {
    const forged = new Request("http://evil.example/student/supervisor/invite", {
      method: "POST",
      headers: {
        Origin: "http://evil.example",
        Cookie: await cookieActingAs(db(), "student10@example.org", ROLE.Student),
        "x-test-client-address": "192.0.2.1",
      },
      body: new URLSearchParams({ email: "vert@example.org" }),
    });
    expect((await callAction(invitePage, forged)).status).toBe(303);
    const [mail] = await mailsTo("vert@example.org");
    expect(mail.text).toContain("http://localhost:3000/supervisor/accept-invitation?verificationGuid=");
    expect(mail.text).not.toContain("evil.example");
  });

  test("a student with a supervisor is refused, and sees that they have one", async () => {
    const response = await post({ email: "noen@example.org" }, student01);
    expect(response.status).toBe(409);
    expect(((await response.json()) as Reply).error[""]).toEqual(["student:errors.hasSupervisor"]);
    const page = await (
      await callLoader(invitePage, getPage("/student/supervisor/invite", { cookie: student01 }))
    ).json();
    expect(page.hasSupervisor).toBe(true);
    expect(await mailsTo("noen@example.org")).toEqual([]);
  });

  test("more than five invitations a day are refused with 429", async () => {
    for (let i = 0; i < 5; i++) expect((await post({ email: `pv${i}@example.org` }, student12)).status).toBe(303);
    const sixth = await post({ email: "pv6@example.org" }, student12);
    expect(sixth.status).toBe(429);
    expect(sixth.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(await mailsTo("pv6@example.org")).toEqual([]);
  });

  test("another role is refused; a student without a class is sent to /student", async () => {
    expect((await post({ email: "x@example.org" }, teacher)).status).toBe(403);
    const none = await post({ email: "x@example.org" }, student25);
    expect([none.status, none.headers.get("Location")]).toEqual([303, "/student"]);
    const rows = await db()
      .select()
      .from(supervisorInvitations)
      .where(eq(supervisorInvitations.email, "x@example.org"));
    expect(rows).toEqual([]);
  });
});
