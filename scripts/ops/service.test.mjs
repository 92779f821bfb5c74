// Praksis as a service, against the production build (`npm test` runs this after the build):
//  1. `npm start` with a fresh DATA_DIR (`npm run serve` when the build is older than the sources, as
//     npm start would build first; both are `exec node …`): the demo listens on loopback only;
//     started as root, its app processes run as an unprivileged user who owns the app's files;
//  2. SIGTERM to the npm process: /healthz answers 503 "draining" at once, a request under way
//     finishes, one that outlasts the grace period is cut at its end, the log says when the drain
//     began and when the server stopped, and no app process or PostgreSQL server is left;
//  3. `node server.mjs` from another working directory: a port in use, or no build, is one line and
//     exit code 1.
// Run: node --test scripts/ops/service.test.mjs (needs build/).
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { embeddedPostgresPid, ensureBuild, freePort, root, sleep, tempDir } from "./support.mjs";

ensureBuild();
const asRoot = process.getuid?.() === 0;
const GRACE_SECONDS = 3;

/** The environment of a server started here: the machine's basics and `env`, nothing from the test's own settings. */
function serverEnv(env) {
  return { PATH: process.env.PATH, HOME: process.env.HOME ?? os.homedir(), LANG: "C.UTF-8", ...env };
}

/** Whether a process is there (and not a zombie waiting for its parent). */
function running(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

const children = (pid) =>
  spawnSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" })
    .stdout.split("\n")
    .map(Number)
    .filter(Boolean);

/** The uid a process runs as (/proc/<pid>/status: real, effective, saved, filesystem). */
const uidOf = (pid) => Number(/^Uid:\s+\d+\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))[1]);

/** The JSON lines of a server's output (npm's own lines left out). */
const logLines = (output) =>
  output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line));

/** Whether the build is at least as new as the sources, as scripts/start.mjs decides (else `npm start` builds first). */
function buildIsCurrent() {
  const newest = (dir) =>
    fs.readdirSync(dir, { withFileTypes: true }).reduce((max, entry) => {
      const full = path.join(dir, entry.name);
      return Math.max(max, entry.isDirectory() ? newest(full) : fs.statSync(full).mtimeMs);
    }, 0);
  const sources = Math.max(
    newest(path.join(root, "app")),
    ...["react-router.config.ts", "vite.config.ts", "package.json"].map((f) => fs.statSync(path.join(root, f)).mtimeMs),
  );
  return fs.statSync(path.join(root, "build/server/index.js")).mtimeMs >= sources;
}

/**
 * A POST /login whose body is held back after its first bytes: under way for the server until
 * `finish()` sends the rest. `response` resolves with what came back when the connection closed.
 */
function heldRequest(port) {
  const body = "email=nobody%40example.org";
  const socket = net.connect(port, "127.0.0.1");
  let received = "";
  socket.on("data", (chunk) => (received += chunk));
  const response = new Promise((resolve) => {
    socket.on("close", () => resolve(received));
    socket.on("error", () => {});
  });
  socket.write(
    `POST /login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: http://127.0.0.1:${port}\r\n` +
      `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 6)}`,
  );
  return { response, finish: () => socket.write(body.slice(6)) };
}

/** GET /healthz on a connection of its own: status, Connection header and body. */
function healthz(port) {
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path: "/healthz", agent: false }, (res) => {
        let text = "";
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode, connection: res.headers.connection, body: text }));
      })
      .on("error", reject);
  });
}

// `npm start` builds first when the sources are newer than the build: then `npm run serve` (the same
// server, started the same way, without the build check).
const script = buildIsCurrent() ? ["start"] : ["run", "serve"];

