// The demo's own Feide and Vipps: when they start (the rule), whom they offer, and the whole thing
// as `npm start` runs it: server.mjs on the production build and an embedded PostgreSQL with the
// demo seed, a Feide and a Vipps log-in through the demo providers as a browser without JS does it.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { demoPeople, demoProviderKinds, isDemo, semesterOf } from "./demo-providers.mjs";

const root = path.resolve(import.meta.dirname, "..");

describe("when the demo providers start", () => {
  test("in demo mode: DEMO_MODE as server.mjs decided it (scripts/demo-mode.mjs), or the older SEED_DEMO", () => {
    expect(isDemo({ DEMO_MODE: "true" })).toBe(true);
    expect(isDemo({ DEMO_MODE: "1", DATABASE_URL: "postgres://x@127.0.0.1/db" })).toBe(true);
    expect(isDemo({ SEED_DEMO: "true" })).toBe(true);
    expect(isDemo({ DEMO_MODE: "false", SEED_DEMO: "true" })).toBe(false);
    expect(isDemo({ SEED_DEMO: "false" })).toBe(false);
    expect(isDemo({ SEED_DEMO: "0" })).toBe(false);
    // Neither said: server.mjs always fills DEMO_MODE in first, so unset means not the demo.
    expect(isDemo({})).toBe(false);
  });

  test("each provider that is not configured, and none outside the demo", () => {
    const demo = { DEMO_MODE: "true" };
    expect(demoProviderKinds(demo)).toEqual(["feide", "vipps"]);
    expect(demoProviderKinds({ ...demo, FEIDE_CLIENT_ID: "real", FEIDE_CLIENT_SECRET: "secret" })).toEqual(["vipps"]);
    expect(demoProviderKinds({ ...demo, VIPPS_CLIENT_ID: "real" })).toEqual(["feide"]);
    expect(demoProviderKinds({ ...demo, FEIDE_CLIENT_SECRET: "s", VIPPS_CLIENT_SECRET: "s" })).toEqual([]);
    expect(demoProviderKinds({ DEMO_MODE: "false" })).toEqual([]);
    expect(demoProviderKinds({ DATABASE_URL: "postgres://x@127.0.0.1/db", DEMO_MODE: "false" })).toEqual([]);
  });

  test("the Feide course memberships are of today's semester in Norway, as the demo seed's classes", () => {
    expect(semesterOf(new Date("2026-11-25T12:00:00Z"))).toEqual({ start: "2026-07-01", end: "2026-12-31" });
    expect(semesterOf(new Date("2027-03-01T12:00:00Z"))).toEqual({ start: "2027-01-01", end: "2027-06-30" });
    // 23:30 UTC on 30 June is already 1 July in Norway.
    expect(semesterOf(new Date("2027-06-30T23:30:00Z"))).toEqual({ start: "2027-07-01", end: "2027-12-31" });
    const { feide, vipps } = demoPeople(new Date("2026-11-25T12:00:00Z"));
    const student = feide.find((p) => p.choice.login === "student01")!;
    expect(student.account.claims.email).toBe("student01@example.org");
    expect(student.account.groups).toContainEqual(
      expect.objectContaining({
        id: "fc:fs:fs:emne:example.org:SYK2001:1",
        membership: expect.objectContaining({ active: true, fsroles: ["STUDENT"], notBefore: "2026-07-01T00:00:00Z" }),
      }),
    );
    const teacher = feide.find((p) => p.choice.login === "laerer1")!;
    expect(teacher.account.groups).toContainEqual(
      expect.objectContaining({
        id: "fc:fs:fs:emne:example.org:SYK2001:1",
        membership: expect.objectContaining({ fsroles: ["UNDERVISER"] }),
      }),
    );
    // The demo seed's Marte Solberg has +4741234567.
    expect(vipps.find((p) => p.choice.login === "veileder1")!.account.claims).toMatchObject({
      phone_number: "4741234567",
      phone_number_verified: true,
    });
  });
});

// ---------------------------------------------------------------------------------------------
// As `npm start` runs it

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** One browser's cookies: the app and the providers share the host 127.0.0.1, so one jar, as in a browser. */
class Browser {
  cookies = new Map<string, string>();

  async go(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set("cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    const response = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (value === "" || attributes.some((a) => /^\s*max-age=0\s*$/i.test(a))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  post(url: string | URL, fields: Record<string, string>, origin: string): Promise<Response> {
    return this.go(url, {
      method: "POST",
      headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields),
    });
  }
}

let server: { child: ChildProcess; output: string[]; exited: Promise<unknown>; dir: string } | null = null;

afterAll(async () => {
  if (!server) return;
  if (server.child.exitCode === null && server.child.signalCode === null) {
    server.child.kill("SIGTERM");
    await server.exited;
  }
  fs.rmSync(server.dir, { recursive: true, force: true });
});

