import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { auditEvents, sessions } from "~/services/platform/db/schema";
import { resetEnvForTests } from "~/services/platform/env.server";
import { appCookies, MAX_FORM_BYTES } from "~/services/platform/request.server";
import { ROLE } from "~/services/identity";
import { sessionIdOf } from "~/services/identity/index.server";
import {
  clearOutbox,
  codeIn,
  cookieActingAs,
  mailsTo,
  silenceMailLog,
  startTestApp,
  stopTestApp,
  userIdOf,
} from "~/test/app";
import { CookieJar } from "~/test/cookie-jar";
import { callAction, callLoader, getPage, postForm, TEST_ORIGIN } from "~/test/route";
import { startup } from "~/entry.server";
import * as answersApi from "./api/answers";
import * as home from "./auth/home";
import * as login from "./auth/login";
import * as logout from "./auth/logout";
import * as otp from "./auth/otp";
import * as role from "./auth/role";
import * as privacyConsent from "./shared/privacy-consent";
import * as settings from "./shared/settings";
import * as teacherHome from "./teacher/home";

/**
 * The route-level checks of the security review (docs/security-review.md) that no other test
 * makes: cookie flags in production, renewal at log-in, log-out, Origin, headers, Cache-Control,
 * oversized bodies, malformed cookies and headers, and redirect targets.
 */

let app: Awaited<ReturnType<typeof startTestApp>>;
const db = () => app.database.db;

beforeAll(async () => {
  app = await startTestApp({ OTP_REQUESTS_PER_EMAIL: "1000", OTP_REQUESTS_PER_ADDRESS: "1000" });
});

afterAll(async () => {
  await stopTestApp(app);
});

const savedEnv = {
  NODE_ENV: process.env.NODE_ENV,
  APP_URL: process.env.APP_URL,
  MAIL_TRANSPORT: process.env.MAIL_TRANSPORT,
  INSTITUTION_FILE: process.env.INSTITUTION_FILE,
};

beforeEach(() => {
  silenceMailLog();
  clearOutbox();
});

