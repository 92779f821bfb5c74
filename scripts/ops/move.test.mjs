// Backups taken while the app runs, and the move from the embedded default to another PostgreSQL
// (ADR 0023), against the production build, end to end as an operator does it:
//   `node server.mjs` on the embedded PostgreSQL 18 (a new DATA_DIR, the demo school) → autosaves over
//   HTTP as fast as they are answered → `npm run backup` meanwhile → a PostgreSQL 15 of Debian's with
//   the README's role and database → `npm run restore FILE` with its DATABASE_URL → `node server.mjs`
//   with that DATABASE_URL: /healthz at the same migration, every table's rows there, a log-in works,
//   every save acknowledged before the backup began is on the student's page, each answer in the copy
//   is a value some save sent before the snapshot's time, and each save's rows are in the copy
//   together (one snapshot).
// The nightly backup as server.mjs's primary decides it is checked on the way: scheduled on the
// embedded database (its log, /healthz, the folder's mode), not with DATABASE_URL; and a wrong backup
// variable stops start-up. The schedule itself (the time, the rotation, the status, a failure,
// BACKUPS=off) is unit-tested in scripts/backup-schedule.test.ts.
// Run: node --test scripts/ops/move.test.mjs (needs build/ and /usr/lib/postgresql/15).
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { after, test } from "node:test";
import pg from "pg";
import {
  cookieHeader,
  embeddedPostgresPid,
  ensureBuild,
  freePort,
  logIn,
  Outbox,
  root,
  sleep,
  startApp,
  tempDir,
} from "./support.mjs";

ensureBuild();
const cleanups = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const DEBIAN_BIN = "/usr/lib/postgresql/15/bin";
const asRoot = process.getuid?.() === 0;

function nobody() {
  if (!asRoot) return {};
  const id = (flag) => Number(spawnSync("id", [flag, "nobody"], { encoding: "utf8" }).stdout.trim());
  return { uid: id("-u"), gid: id("-g") };
}

/** The README's SQL for the app's role and database ("The institution's PostgreSQL"). */
function readmeSql() {
  const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
  const block = /```sql\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf("### The institution's PostgreSQL")))?.[1];
  assert.ok(block, "README.md: the SQL under ### The institution's PostgreSQL");
  return block
    .split(/;\s*\n/)
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => s.replace("'a long random password'", "'app-password'"));
}

/** A throwaway cluster of Debian's PostgreSQL 15 (as root, run as nobody), with the README's role and database. */
async function debianPostgres() {
  const as = nobody();
  const dir = tempDir("praksis-move-pg15-");
  fs.chmodSync(dir, 0o755);
  if (as.uid) fs.chownSync(dir, as.uid, as.gid);
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const data = path.join(dir, "data");
  const init = spawnSync(
    `${DEBIAN_BIN}/initdb`,
    ["-D", data, "-U", "postgres", "--auth-local=trust", "--auth-host=scram-sha-256", "-E", "UTF8"].concat([
      "--locale=C",
      "--no-sync",
      "--no-instructions",
    ]),
    { ...as, cwd: dir, encoding: "utf8" },
  );
  assert.equal(init.status, 0, `initdb: ${init.stderr}`);
  const port = await freePort();
  const server = spawn(
    `${DEBIAN_BIN}/postgres`,
    [
      "-D",
      data,
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      `port=${port}`,
      "-c",
      `unix_socket_directories=${dir}`,
    ].concat(["-c", "fsync=off", "-c", "full_page_writes=off"]),
    { ...as, cwd: dir, stdio: ["ignore", "ignore", "pipe"] },
  );
  let output = "";
  server.stderr.on("data", (chunk) => (output += chunk));
  cleanups.push(async () => {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server.once("exit", resolve));
      server.kill("SIGINT");
      await exited;
    }
  });
  for (let tries = 0; ; tries++) {
    const superuser = new pg.Client({ host: dir, port, user: "postgres", database: "postgres" });
    try {
      await superuser.connect();
      for (const statement of readmeSql()) await superuser.query(statement);
      await superuser.end();
      break;
    } catch (error) {
      await superuser.end().catch(() => {});
      if (tries > 400 || server.exitCode !== null) throw new Error(`PostgreSQL 15 did not start: ${output || error}`);
      await sleep(25);
    }
  }
  return { url: `postgres://praksis:app-password@127.0.0.1:${port}/praksis` };
}

/** An npm command of the app's (`node scripts/<name>.mjs`), with its output and exit code. */
function command(name, args, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [`scripts/${name}.mjs`, ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c) => (output += c));
    child.stderr.on("data", (c) => (output += c));
    child.once("exit", (code) => resolve({ code, output }));
  });
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