async function startLikeNpmStart(port: number) {
  if (!fs.existsSync(path.join(root, "build/server/index.js"))) {
    const built = spawnSync("npx", ["react-router", "build"], { cwd: root, stdio: "inherit" });
    if (built.status !== 0) throw new Error("the production build failed");
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "praksis-demo-providers-"));
  // Reachable by the unprivileged user the embedded PostgreSQL runs as when the tests run as root.
  fs.chmodSync(dir, 0o755);
  const env: Record<string, string | undefined> = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dir,
    WEB_CONCURRENCY: "1",
  };
  // As a fresh `npm start`: no database of its own, no providers, nothing of the test run's.
  for (const key of Object.keys(env)) {
    if (
      /^(DATABASE_URL|EMBEDDED_DATABASE|SEED_DEMO|DEMO_MODE|APP_URL|SMTP_URL|SESSION_SECRET|NODE_OPTIONS|FEIDE_|VIPPS_|VITEST|TEST_)/.test(
        key,
      )
    )
      delete env[key];
  }
  const child = spawn(process.execPath, ["server.mjs"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  const output: string[] = [];
  child.stdout.on("data", (chunk) => output.push(String(chunk)));
  child.stderr.on("data", (chunk) => output.push(String(chunk)));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  server = { child, output, exited, dir };
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited:\n${output.join("")}`);
    if (Date.now() > deadline) throw new Error(`the server was not ready:\n${output.join("")}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return base;
}

/** Presses the provider's button on the log-in page and picks `login` on the demo provider's page; returns the app's callback URL. */
async function pickAtProvider(
  browser: Browser,
  base: string,
  provider: "feide" | "vipps",
  login: string,
  expectOnPage: string[],
) {
  const started = await browser.post(`${base}/auth/${provider}`, {}, base);
  expect(started.status).toBe(303);
  let url = new URL(started.headers.get("location")!);
  expect(url.origin).not.toBe(base);
  for (let hop = 0; hop < 10; hop++) {
    const response = await browser.go(url);
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      url = new URL(location, url);
      if (url.origin === base) return url;
      continue;
    }
    const html = await response.text();
    expect(response.status, html).toBe(200);
    for (const text of expectOnPage) expect(html).toContain(text);
    const action = /<form method="post" action="([^"]*\/login)">\s*<ul class="choices">/.exec(html)?.[1];
    expect(action, html).toBeTruthy();
    expect(html).toContain(`name="login" value="${login}"`);
    await response.arrayBuffer().catch(() => {});
    const picked = await browser.post(new URL(action!, url), { login }, url.origin);
    url = new URL(picked.headers.get("location")!, url);
    if (url.origin === base) return url;
  }
  throw new Error("the demo provider did not send the browser back");
}

/** The callback, the privacy policy on the first log-in, and the page the person lands on. */
async function finishAt(browser: Browser, base: string, callback: URL, home: string): Promise<string> {
  const response = await browser.go(callback);
  expect([302, 303]).toContain(response.status);
  expect(browser.cookies.has("praksis_session")).toBe(true);
  expect(response.headers.get("location")).toBe(home);
  let page = await browser.go(`${base}${home}`);
  if (page.headers.get("location")?.startsWith("/privacy-consent")) {
    expect((await browser.post(`${base}/privacy-consent`, { intent: "accept" }, base)).status).toBe(303);
    page = await browser.go(`${base}${home}`);
  }
  expect(page.status).toBe(200);
  return page.text();
}

test(
  "npm start in the demo: both buttons, and a Feide and a Vipps log-in through the demo providers",
  { timeout: 240_000 },
  async () => {
    const port = await freePort();
    const base = await startLikeNpmStart(port);
    const log = server!.output.join("");
    // The log is JSON in production (README "Logs"): the demo's lines carry the component "demo".
    expect(log).toMatch(/"component":"demo","msg":"a demo Feide \(not the real one\) on http:\/\/127\.0\.0\.1:\d+/);
    expect(log).toMatch(/"component":"demo","msg":"a demo Vipps \(not the real one\) on http:\/\/127\.0\.0\.1:\d+/);

    const loginPage = await (await fetch(`${base}/`)).text();
    expect(loginPage).toContain("Logg inn med Feide");
    expect(loginPage).toContain("Logg inn med Vipps");
    expect(loginPage).not.toContain("ikke satt opp");

    // A student of the demo, linked by e-mail; her Feide course memberships are stored.
    const student = new Browser();
    const feideBack = await pickAtProvider(student, base, "feide", "student01", [
      "Demo Feide login",
      "This is not the real Feide",
      "Emma Andersen",
      "Ingrid Haugen",
    ]);
    expect(feideBack.pathname).toBe("/feide-success");
    expect(await finishAt(student, base, feideBack, "/student")).toContain("Emma Andersen");

    // A supervisor of the demo, found by the phone number Vipps gives.
    const supervisor = new Browser();
    const vippsBack = await pickAtProvider(supervisor, base, "vipps", "veileder1", [
      "Demo Vipps login",
      "This is not the real Vipps",
      "Marte Solberg",
    ]);
    expect(vippsBack.pathname).toBe("/vipps-success");
    expect(await finishAt(supervisor, base, vippsBack, "/supervisor")).toContain("Marte Solberg");

    // Stopped with the rest.
    const issuers = [...log.matchAll(/"msg":"a demo \w+ \(not the real one\) on (http:\/\/127\.0\.0\.1:\d+)/g)].map(
      (m) => m[1],
    );
    expect(issuers).toHaveLength(2);
    server!.child.kill("SIGTERM");
    await server!.exited;
    for (const issuer of issuers) await expect(fetch(`${issuer}/.well-known/openid-configuration`)).rejects.toThrow();
  },
);
