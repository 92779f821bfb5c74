import { EventEmitter } from "node:events";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { appMetrics, countReminderRun } from "~/entry.server";
import type { Database } from "~/services/platform/db/client.server";
import { useDatabaseForTests } from "~/services/platform/db/index.server";
import { envSchema } from "~/services/platform/env.server";
import { openTestDatabase } from "~/test/db";
import {
  aggregateClusterMetrics,
  createRequestMetrics,
  formatMetrics,
  mergeSnapshots,
  metricsAccess,
  metricsDecision,
  metricsEndpoint,
  type Snapshot,
} from "./metrics.mjs";

const TOKEN = "metrics-token-0123456789abcdefghijklmnop";

/** The samples of a scrape: `name{labels}` → value. */
function samples(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    found.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return found;
}

describe("who may read /metrics", () => {
  test("off unless METRICS=loopback or METRICS_TOKEN says otherwise", () => {
    expect(metricsAccess({})).toBeNull();
    expect(metricsAccess({ METRICS: "", METRICS_TOKEN: "" })).toBeNull();
    expect(metricsAccess({ METRICS: "off" })).toBeNull();
    expect(metricsAccess({ METRICS: "loopback" })).toEqual({ loopback: true, token: null });
    expect(metricsAccess({ METRICS_TOKEN: TOKEN })).toEqual({ loopback: false, token: TOKEN });
  });

  test("a METRICS other than loopback, or a short METRICS_TOKEN, stops the start naming it", () => {
    const problems = (env: Record<string, string>) =>
      envSchema.safeParse(env).error?.issues.map((i) => i.path.join(".")) ?? [];
    expect(problems({ METRICS: "loopback", METRICS_TOKEN: TOKEN })).toEqual([]);
    expect(problems({ METRICS: "", METRICS_TOKEN: "" })).toEqual([]);
    expect(problems({ METRICS: "on" })).toEqual(["METRICS"]);
    expect(problems({ METRICS_TOKEN: "short" })).toEqual(["METRICS_TOKEN"]);
    expect(problems({ METRICS_TOKEN: `${TOKEN} with spaces` })).toEqual(["METRICS_TOKEN"]);
  });

  const both = { loopback: true, token: TOKEN };
  test.each([
    ["metrics off", null, "127.0.0.1", {}, "hidden"],
    ["metrics off, with the token", null, "127.0.0.1", { authorization: `Bearer ${TOKEN}` }, "hidden"],
    ["loopback", both, "127.0.0.1", {}, "serve"],
    ["loopback, 127.0.0.0/8", both, "127.1.2.3", {}, "serve"],
    ["loopback, IPv6", both, "::1", {}, "serve"],
    ["loopback, IPv4-mapped", both, "::ffff:127.0.0.1", {}, "serve"],
    ["another machine", both, "10.0.0.5", {}, "hidden"],
    ["another machine, IPv4-mapped", both, "::ffff:10.0.0.5", {}, "hidden"],
    ["a proxy on this machine (X-Forwarded-For)", both, "127.0.0.1", { "x-forwarded-for": "203.0.113.9" }, "hidden"],
    ["a proxy on this machine (Forwarded)", both, "127.0.0.1", { forwarded: "for=203.0.113.9" }, "hidden"],
    ["a proxy on this machine (X-Real-IP)", both, "127.0.0.1", { "x-real-ip": "203.0.113.9" }, "hidden"],
    ["the token from anywhere", both, "203.0.113.9", { authorization: `Bearer ${TOKEN}` }, "serve"],
    [
      "the token through a proxy",
      both,
      "127.0.0.1",
      { authorization: `bearer ${TOKEN}`, "x-forwarded-for": "203.0.113.9" },
      "serve",
    ],
    ["a wrong token", both, "203.0.113.9", { authorization: `Bearer ${TOKEN}x` }, "unauthorized"],
    ["a wrong token from loopback", both, "127.0.0.1", { authorization: "Bearer nope" }, "unauthorized"],
    ["no token from elsewhere", both, "203.0.113.9", {}, "hidden"],
    ["another scheme", { loopback: false, token: TOKEN }, "203.0.113.9", { authorization: `Basic ${TOKEN}` }, "hidden"],
    [
      "a token when only loopback is on",
      { loopback: true, token: null },
      "203.0.113.9",
      { authorization: `Bearer ${TOKEN}` },
      "hidden",
    ],
  ] as const)("%s", (_name, access, remoteAddress, headers, decision) => {
    expect(metricsDecision(access, { remoteAddress, headers })).toBe(decision);
  });
});

