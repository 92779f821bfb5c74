// GET /metrics in Prometheus's text format (scripts/http-app.mjs answers it, server.mjs adds up the
// app processes): requests by route pattern, method and status class, their latency per route, the
// database pools, the reminders sent and failed, and each process's uptime, memory and event-loop
// lag. Off unless configured: METRICS=loopback answers requests whose socket peer is this machine
// (and that no proxy forwarded), METRICS_TOKEN answers `Authorization: Bearer <token>` from
// anywhere; otherwise /metrics is an unknown page (404) like any other.
//
// Several app processes (node:cluster) serve the one port, and a scrape lands on one of them. That
// one asks the primary, which asks every app process for its counts at that moment and adds them
// up (pulled at scrape time rather than pushed on a timer: a scrape sees every request answered
// before it, and nothing is sent while nobody scrapes). The primary keeps each process's last
// answer: one that does not answer in time is counted with it, and one that has ended stays in the
// sums with it, so a counter never goes down while the server runs (the requests such a process
// answered after its last scrape are lost with it).
//
// No personal data: a request is counted under its route's pattern (`/student/:studentUserId/…`,
// `static` for a static file, `none` when no route matched), never its path or query.
import cluster from "node:cluster";
import crypto from "node:crypto";
import { monitorEventLoopDelay } from "node:perf_hooks";

/** The latency histograms' upper bounds, in seconds. */
export const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** How long the primary waits for the app processes' counts, and an app process for the primary's sum. */
const COLLECT_MS = 2_000;
const ASK_MS = 5_000;

// A scrape's messages between the processes (node:cluster's IPC).
const READY = "praksis:metrics:ready";
const ASK = "praksis:metrics:ask";
const ANSWER = "praksis:metrics:answer";
const COLLECT = "praksis:metrics:collect";
const SNAPSHOT = "praksis:metrics:snapshot";

// Bounds on the labels, whatever reaches them: route patterns are few, but a bug must not make the
// series grow without end.
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const MAX_ROUTES = 300;
const MAX_ROUTE_LENGTH = 200;

/**
 * Who may read /metrics, from METRICS and METRICS_TOKEN (checked at start-up by
 * app/services/platform/env.server.ts): null when neither is set (off).
 */
export function metricsAccess(env = process.env) {
  const loopback = env.METRICS === "loopback";
  const token = env.METRICS_TOKEN ? env.METRICS_TOKEN : null;
  return loopback || token ? { loopback, token } : null;
}

/** Whether a socket's peer is this machine: 127.0.0.0/8 or ::1, also as IPv4-mapped IPv6. */
export function isLoopbackAddress(address) {
  if (typeof address !== "string") return false;
  const v4 = address.startsWith("::ffff:") ? address.slice(7) : address;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4) || address === "::1";
}

/** Headers a proxy adds: a request carrying one came through a proxy, whatever its socket's peer. */
const FORWARDING_HEADERS = ["forwarded", "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-real-ip"];

/**
 * What a request for /metrics gets: `serve`, `unauthorized` (a bearer token that is not the one:
 * 401) or `hidden` (404, as for any unknown page). A loopback peer counts only without forwarding
 * headers: a proxy on the same machine (nginx in front) connects from loopback for every client.
 */
export function metricsDecision(access, { remoteAddress, headers }) {
  if (!access) return "hidden";
  const authorization = headers.authorization;
  if (access.token && typeof authorization === "string" && /^bearer\s/i.test(authorization)) {
    return sameSecret(authorization.replace(/^bearer\s+/i, "").trim(), access.token) ? "serve" : "unauthorized";
  }
  if (
    access.loopback &&
    isLoopbackAddress(remoteAddress) &&
    !FORWARDING_HEADERS.some((name) => headers[name] !== undefined)
  )
    return "serve";
  return "hidden";
}

/** Compares in constant time (the hashes have one length whatever was sent). */
function sameSecret(given, expected) {
  const hash = (value) => crypto.createHash("sha256").update(value).digest();
  return crypto.timingSafeEqual(hash(given), hash(expected));
}

/** A route's label: its pattern, `none` when no route matched; long or surplus ones as `other`. */
function routeLabel(route, known) {
  if (typeof route !== "string" || route === "") return "none";
  if (route.length > MAX_ROUTE_LENGTH) return "other";
  if (!known.has(route) && known.size >= MAX_ROUTES) return "other";
  return route;
}

/** The status class of an answer (`2xx` … `5xx`), `aborted` when the client went away before it had gone. */
function statusLabel(status, aborted) {
  if (aborted) return "aborted";
  return Number.isInteger(status) && status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : "other";
}