afterEach(() => {
  vi.unstubAllEnvs();
  for (const [name, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvForTests();
});

function runAs(env: Record<string, string>): void {
  Object.assign(process.env, env);
  resetEnvForTests();
}

/** Logs in with an e-mail code through the real pages; the jar holds what the browser would. */
async function logInByCode(
  email: string,
  jar = new CookieJar(),
): Promise<{ jar: CookieJar; loginResponse: Response; otpResponse: Response }> {
  const loginResponse = jar.take(
    await callAction(login, postForm("/login", { email }, { cookie: jar.header() || undefined })),
  );
  expect(loginResponse.status).toBe(303);
  const [mail] = await mailsTo(email);
  const otpResponse = jar.take(
    await callAction(otp, postForm("/otp", { code: codeIn(mail) }, { cookie: jar.header() })),
  );
  expect([302, 303]).toContain(otpResponse.status);
  return { jar, loginResponse, otpResponse };
}

function cookieLine(response: Response, name: string): string {
  const line = response.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  if (!line) throw new Error(`no Set-Cookie for ${name}: ${response.headers.getSetCookie().join(" | ")}`);
  return line;
}

function attributesOf(line: string): string[] {
  return line
    .split(";")
    .slice(1)
    .map((a) => a.trim().toLowerCase());
}

async function sessionRow(token: string) {
  const [row] = await db()
    .select()
    .from(sessions)
    .where(eq(sessions.id, sessionIdOf(token)));
  return row;
}

async function tokenOf(cookieHeader: string): Promise<string> {
  const token = (await appCookies().session.parse(cookieHeader)) as unknown;
  if (typeof token !== "string") throw new Error("no session token in the cookie");
  return token;
}

describe("cookies", () => {
  test("in production over https: __Host- prefix, Secure, HttpOnly, SameSite=Lax, Path=/, no Domain, no lifetime", async () => {
    runAs({ NODE_ENV: "production", APP_URL: "https://praksis.example.org" });
    const { loginResponse, otpResponse } = await logInByCode("laerer1@example.org");
    for (const line of [
      cookieLine(otpResponse, "__Host-praksis_session"),
      cookieLine(loginResponse, "__Host-praksis_login"),
    ]) {
      const attributes = attributesOf(line);
      expect(attributes, line).toContain("secure");
      expect(attributes, line).toContain("httponly");
      expect(attributes, line).toContain("samesite=lax");
      expect(attributes, line).toContain("path=/");
      expect(
        attributes.some((a) => a.startsWith("domain=")),
        line,
      ).toBe(false);
    }
    const session = attributesOf(cookieLine(otpResponse, "__Host-praksis_session"));
    // A browser-session cookie: the server decides when the session ends (idle 60 min, absolute 12 h).
    expect(session.some((a) => a.startsWith("max-age=") || a.startsWith("expires="))).toBe(false);
    expect(otpResponse.headers.get("Strict-Transport-Security")).toMatch(/max-age=\d+/);
  });

  test("in production over plain http the cookies cannot be Secure, so they lose the prefix too (APP_URL must be https)", async () => {
    runAs({ NODE_ENV: "production", APP_URL: "http://praksis.example.org" });
    const { otpResponse } = await logInByCode("laerer2@example.org");
    const line = cookieLine(otpResponse, "praksis_session");
    expect(attributesOf(line)).not.toContain("secure");
    expect(attributesOf(line)).toEqual(expect.arrayContaining(["httponly", "samesite=lax", "path=/"]));
    expect(otpResponse.headers.getSetCookie().some((c) => c.startsWith("__Host-"))).toBe(false);
    expect(otpResponse.headers.get("Strict-Transport-Security")).toBeNull();
  });

  test("a production start with an http APP_URL warns that the cookies are not Secure; an https one does not", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    let schedule: Awaited<ReturnType<typeof startup>> = null;
    vi.useFakeTimers({ toFake: ["setTimeout", "setInterval", "clearTimeout", "clearInterval"] });
    try {
      // Outside demo mode start-up wants the institution's own file and a mail transport.
      const live = { MAIL_TRANSPORT: "log", INSTITUTION_FILE: "app/test/institution.json" };
      runAs({ NODE_ENV: "production", APP_URL: "https://praksis.example.org", ...live });
      const first = await startup();
      expect(warn.mock.calls.flat().join("\n")).not.toMatch(/Secure/);
      runAs({ NODE_ENV: "production", APP_URL: "http://praksis.example.org", ...live });
      schedule = await startup();
      expect(warn.mock.calls.flat().join("\n")).toMatch(/APP_URL is http: the cookies cannot be Secure/);
      // The second start-up replaced the first's reminder schedule (its first-run timeout and its
      // interval), housekeeping schedule and records schedule (the same two each) rather than adding
      // them: a schedule left behind ran a minute later in another test file of the worker, on a
      // database dropped by then.
      expect(first).not.toBeNull();
      expect(vi.getTimerCount()).toBe(6);
    } finally {
      schedule?.stop();
      vi.useRealTimers();
      warn.mockRestore();
    }
  });
});

describe("sessions", () => {
  test("a log-in renews the session: the session id the browser came with ends on the server", async () => {
    const planted = await cookieActingAs(db(), "student02@example.org", ROLE.Student);
    const plantedToken = await tokenOf(planted);
    expect(await sessionRow(plantedToken)).toBeDefined();
    const jar = new CookieJar();
    jar.take(new Response(null, { headers: [["Set-Cookie", planted]] }));
    const { jar: after } = await logInByCode("laerer3@example.org", jar);
    const newToken = await tokenOf(`praksis_session=${after.get("praksis_session")}`);
    expect(newToken).not.toBe(plantedToken);
    expect(await sessionRow(plantedToken)).toBeUndefined();
    const stale = await callLoader(role, getPage("/role", { cookie: planted }));
    expect(stale.headers.get("Location")).toBe("/?redirectTo=%2Frole");
  });

  test("log-out is POST only: a GET ends nothing; the POST deletes the session on the server and clears the cookie", async () => {
    const cookie = await cookieActingAs(db(), "laerer2@example.org", ROLE.Teacher);
    const token = await tokenOf(cookie);

    const get = await callLoader(logout, getPage("/logout", { cookie }));
    expect(get.status).toBe(302);
    expect(await sessionRow(token)).toBeDefined();

    const post = await callAction(logout, postForm("/logout", {}, { cookie }));
    expect(post.status).toBe(303);
    expect(await sessionRow(token)).toBeUndefined();
    expect(post.headers.getSetCookie().some((c) => /^praksis_session=;/.test(c) && /Max-Age=0/i.test(c))).toBe(true);
    const userId = await userIdOf(db(), "laerer2@example.org");
    const events = await db().select().from(auditEvents).where(eq(auditEvents.action, "logout"));
    expect(events.some((e) => e.actorUserId === userId)).toBe(true);

    // The old cookie, replayed, is nobody's session any more.
    const replay = await callLoader(teacherHome, getPage("/teacher", { cookie }));
    expect(replay.status).toBe(302);
    expect(replay.headers.get("Location")).toBe("/?redirectTo=%2Fteacher");
  });

  test("a log-out post from another site, or with no Origin at all, is refused and ends nothing", async () => {
    const cookie = await cookieActingAs(db(), "laerer3@example.org", ROLE.Teacher);
    const token = await tokenOf(cookie);
    expect((await callAction(logout, postForm("/logout", {}, { cookie, origin: "https://evil.example" }))).status).toBe(
      403,
    );
    expect((await callAction(logout, postForm("/logout", {}, { cookie, origin: null }))).status).toBe(403);
    expect(await sessionRow(token)).toBeDefined();
  });
});

describe("Origin", () => {
  test("a write with neither Origin nor Referer is refused with 403 and does nothing", async () => {
    const response = await callAction(login, postForm("/login", { email: "student03@example.org" }, { origin: null }));
    expect(response.status).toBe(403);
    expect(await response.text()).toContain("annet nettsted");
    expect(await mailsTo("student03@example.org")).toEqual([]);
  });

  test("a same-site Referer without Origin is accepted; a malformed Origin is refused", async () => {
    const referer = await callAction(
      login,
      postForm(
        "/login",
        { email: "student03@example.org" },
        { origin: null, headers: { Referer: `${TEST_ORIGIN}/login` } },
      ),
    );
    expect(referer.status).toBe(303);
    for (const origin of ["http://[::1", "null", "file://", "http://localhost.evil.example"]) {
      const response = await callAction(login, postForm("/login", { email: "student03@example.org" }, { origin }));
      expect(response.status, origin).toBe(403);
    }
  });
});

describe("headers", () => {
  test("every response has an enforced CSP with a fresh nonce per request, and the other security headers", async () => {
    // Vite's dev server needs inline scripts, so the CSP is set outside development only (as in the build).
    vi.stubEnv("DEV", false);
    const policies: string[] = [];
    const responses = [
      await callLoader(login, getPage("/login")),
      await callLoader(login, getPage("/login")),
      await callAction(login, postForm("/login", { email: "x" }, { origin: "https://evil.example" })),
    ];
    for (const actual of responses) {
      const csp = actual.headers.get("Content-Security-Policy") ?? "";
      expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/]{22}==?'/);
      for (const directive of [
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
        "default-src 'self'",
      ]) {
        expect(csp).toContain(directive);
      }
      expect(csp).not.toContain("unsafe-inline");
      expect(csp).not.toContain("unsafe-eval");
      expect(actual.headers.get("Content-Security-Policy-Report-Only")).toBeNull();
      expect(actual.headers.get("X-Content-Type-Options")).toBe("nosniff");
      expect(actual.headers.get("Referrer-Policy")).toBe("same-origin");
      expect(actual.headers.get("Cache-Control")).toBe("no-store");
      policies.push(csp);
    }
    const nonces = policies.map((p) => /'nonce-([^']+)'/.exec(p)![1]);
    expect(new Set(nonces).size).toBe(nonces.length);
  });

  test("the refusal of a cross-site write carries the security headers too", async () => {
    const response = await callAction(login, postForm("/login", { email: "x" }, { origin: "https://evil.example" }));
    expect(response.status).toBe(403);
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Cache-Control")).toBe("no-store");
  });

  test("authenticated responses are never stored: pages, the JSON API (whatever it answers) and redirects", async () => {
    const cookie = await cookieActingAs(db(), "laerer1@example.org", ROLE.Teacher);
    const page = await callLoader(teacherHome, getPage("/teacher", { cookie }));
    expect(page.status).toBe(200);
    expect(page.headers.get("Cache-Control")).toBe("no-store");

    const student = await cookieActingAs(db(), "student01@example.org", ROLE.Student);
    const api = await callAction(answersApi, postForm("/api/answers", { classId: "x" }, { cookie: student }));
    expect(api.status).toBe(400);
    expect(api.headers.get("Content-Type")).toMatch(/json/);
    expect(api.headers.get("Cache-Control")).toBe("no-store");

    const redirect = await callLoader(login, getPage("/login", { cookie }));
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("Cache-Control")).toBe("no-store");
  });
});

