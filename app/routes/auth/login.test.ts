import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import resources from "~/locales";
import { resetEnvForTests } from "~/services/platform/env.server";
import { appCookies } from "~/services/platform/request.server";
import { clearOutbox, codeIn, mailsTo, silenceMailLog, startTestApp, stopTestApp } from "~/test/app";
import { CookieJar } from "~/test/cookie-jar";
import { setCookieFor } from "~/test/cookie-jar";
import { callAction, callLoader, getPage, postForm } from "~/test/route";
import { closedPortUrl, startSilentServer, startSmtpPeer } from "~/test/smtp";
import { errorMessage } from "~/components/form-errors";
import * as login from "./login";
import * as otp from "./otp";

let app: Awaited<ReturnType<typeof startTestApp>>;

beforeAll(async () => {
  app = await startTestApp();
});

afterAll(async () => {
  await stopTestApp(app);
});

beforeEach(() => {
  silenceMailLog();
  clearOutbox();
});

const appName = "Praksis Fjordbyen";
const nbMail = resources.nb.auth.mail;

test("the login page carries a safe redirectTo and drops an unsafe one", async () => {
  const safe = await callLoader(login, getPage("/login?redirectTo=%2Fteacher%3Fx%3D1"));
  expect(await safe.json()).toEqual({ redirectTo: "/teacher?x=1", simple: false });
  const unsafe = await callLoader(login, getPage("/login-simple?redirectTo=%2F%2Fevil.com"));
  expect(await unsafe.json()).toEqual({ redirectTo: "", simple: true });
});

test("a malformed e-mail gets 400, the error key and the typed value back", async () => {
  const response = await callAction(login, postForm("/login", { email: "not-an-email", redirectTo: "/teacher" }));
  expect(response.status).toBe(400);
  const body = await response.json();
  expect(body.initialValue).toMatchObject({ email: "not-an-email", redirectTo: "/teacher" });
  expect(body.error.email).toEqual(["auth:errors.emailInvalid"]);
  expect(setCookieFor(response, "praksis_login")).toBeUndefined();
  expect(await mailsTo("not-an-email")).toEqual([]);
});

test("a missing e-mail gets 400 with the required key", async () => {
  const response = await callAction(login, postForm("/login", {}));
  expect(response.status).toBe(400);
  expect((await response.json()).error.email).toEqual(["auth:errors.emailRequired"]);
});

test("an over-long e-mail gets 400, not a 500", async () => {
  const email = `${"a".repeat(250)}@example.org`;
  const response = await callAction(login, postForm("/login", { email }));
  expect(response.status).toBe(400);
  expect((await response.json()).initialValue.email).toBe(email);
});

test("a known e-mail gets a 303 to /otp, the pending-login cookie and a mail with a code", async () => {
  const response = await callAction(
    login,
    postForm("/login", { email: " Laerer1@Example.org ", redirectTo: "/teacher?x=1" }),
  );
  expect(response.status).toBe(303);
  expect(response.headers.get("Location")).toBe("/otp");
  const cookie = setCookieFor(response, "praksis_login");
  expect(cookie).toMatch(/HttpOnly/i);
  expect(cookie).toMatch(/SameSite=Lax/i);
  expect(await appCookies().login.parse(cookie!.split(";")[0])).toEqual({
    email: "laerer1@example.org",
    redirectTo: "/teacher?x=1",
  });

  const [mail] = await mailsTo("laerer1@example.org");
  expect(codeIn(mail)).toMatch(/^\d{6}$/);
  expect(mail.subject).toBe(nbMail.code.subject.replace("{{code}}", codeIn(mail)).replace("{{appName}}", appName));
});

test("the simple login page goes on to the simple code page", async () => {
  const response = await callAction(login, postForm("/login-simple", { email: "student01@example.org" }));
  expect(response.status).toBe(303);
  expect(response.headers.get("Location")).toBe("/otp-simple");
});

test("an unsafe redirectTo is not carried into the pending login", async () => {
  const response = await callAction(
    login,
    postForm("/login", { email: "veileder1@example.org", redirectTo: "//evil.com" }),
  );
  const cookie = setCookieFor(response, "praksis_login")!;
  expect(await appCookies().login.parse(cookie.split(";")[0])).toMatchObject({ redirectTo: "" });
});

