// GET /metrics against the production build (server.mjs, two app processes, a PostgreSQL of its own):
//  1. off unless configured: the app's 404 page, with or without a token;
//  2. METRICS=loopback and METRICS_TOKEN: a scrape from this machine, or with the token from
//     anywhere (through a proxy), reads Prometheus's text; a wrong token gets 401, a forwarded
//     request without the token 404;
//  3. one scrape, whichever app process it reaches, counts the requests both processes answered,
//     and names both processes; a request's path and query never reach a label.
// Run: node --test scripts/ops/metrics.test.mjs (needs build/).
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import { after, before, test } from "node:test";
import { ensureBuild, freePort, sleep, startApp, startPostgres, tempDir } from "./support.mjs";

ensureBuild();
const TOKEN = "ops-metrics-token-0123456789abcdefghijklmn";
let postgres;
const servers = {};
const dirs = [];

before(async () => {
  postgres = await startPostgres();
  const start = async (name, env) => {
    const dir = tempDir(`praksis-metrics-${name}-`);
    fs.chmodSync(dir, 0o755);
    dirs.push(dir);
    servers[name] = await startApp({ port: await freePort(), dir, databaseUrl: postgres.url, env });
  };
  // Side by side on one database (the migrations run once, under their lock).
  await Promise.all([
    start("on", { WEB_CONCURRENCY: "2", METRICS: "loopback", METRICS_TOKEN: TOKEN }),
    start("off", { WEB_CONCURRENCY: "1", METRICS: "", METRICS_TOKEN: "" }),
  ]);
  // The server answers once its first app process listens; the second starts after it.
  for (let waited = 0; (await scrape()).samples.get('praksis_app_processes{state="answered"}') !== 2; waited += 100) {
    assert.ok(waited < 30_000, "the second app process did not start in 30 s");
    await sleep(100);
  }
});
after(async () => {
  await Promise.all(Object.values(servers).map((server) => server.stop()));
  await postgres?.destroy();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A GET on a connection of its own (so that the cluster hands each to the next app process). */
function get(base, path, headers = {}) {
  return new Promise((resolve, reject) => {
    const request = http.get(`${base}${path}`, { agent: false, headers }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode, headers: response.headers, body }));
    });
    request.on("error", reject);
  });
}

/** The samples of a scrape: `name{labels}` → value. */
function samples(text) {
  const found = new Map();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    found.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return found;
}

async function scrape() {
  const answer = await get(servers.on.base, "/metrics");
  assert.equal(answer.status, 200, answer.body);
  return { text: answer.body, samples: samples(answer.body) };
}

const HEALTHZ = 'praksis_http_requests_total{route="/healthz",method="GET",status="2xx"}';

/** The server's JSON log lines of requests to `route`. */
function requestLines(server, route) {
  return server.output
    .join("")
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line))
    .filter((line) => line.msg === "request" && line.route === route);
}

test("off unless configured: /metrics is the app's 404 page, with or without a token", async () => {
  for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
    const answer = await get(servers.off.base, "/metrics", headers);
    assert.equal(answer.status, 404);
    assert.match(answer.headers["content-type"], /^text\/html/);
    assert.doesNotMatch(answer.body, /praksis_http_requests_total/);
  }
});

test("loopback and the token read it; a wrong token gets 401, a forwarded request without the token 404", async () => {
  const plain = await get(servers.on.base, "/metrics");
  assert.equal(plain.status, 200);
  assert.match(plain.headers["content-type"], /^text\/plain; version=0\.0\.4/);
  assert.equal(plain.headers["cache-control"], "no-store");
  const forwarded = { "x-forwarded-for": "203.0.113.9" };
  assert.equal(
    (await get(servers.on.base, "/metrics", forwarded)).status,
    404,
    "a proxy on this machine is not loopback",
  );
  const wrong = await get(servers.on.base, "/metrics", {
    ...forwarded,
    authorization: "Bearer not-the-token-0123456789abcdefghijkl",
  });
  assert.equal(wrong.status, 401);
  assert.doesNotMatch(wrong.body, /praksis_/);
  assert.equal(
    (await get(servers.on.base, "/metrics", { authorization: "Bearer wrong" })).status,
    401,
    "a wrong token from loopback too",
  );
  const withToken = await get(servers.on.base, "/metrics", { ...forwarded, authorization: `Bearer ${TOKEN}` });
  assert.equal(withToken.status, 200);
  assert.match(withToken.body, /^praksis_db_pool_max_connections \d+$/m);
});

test("one scrape counts the requests of both app processes, names both, and holds no path or query", async () => {
  const before = (await scrape()).samples.get(HEALTHZ) ?? 0;
  const linesBefore = requestLines(servers.on, "/healthz").length;
  const sent = 12;
  for (let i = 0; i < sent; i++) assert.equal((await get(servers.on.base, "/healthz")).status, 200);
  // A route with ids and a query: counted under its pattern.
  const document = await get(servers.on.base, "/api/classes/424242/students/737373/warning/pdf?name=Kari%20Nordmann");
  assert.ok(document.status >= 300, `a document without a session: ${document.status}`);

  // Each scrape on a connection of its own: the two app processes take turns answering them.
  let last;
  for (let i = 0; i < 4; i++) {
    const { text, samples } = await scrape();
    // Counted when the answer has gone: a request the client has read may be counted a moment later.
    const counted = samples.get(HEALTHZ) - before;
    assert.ok(counted <= sent, `${counted} /healthz requests counted, ${sent} sent`);
    if (counted < sent) {
      await sleep(50);
      i--;
      continue;
    }
    assert.equal(counted, sent);
    const apps = [...samples.keys()].filter((key) => key.startsWith('praksis_process_uptime_seconds{process="app"'));
    assert.equal(apps.length, 2, text);
    assert.equal(samples.get('praksis_app_processes{state="answered"}'), 2);
    assert.ok(samples.get("praksis_db_pool_connections") >= 2, "a connection in each app process's pool");
    assert.equal(samples.get("praksis_db_pool_max_connections"), 20, "DATABASE_POOL_SIZE 10 × 2");
    assert.equal(samples.get("praksis_reminders_sent_total"), 0);
    assert.ok(
      samples.get(
        'praksis_http_requests_total{route="/api/classes/:classId/students/:studentUserId/warning/pdf",method="GET",status="3xx"}',
      ) >= 1,
      text,
    );
    assert.doesNotMatch(text, /424242|737373|Kari|Nordmann|name=/);
    last = text;
  }
  assert.ok(last);

  // The log says which app process answered each request: both answered some of the /healthz
  // requests above, and both some of the scrapes.
  await sleep(100);
  const pids = (route, from = 0) =>
    new Set(
      requestLines(servers.on, route)
        .slice(from)
        .map((line) => line.pid),
    );
  assert.equal(pids("/healthz", linesBefore).size, 2, "the /healthz requests went to both app processes");
  assert.equal(pids("/metrics").size, 2, "the scrapes went to both app processes");
  const named = new Set(
    [...last.matchAll(/praksis_process_uptime_seconds\{process="app",pid="(\d+)"\}/g)].map((m) => Number(m[1])),
  );
  assert.deepEqual(named, pids("/healthz", linesBefore));
});