/** One process's request counts and latency histograms. */
export function createRequestMetrics() {
  const requests = new Map();
  const durations = new Map();
  return {
    /** One answered request: its route pattern, method, status and time in seconds. */
    observe({ route, method, status, seconds, aborted = false }) {
      const label = routeLabel(route, durations);
      const verb = METHODS.has(method) ? method : "other";
      const key = `${label}\n${verb}\n${statusLabel(status, aborted)}`;
      requests.set(key, (requests.get(key) ?? 0) + 1);
      let histogram = durations.get(label);
      if (!histogram)
        durations.set(label, (histogram = { counts: new Array(BUCKETS.length + 1).fill(0), sum: 0, count: 0 }));
      const at = BUCKETS.findIndex((bound) => seconds <= bound);
      histogram.counts[at === -1 ? BUCKETS.length : at]++;
      histogram.sum += seconds;
      histogram.count++;
    },
    /** The counts so far, as plain data (sent between processes). */
    snapshot() {
      return {
        requests: [...requests].map(([key, count]) => [...key.split("\n"), count]),
        durations: [...durations].map(([route, h]) => [route, [...h.counts], h.sum, h.count]),
      };
    },
  };
}

// This process's counts, and its event-loop delay (sampled by Node every 20 ms; read and restarted
// at each scrape, so the figures are those since the previous one).
const requestMetrics = createRequestMetrics();
let loopDelay = null;
const began = Date.now();

function watchEventLoop() {
  if (loopDelay) return;
  loopDelay = monitorEventLoopDelay({ resolution: 20 });
  loopDelay.enable();
}

/** This process's uptime, resident memory and event-loop lag since the last scrape. */
export function processFigures(role) {
  let lagP99 = 0;
  let lagMax = 0;
  if (loopDelay && loopDelay.count > 0) {
    lagP99 = loopDelay.percentile(99) / 1e9;
    lagMax = loopDelay.max / 1e9;
    loopDelay.reset();
  }
  return {
    role,
    pid: process.pid,
    uptime: (Date.now() - began) / 1000,
    rss: process.memoryUsage.rss(),
    lagP99,
    lagMax,
  };
}

/**
 * Counts a request once its answer has gone (or the client went away): `record` is the request's
 * record (scripts/http-app.mjs), with its method, route pattern and start.
 */
export function observeRequest(record, status, aborted = false) {
  requestMetrics.observe({
    route: record.route,
    method: record.method,
    status,
    seconds: (performance.now() - record.began) / 1000,
    aborted,
  });
}

/** This app process's snapshot: its requests, its pool and reminders (`appStats`), its figures. */
async function ownSnapshot(appStats) {
  let app = null;
  try {
    app = (await appStats?.()) ?? null;
  } catch {
    // no figures from the app (its database not opened): the requests still count
  }
  return {
    ...requestMetrics.snapshot(),
    pool: app?.pool ?? null,
    reminders: app?.reminders ?? null,
    process: processFigures("app"),
  };
}

/**
 * Adds snapshots up: request counts and histograms, pools and reminders summed; each process's
 * figures kept apart. A snapshot without `process` (the ended processes' counts) adds counts only.
 */
export function mergeSnapshots(snapshots) {
  const requests = new Map();
  const durations = new Map();
  let pool = null;
  const reminders = { sent: 0, failed: 0 };
  const processes = [];
  for (const snapshot of snapshots) {
    if (!snapshot) continue;
    for (const [route, method, status, count] of snapshot.requests ?? []) {
      const key = `${route}\n${method}\n${status}`;
      requests.set(key, (requests.get(key) ?? 0) + count);
    }
    for (const [route, counts, sum, count] of snapshot.durations ?? []) {
      const h = durations.get(route) ?? { counts: new Array(BUCKETS.length + 1).fill(0), sum: 0, count: 0 };
      counts.forEach((n, i) => (h.counts[i] += n));
      h.sum += sum;
      h.count += count;
      durations.set(route, h);
    }
    if (snapshot.pool) {
      pool ??= { total: 0, idle: 0, waiting: 0, max: 0 };
      for (const key of Object.keys(pool)) pool[key] += Number(snapshot.pool[key]) || 0;
    }
    if (snapshot.reminders) {
      reminders.sent += Number(snapshot.reminders.sent) || 0;
      reminders.failed += Number(snapshot.reminders.failed) || 0;
    }
    if (snapshot.process) processes.push(snapshot.process);
  }
  return {
    requests: [...requests].map(([key, count]) => [...key.split("\n"), count]),
    durations: [...durations].map(([route, h]) => [route, h.counts, h.sum, h.count]),
    pool,
    reminders,
    processes,
  };
}

