import { desc, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { errorMessage } from "~/components/form-errors";
import resources from "~/locales";
import { auditEvents, sessions } from "~/services/platform/db/schema";
import { sessionIdOf } from "~/services/identity/index.server";
import { appCookies } from "~/services/platform/request.server";
import { clearOutbox, codeIn, mailsTo, silenceMailLog, startTestApp, stopTestApp, userIdOf } from "~/test/app";
import { CookieJar, setCookieFor } from "~/test/cookie-jar";
import { callAction, callLoader, getPage, postForm } from "~/test/route";
import * as login from "./login";
import * as otp from "./otp";

let app: Awaited<ReturnType<typeof startTestApp>>;

beforeAll(async () => {
  // Many log-ins of the same demo users in a quarter of an hour; the limits have tests of their own.
  app = await startTestApp({ OTP_REQUESTS_PER_EMAIL: "1000", OTP_REQUESTS_PER_ADDRESS: "1000" });
});

afterAll(async () => {
  await stopTestApp(app);
});

beforeEach(() => {
  silenceMailLog();
  clearOutbox();
});

/** Asks for a code the way the login page does; the jar then holds the pending-login cookie. */
async function requestCode(email: string, redirectTo = ""): Promise<{ jar: CookieJar; code: string }> {
  const jar = new CookieJar();
  const response = jar.take(await callAction(login, postForm("/login", { email, redirectTo })));
  expect(response.status).toBe(303);
  const [mail] = await mailsTo(email);
  return { jar, code: mail && /\b\d{6}\b/.test(mail.text) ? codeIn(mail) : "" };
}

function enterCode(jar: CookieJar, code: string, path = "/otp") {
  return callAction(otp, postForm(path, { code }, { cookie: jar.header() }));
}

function wrongCodeFor(code: string): string {
  return code === "000000" ? "000001" : "000000";
}

test("the code page needs a pending login", async () => {
  const response = await callLoader(otp, getPage("/otp"));
  expect(response.status).toBe(302);
  expect(response.headers.get("Location")).toBe("/login");

  const { jar } = await requestCode("laerer2@example.org");
  const page = await callLoader(otp, getPage("/otp", { cookie: jar.header() }));
  expect(await page.json()).toEqual({ email: "laerer2@example.org", simple: false });
});

test("posting a code without a pending login goes back to the login page", async () => {
  const response = await callAction(otp, postForm("/otp-simple", { code: "123456" }));
  expect(response.status).toBe(303);
  expect(response.headers.get("Location")).toBe("/login-simple");
});

test("the right code logs in: a session cookie, the pending login cleared, on to the role's home", async () => {
  const { jar, code } = await requestCode("laerer1@example.org");
  const response = jar.take(await enterCode(jar, code));
  expect([302, 303]).toContain(response.status);
  expect(response.headers.get("Location")).toBe("/teacher");

  const sessionCookie = setCookieFor(response, "praksis_session");
  expect(sessionCookie).toMatch(/HttpOnly/i);
  expect(sessionCookie).toMatch(/SameSite=Lax/i);
  expect(jar.has("praksis_session")).toBe(true);
  expect(jar.has("praksis_login")).toBe(false);

  const token = await appCookies().session.parse(`praksis_session=${jar.get("praksis_session")}`);
  expect(typeof token).toBe("string");
  const [row] = await app.database.db
    .select()
    .from(sessions)
    .where(eq(sessions.id, sessionIdOf(token as string)));
  expect(row.userId).toBe(await userIdOf(app.database.db, "laerer1@example.org"));

  const loginPage = await callLoader(login, getPage("/login", { cookie: jar.header() }));
  expect(loginPage.headers.get("Location")).toBe("/teacher");

  const logins = await app.database.db.select().from(auditEvents).where(eq(auditEvents.action, "login"));
  expect(logins.some((e) => e.actorUserId === row.userId)).toBe(true);
});

test("a code typed with spaces is accepted", async () => {
  const { jar, code } = await requestCode("veileder2@example.org");
  const response = await enterCode(jar, `${code.slice(0, 3)} ${code.slice(3)}`);
  expect(response.headers.get("Location")).toBe("/supervisor");
});

test("after log-in the user goes where they were going", async () => {
  const { jar, code } = await requestCode("veileder1@example.org", "/supervisor/students?x=1");
  const response = await enterCode(jar, code);
  expect(response.headers.get("Location")).toBe("/supervisor/students?x=1");
});

test("a redirectTo that normalises to another host does not send the user off-site", async () => {
  const { jar, code } = await requestCode("veileder3@example.org", "/.//evil.com");
  const response = await enterCode(jar, code);
  const location = response.headers.get("Location") ?? "";
  expect(new URL(location, "http://localhost").host).toBe("localhost");
  expect(location).toBe("/supervisor");
});

test("a code posted as multipart form data gets an answer, not a server error", async () => {
  const { jar, code } = await requestCode("veileder4@example.org");
  const body = new FormData();
  body.set("code", code);
  const request = new Request("http://localhost/otp", {
    method: "POST",
    headers: { Cookie: jar.header(), Origin: "http://localhost", "x-test-client-address": "192.0.2.1" },
    body,
  });
  const response = await callAction(otp, request);
  expect(response.status).toBeLessThan(500);
  expect(response.headers.get("Location")).toBe("/supervisor");
});

test("a user with two roles goes to the role chooser", async () => {
  const { jar, code } = await requestCode("admin@example.org");
  const response = await enterCode(jar, code);
  expect(response.headers.get("Location")).toBe("/role");
});

test("each log-in makes a new session id", async () => {
  const first = await requestCode("laerer3@example.org");
  first.jar.take(await enterCode(first.jar, first.code));
  const second = await requestCode("laerer3@example.org");
  second.jar.take(await enterCode(second.jar, second.code));
  expect(first.jar.get("praksis_session")).toBeDefined();
  expect(second.jar.get("praksis_session")).not.toBe(first.jar.get("praksis_session"));
});

test("a wrong code gets 400 with the wrong-code message, and the typed code stays", async () => {
  const { jar, code } = await requestCode("student01@example.org");
  const response = await enterCode(jar, wrongCodeFor(code));
  expect(response.status).toBe(400);
  const body = await response.json();
  expect(body.error[""]).toEqual(["auth:errors.wrongCode"]);
  expect(body.initialValue).toEqual({ code: wrongCodeFor(code) });
  expect(setCookieFor(response, "praksis_session")).toBeUndefined();
  const [failure] = await app.database.db
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.action, "login.failed"))
    .orderBy(desc(auditEvents.id))
    .limit(1);
  expect(failure).toMatchObject({
    actorUserId: await userIdOf(app.database.db, "student01@example.org"),
    details: { method: "email-code", reason: "wrong_code", email: "student01@example.org" },
  });
});