describe(`npm ${script.join(" ")} as a service`, () => {
  let dir;
  let port;
  let npm;
  let output = "";
  let exited;
  before(async () => {
    dir = tempDir("praksis-service-");
    // Reachable by the unprivileged users the app and its PostgreSQL run as when the tests run as root.
    fs.chmodSync(dir, 0o755);
    port = await freePort();
    npm = spawn("npm", script, {
      cwd: root,
      env: serverEnv({
        PORT: String(port),
        DATA_DIR: dir,
        WEB_CONCURRENCY: "2",
        SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS),
        REMINDERS_INTERVAL_MINUTES: "0",
      }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    npm.stdout.on("data", (chunk) => (output += chunk));
    npm.stderr.on("data", (chunk) => (output += chunk));
    exited = new Promise((resolve) => npm.once("exit", (code, signal) => resolve({ code, signal })));
    const deadline = Date.now() + 120_000;
    for (;;) {
      assert.equal(npm.exitCode, null, `npm ${script.join(" ")} ended before it was ready:\n${output}`);
      assert.ok(Date.now() < deadline, `npm ${script.join(" ")} was not ready in 120 s:\n${output}`);
      if (/Praksis listening on/.test(output)) break;
      await sleep(100);
    }
  });
  after(async () => {
    if (npm.exitCode === null && npm.signalCode === null) npm.kill("SIGKILL");
    const pid = embeddedPostgresPid(dir);
    if (pid && running(pid)) process.kill(pid, "SIGQUIT");
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("the demo listens on loopback only, and says so", () => {
    const line = logLines(output).find((l) => /^Praksis listening on/.test(l.msg));
    assert.match(line.msg, new RegExp(`^Praksis listening on http://127\\.0\\.0\\.1:${port}: 2 app processes`));
    // Every socket listening on the port (/proc/net/tcp and tcp6: local address, state 0A = LISTEN).
    const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
    const listening = ["/proc/net/tcp", "/proc/net/tcp6"]
      .flatMap((file) => fs.readFileSync(file, "utf8").split("\n").slice(1))
      .map((row) => row.trim().split(/\s+/))
      .filter((fields) => fields[3] === "0A" && fields[1]?.endsWith(`:${hexPort}`))
      .map((fields) => fields[1].split(":")[0]);
    assert.deepEqual(listening, ["0100007F"]);
  });

  test(
    "started as root, the app processes run as an unprivileged user, who owns the app's files",
    { skip: !asRoot && "not root: the app processes run as the user who started them" },
    () => {
      const primary = children(npm.pid)[0];
      assert.ok(primary, "npm's child (the server, exec'd in place of sh)");
      assert.equal(uidOf(primary), 0);
      const postgres = embeddedPostgresPid(dir);
      const apps = children(primary).filter((pid) => pid !== postgres);
      assert.equal(apps.length, 2, "two app processes");
      const uids = new Set(apps.map(uidOf));
      assert.equal(uids.size, 1);
      const [uid] = uids;
      assert.notEqual(uid, 0);
      // The secret was made by an app process; the credentials, by the primary, are handed over.
      assert.equal(fs.statSync(path.join(dir, "secret")).uid, uid);
      assert.equal(fs.statSync(path.join(dir, "postgres-credentials.json")).uid, uid);
      assert.equal(fs.statSync(path.join(dir, "outbox")).uid, uid);
    },
  );

  test("SIGTERM to npm: /healthz says draining, the request under way finishes, the grace period cuts the rest, nothing is left", async () => {
    const primary = children(npm.pid)[0];
    const processes = [npm.pid, primary, ...children(primary)];
    const postgres = embeddedPostgresPid(dir);
    assert.ok(postgres && processes.includes(postgres), "the embedded PostgreSQL is the server's child");

    const finishing = heldRequest(port);
    const outlasting = heldRequest(port);
    // Both requests' headers have reached the server (it counts them as under way).
    await sleep(500);
    const signalled = Date.now();
    npm.kill("SIGTERM");
    await sleep(300);

    const health = await healthz(port);
    assert.deepEqual(
      { ...health, body: JSON.parse(health.body) },
      { status: 503, connection: "close", body: { status: "draining" } },
    );

    finishing.finish();
    const answer = await finishing.response;
    assert.match(answer, /^HTTP\/1\.1 303 /, "the request under way is answered in full");
    assert.match(answer, /\r\nconnection: close\r\n/i);

    const { code } = await exited;
    const tookMs = Date.now() - signalled;
    assert.equal(code, 0);
    assert.equal(await outlasting.response, "", "the request that outlasted the grace period was cut");
    // Stopped after the grace period, not at the primary's SIGKILL (5 s later).
    assert.ok(tookMs < (GRACE_SECONDS + 4) * 1000, `stopped after ${tookMs} ms`);

    for (let i = 0; i < 50 && processes.some(running); i++) await sleep(100);
    assert.deepEqual(processes.filter(running), [], "no process of the server is left");
    const leftOnDir = spawnSync("ps", ["-eo", "args"], { encoding: "utf8" })
      .stdout.split("\n")
      .filter((args) => args.includes(dir));
    assert.deepEqual(leftOnDir, []);

    const messages = logLines(output).map((l) => l.msg);
    const draining = messages
      .map((m) => /^draining, (\d+) requests? in flight, grace (\d+) s$/.exec(m))
      .filter(Boolean);
    assert.equal(draining.length, 2, "a line from each app process");
    assert.equal(
      draining.reduce((sum, match) => sum + Number(match[1]), 0),
      2,
      "the two held requests in flight",
    );
    assert.ok(draining.every((match) => match[2] === String(GRACE_SECONDS)));
    assert.ok(
      messages.some((m) => /^drained after \d+ ms: the grace period ended, 1 request cut$/.test(m)),
      messages.join("\n"),
    );
    assert.ok(
      messages.some((m) => /^stopped after \d+ ms$/.test(m)),
      messages.join("\n"),
    );
  });
});

describe("node server.mjs from another working directory", () => {
  /** Runs `node <root>/server.mjs` in the temp folder; its output, lines and exit code. */
  function serve(env) {
    const result = spawnSync(process.execPath, [path.join(root, "server.mjs")], {
      cwd: os.tmpdir(),
      env: serverEnv({ NODE_ENV: "production", ...env }),
      encoding: "utf8",
      timeout: 30_000,
    });
    const lines = `${result.stdout}${result.stderr}`.split("\n").filter(Boolean);
    return { status: result.status, lines };
  }
  // A PostgreSQL of one's own that is never reached: the server stops before it starts an app process.
  const external = {
    DATABASE_URL: "postgres://praksis:secret@127.0.0.1:1/praksis",
    SESSION_SECRET: "service-test-secret-0123456789abcdefghij",
  };

  test("a port in use is one line and exit code 1", async () => {
    const busy = net.createServer();
    await new Promise((resolve) => busy.listen(0, "127.0.0.1", resolve));
    const { port } = busy.address();
    try {
      const { status, lines } = serve({ ...external, PORT: String(port), HOST: "127.0.0.1" });
      assert.equal(status, 1);
      assert.deepEqual(
        lines.map((line) => JSON.parse(line).msg),
        [`PORT ${port} is in use on 127.0.0.1: another Praksis or program listens there; stop it or set PORT`],
      );
    } finally {
      busy.close();
    }
  });

  test("without a build it never builds: one line naming npm run build, exit code 1", () => {
    const empty = tempDir("praksis-no-build-");
    try {
      const { status, lines } = serve({ ...external, BUILD_DIR: empty, PORT: "1" });
      assert.equal(status, 1);
      assert.equal(lines.length, 1, lines.join("\n"));
      assert.match(JSON.parse(lines[0]).msg, new RegExp(`^no build in ${empty}: run \`npm run build\` first`));
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