describe("bad input", () => {
  test("a body over the limit is refused with 413, declared or streamed, before it is read into memory", async () => {
    const big = "a".repeat(MAX_FORM_BYTES + 1);
    const whole = await callAction(login, postForm("/login", { email: "student01@example.org", pad: big }));
    expect(whole.status).toBe(413);

    const chunk = new TextEncoder().encode(`email=student01%40example.org&pad=${"b".repeat(64 * 1024)}`);
    const streamedPost = (headers: Record<string, string>) => {
      const counter = { pulled: 0 };
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          counter.pulled++;
          // Far more than the limit, if anyone read it all.
          if (counter.pulled > 4 * (MAX_FORM_BYTES / chunk.byteLength)) controller.close();
          else controller.enqueue(chunk);
        },
      });
      const request = new Request(`${TEST_ORIGIN}/login`, {
        method: "POST",
        headers: {
          Origin: TEST_ORIGIN,
          "Content-Type": "application/x-www-form-urlencoded",
          "x-test-client-address": "192.0.2.1",
          ...headers,
        },
        body: stream,
        duplex: "half",
      } as RequestInit);
      return { request, counter };
    };
    // Declared too long: refused before the body is read at all.
    const declared = streamedPost({ "Content-Length": String(4 * MAX_FORM_BYTES) });
    expect((await callAction(login, declared.request)).status).toBe(413);
    expect(declared.counter.pulled).toBeLessThanOrEqual(1);
    // Chunked, no length: read only up to the limit.
    const chunked = streamedPost({});
    expect((await callAction(login, chunked.request)).status).toBe(413);
    expect(chunked.counter.pulled).toBeLessThan(2 * (MAX_FORM_BYTES / chunk.byteLength));
    expect(await mailsTo("student01@example.org")).toEqual([]);
  });

  test("a form just under the limit is read as usual", async () => {
    const response = await callAction(
      login,
      postForm("/login", { email: "student04@example.org", pad: "c".repeat(MAX_FORM_BYTES - 200) }),
    );
    expect(response.status).toBe(303);
  });

  test("malformed, forged, oversized or repeated cookies are no session and no server error", async () => {
    const real = await cookieActingAs(db(), "laerer1@example.org", ROLE.Teacher);
    const [name, value] = [real.slice(0, real.indexOf("=")), real.slice(real.indexOf("=") + 1)];
    const cookies = [
      `${name}=%E0%A4%A`,
      `${name}=garbage`,
      `${name}=${value.slice(0, -3)}abc`,
      `${name}=${"A".repeat(8000)}`,
      `${name}`,
      `${name}==; ${name}=%`,
      `${name}="${value}`,
      "praksis_flash=%%%; praksis_login=e30=.x",
      `${name}=${Buffer.from(JSON.stringify("x".repeat(64))).toString("base64")}.AAAA`,
      "\u0001\u0002=\u0003",
    ];
    for (const cookie of cookies) {
      const response = await callLoader(teacherHome, getPage("/teacher", { cookie }));
      expect(response.status, cookie.slice(0, 80)).toBe(302);
      expect(response.headers.get("Location"), cookie.slice(0, 80)).toBe("/?redirectTo=%2Fteacher");
    }
    // And the genuine cookie still works next to a broken one of another name.
    const mixed = await callLoader(teacherHome, getPage("/teacher", { cookie: `praksis_flash=%E0%A4%A; ${real}` }));
    expect(mixed.status).toBe(200);
  });

  test("malformed headers get ordinary answers", async () => {
    const headers: Record<string, string>[] = [
      { "Accept-Language": "*;q=abc,,,;;;xx-ÆØÅ;q=2" },
      { "Accept-Language": "a".repeat(4000) },
      { Referer: "not a url" },
      { "X-Forwarded-For": "not-an-address, also not" },
      { "Content-Type": "multipart/form-data; boundary=" },
    ];
    for (const extra of headers) {
      const response = await callLoader(login, getPage("/login", { headers: extra }));
      expect(response.status, JSON.stringify(extra)).toBe(200);
    }
    const post = await callAction(
      login,
      postForm("/login", { email: "x" }, { headers: { "Content-Type": "multipart/form-data; boundary=" } }),
    );
    expect(post.status).toBe(400);
    const contentLength = await callAction(
      login,
      postForm("/login", { email: "x" }, { headers: { "Content-Length": "-1" } }),
    );
    expect(contentLength.status).toBeLessThan(500);
  });
});

