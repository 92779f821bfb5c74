import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { supervisorInvitations, sessions, studentReferences, users } from "~/services/platform/db/schema";
import { createInvitation, INVITATION_TTL_MS, currentReferenceOf } from "~/services/placements/index.server";
import { ROLE } from "~/services/identity";
import { osloDate } from "~/services/platform/semesters";
import { cookieActingAs, mailsTo, silenceMailLog, startTestApp, stopTestApp, userIdOf } from "~/test/app";
import { callAction, callLoader, getPage, postForm, flashOf } from "~/test/route";
import * as acceptPage from "./accept-invitation";

let app: Awaited<ReturnType<typeof startTestApp>>;
const db = () => app.database.db;

interface Reply {
  status: string;
  initialValue: Record<string, unknown>;
  error: Record<string, string[] | null>;
}

/** Invites `email` for the student and returns the secret from the mail, as the supervisor gets it. */
async function invite(studentEmail: string, email: string, now = new Date()): Promise<string> {
  const studentUserId = await userIdOf(db(), studentEmail);
  const reference = (await currentReferenceOf(db(), studentUserId, osloDate(new Date())))!;
  const outcome = await createInvitation(db(), {
    referenceId: reference.referenceId,
    studentUserId,
    email,
    origin: "http://localhost",
    now,
  });
  if (!outcome.ok) throw new Error(outcome.error);
  const [mail] = await mailsTo(email.toLowerCase());
  return new URL(/http:\/\/\S+/.exec(mail.text)![0]).searchParams.get("verificationGuid")!;
}

const pathOf = (secret: string, landing = "/supervisor") =>
  `/supervisor/accept-invitation?${new URLSearchParams({ verificationGuid: secret, redirect_uri: landing })}`;

const open = (secret: string, cookie?: string, landing?: string) =>
  callLoader(acceptPage, getPage(pathOf(secret, landing), { cookie }));

const accept = (secret: string, fields: Record<string, string>, cookie?: string, landing = "/supervisor") =>
  callAction(
    acceptPage,
    postForm(
      pathOf(secret, landing),
      { intent: "accept", verificationGuid: secret, redirect_uri: landing, ...fields },
      { cookie },
    ),
  );

async function supervisorOf(studentEmail: string) {
  const [row] = await db()
    .select({ supervisorUserId: studentReferences.supervisorUserId })
    .from(studentReferences)
    .where(
      eq(
        studentReferences.id,
        (await currentReferenceOf(db(), await userIdOf(db(), studentEmail), osloDate(new Date())))!.referenceId,
      ),
    );
  return row.supervisorUserId;
}

beforeAll(async () => {
  app = await startTestApp();
});

afterAll(async () => {
  await stopTestApp(app);
});

beforeEach(() => {
  silenceMailLog();
});

describe("opening the link", () => {
  test("a valid link shows who invited them to what, for which address; no session needed", async () => {
    const secret = await invite("student10@example.org", "Ny.Veileder@example.org");
    const response = await open(secret);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      state: "valid",
      secret,
      landing: "/supervisor",
      email: "ny.veileder@example.org",
      isNew: true,
      // Vipps is not set up in this file's app, so the page does not offer it.
      vipps: false,
      studentName: (await db().select().from(users).where(eq(users.email, "student10@example.org")))[0].displayName,
      subject: "SYK2001 Praksis i sykehjem",
    });
  });

  test("a landing on another site is replaced by /supervisor", async () => {
    const secret = await invite("student11@example.org", "landing@example.org");
    for (const landing of ["https://evil.example/", "//evil.example", "/\\evil.example", "javascript:alert(1)"]) {
      const body = await (await open(secret, undefined, landing)).json();
      expect(body.landing, landing).toBe("/supervisor");
    }
    expect((await (await open(secret, undefined, "/supervisor/class/1")).json()).landing).toBe("/supervisor/class/1");
  });

  test("an unknown, missing or mangled secret is 'unknown' (404), with no data", async () => {
    for (const path of [
      "/supervisor/accept-invitation",
      "/supervisor/accept-invitation?verificationGuid=",
      pathOf("made-up-token"),
      pathOf("x".repeat(5000)),
    ]) {
      const response = await callLoader(acceptPage, getPage(path));
      expect(response.status, path).toBe(404);
      expect(await response.json()).toEqual({ state: "unknown" });
    }
  });

  test("an expired link is 'expired' (410)", async () => {
    const secret = await invite(
      "student12@example.org",
      "utlopt@example.org",
      new Date(Date.now() - INVITATION_TTL_MS - 60_000),
    );
    const response = await open(secret);
    expect(response.status).toBe(410);
    expect(await response.json()).toEqual({ state: "expired" });
  });

  test("someone else logged in in this browser is told so, and shown no invitation data", async () => {
    const secret = await invite("student12@example.org", "annen@example.org");
    const teacher = await cookieActingAs(db(), "laerer1@example.org", ROLE.Teacher);
    const response = await open(secret, teacher);
    expect(response.status).toBe(409);
    const body = await response.json();
    expect(body).toEqual({ state: "otherUser", signedInAs: "Ingrid Haugen" });
  });
});