/** Only what counts up (requests, latencies, reminders): what an ended process leaves in the sums. */
function countsOf(snapshot) {
  return { requests: snapshot.requests, durations: snapshot.durations, reminders: snapshot.reminders };
}

const escapeLabel = (value) => String(value).replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
const labels = (pairs) =>
  `{${Object.entries(pairs)
    .map(([name, value]) => `${name}="${escapeLabel(value)}"`)
    .join(",")}}`;
const number = (value) => (Number.isFinite(value) ? String(Math.round(value * 1e6) / 1e6) : "0");

/** A merged snapshot in Prometheus's text format (version 0.0.4). `stale`: processes counted with their last answer. */
export function formatMetrics(merged, { stale = 0 } = {}) {
  const lines = [];
  const family = (name, type, help) => lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
  const sorted = (rows) =>
    [...rows].sort(
      (a, b) =>
        String(a[0]).localeCompare(String(b[0])) ||
        String(a[1]).localeCompare(String(b[1])) ||
        String(a[2]).localeCompare(String(b[2])),
    );

  family(
    "praksis_http_requests_total",
    "counter",
    "Requests answered, by route pattern, method and status class (aborted: the client went away first).",
  );
  for (const [route, method, status, count] of sorted(merged.requests)) {
    lines.push(`praksis_http_requests_total${labels({ route, method, status })} ${count}`);
  }
  family(
    "praksis_http_request_duration_seconds",
    "histogram",
    "Time from a request's arrival until its answer had gone, by route pattern.",
  );
  for (const [route, counts, sum, count] of sorted(merged.durations)) {
    let cumulative = 0;
    BUCKETS.forEach((bound, i) => {
      cumulative += counts[i];
      lines.push(`praksis_http_request_duration_seconds_bucket${labels({ route, le: String(bound) })} ${cumulative}`);
    });
    lines.push(`praksis_http_request_duration_seconds_bucket${labels({ route, le: "+Inf" })} ${count}`);
    lines.push(`praksis_http_request_duration_seconds_sum${labels({ route })} ${number(sum)}`);
    lines.push(`praksis_http_request_duration_seconds_count${labels({ route })} ${count}`);
  }

  const pool = merged.pool ?? { total: 0, idle: 0, waiting: 0, max: 0 };
  family("praksis_db_pool_connections", "gauge", "PostgreSQL connections open in the app processes' pools.");
  lines.push(`praksis_db_pool_connections ${pool.total}`);
  family("praksis_db_pool_idle_connections", "gauge", "Open connections not in use.");
  lines.push(`praksis_db_pool_idle_connections ${pool.idle}`);
  family("praksis_db_pool_waiting_clients", "gauge", "Queries waiting for a connection (every connection busy).");
  lines.push(`praksis_db_pool_waiting_clients ${pool.waiting}`);
  family(
    "praksis_db_pool_max_connections",
    "gauge",
    "Connections the pools may open (DATABASE_POOL_SIZE per app process).",
  );
  lines.push(`praksis_db_pool_max_connections ${pool.max}`);

  family("praksis_reminders_sent_total", "counter", "Reminders the app's own runs sent.");
  lines.push(`praksis_reminders_sent_total ${merged.reminders.sent}`);
  family(
    "praksis_reminders_failed_total",
    "counter",
    "Reminders the app's own runs could not send (tried again later).",
  );
  lines.push(`praksis_reminders_failed_total ${merged.reminders.failed}`);

  const apps = merged.processes.filter((p) => p.role === "app");
  family(
    "praksis_app_processes",
    "gauge",
    "App processes whose counts this scrape holds (stale: their last answer, for want of a new one).",
  );
  lines.push(`praksis_app_processes${labels({ state: "answered" })} ${apps.length - stale}`);
  lines.push(`praksis_app_processes${labels({ state: "stale" })} ${stale}`);
  const perProcess = (name, help, field) => {
    family(name, "gauge", help);
    for (const p of merged.processes)
      lines.push(`${name}${labels({ process: p.role, pid: p.pid })} ${number(p[field])}`);
  };
  perProcess("praksis_process_uptime_seconds", "Seconds since the process started.", "uptime");
  perProcess("praksis_process_resident_memory_bytes", "Resident memory of the process.", "rss");
  perProcess(
    "praksis_event_loop_lag_p99_seconds",
    "99th percentile of the event loop's delay since the previous scrape.",
    "lagP99",
  );
  perProcess(
    "praksis_event_loop_lag_max_seconds",
    "Longest delay of the event loop since the previous scrape.",
    "lagMax",
  );
  return `${lines.join("\n")}\n`;
}

