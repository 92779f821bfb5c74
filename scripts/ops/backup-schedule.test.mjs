// The nightly backup as server.mjs runs it, against the production build:
//  1. on the embedded PostgreSQL it is scheduled (the log says when and where), and /healthz says so,
//     with no backup yet on a database made just now (it waits for the night);
//  2. BACKUPS=off: not scheduled, said in the log and on /healthz;
//  3. with DATABASE_URL: none, said in the log, and /healthz says it is not scheduled (a value of
//     BACKUPS_SCHEDULED from outside changes nothing);
//  4. a wrong variable stops start-up with a line naming it.
// The schedule itself (the time, the rotation, the status, a failure) is unit-tested in
// scripts/backup-schedule.test.ts.
// Run: node --test scripts/ops/backup-schedule.test.mjs (needs build/).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { after, test } from "node:test";
import { ensureBuild, freePort, root, startApp, startPostgres, tempDir } from "./support.mjs";

ensureBuild();
const cleanups = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function serve(env, databaseUrl) {
  const dir = tempDir("praksis-backup-schedule-");
  fs.chmodSync(dir, 0o755);
  const server = await startApp({ port: await freePort(), dir, databaseUrl, env: { WEB_CONCURRENCY: "1", ...env } });
  cleanups.push(async () => {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const health = await (await fetch(`${server.base}/healthz`)).json();
  return { server, dir, health, log: () => server.output.join("") };
}

test("the embedded database: the nightly backup is scheduled in the primary, /healthz says so; BACKUPS=off: not", async () => {
  const [on, off] = await Promise.all([serve({}), serve({ BACKUPS: "off", BACKUPS_SCHEDULED: "true" })]);
  assert.deepEqual(on.health.backups, {
    scheduled: true,
    lastGoodAt: null,
    ageHours: null,
    lastFailureAt: null,
    failing: false,
  });
  // A database made just now waits for the night (no catch-up in the middle of whatever starts it).
  assert.match(
    on.log(),
    /nightly backups at 02:30 \(Europe\/Oslo\) into \S+\/backups, keeping 7 daily and 4 weekly; next 20\d\d-/,
  );
  assert.ok(fs.statSync(path.join(on.dir, "backups")).isDirectory());
  assert.equal((fs.statSync(path.join(on.dir, "backups")).mode & 0o777).toString(8), "700");

  assert.equal(off.health.backups.scheduled, false);
  assert.match(off.log(), /nightly backups switched off \(BACKUPS=off\)/);
  assert.doesNotMatch(off.log(), /nightly backups at/);
});

test("with DATABASE_URL there is no nightly backup, and the log and /healthz say so", async () => {
  const postgres = await startPostgres();
  cleanups.push(() => postgres.destroy());
  const external = await serve({ BACKUPS_SCHEDULED: "true" }, postgres.url);
  assert.equal(external.health.backups.scheduled, false);
  assert.match(external.log(), /no nightly backup with DATABASE_URL: that PostgreSQL is backed up by those who run it/);
  assert.ok(!fs.existsSync(path.join(external.dir, "backups")));
});

test("a wrong backup variable stops start-up with a line naming it", () => {
  const dir = tempDir("praksis-backup-schedule-bad-");
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const started = spawnSync(process.execPath, ["server.mjs"], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dir, DATABASE_URL: "", BACKUP_TIME: "25:00", LOG_FORMAT: "console" },
    encoding: "utf8",
    timeout: 60_000,
  });
  assert.equal(started.status, 1);
  assert.match(started.stdout + started.stderr, /BACKUP_TIME: must be a time of day, HH:MM/);
  // Nothing was started: no database made.
  assert.ok(!fs.existsSync(path.join(dir, "postgres")));
});