describe("redirect targets", () => {
  const offSite = [
    "//evil.example",
    "https://evil.example/",
    "/\\evil.example",
    "/.//evil.example",
    "javascript:alert(1)",
    "\t//evil.example",
    "/\t/evil.example",
  ];

  function staysHere(location: string | null | undefined): boolean {
    return (
      location !== null &&
      location !== undefined &&
      new URL(location, TEST_ORIGIN).origin === TEST_ORIGIN &&
      !location.startsWith("//")
    );
  }

  test("redirectTo and back on the log-in, role, consent and settings pages never leave the site", async () => {
    const teacher = await cookieActingAs(db(), "laerer1@example.org", ROLE.Teacher);
    for (const target of offSite) {
      const q = encodeURIComponent(target);
      const loginData = (await (await callLoader(login, getPage(`/login?redirectTo=${q}`))).json()) as {
        redirectTo: string;
      };
      expect(loginData.redirectTo, target).toBe("");
      const homeData = (await (await callLoader(home, getPage(`/?redirectTo=${q}`))).json()) as { redirectTo: string };
      expect(homeData.redirectTo, target).toBe("");
      const roleData = (await (
        await callLoader(role, getPage(`/role?redirectTo=${q}`, { cookie: teacher }))
      ).json()) as { redirectTo: string };
      expect(roleData.redirectTo, target).toBe("");

      const consent = await callLoader(
        privacyConsent,
        getPage(`/privacy-consent?redirectTo=${q}`, { cookie: teacher }),
      );
      expect(staysHere(consent.headers.get("Location")), target).toBe(true);
      const consentPost = await callAction(
        privacyConsent,
        postForm("/privacy-consent", { intent: "accept", redirectTo: target }, { cookie: teacher }),
      );
      expect(staysHere(consentPost.headers.get("Location")), target).toBe(true);

      const settingsPost = await callAction(
        settings,
        postForm("/settings", { language: "en", back: target }, { cookie: teacher }),
      );
      expect(staysHere(settingsPost.headers.get("Location")), target).toBe(true);
      const settingsPage = await callLoader(settings, getPage(`/settings?back=${q}`, { cookie: teacher }));
      expect(JSON.stringify(await settingsPage.json()), target).not.toContain("evil.example");
    }
  });
});

