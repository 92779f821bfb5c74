// `npm run load`: a realistic mix against the production build, on loopback, bounded in time.
//
//   node scripts/load.mjs [--duration 30] [--users 200] [--pg] [--port 4100] [--ratio-seconds 5]
//
// Set-up (scripts/ops/setup.ts, through the app's own database client): the demo data plus load
// users in the demo's first class — 80 % students, 12 % teachers, 8 % supervisors. Then every user
// logs in by e-mail code as a browser does (POST /login, the code read from the outbox folder,
// POST /otp) and, until the time is up, works with a pause of a few seconds between steps:
// students autosave an answer (POST /api/answers as the form page's script does, with the base
// tokens the server answered) and now and then open their forms page, the form page or the
// results; teachers open the class page (with the progress overview), a student's page and the
// student's results; supervisors their home page, the class page and a student's page. The mix runs
// `--duration` seconds after the last log-in. Finally, on the same server and database, each page
// is timed alone (the slowest is the heaviest), and autocannon measures the throughput of the
// heaviest page and of a minimal page (/privacy-policy), each for a few seconds: their ratio. The app runs on its embedded PostgreSQL (as `npm start` does); --pg runs the same on a
// PostgreSQL server of its own (a throwaway cluster) given as DATABASE_URL.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import {
  cookieHeader,
  ensureBuild,
  logIn,
  Outbox,
  percentile,
  root,
  sleep,
  startApp,
  startPostgres,
  tempDir,
} from "./ops/support.mjs";
import { startEmbeddedPostgres } from "./embedded-postgres.mjs";

const { values: options } = parseArgs({
  options: {
    duration: { type: "string", default: "30" },
    users: { type: "string", default: "200" },
    pg: { type: "boolean", default: false },
    port: { type: "string", default: "4100" },
    "ratio-seconds": { type: "string", default: "5" },
    "think-ms": { type: "string", default: "3000" },
  },
});
const duration = Number(options.duration);
const userCount = Number(options.users);
const ratioSeconds = Number(options["ratio-seconds"]);
const thinkMs = Number(options["think-ms"]);
const port = Number(options.port);
const kind = options.pg ? "PostgreSQL of its own" : "embedded PostgreSQL";

// The whole run is bounded: set-up, start, log-ins, the mix, the ratio and the teardown.
const wallLimit = (duration + 2 * ratioSeconds + 360) * 1000;
const wallTimer = setTimeout(() => {
  console.error(`[load] over the wall-time limit of ${wallLimit / 1000} s: stopping`);
  cleanup().finally(() => process.exit(2));
}, wallLimit);
wallTimer.unref();

const dir = tempDir("praksis-load-");
// Reachable by the unprivileged user the embedded PostgreSQL runs as when run as root.
fs.chmodSync(dir, 0o755);
let postgres = null;
let server = null;
async function cleanup() {
  await server?.stop().catch(() => {});
  await postgres?.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
}
process.on("SIGINT", () => cleanup().finally(() => process.exit(130)));

// ─── per-route figures ──────────────────────────────────────────────────────
const routes = new Map();
function record(route, ms, status, expected = null) {
  let r = routes.get(route);
  if (!r) routes.set(route, (r = { times: [], ok: 0, errors: 0, statuses: new Map() }));
  r.times.push(ms);
  if (expected === null ? status >= 200 && status < 400 : status === expected) r.ok++;
  else {
    r.errors++;
    const key = status === 0 ? "socket" : String(status);
    r.statuses.set(key, (r.statuses.get(key) ?? 0) + 1);
  }
}

async function timed(route, url, init = {}, expected = null) {
  const began = performance.now();
  try {
    // A request unanswered after a minute counts as an error (the run stays bounded).
    const response = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(60_000), ...init });
    const body = await response.text();
    record(route, performance.now() - began, response.status, expected);
    return { status: response.status, body };
  } catch (error) {
    record(route, performance.now() - began, 0);
    return { status: 0, body: String(error) };
  }
}