test("an unknown e-mail gets the same answer, and the mail explains there is no user", async () => {
  const response = await callAction(login, postForm("/login", { email: "nobody@example.org" }));
  expect(response.status).toBe(303);
  expect(response.headers.get("Location")).toBe("/otp");
  expect(setCookieFor(response, "praksis_login")).toBeDefined();

  const mails = await mailsTo("nobody@example.org");
  expect(mails).toHaveLength(1);
  expect(mails[0].subject).toBe(nbMail.unknown.subject.replace("{{appName}}", appName));
  expect(mails[0].text).toBe(nbMail.unknown.body.replaceAll("{{appName}}", appName));
  expect(mails[0].text).not.toMatch(/\b\d{6}\b/);
});

test("a deactivated user gets the same answer, and the mail says the user is deactivated", async () => {
  const response = await callAction(login, postForm("/login", { email: "deaktivert@example.org" }));
  expect(response.status).toBe(303);
  expect(response.headers.get("Location")).toBe("/otp");

  const [mail] = await mailsTo("deaktivert@example.org");
  expect(mail.text).toContain("deaktivert");
  expect(mail.text).not.toMatch(/\b\d{6}\b/);
});

test("the mail follows the browser's language", async () => {
  await callAction(
    login,
    postForm("/login", { email: "nobody@example.org" }, { headers: { "Accept-Language": "en-GB,en;q=0.9" } }),
  );
  const [mail] = await mailsTo("nobody@example.org");
  expect(mail.subject).toBe(resources.en.auth.mail.unknown.subject.replace("{{appName}}", "Praksis Fjordbyen"));
});

test("too many code requests for one address get 429 with Retry-After, and the typed value back", async () => {
  const ask = () => callAction(login, postForm("/login", { email: "student01@example.org" }, { ip: "198.51.100.7" }));
  const statuses: number[] = [];
  let last: Response | undefined;
  for (let i = 0; i < 7; i++) {
    last = await ask();
    statuses.push(last.status);
  }
  expect(statuses.filter((s) => s === 303).length).toBeLessThanOrEqual(5);
  expect(last!.status).toBe(429);
  expect(Number(last!.headers.get("Retry-After"))).toBeGreaterThan(0);
  const body = await last!.json();
  expect(body.error[""]).toEqual(["auth:errors.tooManyRequests"]);
  expect(body.initialValue.email).toBe("student01@example.org");
});

test("a login post from another site is refused with 403", async () => {
  const response = await callAction(
    login,
    postForm("/login", { email: "laerer1@example.org" }, { origin: "https://evil.example" }),
  );
  expect(response.status).toBe(403);
  expect(await mailsTo("laerer1@example.org")).toEqual([]);
});

test("responses carry the security headers", async () => {
  const response = await callLoader(login, getPage("/login"));
  expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
  expect(response.headers.get("X-Frame-Options")).toBe("DENY");
  expect(response.headers.get("Referrer-Policy")).toBe("same-origin");
  expect(response.headers.get("Cache-Control")).toBe("no-store");
});

describe("when the code cannot be mailed", () => {
  afterEach(() => {
    delete process.env.SMTP_URL;
    resetEnvForTests();
  });

  async function withSmtp(url: string, email: string, ip: string) {
    process.env.SMTP_URL = url;
    resetEnvForTests();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const response = await callAction(login, postForm("/login", { email, redirectTo: "/teacher" }, { ip }));
    const lines = warn.mock.calls.map((c) => String(c[0]));
    // The request's own line (a 503 is logged as a warning, README "Logs") is not the mail's warning.
    const requestLines = lines.filter((line) => /^POST \/login \d{3} /.test(line));
    expect(requestLines.length).toBeLessThanOrEqual(1);
    return { response, warnings: lines.filter((line) => !requestLines.includes(line)) };
  }

  async function expectMessage(response: Response, email: string) {
    // A message on the page (503, the form again), not an error page; what was typed is kept.
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toBe("60");
    const body = await response.json();
    expect(body.error[""]).toEqual(["auth:errors.mailNotSent"]);
    expect(body.initialValue).toMatchObject({ email, redirectTo: "/teacher" });
    expect(setCookieFor(response, "praksis_login")).toBeUndefined();
  }

  test.each([
    ["a known user's code", "laerer2@example.org"],
    ["the mail to an unknown address (the same answer: no enumeration)", "ingen.her@example.org"],
  ])("the SMTP server refusing %s gives the message, keeps the address, and logs one warning", async (_what, email) => {
    const peer = await startSmtpPeer({ refuse: "rcpt" });
    try {
      const { response, warnings } = await withSmtp(peer.url, email, "198.51.100.21");
      await expectMessage(response, email);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/^\[mail\] not sent \(log-in (code|explanation)\): refused: /);
    } finally {
      await peer.close();
    }
  });

  test("a mail server that never answers gives the message within the timeout", async () => {
    const silent = await startSilentServer();
    try {
      const began = performance.now();
      const { response, warnings } = await withSmtp(silent.url, "Student02@Example.org", "198.51.100.22");
      expect(performance.now() - began).toBeLessThan(3_000);
      await expectMessage(response, "Student02@Example.org");
      expect(warnings).toEqual([expect.stringMatching(/: timeout: /)]);
    } finally {
      await silent.close();
    }
  });

  test("a closed port gives the message", async () => {
    const { response, warnings } = await withSmtp(await closedPortUrl(), "veileder2@example.org", "198.51.100.23");
    await expectMessage(response, "veileder2@example.org");
    expect(warnings).toEqual([expect.stringMatching(/: unreachable: /)]);
  });

  test("once the server takes mail again, the same address gets its code", async () => {
    const peer = await startSmtpPeer();
    try {
      const { response, warnings } = await withSmtp(peer.url, "laerer3@example.org", "198.51.100.24");
      expect(response.status).toBe(303);
      expect(peer.received).toEqual(["laerer3@example.org"]);
      expect(warnings).toEqual([]);
    } finally {
      await peer.close();
    }
  });
});