describe("accepting", () => {
  test("missing, over-long or wrong fields get messages, keep what was typed, and accept nothing", async () => {
    const secret = await invite("student22@example.org", "felter@example.org");
    for (const [fields, field, key] of [
      [{ phone: "91234567" }, "fullName", "student:errors.nameRequired"],
      [{ fullName: "   ", phone: "91234567" }, "fullName", "student:errors.nameRequired"],
      [{ fullName: "x".repeat(201), phone: "91234567" }, "fullName", "student:errors.nameTooLong"],
      [{ fullName: "Per" }, "phone", "student:errors.phoneRequired"],
      [{ fullName: "Per", phone: "ring meg" }, "phone", "student:errors.phoneInvalid"],
      [{ fullName: "Per", phone: "1234" }, "phone", "student:errors.phoneInvalid"],
      [{ fullName: "Per", phone: "9".repeat(30) }, "phone", "student:errors.phoneInvalid"],
    ] as [Record<string, string>, string, string][]) {
      const response = await accept(secret, fields);
      expect(response.status, JSON.stringify(fields)).toBe(400);
      const reply = (await response.json()) as Reply;
      expect(reply.error[field], JSON.stringify(fields)).toEqual([key]);
      for (const [name, value] of Object.entries(fields)) expect(reply.initialValue[name]).toBe(value);
    }
    expect((await open(secret)).status).toBe(200);
    expect(await supervisorOf("student22@example.org")).toBeNull();
  });

  test("an unknown intent is a bad request", async () => {
    const response = await callAction(acceptPage, postForm(pathOf("x"), { intent: "delete" }));
    expect(response.status).toBe(400);
  });

  test("a valid acceptance creates the supervisor, links them, logs them in, and the link is then used", async () => {
    const secret = await invite("student10@example.org", "nina.pv@example.org");
    const response = await accept(
      secret,
      { fullName: "Nina Pv", phone: "912 34 567" },
      undefined,
      "https://evil.example/",
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/supervisor");
    const session = response.headers.getSetCookie().find((c) => c.startsWith("praksis_session="));
    expect(session).toBeDefined();
    expect(await flashOf(response)).toMatchObject({ type: "success", key: "student:accept.acceptedFlash" });

    const [user] = await db()
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = 'nina.pv@example.org'`);
    expect(user).toMatchObject({ displayName: "Nina Pv", phoneNumber: "+4791234567" });
    expect(await supervisorOf("student10@example.org")).toBe(user.id);
    expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(1);

    const again = await open(secret);
    expect(again.status).toBe(410);
    expect(await again.json()).toEqual({ state: "used" });
    // Posting a used link again lands on the link's page, which says it is used (and moves on after 7 s).
    const reused = await accept(secret, { fullName: "Noen Andre", phone: "98765432" });
    expect([reused.status, reused.headers.get("Location")]).toEqual([303, pathOf(secret)]);
    expect(reused.headers.getSetCookie().some((c) => c.startsWith("praksis_session="))).toBe(false);
  });

  test("an expired link or a made-up one accepts nothing and logs no one in", async () => {
    const expired = await invite(
      "student23@example.org",
      "sent@example.org",
      new Date(Date.now() - INVITATION_TTL_MS - 60_000),
    );
    for (const secret of [expired, "made-up-token"]) {
      const response = await accept(secret, { fullName: "Sen", phone: "91234567" });
      expect([response.status, response.headers.get("Location")], secret).toEqual([303, pathOf(secret)]);
      expect(response.headers.getSetCookie().some((c) => c.startsWith("praksis_session="))).toBe(false);
    }
    expect(await db().select().from(users).where(eq(users.email, "sent@example.org"))).toEqual([]);
  });

  test("a deactivated user is told so on opening the link, and accepting does nothing", async () => {
    const secret = await invite("student24@example.org", "deaktivert@example.org");
    const opened = await open(secret);
    expect(opened.status).toBe(403);
    expect(await opened.json()).toEqual({ state: "deactivated" });
    const response = await accept(secret, { fullName: "Dina", phone: "91234567" });
    expect([response.status, response.headers.get("Location")]).toEqual([303, pathOf(secret)]);
    expect(response.headers.getSetCookie().some((c) => c.startsWith("praksis_session="))).toBe(false);
    expect(await supervisorOf("student24@example.org")).toBeNull();
  });

  test("a link to the address of an admin or teacher neither logs anyone in nor changes that account", async () => {
    // A forwarded (or, without APP_URL, host-rewritten) link must not become a way into another account.
    const secret = await invite("student11@example.org", "admin@example.org");
    const before = await db().select().from(users).where(eq(users.email, "admin@example.org"));
    const opened = await open(secret);
    expect(opened.status).toBe(403);
    expect(await opened.json()).toEqual({ state: "notSupervisor" });
    const response = await accept(secret, { fullName: "Inntrenger", phone: "99988777" });
    expect([response.status, response.headers.get("Location")]).toEqual([303, pathOf(secret)]);
    expect(response.headers.getSetCookie().some((c) => c.startsWith("praksis_session="))).toBe(false);
    expect(await db().select().from(users).where(eq(users.email, "admin@example.org"))).toEqual(before);
    expect(await supervisorOf("student11@example.org")).toBeNull();
  });

  test("an existing supervisor accepts without typing anything, is linked as they are, and then logs in as usual", async () => {
    const secret = await invite("student22@example.org", "veileder3@example.org");
    const before = (await db().select().from(users).where(eq(users.email, "veileder3@example.org")))[0];
    const body = await (await open(secret)).json();
    expect(body).toMatchObject({ state: "valid", email: "veileder3@example.org", isNew: false });
    const response = await accept(secret, { fullName: "Et annet navn", phone: "40000000" });
    expect([response.status, response.headers.get("Location")]).toEqual([303, "/?redirectTo=%2Fsupervisor"]);
    expect(await flashOf(response)).toMatchObject({ type: "success", key: "student:accept.acceptedLogIn" });
    expect(response.headers.getSetCookie().some((c) => c.startsWith("praksis_session="))).toBe(false);
    expect((await db().select().from(users).where(eq(users.id, before.id)))[0]).toEqual(before);
    expect(await supervisorOf("student22@example.org")).toBe(before.id);
  });

  test("with someone else logged in, nothing is accepted; logging out from the page comes back to the link", async () => {
    const secret = await invite("student23@example.org", "etter.utlogging@example.org");
    const teacher = await cookieActingAs(db(), "laerer2@example.org", ROLE.Teacher);
    const refused = await accept(secret, { fullName: "Per", phone: "91234567" }, teacher);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as Reply).error[""]).toEqual(["student:errors.otherUser"]);
    const [invitation] = await db()
      .select()
      .from(supervisorInvitations)
      .where(eq(supervisorInvitations.email, "etter.utlogging@example.org"));
    expect(invitation.acceptedAt).toBeNull();

    const logout = await callAction(
      acceptPage,
      postForm(
        pathOf(secret),
        { intent: "logout", verificationGuid: secret, redirect_uri: "/supervisor" },
        { cookie: teacher },
      ),
    );
    expect(logout.status).toBe(303);
    expect(logout.headers.get("Location")).toBe(pathOf(secret));
    expect(logout.headers.getSetCookie().some((c) => /^praksis_session=;/.test(c))).toBe(true);
    expect((await open(secret, teacher)).status).toBe(200);
  });

  test("the invited user already logged in may accept", async () => {
    const secret = await invite("student12@example.org", "veileder4@example.org");
    const self = await cookieActingAs(db(), "veileder4@example.org", ROLE.Supervisor);
    expect((await open(secret, self)).status).toBe(200);
    const response = await accept(secret, {}, self);
    expect([response.status, response.headers.get("Location")]).toEqual([303, "/supervisor"]);
    expect(await flashOf(response)).toMatchObject({ type: "success", key: "student:accept.acceptedFlash" });
    expect(await supervisorOf("student12@example.org")).toBe(await userIdOf(db(), "veileder4@example.org"));
  });
});