try {
  ensureBuild();
  const students = Math.max(1, Math.round(userCount * 0.8));
  const teachers = Math.max(1, Math.round(userCount * 0.12));
  const supervisors = Math.max(1, userCount - students - teachers);
  let databaseUrl;
  let embedded = null;
  if (options.pg) {
    postgres = await startPostgres();
    databaseUrl = postgres.url;
  } else {
    // The set-up writes into the embedded server of DATA_DIR, which the app then starts itself.
    embedded = await startEmbeddedPostgres({ dataDir: path.join(dir, "postgres") });
  }
  const setupBegan = performance.now();
  const planFile = path.join(dir, "plan.json");
  const setup = spawnSync(
    "npx",
    ["tsx", "scripts/ops/setup.ts", planFile, String(students), String(teachers), String(supervisors)],
    { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl ?? embedded.url }, encoding: "utf8", timeout: 180_000 },
  );
  await embedded?.stop();
  if (setup.status !== 0) throw new Error(`set-up failed:\n${setup.stderr}${setup.stdout}`);
  const plan = JSON.parse(fs.readFileSync(planFile, "utf8"));
  console.log(`[load] ${kind}: set-up of ${students} students, ${teachers} teachers, ${supervisors} supervisors in ${((performance.now() - setupBegan) / 1000).toFixed(1)} s`);

  server = await startApp({ port, dir, databaseUrl, env: { SEED_DEMO: "false" } });
  const { base } = server;
  const outbox = new Outbox(server.outboxDir);
  const place = { classId: String(plan.classId), formId: String(plan.formId), assignmentId: String(plan.assignmentId) };
  const { classId, formId, assignmentId } = plan;

  const people = [
    ...plan.students.map((s) => ({ ...s, role: "student" })),
    ...plan.teachers.map((t) => ({ ...t, role: "teacher" })),
    ...plan.supervisors.map((s) => ({ ...s, role: "supervisor" })),
  ];
  // Pages of each role, as route names (for the figures) and paths.
  const pagesOf = (p) => {
    switch (p.role) {
      case "student":
        return [
          ["GET /student/forms", "/student/forms"],
          ["GET student form page", `/student/${p.id}/form/${formId}/class/${classId}/assignment/${assignmentId}`],
          ["GET student results", `/student/${p.id}/form/${formId}/class/${classId}/results`],
        ];
      case "teacher":
        return [
          ["GET teacher class page (overview)", `/teacher/class/${classId}`],
          ["GET teacher student page", `/teacher/class/${classId}/student/${p.studentId}`],
          ["GET teacher results", `/teacher/class/${classId}/student/${p.studentId}/form/${formId}/results`],
        ];
      default:
        return [
          ["GET /supervisor", "/supervisor"],
          ["GET supervisor class page", `/supervisor/class/${classId}`],
          ["GET supervisor student page", `/supervisor/class/${classId}/student/${p.studentId}`],
        ];
    }
  };
  const random = (n) => Math.floor(Math.random() * n);
  const think = () => sleep(thinkMs / 2 + random(thinkMs));

  // ─── the mix ──────────────────────────────────────────────────────────────
  let loggedIn = 0;
  let loginFailures = 0;
  let conflicts = 0;
  const mixBegan = performance.now();
  // The mix runs `duration` seconds after the last log-in, so the steady state is measured even
  // when the log-ins are slow; each user starts working as soon as they are in.
  let deadline = Infinity;
  let settle;
  const logInsDone = new Promise((resolve) => (settle = resolve));
  let pending = userCount;
  const loggedInOrFailed = () => {
    if (--pending === 0) settle();
  };
  const cookies = new Map();
  async function user(p, index) {
    // Arrivals spread over the first seconds, as people do not all press the button at once.
    await sleep(random(Math.min(5_000, duration * 200)));
    let jar;
    try {
      ({ jar } = await logIn({ base, email: p.email, outbox, record }));
      if (![...jar.keys()].some((k) => k.endsWith("praksis_session"))) throw new Error("no session cookie");
    } catch (error) {
      loginFailures++;
      if (loginFailures <= 3) console.error(`[load] log-in of ${p.email} failed: ${error.message}`);
      loggedInOrFailed();
      return;
    }
    loggedIn++;
    loggedInOrFailed();
    const cookie = cookieHeader(jar);
    cookies.set(p.role, cookie);
    const pages = pagesOf(p);
    const tokens = new Map();
    let n = 0;
    while (Date.now() < deadline) {
      n++;
      if (p.role === "student" && n % 4 !== 0) {
        // Autosave: one or two changed answers, each with the base the page holds.
        const body = new URLSearchParams({ ...place, studentUserId: String(p.id) });
        for (let k = 0; k < 1 + (n % 2); k++) {
          const q = plan.questions[(index + n + k * 5) % plan.questions.length];
          body.set(`b:${q.id}`, tokens.get(q.id) ?? plan.emptyToken);
          body.set(`a:${q.id}`, q.type === "text" ? `Refleksjon ${n} fra ${p.email}: dette gikk bra i dag.` : String((index + n) % 5));
          body.set(`c:${q.id}`, n % 3 === 0 ? `Kommentar ${n}` : "");
        }
        const result = await timed("POST /api/answers (autosave)", `${base}/api/answers`, {
          method: "POST",
          headers: { cookie, Origin: base, Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded" },
          body,
        });
        if (result.status === 200) {
          const json = JSON.parse(result.body);
          for (const [id, token] of Object.entries(json.tokens ?? {})) tokens.set(Number(id), token);
          conflicts += json.conflicts?.length ?? 0;
        }
      } else {
        const [route, url] = pages[(index + n) % pages.length];
        // A page is expected whole (200): a redirect here would mean a lost session or a gate.
        await timed(route, base + url, { headers: { cookie } }, 200);
      }
      await think();
    }
  }
  pending = people.length;
  const working = Promise.all(people.map((p, i) => user(p, i)));
  await logInsDone;
  const logInSeconds = (performance.now() - mixBegan) / 1000;
  deadline = Date.now() + duration * 1000;
  await working;
  const mixSeconds = (performance.now() - mixBegan) / 1000;

  // ─── the ratio: heaviest page against a minimal page, same server ────────
  // Under queueing every route's latency in the mix is mostly waiting, so the heaviest page is
  // found after the mix: each page of the mix three times in a row, on its own; the slowest median.
  const single = [];
  for (const [name] of [...routes].filter(([n]) => n.startsWith("GET "))) {
    const person = people.find((p) => cookies.has(p.role) && pagesOf(p).some(([n]) => n === name));
    if (!person) continue;
    const url = base + pagesOf(person).find(([n]) => n === name)[1];
    const times = [];
    for (let i = 0; i < 3; i++) {
      const began = performance.now();
      await (await fetch(url, { headers: { cookie: cookies.get(person.role) } })).arrayBuffer();
      times.push(performance.now() - began);
    }
    single.push({ name, url, role: person.role, median: times.sort((a, b) => a - b)[1] });
  }
  single.sort((a, b) => b.median - a.median);
  const heaviest = single[0];
  const probe = async (url, cookie) => {
    const result = await autocannon({
      url,
      connections: 10,
      duration: ratioSeconds,
      headers: cookie ? { cookie } : {},
    });
    return { rps: result.requests.average, non2xx: result.non2xx, errors: result.errors, p50: result.latency.p50, p99: result.latency.p99 };
  };
  let ratio = null;
  if (heaviest) {
    const heavy = await probe(heaviest.url, cookies.get(heaviest.role));
    const minimal = await probe(`${base}/privacy-policy`);
    ratio = { page: heaviest.name, heavy, minimal, value: heavy.rps / minimal.rps };
  }

  // ─── report ───────────────────────────────────────────────────────────────
  let total = 0;
  let totalErrors = 0;
  const lines = [];
  for (const [name, r] of [...routes].sort((a, b) => a[0].localeCompare(b[0]))) {
    const sorted = r.times.toSorted((a, b) => a - b);
    total += r.times.length;
    totalErrors += r.errors;
    const errors = r.errors ? ` errors ${r.errors} (${[...r.statuses].map(([s, c]) => `${s}×${c}`).join(", ")})` : "";
    lines.push(
      `  ${name.padEnd(36)} ${String(r.times.length).padStart(6)} req ${(r.times.length / mixSeconds).toFixed(1).padStart(7)} req/s` +
        `  p50 ${percentile(sorted, 0.5).toFixed(1).padStart(7)} ms  p95 ${percentile(sorted, 0.95).toFixed(1).padStart(7)} ms  p99 ${percentile(sorted, 0.99).toFixed(1).padStart(7)} ms${errors}`,
    );
  }
  console.log(`[load] ${kind}, ${people.length} users (${loggedIn} logged in, ${loginFailures} log-ins failed), ${mixSeconds.toFixed(1)} s, think time ${thinkMs / 2}–${(thinkMs * 3) / 2} ms; the last log-in done after ${logInSeconds.toFixed(1)} s, then ${duration} s more`);
  console.log(`  all routes: ${total} requests, ${(total / mixSeconds).toFixed(1)} req/s, ${totalErrors} errors (non-2xx/3xx or socket), ${conflicts} autosave conflicts`);
  for (const line of lines) console.log(line);
  if (single.length) console.log(`  each page alone after the mix (median of 3): ${single.map((p) => `${p.name} ${p.median.toFixed(0)} ms`).join("; ")}`);
  if (ratio) {
    const show = (m) => `${m.rps.toFixed(1)} req/s (p50 ${m.p50} ms, p99 ${m.p99} ms, ${m.non2xx} non-2xx, ${m.errors} socket errors)`;
    console.log(`  saturation, 10 connections × ${ratioSeconds} s each, after the mix on the same server:`);
    console.log(`    heaviest page (${ratio.page}): ${show(ratio.heavy)}`);
    console.log(`    minimal page (GET /privacy-policy): ${show(ratio.minimal)}`);
    console.log(`    ratio heaviest/minimal throughput: ${ratio.value.toFixed(3)}`);
  }
  const serverErrors = server.output.filter((line) => /error/i.test(line) && !/\[mail\]/.test(line));
  if (serverErrors.length) console.log(`  server log lines mentioning errors: ${serverErrors.length}, first: ${serverErrors[0].trim().slice(0, 300)}`);
  const failed = loggedIn === 0 || loginFailures > 0 || totalErrors > 0 || (ratio && (ratio.heavy.non2xx || ratio.heavy.errors || ratio.minimal.non2xx || ratio.minimal.errors));
  process.exitCode = failed ? 1 : 0;
} catch (error) {
  console.error(`[load] ${error.stack ?? error}`);
  process.exitCode = 1;
} finally {
  await cleanup();
  clearTimeout(wallTimer);
}