/** A student's first form page (page 1): where it posts, and each text answer with its base token. */
async function formPage(base, cookie) {
  const forms = await fetch(`${base}/student/forms`, { headers: { cookie }, redirect: "manual" });
  const link = FORM_LINK.exec(await forms.text());
  if (!link) return null;
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
    place: { studentUserId: link[2], formId: link[3], classId: link[4], schemeId: link[5] },
    answers,
  };
}

async function logInStudents(base, outbox) {
  const students = await Promise.all(
    DEMO_STUDENTS.map(async (email) => {
      const { jar } = await logIn({ base, email, outbox });
      const cookie = cookieHeader(jar);
      const consent = await fetch(`${base}/privacy-consent`, {
        method: "POST",
        headers: { cookie, Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: "accept" }),
        redirect: "manual",
      });
      assert.equal(consent.status, 303, "privacy consent");
      const page = await formPage(base, cookie);
      return page && page.answers.size > 0 ? { email, cookie, page } : null;
    }),
  );
  return students.filter(Boolean);
}

/**
 * Writers (one per student: the first text question of the student's answer set) autosave distinct
 * values `w<writer>-s<seq>` in order, each with the base token of its last acknowledged save, until
 * `stop()` is called. Each save keeps when it was sent and when its 200 came back.
 */
function autosave(base, students) {
  const writers = students.map((s) => {
    const [questionId, a] = [...s.page.answers][0];
    return { s, questionId, token: a.base, saves: [] };
  });
  let stopped = false;
  const done = Promise.all(
    writers.map(async (w, index) => {
      w.index = index;
      for (let seq = 1; !stopped; seq++) {
        const save = { seq, sentAt: Date.now(), ackedAt: null };
        w.saves.push(save);
        const response = await fetch(`${base}/api/answers`, {
          method: "POST",
          headers: {
            cookie: w.s.cookie,
            Origin: base,
            Accept: "application/json",
            "Content-Type": "application/x-www-form-urlencoded",
          },
          body: new URLSearchParams({
            ...w.s.page.place,
            [`b:${w.questionId}`]: w.token,
            [`a:${w.questionId}`]: `w${index}-s${seq}`,
            [`c:${w.questionId}`]: "",
          }),
        });
        const json = await response.json();
        assert.equal(response.status, 200, `save ${seq} of writer ${index}: ${JSON.stringify(json)}`);
        assert.deepEqual(json.conflicts ?? [], []);
        save.ackedAt = Date.now();
        w.token = json.tokens[w.questionId];
      }
    }),
  );
  return {
    writers,
    acknowledged: () => writers.reduce((n, w) => n + w.saves.filter((s) => s.ackedAt !== null).length, 0),
    async stop() {
      stopped = true;
      await done;
    },
  };
}

/** The embedded PostgreSQL that the app on `dir` runs, as a URL (its pid file's port, its credentials file). */
function embeddedUrl(dir) {
  const port = Number(fs.readFileSync(path.join(dir, "postgres", "postmaster.pid"), "utf8").split("\n")[3]);
  const { user, password } = JSON.parse(fs.readFileSync(path.join(dir, "postgres-credentials.json"), "utf8"));
  return `postgres://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/praksis`;
}

/**
 * A smaller school than the big one: the demo, and `students` more students with an answer set each
 * (their own, empty). The copy of answer_sets then takes long enough that a backup taken table by
 * table, not in one snapshot, misses the saves that land between it and answers.
 */
async function moreStudents(url, students) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      "insert into users (display_name, email) select 'Student ' || i, 'more' || i || '@example.org' from generate_series(1, $1::int) i",
      [students],
    );
    await client.query(`
      insert into answer_sets (form_id, assignment_id, student_user_id, author_user_id, author_role_id, is_mid_semester)
      select f.form_id, f.assignment_id, u.id, u.id, 2, false
      from users u, (select form_id, assignment_id from assignment_forms order by assignment_id, form_id limit 1) f
      where u.email like 'more%@example.org'`);
  } finally {
    await client.end();
  }
}

async function rowCounts(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      "select tablename as name from pg_tables where schemaname = 'public' order by tablename",
    );
    const counts = {};
    for (const { name } of rows)
      counts[name] = (await client.query(`select count(*)::int as n from "${name}"`)).rows[0].n;
    return counts;
  } finally {
    await client.end();
  }
}