test("the fifth wrong code gets 429, and then the right code no longer works", async () => {
  const { jar, code } = await requestCode("student02@example.org");
  const statuses: number[] = [];
  let last: Response | undefined;
  for (let i = 0; i < 5; i++) {
    last = await enterCode(jar, wrongCodeFor(code));
    statuses.push(last.status);
  }
  expect(statuses).toEqual([400, 400, 400, 400, 429]);
  expect((await last!.json()).error[""]).toEqual(["auth:errors.tooManyAttempts"]);

  const right = await enterCode(jar, code);
  expect(right.status).toBe(429);
  expect((await right.json()).error[""]).toEqual(["auth:errors.tooManyAttempts"]);
  expect(setCookieFor(right, "praksis_session")).toBeUndefined();
});

test("a code used once gets 400 code-expired the second time", async () => {
  const { jar, code } = await requestCode("student03@example.org");
  const pending = jar.header();
  const first = await enterCode(jar, code);
  expect(setCookieFor(first, "praksis_session")).toBeDefined();

  const again = await callAction(otp, postForm("/otp", { code }, { cookie: pending }));
  expect(again.status).toBe(400);
  const body = await again.json();
  expect(body.error[""]).toEqual(["auth:errors.codeExpired"]);
  expect(setCookieFor(again, "praksis_session")).toBeUndefined();
});

test("an older code stops working when a new one is sent", async () => {
  const first = await requestCode("student04@example.org");
  let second = await requestCode("student04@example.org");
  while (second.code === first.code) second = await requestCode("student04@example.org");
  const stale = await enterCode(first.jar, first.code);
  expect(stale.status).toBe(400);
  expect(setCookieFor(stale, "praksis_session")).toBeUndefined();
});

test("a code that is not six digits gets 400 with a field error and is kept in the field", async () => {
  const { jar } = await requestCode("student05@example.org");
  const response = await enterCode(jar, "12ab");
  expect(response.status).toBe(400);
  const body = await response.json();
  expect(body.error.code).toEqual(["auth:errors.codeFormat"]);
  expect(body.initialValue).toEqual({ code: "12ab" });
});

test("an empty code gets 400 with the required message", async () => {
  const { jar } = await requestCode("student05@example.org");
  const response = await enterCode(jar, "");
  expect(response.status).toBe(400);
  expect((await response.json()).error.code).toEqual(["auth:errors.codeRequired"]);
});

test("no code can log in a deactivated user", async () => {
  const { jar } = await requestCode("deaktivert@example.org");
  const response = await enterCode(jar, "123456");
  expect(response.status).toBe(400);
  expect(setCookieFor(response, "praksis_session")).toBeUndefined();
});

