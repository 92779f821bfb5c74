// Faults and two instances, against the production build (`npm test` runs this after the build):
//  1. SIGKILL in the middle of an autosave load: of the app (`npm start`'s process, which leaves its
//     embedded PostgreSQL running: the next start stops it and starts cleanly), of the embedded
//     database server (started again by the app), of the app on a PostgreSQL of one's own: every
//     save answered 2xx is there afterwards;
//  2. PostgreSQL restarted while requests flow: 503 with a clear page, /healthz "unavailable", a log
//     line, no crash; the same process serves again when the database is back; an app process that
//     ends while the database is down is started again (with a growing pause) until it can start;
//  3. two clustered app instances (each with two app processes) on one PostgreSQL: sessions, e-mail
//     codes and rate limits work across them;
//  4. a browser (chromium, JavaScript on) autosaving while PostgreSQL is down for 20 s: every answer
//     typed is stored once it is back, also those of a tab closed during the outage and opened again.
// Run: node --test scripts/ops/faults.test.mjs (needs build/).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { after, describe, test } from "node:test";
import { chromium } from "@playwright/test";
import pg from "pg";
import {
  cookieHeader,
  embeddedPostgresPid,
  ensureBuild,
  freePort,
  logIn,
  Outbox,
  sleep,
  startApp,
  startPostgres,
  tempDir,
} from "./support.mjs";