describe("an address whose codes are paused after wrong codes", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Ten wrong codes for an address, each from a client address of its own, asking for codes as a guesser would. */
  async function tenWrongCodes(email: string, net: string): Promise<Response> {
    let jar = new CookieJar();
    let last: Response | undefined;
    for (let i = 0; i < 10; i++) {
      // A second between steps, so the outbox (named by the time) keeps the mails in order.
      vi.setSystemTime(Date.now() + 1000);
      if (i % 5 === 0) {
        jar = new CookieJar();
        const asked = jar.take(await callAction(login, postForm("/login", { email }, { ip: `${net}.${100 + i}` })));
        expect(asked.headers.get("Location")).toBe("/otp");
      }
      const [mail] = await mailsTo(email);
      const code = mail && /\b\d{6}\b/.test(mail.text) ? codeIn(mail) : "";
      last = await callAction(
        otp,
        postForm(
          "/otp",
          { code: code === "000000" ? "000001" : "000000" },
          { cookie: jar.header(), ip: `${net}.${i + 1}` },
        ),
      );
    }
    return last!;
  }

  test("the code page and the log-in page answer a known and an unknown address alike", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-03-02T10:05:00Z") });
    const paused = errorMessage("auth:errors.codesPaused", { until: "2.3.2026 kl. 12:00" });
    const answers = [];
    for (const [email, net] of [
      ["student13@example.org", "203.0.113"],
      ["ingen.pause@example.org", "198.51.100"],
    ] as const) {
      // Each address from the same instant, so the answers can be compared to the second.
      vi.setSystemTime(new Date("2026-03-02T10:05:00Z"));
      const tenth = await tenWrongCodes(email, net);
      const asked = await callAction(login, postForm("/login", { email }, { ip: `${net}.200` }));
      // (A redirect, as before the pause, has no body.)
      const askedBody = asked.status === 303 ? { error: null } : await asked.json();
      if (asked.status !== 303) expect(askedBody.initialValue.email).toBe(email);
      answers.push({
        tenth: {
          status: tenth.status,
          retryAfter: tenth.headers.get("Retry-After"),
          errors: (await tenth.json()).error,
        },
        asked: {
          status: asked.status,
          retryAfter: asked.headers.get("Retry-After"),
          pending: setCookieFor(asked, "praksis_login"),
          errors: askedBody.error,
        },
      });
    }
    expect(answers[0]).toEqual({
      tenth: { status: 429, retryAfter: String(55 * 60 - 10), errors: { "": [paused] } },
      asked: { status: 429, retryAfter: String(55 * 60 - 10), pending: undefined, errors: { "": [paused] } },
    });
    expect(answers[1]).toEqual(answers[0]);
  });

  test("the message follows the page's language", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-07-01T08:05:00Z") });
    await tenWrongCodes("ingen.engelsk@example.org", "192.0.2");
    const response = await callAction(
      login,
      postForm(
        "/login",
        { email: "ingen.engelsk@example.org" },
        { ip: "192.0.2.200", headers: { "Accept-Language": "en" } },
      ),
    );
    expect(response.status).toBe(429);
    expect((await response.json()).error[""]).toEqual([
      errorMessage("auth:errors.codesPaused", { until: "1 Jul 2026 at 11:00" }),
    ]);
  });
});
