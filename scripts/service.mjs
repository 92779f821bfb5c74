// Praksis as a service (server.mjs, the primary process): where it listens, how long its app
// processes drain on SIGTERM, and, started as root, the unprivileged user they run as and the
// files in DATA_DIR that user must own. README: "Run it as a service".
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

/** Seconds the app processes get on SIGTERM to finish the requests under way (SHUTDOWN_GRACE_SECONDS). */
export const DEFAULT_GRACE_SECONDS = 20;

/** The app's own files in DATA_DIR that its app processes read or write (postgres/ is the database server's). */
export const APP_FILES = ["secret", "outbox", "demo-mode", "postgres-credentials.json"];

export class ServiceError extends Error {}

/**
 * The address to listen on: HOST when set; otherwise loopback in demo mode (its /dev/outbox shows
 * log-in codes to whoever can open it), every interface outside it.
 */
export function listenHost(env, demoMode) {
  return env.HOST || (demoMode ? "127.0.0.1" : "0.0.0.0");
}

/** The host as it is written in a URL (an IPv6 address in brackets). */
export function urlHost(host) {
  return net.isIPv6(host) ? `[${host}]` : host;
}

/** SHUTDOWN_GRACE_SECONDS as the app checked it at start-up (env.server.ts); the default when unset. */
export function shutdownGraceSeconds(env = process.env) {
  const value = env.SHUTDOWN_GRACE_SECONDS;
  const seconds = value === undefined || value === "" ? NaN : Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : DEFAULT_GRACE_SECONDS;
}

/** One line that says why the server cannot listen on `host`:`port`, and what to do; null for an error it does not know. */
export function cannotListenMessage(error, host, port) {
  switch (error?.code) {
    case "EADDRINUSE":
      return `PORT ${port} is in use on ${host}: another Praksis or program listens there; stop it or set PORT`;
    case "EACCES":
      return `PORT ${port} on ${host} is not allowed to this user (a port below 1024 needs root): set PORT to 1024 or above (a proxy in front listens on 443)`;
    case "EADDRNOTAVAIL":
      return `HOST ${host} is not an address of this machine: set HOST to one of its addresses, or 0.0.0.0 for every interface`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `HOST ${host} is not a known host name: set HOST to an address of this machine`;
    default:
      return null;
  }
}

/** Null when `host`:`port` is free to listen on, else the one line of cannotListenMessage (or the error's own message). */
export function checkCanListen(port, host) {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once("error", (error) =>
      resolve(cannotListenMessage(error, host, port) ?? `cannot listen on ${host}:${port}: ${error.message}`),
    );
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(null)));
  });
}

/** A user of /etc/passwd by name or uid: { name, uid, gid }, or null. */
export function findUser(wanted, passwd = readPasswd()) {
  for (const line of passwd.split("\n")) {
    const [name, , uid, gid] = line.split(":");
    if (!name || uid === undefined) continue;
    if (name === wanted || uid === String(wanted)) return { name, uid: Number(uid), gid: Number(gid) };
  }
  return null;
}

function readPasswd() {
  try {
    return fs.readFileSync("/etc/passwd", "utf8");
  } catch {
    return "";
  }
}

/**
 * The account the app processes run as: none (they run as this process does) unless this process is
 * root. Then RUN_AS_USER (a name, or `root` to stay root); by default the owner of DATA_DIR when
 * that is not root (an operator's `chown praksis /var/lib/praksis` says who), else `nobody`.
 * @returns {{ name: string, uid: number, gid: number } | null}
 */
export function runAsAccount({ env = process.env, dataDir, uid = process.getuid?.(), passwd = readPasswd() } = {}) {
  if (uid !== 0) return null;
  let wanted = env.RUN_AS_USER;
  if (!wanted) {
    const owner = dataDir && fs.existsSync(dataDir) ? fs.statSync(dataDir).uid : 0;
    if (owner !== 0)
      return findUser(owner, passwd) ?? { name: String(owner), uid: owner, gid: fs.statSync(dataDir).gid };
    wanted = "nobody";
  }
  const account = findUser(wanted, passwd) ?? (wanted === "nobody" ? { name: "nobody", uid: 65534, gid: 65534 } : null);
  if (!account)
    throw new ServiceError(
      `RUN_AS_USER=${wanted}: no such user on this machine (running as root, the app processes run as RUN_AS_USER: an unprivileged user; root keeps them root)`,
    );
  return account.uid === 0 ? null : account;
}

/** Whether `account` may do `test -<flag>` on `file` (read: r, write: w), every folder above it included. */
function allowed(account, flag, file) {
  return spawnSync("test", [`-${flag}`, file], { uid: account.uid, gid: account.gid }).status === 0;
}

/** Hands a file or folder made by root to `account`; never follows a symbolic link, never takes one from another user. */
function takeOver(file, account) {
  let stat;
  try {
    stat = fs.lstatSync(file);
  } catch {
    return;
  }
  if (stat.uid === 0 && !stat.isSymbolicLink()) fs.lchownSync(file, account.uid, account.gid);
}

/**
 * Started as root: makes DATA_DIR and the app's files in it (APP_FILES, the outbox's mails, and
 * `writableDirs` such as OUTBOX_DIR) the app processes' own, where root made them (an earlier start
 * as root, or this one: the credentials, the demo marker). Only what root owns is handed over, and
 * nothing a symbolic link points at; the database server's postgres/ is left as it is. DATA_DIR
 * itself is handed over unless it is a shared folder (sticky, like /tmp, or /). Then checks that
 * `account` can write DATA_DIR and read the app (`readable`): otherwise a ServiceError says what to do.
 */
export function prepareForAccount({ account, dataDir, writableDirs = [], readable = [] }) {
  fs.mkdirSync(dataDir, { recursive: true });
  const shared = dataDir === path.parse(dataDir).root || (fs.statSync(dataDir).mode & 0o1000) !== 0;
  if (!shared) takeOver(dataDir, account);
  for (const name of APP_FILES) takeOver(path.join(dataDir, name), account);
  for (const dir of writableDirs) {
    fs.mkdirSync(dir, { recursive: true });
    takeOver(dir, account);
    for (const entry of fs.readdirSync(dir)) takeOver(path.join(dir, entry), account);
  }
  const who = `running as root, the app processes run as ${account.name} (RUN_AS_USER)`;
  for (const dir of [dataDir, ...writableDirs]) {
    if (!allowed(account, "w", dir))
      throw new ServiceError(
        `${who}, who cannot write ${dir}: chown ${account.name} ${dir}, or set RUN_AS_USER to its owner`,
      );
  }
  for (const file of readable) {
    if (fs.existsSync(file) && !allowed(account, "r", file))
      throw new ServiceError(
        `${who}, who cannot read ${file}: put the app where ${account.name} can read it (every folder above it searchable by others), or set RUN_AS_USER`,
      );
  }
}