describe("the review itself", () => {
  /** A test file as the review names it, optionally with a test's name: `app/x.test.ts › describe › name`. */
  const FILE_REF = /^((?:app|scripts|e2e)\/[\w./-]+\.(?:test|spec)\.(?:ts|tsx|mjs))(?: › (.*))?$/;
  /** A further test of the file named last in the cell: `… › name` or `› name`. */
  const MORE_REF = /^(?:… )?› (.*)$/;

  test("docs/security-review.md names tests that exist: each file of its Test column, and each test by its name as the file writes it, up to an ellipsis", () => {
    const review = fs.readFileSync(path.resolve("docs/security-review.md"), "utf8");
    const rows = review.split("\n").filter((line) => /^\| \w+\s*\|/.test(line) && !line.startsWith("| #"));
    const wrong: string[] = [];
    let named = 0;
    for (const row of rows) {
      const testCell = row.split(" | ")[3] ?? "";
      let file: string | null = null;
      for (const [, ref] of testCell.matchAll(/`([^`]+)`/g)) {
        const own = FILE_REF.exec(ref);
        const more = own ? null : MORE_REF.exec(ref);
        if (own) file = own[1];
        if (!own && !(more && file)) continue;
        named++;
        if (!fs.existsSync(path.resolve(file!))) {
          wrong.push(`${ref}: no such file`);
          continue;
        }
        // The name up to an ellipsis, its last part (after the describe blocks), as the file writes it.
        const name = (own ? own[2] : more![1]) ?? "";
        const parts = name
          .split("…")[0]
          .split("›")
          .map((part) => part.trim())
          .filter(Boolean);
        const last = parts[parts.length - 1];
        if (last && !fs.readFileSync(path.resolve(file!), "utf8").includes(last)) wrong.push(`${file} › ${name}`);
      }
    }
    expect(named, "the review's table was read").toBeGreaterThan(150);
    expect(wrong, "named in docs/security-review.md, found nowhere").toEqual([]);
  });
});