describe("counts and their text", () => {
  test("requests by route pattern, method and status class; latency histograms per route; processes added up", () => {
    const one = createRequestMetrics();
    one.observe({ route: "/student/:studentUserId/form/:formId", method: "GET", status: 200, seconds: 0.003 });
    one.observe({ route: "/student/:studentUserId/form/:formId", method: "POST", status: 303, seconds: 0.07 });
    one.observe({ route: undefined, method: "GET", status: 404, seconds: 0.02 });
    const two = createRequestMetrics();
    two.observe({ route: "/student/:studentUserId/form/:formId", method: "GET", status: 204, seconds: 7 });
    two.observe({ route: "static", method: "BREW", status: 200, seconds: 0.001 });
    two.observe({ route: "/login", method: "POST", status: 200, seconds: 0.4, aborted: true });
    const merged = mergeSnapshots([
      { ...one.snapshot(), pool: { total: 3, idle: 2, waiting: 0, max: 10 }, reminders: { sent: 2, failed: 1 } },
      { ...two.snapshot(), pool: { total: 1, idle: 0, waiting: 4, max: 10 }, reminders: { sent: 5, failed: 0 } },
    ]);
    const text = formatMetrics(merged);
    const s = samples(text);
    const form = 'route="/student/:studentUserId/form/:formId"';
    expect(s.get(`praksis_http_requests_total{${form},method="GET",status="2xx"}`)).toBe(2);
    expect(s.get(`praksis_http_requests_total{${form},method="POST",status="3xx"}`)).toBe(1);
    expect(s.get('praksis_http_requests_total{route="none",method="GET",status="4xx"}')).toBe(1);
    expect(s.get('praksis_http_requests_total{route="static",method="other",status="2xx"}')).toBe(1);
    expect(s.get('praksis_http_requests_total{route="/login",method="POST",status="aborted"}')).toBe(1);
    // Cumulative buckets: 0.003 ≤ 0.005, 0.07 ≤ 0.1, 7 only in +Inf.
    expect(s.get(`praksis_http_request_duration_seconds_bucket{${form},le="0.005"}`)).toBe(1);
    expect(s.get(`praksis_http_request_duration_seconds_bucket{${form},le="0.05"}`)).toBe(1);
    expect(s.get(`praksis_http_request_duration_seconds_bucket{${form},le="0.1"}`)).toBe(2);
    expect(s.get(`praksis_http_request_duration_seconds_bucket{${form},le="5"}`)).toBe(2);
    expect(s.get(`praksis_http_request_duration_seconds_bucket{${form},le="+Inf"}`)).toBe(3);
    expect(s.get(`praksis_http_request_duration_seconds_count{${form}}`)).toBe(3);
    expect(s.get(`praksis_http_request_duration_seconds_sum{${form}}`)).toBeCloseTo(7.073, 6);
    expect(s.get("praksis_db_pool_connections")).toBe(4);
    expect(s.get("praksis_db_pool_idle_connections")).toBe(2);
    expect(s.get("praksis_db_pool_waiting_clients")).toBe(4);
    expect(s.get("praksis_db_pool_max_connections")).toBe(20);
    expect(s.get("praksis_reminders_sent_total")).toBe(7);
    expect(s.get("praksis_reminders_failed_total")).toBe(1);
    // Every sample's family is declared once, with its type.
    const families = text.match(/^# TYPE (\S+) (\S+)$/gm) ?? [];
    expect(new Set(families).size).toBe(families.length);
    for (const name of s.keys()) {
      const family = name.replace(/\{.*$/, "").replace(/_(bucket|sum|count)$/, "");
      expect(text, name).toMatch(new RegExp(`^# TYPE (${family}|${name.replace(/\{.*$/, "")}) `, "m"));
    }
  });

  test("a label value is escaped, and the routes are bounded: a flood of patterns ends in `other`", () => {
    const metrics = createRequestMetrics();
    metrics.observe({ route: '/a"b\\c\nd', method: "GET", status: 200, seconds: 0.01 });
    for (let i = 0; i < 400; i++) metrics.observe({ route: `/r${i}`, method: "GET", status: 200, seconds: 0.01 });
    metrics.observe({ route: `/${"x".repeat(300)}`, method: "GET", status: 200, seconds: 0.01 });
    const text = formatMetrics(mergeSnapshots([metrics.snapshot()]));
    expect(text).toContain('route="/a\\"b\\\\c\\nd"');
    const routes = new Set(
      [...text.matchAll(/praksis_http_requests_total\{route="((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]),
    );
    expect(routes.size).toBeLessThanOrEqual(301);
    expect(routes.has("other")).toBe(true);
    expect(text).not.toContain("x".repeat(300));
  });
});

/** A stand-in for node:cluster: workers that answer the primary's collections as app processes do. */
function fakeCluster() {
  const cluster = new EventEmitter();
  const workers: FakeWorker[] = [];
  class FakeWorker {
    connected = true;
    answers = true;
    snapshot: Snapshot = {};
    received: unknown[] = [];
    constructor(public id: number) {}
    isConnected() {
      return this.connected;
    }
    send(message: { type: string; id: string }) {
      this.received.push(message);
      if (message.type === "praksis:metrics:collect" && this.answers) {
        setImmediate(() =>
          cluster.emit("message", this, { type: "praksis:metrics:snapshot", id: message.id, snapshot: this.snapshot }),
        );
      }
    }
    /** Asks the primary for a scrape, as the app process a scrape reached does. */
    scrape(): Promise<Map<string, number>> {
      const id = `ask-${Math.random()}`;
      const answered = new Promise<Map<string, number>>((resolve) => {
        const before = this.received.length;
        const poll = setInterval(() => {
          const answer = this.received.slice(before).find((m) => (m as { type: string; id: string }).id === id) as
            { text: string } | undefined;
          if (answer) {
            clearInterval(poll);
            resolve(samples(answer.text));
          }
        }, 1);
      });
      cluster.emit("message", this, { type: "praksis:metrics:ask", id });
      return answered;
    }
  }
  const fork = (id: number) => {
    const worker = new FakeWorker(id);
    workers.push(worker);
    cluster.emit("message", worker, { type: "praksis:metrics:ready" });
    return worker;
  };
  const exit = (worker: FakeWorker) => {
    worker.connected = false;
    cluster.emit("exit", worker);
  };
  return { cluster, fork, exit };
}

const served = (count: number): Snapshot => ({
  requests: [["/healthz", "GET", "2xx", count]],
  durations: [["/healthz", [count, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], count * 0.001, count]],
});

describe("the primary adds the app processes up", () => {
  test("a scrape through any app process counts every one of them; an ended process's counts stay; a silent one counts with its last answer", async () => {
    const { cluster, fork, exit } = fakeCluster();
    aggregateClusterMetrics(cluster as never, { access: { loopback: true, token: null }, collectMs: 100 });
    const a = fork(1);
    const b = fork(2);
    a.snapshot = {
      ...served(3),
      pool: { total: 2, idle: 1, waiting: 0, max: 10 },
      reminders: { sent: 1, failed: 0 },
      process: { role: "app", pid: 101, uptime: 5, rss: 1e8, lagP99: 0.01, lagMax: 0.02 },
    };
    b.snapshot = {
      ...served(4),
      pool: { total: 1, idle: 1, waiting: 0, max: 10 },
      reminders: { sent: 0, failed: 2 },
      process: { role: "app", pid: 102, uptime: 5, rss: 1e8, lagP99: 0.01, lagMax: 0.02 },
    };
    for (const through of [a, b]) {
      const s = await through.scrape();
      expect(s.get('praksis_http_requests_total{route="/healthz",method="GET",status="2xx"}')).toBe(7);
      expect(s.get('praksis_http_request_duration_seconds_count{route="/healthz"}')).toBe(7);
      expect(s.get("praksis_db_pool_connections")).toBe(3);
      expect(s.get("praksis_db_pool_max_connections")).toBe(20);
      expect(s.get("praksis_reminders_sent_total")).toBe(1);
      expect(s.get("praksis_reminders_failed_total")).toBe(2);
      expect(s.get('praksis_app_processes{state="answered"}')).toBe(2);
      expect(s.get('praksis_process_resident_memory_bytes{process="app",pid="101"}')).toBe(1e8);
      expect(s.get('praksis_process_resident_memory_bytes{process="app",pid="102"}')).toBe(1e8);
      expect(s.get(`praksis_process_uptime_seconds{process="primary",pid="${process.pid}"}`)).toBeGreaterThanOrEqual(0);
    }

    // b answers no more: its last answer is counted (and said to be stale), a's new one is.
    b.answers = false;
    a.snapshot = { ...a.snapshot, ...served(10) };
    let s = await a.scrape();
    expect(s.get('praksis_http_requests_total{route="/healthz",method="GET",status="2xx"}')).toBe(14);
    expect(s.get('praksis_app_processes{state="stale"}')).toBe(1);

    // b ends and another takes its place: b's counts stay in the sums, its pool and figures go.
    exit(b);
    const c = fork(3);
    c.snapshot = {
      ...served(1),
      pool: { total: 1, idle: 0, waiting: 0, max: 10 },
      process: { role: "app", pid: 103, uptime: 1, rss: 1e8, lagP99: 0, lagMax: 0 },
    };
    s = await c.scrape();
    expect(s.get('praksis_http_requests_total{route="/healthz",method="GET",status="2xx"}')).toBe(15);
    expect(s.get("praksis_reminders_failed_total")).toBe(2);
    expect(s.get("praksis_db_pool_connections")).toBe(3);
    expect(s.get('praksis_app_processes{state="answered"}')).toBe(2);
    expect(s.has('praksis_process_resident_memory_bytes{process="app",pid="102"}')).toBe(false);
  });

  test("off: the primary listens to nothing", () => {
    const { cluster } = fakeCluster();
    aggregateClusterMetrics(cluster as never, { access: null });
    expect(cluster.listenerCount("message")).toBe(0);
  });
});

describe("GET /metrics on one process", () => {
  async function serve(access: ReturnType<typeof metricsAccess>) {
    const app = express();
    app.use((req, res, next) => {
      res.locals.record = { id: "r", method: req.method, began: performance.now() };
      next();
    });
    app.get(
      "/metrics",
      metricsEndpoint({
        access,
        appStats: async () => ({ pool: { total: 2, idle: 1, waiting: 0, max: 5 }, reminders: { sent: 3, failed: 1 } }),
      }),
    );
    app.use((_req, res) => res.status(404).send("the app's 404 page"));
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { base, close: () => new Promise((resolve) => server.close(resolve)) };
  }

  test("off: the app's 404 page, with or without a token", async () => {
    const { base, close } = await serve(null);
    try {
      const plain = await fetch(`${base}/metrics`);
      expect(plain.status).toBe(404);
      expect(await plain.text()).toBe("the app's 404 page");
      expect((await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    } finally {
      await close();
    }
  });

  test("on: Prometheus's text for loopback and the token, 401 for a wrong token, 404 through a proxy without one", async () => {
    const { base, close } = await serve({ loopback: true, token: TOKEN });
    try {
      const answer = await fetch(`${base}/metrics`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(answer.headers.get("cache-control")).toBe("no-store");
      const s = samples(await answer.text());
      expect(s.get("praksis_db_pool_connections")).toBe(2);
      expect(s.get("praksis_reminders_sent_total")).toBe(3);
      expect(s.get('praksis_app_processes{state="answered"}')).toBe(1);
      expect([...s.keys()].some((k) => k.startsWith("praksis_event_loop_lag_p99_seconds{"))).toBe(true);
      const wrong = await fetch(`${base}/metrics`, { headers: { authorization: "Bearer wrong" } });
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(await wrong.text()).not.toContain("praksis_");
      expect((await fetch(`${base}/metrics`, { headers: { "x-forwarded-for": "203.0.113.9" } })).status).toBe(404);
      expect(
        (
          await fetch(`${base}/metrics`, {
            headers: { "x-forwarded-for": "203.0.113.9", authorization: `Bearer ${TOKEN}` },
          })
        ).status,
      ).toBe(200);
    } finally {
      await close();
    }
  });
});

describe("the app process's own figures (app/entry.server.tsx)", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase({ poolSize: 4 });
    useDatabaseForTests(database);
  });
  afterAll(async () => {
    await database.close();
  });

  test("its database pool, and the reminders its runs sent and failed", async () => {
    await database.db.execute("select 1");
    const before = await appMetrics();
    expect(before.pool).toMatchObject({ max: 4, waiting: 0 });
    expect(before.pool!.total).toBeGreaterThanOrEqual(1);
    expect(before.pool!.idle).toBeLessThanOrEqual(before.pool!.total);
    countReminderRun({ due: 3, taken: 3, sent: 2, failed: 1, dropped: 0 });
    const after = await appMetrics();
    expect(after.reminders).toEqual({ sent: before.reminders.sent + 2, failed: before.reminders.failed + 1 });
  });
});