test(
  "the embedded default moved to Debian's PostgreSQL 15: backup while autosaves run, restore with DATABASE_URL, start on it; every save acknowledged before the backup is there, nothing torn or invented",
  { skip: !fs.existsSync(`${DEBIAN_BIN}/postgres`) && `${DEBIAN_BIN} is not installed (npm test installs it as root)` },
  async () => {
    const began = performance.now();
    const dir = tempDir("praksis-move-");
    fs.chmodSync(dir, 0o755);
    cleanups.push(() => {
      const pid = embeddedPostgresPid(dir);
      try {
        if (pid) process.kill(pid, "SIGQUIT");
      } catch {
        // gone already
      }
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const env = { WEB_CONCURRENCY: "1" };
    const [embedded, pg15] = await Promise.all([
      startApp({ port: await freePort(), dir, env }).then((server) => {
        cleanups.push(() => server.stop());
        return server;
      }),
      debianPostgres(),
    ]);
    const upAt = performance.now();
    // The nightly backup: scheduled by the embedded app's primary, said in its log and on /healthz; a
    // database made just now has none yet and waits for the night (no catch-up mid-test).
    const embeddedHealth = await (await fetch(`${embedded.base}/healthz`)).json();
    assert.deepEqual(embeddedHealth.backups, {
      scheduled: true,
      lastGoodAt: null,
      ageHours: null,
      lastFailureAt: null,
      failing: false,
    });
    assert.match(
      embedded.output.join(""),
      /nightly backups at 02:30 \(Europe\/Oslo\) into \S+\/backups, keeping 7 daily and 4 weekly; next 20\d\d-/,
    );
    assert.equal((fs.statSync(path.join(dir, "backups")).mode & 0o777).toString(8), "700");
    await moreStudents(embeddedUrl(dir), 20_000);
    const started = performance.now();
    const students = await logInStudents(embedded.base, new Outbox(embedded.outboxDir));
    assert.ok(students.length >= 4, `students with an open form: ${students.length}`);
    const load = autosave(embedded.base, students);
    while (load.acknowledged() < 60 || load.writers.some((w) => !w.saves[0]?.ackedAt)) await sleep(10);

    // `npm run backup` reaches the running app's embedded PostgreSQL (no DATABASE_URL): while the writers write.
    const file = path.join(dir, "backups", "move.backup.gz");
    const backupBegan = Date.now();
    const backup = await command("backup", [file], { DATA_DIR: dir, DATABASE_URL: "" });
    const backupSeconds = (Date.now() - backupBegan) / 1000;
    await sleep(200);
    await load.stop();
    assert.equal(backup.code, 0, backup.output);
    assert.match(
      backup.output,
      /^\[backup\] wrote .*move\.backup\.gz: [\d.]+ (KiB|MiB), \d+ tables, \d+ rows, [\d.]+ s \(snapshot .*, migration \w+\)\n$/,
    );
    const acknowledgedBefore = load.writers.map((w) =>
      Math.max(0, ...w.saves.filter((s) => s.ackedAt !== null && s.ackedAt < backupBegan).map((s) => s.seq)),
    );
    const savesDuring = load.acknowledged() - acknowledgedBefore.reduce((a, b) => a + b, 0);
    assert.ok(savesDuring > 0, "saves were acknowledged while the backup ran");

    const restoreBegan = performance.now();
    const restore = await command("restore", [file], { DATABASE_URL: pg15.url });
    const restoreSeconds = (performance.now() - restoreBegan) / 1000;
    assert.equal(restore.code, 0, restore.output);
    assert.match(
      restore.output,
      /^\[restore\] restored .* into the database praksis on 127\.0\.0\.1:\d+: \d+ tables, \d+ rows/,
    );
    // A second restore into the same database is refused: it holds data now.
    const again = await command("restore", [file], { DATABASE_URL: pg15.url });
    assert.equal(again.code, 1);
    assert.match(again.output, /the database holds data .* add --replace/);

    const healthBefore = await (await fetch(`${embedded.base}/healthz`)).json();
    await embedded.stop();
    const movedDir = tempDir("praksis-move-app-");
    // (BACKUPS_SCHEDULED from outside changes nothing: the primary sets it.)
    const moved = await startApp({
      port: await freePort(),
      dir: movedDir,
      databaseUrl: pg15.url,
      env: { ...env, BACKUPS_SCHEDULED: "true" },
    });
    cleanups.push(() => moved.stop());
    const health = await (await fetch(`${moved.base}/healthz`)).json();
    assert.equal(health.database.kind, "external");
    // No nightly backup with DATABASE_URL: those who run that PostgreSQL back it up; the log says so.
    assert.equal(health.backups.scheduled, false);
    assert.match(
      moved.output.join(""),
      /no nightly backup with DATABASE_URL: that PostgreSQL is backed up by those who run it/,
    );
    assert.ok(!fs.existsSync(path.join(movedDir, "backups")));
    assert.deepEqual(health.migrations, healthBefore.migrations);
    assert.equal(health.migrations.pending, 0);
    const manifest = JSON.parse(
      /\{"manifest":.*\}/.exec(zlib.gunzipSync(fs.readFileSync(file)).toString("utf8"))[0],
    ).manifest;
    const snapshotAt = Date.parse(manifest.snapshotAt);
    assert.ok(snapshotAt >= backupBegan, "the snapshot is taken after the backup began");
    assert.deepEqual(await rowCounts(pg15.url), Object.fromEntries(manifest.tables.map((t) => [t.name, t.rows])));

    // A log-in works on the moved app (an e-mail code, a new session).
    const { location } = await logIn({
      base: moved.base,
      email: students[0].email,
      outbox: new Outbox(moved.outboxDir),
    });
    assert.ok(location, "the log-in on the moved app leads on");

    // Read back through the moved app, with the sessions made before the move (they moved too).
    const problems = [];
    for (const s of students) {
      const page = await formPage(moved.base, s.cookie);
      assert.ok(page, `${s.email}'s form page on the moved app`);
      for (const w of load.writers.filter((w) => w.s === s)) {
        const stored = page.answers.get(w.questionId)?.value ?? "";
        const m = /^w(\d+)-s(\d+)$/.exec(stored);
        const seq = Number(m?.[2] ?? 0);
        if (!m || Number(m[1]) !== w.index || seq > w.saves.length)
          problems.push(`writer ${w.index}: "${stored}" is no value it sent`);
        else if (w.saves[seq - 1].sentAt > snapshotAt)
          problems.push(
            `writer ${w.index}: s${seq} was sent after the snapshot (${manifest.snapshotAt}), yet is in the copy`,
          );
        else if (seq < acknowledgedBefore[w.index])
          problems.push(
            `writer ${w.index}: s${acknowledgedBefore[w.index]} acknowledged before the backup, the copy has s${seq}`,
          );
      }
    }
    assert.deepEqual(
      problems,
      [],
      "acknowledged saves missing, values no save sent, or saves after the snapshot, in the moved copy",
    );

    // One snapshot: a save writes its answer and its answer set's updated_at (the save's time) in one
    // transaction, and the saves of a set take turns (the set's row lock): in any state the database
    // was in, a written set's updated_at is that of an answer of its last save. A copy taken table
    // by table (the sets before the answers) has sets whose last save's answer has moved on.
    const client = new pg.Client({ connectionString: pg15.url });
    await client.connect();
    let torn;
    const behind = [];
    try {
      ({ rows: torn } = await client.query(`
        select s.id, s.updated_at from answer_sets s
        where exists (select 1 from answers a where a.answer_set_id = s.id and a.value ~ '^w[0-9]+-s[0-9]+$')
          and not exists (select 1 from answers a where a.answer_set_id = s.id and a.updated_at = s.updated_at)`));
      // Every id sequence is past its table's largest id: the moved app's next rows get new ids.
      const { rows: columns } = await client.query(`
      select c.relname as "table", a.attname as "column", pg_get_serial_sequence(format('%I', c.relname), a.attname) as sequence
      from pg_class c join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where c.relnamespace = 'public'::regnamespace and c.relkind = 'r'
        and pg_get_serial_sequence(format('%I', c.relname), a.attname) is not null`);
      assert.ok(columns.length > 10, "the app's id sequences");
      for (const { table, column, sequence } of columns) {
        const { rows } = await client.query(
          `select coalesce((select max("${column}") from "${table}"), 0)::bigint::text as max,
                (select case when is_called then last_value else last_value - 1 end from ${sequence})::text as used`,
        );
        if (BigInt(rows[0].used) < BigInt(rows[0].max)) behind.push(`${sequence}: ${rows[0].used} < ${rows[0].max}`);
      }
    } finally {
      await client.end();
    }
    assert.deepEqual(torn, [], "answer sets whose rows come from different moments");
    assert.deepEqual(behind, [], "id sequences behind their tables' ids");

    console.log(
      `[move] ${load.writers.length} writers, ${acknowledgedBefore.reduce((a, b) => a + b, 0)} saves acknowledged before the backup and ${savesDuring} while it ran, none lost; ` +
        `backup ${backupSeconds.toFixed(1)} s (${fs.statSync(file).size} bytes, ${manifest.rows} rows), restore into PostgreSQL 15 ${restoreSeconds.toFixed(1)} s; ` +
        `servers up in ${((upAt - began) / 1000).toFixed(1)} s, more students in ${((started - upAt) / 1000).toFixed(1)} s, whole test ${((performance.now() - began) / 1000).toFixed(1)} s`,
    );
  },
);

test("a wrong backup variable stops start-up with a line naming it, before anything is made", () => {
  const dir = tempDir("praksis-backup-bad-");
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const started = spawnSync(process.execPath, ["server.mjs"], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dir, DATABASE_URL: "", BACKUP_TIME: "25:00", LOG_FORMAT: "console" },
    encoding: "utf8",
    timeout: 60_000,
  });
  assert.equal(started.status, 1);
  assert.match(started.stdout + started.stderr, /BACKUP_TIME: must be a time of day, HH:MM/);
  assert.ok(!fs.existsSync(path.join(dir, "postgres")));
});