ensureBuild();
const cleanups = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});
function scratch() {
  const dir = tempDir("praksis-faults-");
  // Reachable by the unprivileged user the embedded PostgreSQL runs as when the tests run as root.
  fs.chmodSync(dir, 0o755);
  cleanups.push(() => {
    // An embedded server that a failed test left behind is not left running.
    const pid = embeddedPostgresPid(dir);
    try {
      if (pid) process.kill(pid, "SIGQUIT");
    } catch {
      // gone already
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}
async function cluster() {
  const postgres = await startPostgres();
  cleanups.push(() => postgres.destroy());
  return postgres;
}
async function app(options) {
  const server = await startApp(options);
  cleanups.push(() => server.stop());
  return server;
}

/** The app processes the server's primary runs (its child processes: on a PostgreSQL of one's own, nothing else). */
function appProcesses(primaryPid) {
  const result = spawnSync("ps", ["-o", "pid=", "--ppid", String(primaryPid)], { encoding: "utf8" });
  return result.stdout.split("\n").map(Number).filter(Boolean);
}

const DEMO_STUDENTS = Array.from({ length: 6 }, (_, i) => `student${String(i + 1).padStart(2, "0")}@example.org`);
const FORM_LINK = /href="(\/student\/(\d+)\/form\/(\d+)\/class\/(\d+)\/assignment\/(\d+))"/;
const decode = (s) =>
  s
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** A student's first form page (page 1) as the browser gets it: where it posts, and each text answer with its base token. */
async function formPage(base, cookie) {
  const forms = await fetch(`${base}/student/forms`, { headers: { cookie }, redirect: "manual" });
  const link = FORM_LINK.exec(await forms.text());
  if (!link) return null;
  // Page 1 by name: without it the page opens where a question is still to answer, which moves on
  // once the writers have filled in page 1's text answers.
  const html = await (
    await fetch(`${base}${decode(link[1])}?group=1`, { headers: { cookie }, redirect: "manual" })
  ).text();
  const answers = new Map();
  for (const m of html.matchAll(/<textarea[^>]*name="a:(\d+)"[^>]*>([^<]*)<\/textarea>/g))
    answers.set(Number(m[1]), { value: decode(m[2]) });
  for (const m of html.matchAll(
    /<input[^>]*name="b:(\d+)"[^>]*value="([^"]*)"|<input[^>]*value="([^"]*)"[^>]*name="b:(\d+)"/g,
  )) {
    const id = Number(m[1] ?? m[4]);
    if (answers.has(id)) answers.get(id).base = decode(m[2] ?? m[3]);
  }
  return {
    path: link[1],
    place: { studentUserId: link[2], formId: link[3], classId: link[4], schemeId: link[5] },
    answers,
  };
}

/** The privacy-policy consent every user gives at the first log-in (a no-op when given before). */
async function acceptPrivacy(base, cookie) {
  const response = await fetch(`${base}/privacy-consent`, {
    method: "POST",
    headers: { cookie, Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "accept" }),
    redirect: "manual",
  });
  assert.equal(response.status, 303, "privacy consent");
}

async function logInStudents(server, outbox) {
  const students = await Promise.all(
    DEMO_STUDENTS.map(async (email) => {
      const { jar } = await logIn({ base: server.base, email, outbox });
      const cookie = cookieHeader(jar);
      await acceptPrivacy(server.base, cookie);
      const page = await formPage(server.base, cookie);
      return page && page.answers.size > 0 ? { email, cookie, page } : null;
    }),
  );
  return students.filter(Boolean);
}

/**
 * Autosaves as fast as answers come back: one writer per (student, text question), each posting
 * distinct values in order with the base token of its last acknowledged save. `kill` is called once
 * `killAfter` saves are acknowledged; the writers stop at their first failed request after that.
 */
async function autosaveUntilKilled(base, students, killAfter, kill) {
  const writers = students.flatMap((s) =>
    [...s.page.answers].map(([questionId, a]) => ({ s, questionId, base: a.base, acked: 0, sent: 0 })),
  );
  let acknowledged = 0;
  let killed = null;
  // What the writers got once the kill was under way (a status, or "socket" for no answer).
  const afterKill = [];
  await Promise.all(
    writers.map(async (w, index) => {
      for (let seq = 1; ; seq++) {
        const body = new URLSearchParams({
          ...w.s.page.place,
          [`b:${w.questionId}`]: w.base,
          [`a:${w.questionId}`]: `w${index}-s${seq}`,
          [`c:${w.questionId}`]: "",
        });
        w.sent = seq;
        let response;
        try {
          response = await fetch(`${base}/api/answers`, {
            method: "POST",
            headers: {
              cookie: w.s.cookie,
              Origin: base,
              Accept: "application/json",
              "Content-Type": "application/x-www-form-urlencoded",
            },
            body,
          });
          const json = await response.json();
          assert.equal(
            response.status,
            200,
            `save ${seq} of writer ${index}: ${response.status} ${JSON.stringify(json)}`,
          );
          assert.deepEqual(json.conflicts ?? [], []);
          w.base = json.tokens[w.questionId];
          w.acked = seq;
          acknowledged++;
        } catch (error) {
          if (killed) {
            // This save was not acknowledged.
            afterKill.push(response?.status ?? "socket");
            return;
          }
          throw error;
        }
        if (acknowledged >= killAfter && !killed) killed = kill();
      }
    }),
  );
  await killed;
  return { writers: writers.map((w, index) => ({ ...w, index })), afterKill };
}

async function killAndRecover({ server, restart, outbox, kill = () => server.kill("SIGKILL") }) {
  const students = await logInStudents(server, outbox);
  assert.ok(students.length >= 4, `students with an open form: ${students.length}`);
  const { writers, afterKill } = await autosaveUntilKilled(server.base, students, 80, kill);
  const acknowledged = writers.reduce((n, w) => n + w.acked, 0);
  assert.ok(
    acknowledged >= 80 && writers.every((w) => w.acked > 0),
    "every writer had saves acknowledged before the kill",
  );
  const again = await restart();
  // Read back through the restarted app, with the sessions made before the kill.
  let lost = [];
  for (const s of students) {
    const page = await formPage(again.base, s.cookie);
    assert.ok(page, `${s.email}'s form page after the restart`);
    for (const w of writers.filter((w) => w.s === s)) {
      const stored = page.answers.get(w.questionId)?.value ?? "";
      const seq = Number(/^w\d+-s(\d+)$/.exec(stored)?.[1] ?? 0);
      if (!stored.startsWith(`w${w.index}-`) || seq < w.acked || seq > w.sent)
        lost.push(`writer ${w.index}: acknowledged s${w.acked}, stored "${stored}"`);
    }
  }
  assert.deepEqual(lost, [], "acknowledged saves missing after SIGKILL and restart");
  return { writers: writers.length, acknowledged, afterKill };
}

// The suites (and the three SIGKILL tests) run side by side: each has its own servers, ports, folders
// and PostgreSQL, and they mostly wait on starts and restarts, so the step takes as long as the longest.
describe("faults", { concurrency: true }, () => {
  describe("SIGKILL during an autosave load", { concurrency: true }, () => {
    test("embedded default: the app killed, its database server left running; the next start stops that server, starts cleanly, and has every acknowledged save", async () => {
      const dir = scratch();
      const port = await freePort();
      const server = await startApp({ port, dir });
      cleanups.push(() => server.stop());
      const left = embeddedPostgresPid(dir);
      assert.ok(left, "the embedded server's pid file");
      const outbox = new Outbox(server.outboxDir);
      let again;
      const result = await killAndRecover({
        server,
        outbox,
        restart: async () => {
          again = await app({ port, dir });
          return again;
        },
      });
      assert.match(again.output.join(""), /left running by an earlier run \(pid \d+\) is stopped/);
      assert.throws(() => process.kill(left, 0), "the server left behind is gone");
      assert.notEqual(embeddedPostgresPid(dir), left);
      console.log(
        `[faults] embedded, app killed: ${result.writers} writers, ${result.acknowledged} saves acknowledged before SIGKILL, none lost`,
      );
    });

    test("embedded default: the database server killed; the app starts it again, answers 503 meanwhile, and has every acknowledged save", async () => {
      const dir = scratch();
      const server = await app({ port: await freePort(), dir });
      const outbox = new Outbox(server.outboxDir);
      const killed = embeddedPostgresPid(dir);
      const result = await killAndRecover({
        server,
        outbox,
        kill: async () => process.kill(killed, "SIGKILL"),
        restart: async () => {
          const deadline = Date.now() + 60_000;
          while (Date.now() < deadline) {
            if ((await fetch(`${server.base}/healthz`).catch(() => null))?.ok) return server;
            await sleep(100);
          }
          throw new Error(`the database did not come back:\n${server.output.join("").slice(-4000)}`);
        },
      });
      assert.equal(server.child.exitCode, null, "the app kept running");
      // While the database was down the saves were answered, with a 503 (never a 500 as for a bug).
      assert.ok(result.afterKill.length > 0, "saves were refused while the database was down");
      assert.deepEqual([...new Set(result.afterKill)], [503]);
      assert.notEqual(embeddedPostgresPid(dir), killed);
      assert.match(server.output.join(""), /the embedded PostgreSQL server stopped unexpectedly \(SIGKILL\)/);
      console.log(
        `[faults] embedded, database server killed: ${result.writers} writers, ${result.acknowledged} saves acknowledged before SIGKILL, none lost`,
      );
    });

    test("PostgreSQL of one's own: every acknowledged save is in the database after the app is killed and restarted", async () => {
      const postgres = await cluster();
      const dir = scratch();
      const port = await freePort();
      const env = { SEED_DEMO: "true" };
      const server = await startApp({ port, dir, databaseUrl: postgres.url, env });
      cleanups.push(() => server.stop());
      const outbox = new Outbox(server.outboxDir);
      const result = await killAndRecover({
        server,
        outbox,
        restart: () => app({ port, dir, databaseUrl: postgres.url, env }),
      });
      console.log(
        `[faults] PostgreSQL: ${result.writers} writers, ${result.acknowledged} saves acknowledged before SIGKILL, none lost`,
      );
    });
  });

  describe("PostgreSQL restarted under load", () => {
    test("503 with a clear page and /healthz unavailable during the outage; the same process serves afterwards", async () => {
      const postgres = await cluster();
      const dir = scratch();
      const server = await app({ port: await freePort(), dir, databaseUrl: postgres.url, env: { SEED_DEMO: "true" } });
      const { base } = server;
      const [student] = await logInStudents(server, new Outbox(server.outboxDir));
      assert.ok(student);
      const seen = [];
      let phase = "before";
      let stop = false;
      const flow = async (name, request) => {
        while (!stop) {
          let status = 0;
          let body = "";
          try {
            const response = await request();
            status = response.status;
            body = await response.text();
          } catch (error) {
            body = String(error);
          }
          seen.push({ name, phase, status, body });
          await sleep(50);
        }
      };
      const [questionId, answer] = [...student.page.answers][0];
      let token = answer.base;
      let n = 0;
      const flows = [
        flow("page", () => fetch(`${base}/student/forms`, { headers: { cookie: student.cookie }, redirect: "manual" })),
        flow("healthz", () => fetch(`${base}/healthz`)),
        flow("autosave", async () => {
          const response = await fetch(`${base}/api/answers`, {
            method: "POST",
            headers: {
              cookie: student.cookie,
              Origin: base,
              Accept: "application/json",
              "Content-Type": "application/x-www-form-urlencoded",
            },
            body: new URLSearchParams({
              ...student.page.place,
              [`b:${questionId}`]: token,
              [`a:${questionId}`]: `etter omstart ${++n}`,
              [`c:${questionId}`]: "",
            }),
          });
          if (response.ok) token = (await response.clone().json()).tokens[questionId];
          return response;
        }),
      ];
      // Each of the three has been answered before the database goes (a fixed second was not always
      // enough on a busy machine: a fresh server's first page can take longer).
      const warmUntil = Date.now() + 30_000;
      while (new Set(seen.map((s) => s.name)).size < flows.length && Date.now() < warmUntil) await sleep(100);
      await sleep(1_000);
      phase = "down";
      await postgres.stop();
      await sleep(2_000);
      await postgres.start();
      phase = "back";
      // Back without a restart of the app: the pool connects again.
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline) {
        const recent = seen.filter((s) => s.phase === "back").slice(-9);
        if (recent.length === 9 && recent.every((s) => s.status === 200)) break;
        await sleep(100);
      }
      phase = "after";
      await sleep(500);
      stop = true;
      await Promise.all(flows);

      assert.equal(
        server.child.exitCode,
        null,
        `the app process is still running; its log:\n${server.output.join("").slice(-4000)}`,
      );
      assert.equal(server.child.signalCode, null);
      const before = seen.filter((s) => s.phase === "before");
      const down = seen.filter((s) => s.phase === "down");
      const afterwards = seen.filter((s) => s.phase === "after");
      assert.ok(before.length > 0, "requests before the restart");
      assert.deepEqual(
        before.filter((s) => s.status !== 200).map((s) => `${s.name} ${s.status} ${s.body.slice(0, 200)}`),
        [],
        "all answered before the restart",
      );
      // Nothing but 200 or a 503 at any time: no 500, no dropped connection.
      assert.deepEqual(
        seen
          .filter((s) => s.status !== 200 && s.status !== 503)
          .map((s) => `${s.name} ${s.phase} ${s.status} ${s.body.slice(0, 200)}`),
        [],
      );
      const page503 = down.find((s) => s.name === "page" && s.status === 503);
      assert.ok(page503, "a page answered 503 while the database was down");
      assert.match(page503.body, /midlertidig utilgjengelig/);
      assert.match(page503.body, /<h1[^>]*>Tjenesten er midlertidig utilgjengelig<\/h1>/);
      const health503 = down.find((s) => s.name === "healthz" && s.status === 503);
      assert.ok(health503, "/healthz answered 503 while the database was down");
      assert.equal(JSON.parse(health503.body).status, "unavailable");
      assert.doesNotMatch(health503.body, /127\.0\.0\.1|praksis@|postgres:\/\//, "no connection details in /healthz");
      const save503 = down.find((s) => s.name === "autosave" && s.status === 503);
      assert.ok(save503, "an autosave answered 503 while the database was down");
      assert.ok(
        afterwards.length > 0 && afterwards.every((s) => s.status === 200),
        "every request answered 200 after the database came back",
      );
      const health = JSON.parse(afterwards.find((s) => s.name === "healthz").body);
      assert.equal(health.status, "ok");
      assert.equal(health.database.kind, "external");
      const log = server.output.join("");
      assert.match(log, /"component":"db","msg":"PostgreSQL is unavailable/);
      assert.match(log, /"component":"db","msg":"PostgreSQL answers again/);
      console.log(
        `[faults] PostgreSQL restart: ${down.length} requests during the outage (${down.filter((s) => s.status === 503).length} × 503), all 200 again without restarting the app`,
      );
    });
  });

  describe("an app process that cannot start while the others serve", () => {
    test("one that ends while PostgreSQL is down is started again until it can; the server keeps running", async () => {
      const postgres = await cluster();
      const server = await app({
        port: await freePort(),
        dir: scratch(),
        databaseUrl: postgres.url,
        env: { WEB_CONCURRENCY: "2" },
      });
      const log = () => server.output.join("");
      const until = async (what, done, ms = 60_000) => {
        const deadline = Date.now() + ms;
        while (!done()) {
          if (Date.now() > deadline) assert.fail(`${what} in ${ms / 1000} s; the log:\n${log().slice(-4000)}`);
          await sleep(100);
        }
      };
      await until("two app processes", () => /listening on .*: 2 app processes/.test(log()));
      const [victim] = appProcesses(server.child.pid);
      assert.equal(appProcesses(server.child.pid).length, 2);
      await postgres.stop();
      const failuresBefore = log().split('"the app could not start"').length;
      process.kill(victim, "SIGKILL");
      // Its replacement starts while the database is down, and cannot (twice, to see the pause grow).
      await until(
        "the replacement failing twice",
        () => log().split('"the app could not start"').length >= failuresBefore + 2,
      );
      assert.equal(server.child.exitCode, null, `the server is still running; its log:\n${log().slice(-4000)}`);
      assert.equal((await fetch(`${server.base}/healthz`)).status, 503, "the other app process answers meanwhile");
      await postgres.start();
      await until("two app processes again", () => appProcesses(server.child.pid).length === 2);
      for (let i = 0; i < 100 && (await fetch(`${server.base}/healthz`)).status !== 200; i++) await sleep(100);
      assert.equal((await fetch(`${server.base}/healthz`)).status, 200);
      assert.equal(server.child.exitCode, null);
      assert.match(log(), /app process \d+ ended \(SIGKILL\); starting another/);
      assert.match(log(), /could not start \(exit code 1\); trying again in 1 s/);
      assert.match(log(), /could not start \(exit code 1\); trying again in 2 s/);
      assert.ok(!appProcesses(server.child.pid).includes(victim));
    });
  });

  describe("two clustered instances on one PostgreSQL", () => {
    test("sessions, e-mail codes and rate limits work across the two (and their four app processes)", async () => {
      const postgres = await cluster();
      const env = { SEED_DEMO: "true", OTP_REQUESTS_PER_EMAIL: "3", WEB_CONCURRENCY: "2" };
      const [portA, portB] = [await freePort(), await freePort()];
      const [dirA, dirB] = [scratch(), scratch()];
      // Started at once: both migrate and seed the same empty database.
      const [a, b] = await Promise.all([
        app({ port: portA, dir: dirA, databaseUrl: postgres.url, env }),
        app({ port: portB, dir: dirB, databaseUrl: postgres.url, env }),
      ]);
      // Each instance says it runs two app processes once the second has started too. The second starts
      // after the first has migrated and seeded: on a busy 2-core machine that can take a while.
      for (const server of [a, b]) {
        for (let i = 0; i < 600 && !/listening on .*: 2 app processes/.test(server.output.join("")); i++)
          await sleep(100);
        assert.match(server.output.join(""), /listening on .*: 2 app processes/);
      }
      const outboxA = new Outbox(a.outboxDir);
      const outboxB = new Outbox(b.outboxDir);

      // A code requested on A is accepted on B; the session B made works on A.
      const first = await logIn({ base: a.base, via: b.base, email: "student01@example.org", outbox: outboxA });
      assert.equal(first.verified.status, 303, "B accepted the code A mailed");
      const cookie = cookieHeader(first.jar);
      await acceptPrivacy(b.base, cookie);
      for (const server of [a, b, a]) {
        const page = await fetch(`${server.base}/student/forms`, { headers: { cookie }, redirect: "manual" });
        assert.equal(page.status, 200, `the session works on ${server.base}`);
      }
      // And the other way round.
      const second = await logIn({ base: b.base, via: a.base, email: "laerer1@example.org", outbox: outboxB });
      assert.equal(second.verified.status, 303, "A accepted the code B mailed");
      await acceptPrivacy(a.base, cookieHeader(second.jar));
      assert.equal(
        (await fetch(`${b.base}/teacher`, { headers: { cookie: cookieHeader(second.jar) }, redirect: "manual" }))
          .status,
        200,
      );
      // A log-out on one ends the session on the other.
      const out = await fetch(`${a.base}/logout`, {
        method: "POST",
        headers: { cookie, Origin: a.base },
        redirect: "manual",
      });
      assert.ok(out.status === 303 || out.status === 302, `log-out: ${out.status}`);
      assert.notEqual(
        (await fetch(`${b.base}/student/forms`, { headers: { cookie }, redirect: "manual" })).status,
        200,
        "the session ended on B too",
      );

      // Three code requests per address (OTP_REQUESTS_PER_EMAIL=3), alternating: the fourth is refused wherever it lands.
      const email = "student02@example.org";
      const statuses = [];
      for (const server of [a, b, a, b]) {
        const response = await fetch(`${server.base}/login`, {
          method: "POST",
          headers: { Origin: server.base, "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ email }),
          redirect: "manual",
        });
        statuses.push(response.status);
      }
      assert.deepEqual(statuses, [303, 303, 303, 429]);
      console.log(
        "[faults] two instances: code from A accepted on B (and B→A), sessions shared, log-out shared, code limit counted across both",
      );
    });
  });

  describe("a browser autosaving through a database outage", () => {
    test("answers typed while PostgreSQL is down for 20 s are all stored once it is back; a tab closed meanwhile sends its own when opened again", async () => {
      const postgres = await cluster();
      const server = await app({
        port: await freePort(),
        dir: scratch(),
        databaseUrl: postgres.url,
        env: { SEED_DEMO: "true" },
      });
      const { base } = server;
      const [stays, closes] = await logInStudents(server, new Outbox(server.outboxDir));
      assert.ok(stays && closes, "two students with an open form");
      // As playwright.config.ts launches it.
      const browser = await chromium.launch({
        executablePath: "/usr/bin/chromium",
        args: [
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-quic",
          "--no-first-run",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
        ],
      });
      cleanups.push(() => browser.close());
      /** A browser of the student's own (their session cookie), on their form page once its script runs. */
      const open = async (context, student) => {
        const page = await context.newPage();
        for (let i = 0; ; i++) {
          const response = await page.goto(base + decode(student.page.path));
          if (response?.status() === 200) break;
          // The first requests after the database is back may still be answered 503.
          if (i > 50) assert.fail(`the form page: ${response?.status()}`);
          await sleep(200);
        }
        await page.locator(".answer-form__status").waitFor({ state: "attached" });
        return page;
      };
      const contextOf = async (student) => {
        const context = await browser.newContext({
          locale: "nb-NO",
          timezoneId: "Europe/Oslo",
          serviceWorkers: "block",
        });
        const cookies = student.cookie.split("; ").map((pair) => ({
          name: pair.slice(0, pair.indexOf("=")),
          value: pair.slice(pair.indexOf("=") + 1),
          url: base,
        }));
        await context.addCookies(cookies);
        return context;
      };
      const typed = (student, tag) =>
        new Map([...student.page.answers.keys()].slice(0, 2).map((id) => [id, `${tag} under brudd ${id}`]));
      const toStay = typed(stays, "åpen");
      const toClose = typed(closes, "lukket");
      const stayContext = await contextOf(stays);
      const closeContext = await contextOf(closes);
      const [stayPage, closePage] = await Promise.all([open(stayContext, stays), open(closeContext, closes)]);
      const kept = (page) =>
        page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith("praksis:unsent:")).length);

      await postgres.stop();
      const downAt = Date.now();
      for (const [page, answers] of [
        [stayPage, toStay],
        [closePage, toClose],
      ]) {
        for (const [id, text] of answers) await page.locator(`textarea[name="a:${id}"]`).fill(text);
      }
      // The autosave (3 s after the last change) has tried and been answered 503.
      await sleep(6_000);
      const statusDown = await stayPage.locator(".answer-form__status").textContent();
      const keptDown = await closePage.evaluate(
        () => Object.keys(localStorage).filter((key) => key.startsWith("praksis:unsent:")).length,
      );
      // Closed while the database is down; leaving tries to send once more, in vain.
      await closePage.close({ runBeforeUnload: true });
      await sleep(Math.max(0, 20_000 - (Date.now() - downAt)));
      await postgres.start();
      const backAt = Date.now();

      // Opened again: what was kept comes back into the fields and is sent.
      const again = await open(closeContext, closes);

      // In the database: every answer typed during the outage, without anyone touching the pages.
      const db = new pg.Client({ connectionString: postgres.url });
      await db.connect();
      cleanups.push(() => db.end());
      const wanted = [...toStay.values(), ...toClose.values()];
      let stored = [];
      const deadline = Date.now() + 70_000;
      while (Date.now() < deadline) {
        stored = (await db.query("select value from answers where value = any($1)", [wanted])).rows.map(
          (row) => row.value,
        );
        if (stored.length === wanted.length) break;
        await sleep(250);
      }
      assert.deepEqual(
        stored.sort(),
        [...wanted].sort(),
        "every answer typed during the outage is stored once the database is back",
      );
      const storedAfter = Math.round((Date.now() - backAt) / 1000);
      for (const [id, text] of toClose)
        assert.equal(
          await again.locator(`textarea[name="a:${id}"]`).inputValue(),
          text,
          "the closed tab's answer is back on the page",
        );
      // And said so truthfully meanwhile; nothing is left kept once the server has them.
      assert.equal(statusDown, "Ikke lagret ennå – tas vare på i denne nettleseren og prøves igjen.");
      assert.ok(keptDown > 0, "the tab closed during the outage had its answers kept");
      for (const page of [stayPage, again]) {
        await page.locator(".answer-form__status", { hasText: /^Lagret kl\./ }).waitFor({ timeout: 10_000 });
        assert.equal(await kept(page), 0, "nothing kept once stored");
      }
      console.log(
        `[faults] autosave through a 20 s outage: ${wanted.length} answers (one tab closed meanwhile) stored ${storedAfter} s after the database was back`,
      );
    });
  });
});