// An app process's side of the cluster: it answers the primary's collections, and asks the primary
// for the sum when a scrape reaches it.
let appStatsOfProcess = null;
let listening = false;
const asked = new Map();

function listenToPrimary() {
  if (listening || !cluster.isWorker || !process.send) return;
  listening = true;
  process.on("message", (message) => {
    if (message?.type === COLLECT) {
      ownSnapshot(appStatsOfProcess).then((snapshot) => process.send?.({ type: SNAPSHOT, id: message.id, snapshot }));
    } else if (message?.type === ANSWER) {
      asked.get(message.id)?.(message.text);
    }
  });
  process.send({ type: READY });
}

function askPrimary() {
  return new Promise((resolve, reject) => {
    const id = crypto.randomUUID();
    const timer = setTimeout(() => {
      asked.delete(id);
      reject(new Error("the primary process did not answer"));
    }, ASK_MS);
    asked.set(id, (text) => {
      clearTimeout(timer);
      asked.delete(id);
      resolve(text);
    });
    process.send({ type: ASK, id });
  });
}

/** The text of a scrape: the whole server's in an app process of a cluster, else this process's own. */
async function scrape() {
  if (cluster.isWorker && process.send) return askPrimary();
  return formatMetrics(mergeSnapshots([await ownSnapshot(appStatsOfProcess)]));
}

/**
 * The Express handler of GET /metrics (scripts/http-app.mjs): `appStats` gives this process's pool
 * and reminder figures (app/entry.server.tsx: appMetrics). When metrics are off, or the request may
 * not see them, it passes the request on (the app's 404 page).
 */
export function metricsEndpoint({ appStats, access = metricsAccess() }) {
  if (!access) return (req, res, next) => next();
  appStatsOfProcess = appStats;
  watchEventLoop();
  listenToPrimary();
  return (req, res, next) => {
    const decision = metricsDecision(access, { remoteAddress: req.socket.remoteAddress, headers: req.headers });
    if (decision === "hidden") {
      next();
      return;
    }
    res.locals.record.route = "/metrics";
    res.set("Cache-Control", "no-store");
    if (decision === "unauthorized") {
      res
        .status(401)
        .set("WWW-Authenticate", 'Bearer realm="metrics"')
        .type("text/plain")
        .send("Unauthorized: not the metrics token\n");
      return;
    }
    scrape().then(
      (text) => res.status(200).type("text/plain; version=0.0.4; charset=utf-8").send(text),
      (error) => {
        res.locals.record.error = error;
        res.status(503).type("text/plain").send("The app processes' metrics could not be collected\n");
      },
    );
  };
}

/**
 * The primary's side (server.mjs): when a scrape reaches an app process, asks every app process for
 * its counts and answers with their sum. Does nothing when metrics are off.
 */
export function aggregateClusterMetrics(
  clusterOf = cluster,
  { access = metricsAccess(), collectMs = COLLECT_MS } = {},
) {
  if (!access) return;
  watchEventLoop();
  const ready = new Set();
  const last = new Map();
  let ended = null;
  const collections = new Map();
  clusterOf.on("exit", (worker) => {
    ready.delete(worker);
    const snapshot = last.get(worker.id);
    last.delete(worker.id);
    if (snapshot) ended = mergeSnapshots([ended, countsOf(snapshot)]);
  });
  clusterOf.on("message", (worker, message) => {
    if (message?.type === READY) ready.add(worker);
    else if (message?.type === SNAPSHOT) collections.get(message.id)?.(worker, message.snapshot);
    else if (message?.type === ASK) {
      collect().then((text) => {
        if (worker.isConnected()) worker.send({ type: ANSWER, id: message.id, text });
      });
    }
  });

  function collect() {
    const id = crypto.randomUUID();
    const asking = [...ready].filter((worker) => worker.isConnected());
    const answered = new Set();
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        collections.delete(id);
        const stale = asking.filter((worker) => !answered.has(worker) && last.has(worker.id));
        const snapshots = asking.map((worker) => last.get(worker.id)).filter(Boolean);
        const merged = mergeSnapshots([ended, ...snapshots, { process: processFigures("primary") }]);
        resolve(formatMetrics(merged, { stale: stale.length }));
      };
      const timer = setTimeout(finish, collectMs);
      collections.set(id, (worker, snapshot) => {
        if (!snapshot) return;
        last.set(worker.id, snapshot);
        answered.add(worker);
        if (asking.every((w) => answered.has(w))) finish();
      });
      if (asking.length === 0) finish();
      for (const worker of asking) worker.send({ type: COLLECT, id });
    });
  }
}