test("guesses for an address without an account, or a deactivated one, are answered as for an account: wrong code, then too many tries", async () => {
  const answers = async (email: string) => {
    const { jar, code } = await requestCode(email);
    const seen: unknown[] = [];
    for (let i = 0; i < 6; i++) {
      // For the addresses without a code in their mail, any guess is wrong but for one in a million.
      const response = await enterCode(jar, code ? wrongCodeFor(code) : "000000");
      seen.push([response.status, (await response.json()).error]);
      expect(setCookieFor(response, "praksis_session")).toBeUndefined();
    }
    return seen;
  };
  const known = await answers("student08@example.org");
  const wrong = [400, { "": ["auth:errors.wrongCode"] }];
  const tooMany = [429, { "": ["auth:errors.tooManyAttempts"] }];
  expect(known).toEqual([wrong, wrong, wrong, wrong, tooMany, tooMany]);
  expect(await answers("ingen.slik@example.org")).toEqual(known);
  expect(await answers("deaktivert@example.org")).toEqual(known);
});

test("a pending-login cookie that was tampered with is ignored", async () => {
  const { jar, code } = await requestCode("student06@example.org");
  const forged = jar.header().replace(/praksis_login=[^;]+/, (c) => c.slice(0, -3) + "abc");
  const response = await callAction(otp, postForm("/otp", { code }, { cookie: forged }));
  expect(response.status).toBe(303);
  expect(response.headers.get("Location")).toBe("/login");
});

test("a code post from another site is refused with 403", async () => {
  const { jar, code } = await requestCode("student07@example.org");
  const response = await callAction(
    otp,
    postForm("/otp", { code }, { cookie: jar.header(), origin: "https://evil.example" }),
  );
  expect(response.status).toBe(403);
  expect(setCookieFor(response, "praksis_session")).toBeUndefined();
  expect((await enterCode(jar, code)).headers.get("Location")).toBe("/student");
});

describe("the pause after ten wrong codes for an address", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  async function pauseMails(email: string) {
    const subject = resources.nb.auth.mail.paused.subject.replace("{{appName}}", "Praksis Fjordbyen");
    return (await mailsTo(email)).filter((m) => m.subject === subject);
  }

  test("ten wrong codes from ten client addresses: the right code is refused, the pages say until when, one mail, and after the hour it works", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-03-02T10:05:00Z") });
    const email = "student13@example.org";
    const paused = errorMessage("auth:errors.codesPaused", { until: "2.3.2026 kl. 12:00" });
    // A second between steps, so the outbox (named by the time) keeps the mails in order.
    const tick = () => vi.setSystemTime(Date.now() + 1000);
    const secondsLeft = () => String(Math.ceil((Date.parse("2026-03-02T11:00:00Z") - Date.now()) / 1000));
    let pending = await requestCode(email);
    const statuses: number[] = [];
    for (let i = 1; i <= 10; i++) {
      tick();
      // A guesser asks for a new code when one is used up, and for one more before the tenth try.
      if (i === 6 || i === 10) pending = await requestCode(email);
      tick();
      const response = await callAction(
        otp,
        postForm("/otp", { code: wrongCodeFor(pending.code) }, { cookie: pending.jar.header(), ip: `203.0.113.${i}` }),
      );
      statuses.push(response.status);
    }
    tick();
    const right = await callAction(
      otp,
      postForm("/otp", { code: pending.code }, { cookie: pending.jar.header(), ip: "203.0.113.11" }),
    );
    expect(right.status).toBe(429);
    expect(setCookieFor(right, "praksis_session")).toBeUndefined();
    expect(right.headers.get("Retry-After")).toBe(secondsLeft());
    expect((await right.json()).error[""]).toEqual([paused]);
    expect(statuses).toEqual([400, 400, 400, 400, 429, 400, 400, 400, 400, 429]);

    // No new code: the log-in page says the same, with no pending log-in.
    tick();
    const again = await callAction(login, postForm("/login", { email }, { ip: "203.0.113.12" }));
    expect(again.status).toBe(429);
    expect(again.headers.get("Retry-After")).toBe(secondsLeft());
    expect((await again.json()).error[""]).toEqual([paused]);
    expect(setCookieFor(again, "praksis_login")).toBeUndefined();

    const [failure] = await app.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, "login.failed"))
      .orderBy(desc(auditEvents.id))
      .limit(1);
    expect(failure.details).toMatchObject({ method: "email-code", reason: "paused" });
    const [pause] = await app.database.db.select().from(auditEvents).where(eq(auditEvents.action, "login.paused"));
    expect(pause).toMatchObject({
      actorUserId: await userIdOf(app.database.db, email),
      details: { method: "email-code", window: "hour", until: "2026-03-02T11:00:00.000Z" },
    });

    // The pause mail goes out after the answer: one, and no code in it.
    for (let i = 0; i < 100 && (await pauseMails(email)).length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    const mails = await pauseMails(email);
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain("2.3.2026 kl. 12:00");
    expect(mails[0].text).not.toMatch(/\b\d{6}\b/);
    expect(await mailsTo(email)).toHaveLength(4); // the three codes and the pause

    vi.setSystemTime(new Date("2026-03-02T11:00:00Z"));
    const fresh = await requestCode(email);
    expect((await enterCode(fresh.jar, fresh.code)).headers.get("Location")).toBe("/student");
  });
});
