import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import {
  databaseUnavailable,
  isConnectionError,
  migrationsFolder,
  type Database,
} from "~/services/platform/db/client.server";
import { useDatabaseForTests } from "~/services/platform/db/index.server";
import { resetEnvForTests } from "~/services/platform/env.server";
import { startTestApp, stopTestApp } from "~/test/app";
import { callLoader } from "~/test/route";
import { writeBackupStatus } from "../../../scripts/backup-schedule.mjs";
import * as healthz from "./healthz";

let app: Awaited<ReturnType<typeof startTestApp>>;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await stopTestApp(app);
});

const latestMigration = () =>
  (
    JSON.parse(fs.readFileSync(path.join(migrationsFolder, "meta/_journal.json"), "utf8")) as {
      entries: { tag: string }[];
    }
  ).entries.at(-1)!.tag;

test("/healthz reports the database, its migrations and the uptime, and nothing secret", async () => {
  const response = await callLoader(healthz, new Request("http://localhost/healthz"));
  expect(response.status).toBe(200);
  expect(response.headers.get("Cache-Control")).toBe("no-store");
  const body = await response.json();
  expect(body).toMatchObject({
    status: "ok",
    database: { kind: app.database.kind, answering: true },
    migrations: { latest: latestMigration(), pending: 0 },
  });
  expect(body.migrations.applied).toBeGreaterThan(0);
  // The app's version, demo mode and how mail goes (the tests: no SMTP, not the demo: written to the outbox folder).
  expect(body.version).toBe((JSON.parse(fs.readFileSync("package.json", "utf8")) as { version: string }).version);
  expect(body).toMatchObject({ demoMode: false, mail: "log" });
  expect(typeof body.database.latencyMs).toBe("number");
  expect(typeof body.uptimeSeconds).toBe("number");
  const text = JSON.stringify(body);
  for (const secret of [process.env.SESSION_SECRET, process.env.TEST_DATABASE_URL, process.env.DATABASE_URL]) {
    if (secret) expect(text).not.toContain(secret);
  }
  expect(text).not.toMatch(/postgres:\/\/|password/i);
});

test("/healthz answers 503 'unavailable' when the database does not answer, without the cause", async () => {
  const broken: Database = {
    kind: app.database.kind,
    db: {
      execute: () =>
        Promise.reject(Object.assign(new Error("connect ECONNREFUSED 10.1.2.3:5432"), { code: "ECONNREFUSED" })),
    } as unknown as Database["db"],
    close: async () => {},
  };
  useDatabaseForTests(broken);
  // The cause goes to the log, for the operator.
  const logged = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    const response = await callLoader(healthz, new Request("http://localhost/healthz"));
    expect(response.status).toBe(503);
    const body = await response.json();
    expect(body).toMatchObject({ status: "unavailable", database: { kind: app.database.kind, answering: false } });
    expect(JSON.stringify(body)).not.toContain("10.1.2.3");
    expect(logged).toHaveBeenCalledWith(
      expect.stringMatching(/^\[healthz\] database not answering: connect ECONNREFUSED 10\.1\.2\.3/),
    );
  } finally {
    useDatabaseForTests(app.database);
  }
});

test("connection failures are told apart from faults of a statement, and become a 503", async () => {
  expect(
    isConnectionError(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })),
  ).toBe(true);
  expect(
    isConnectionError(
      Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }),
    ),
  ).toBe(true);
  expect(isConnectionError(new Error("Connection terminated unexpectedly"))).toBe(true);
  // The embedded server's Unix socket is gone while it is down.
  expect(
    isConnectionError(
      Object.assign(new Error("connect ENOENT /srv/praksis/data/postgres/.s.PGSQL.5433"), { code: "ENOENT" }),
    ),
  ).toBe(true);
  expect(isConnectionError(new AggregateError([Object.assign(new Error("x"), { code: "ECONNREFUSED" })]))).toBe(true);
  expect(
    isConnectionError(
      Object.assign(new Error('duplicate key value violates unique constraint "users_email_lower_unique"'), {
        code: "23505",
      }),
    ),
  ).toBe(false);
  expect(isConnectionError("ECONNREFUSED")).toBe(false);
  const response = databaseUnavailable();
  expect(response.status).toBe(503);
  expect(response.headers.get("Retry-After")).toBeTruthy();
  expect(await response.text()).toMatch(/database is not available/);
});

test("/healthz says demo mode and the mail transport as configured: the demo's outbox, SMTP", async () => {
  const body = async () => (await callLoader(healthz, new Request("http://localhost/healthz"))).json();
  try {
    Object.assign(process.env, { DEMO_MODE: "true" });
    resetEnvForTests();
    expect(await body()).toMatchObject({ status: "ok", demoMode: true, mail: "outbox" });
    Object.assign(process.env, { DEMO_MODE: "false", SMTP_URL: "smtp://user:secret@mail.hogskolen.no:587" });
    resetEnvForTests();
    const smtp = await body();
    expect(smtp).toMatchObject({ demoMode: false, mail: "smtp" });
    expect(JSON.stringify(smtp)).not.toMatch(/secret|hogskolen/);
  } finally {
    delete process.env.DEMO_MODE;
    delete process.env.SMTP_URL;
    resetEnvForTests();
  }
});

test("/healthz says the nightly backups: whether they run, the last good one's time and age, a failure after it", async () => {
  const body = async () => (await callLoader(healthz, new Request("http://localhost/healthz"))).json();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "praksis-healthz-backups-"));
  try {
    Object.assign(process.env, { BACKUP_DIR: dir });
    resetEnvForTests();
    // None yet, and not scheduled (no launcher here, as with DATABASE_URL or `npm run dev`).
    expect((await body()).backups).toEqual({
      scheduled: false,
      lastGoodAt: null,
      ageHours: null,
      lastFailureAt: null,
      failing: false,
    });
    Object.assign(process.env, { BACKUPS_SCHEDULED: "true" });
    resetEnvForTests();
    const goodAt = new Date(Date.now() - 30 * 3600_000).toISOString();
    const failedAt = new Date(Date.now() - 3600_000).toISOString();
    writeBackupStatus(dir, {
      lastGood: { at: goodAt, file: "praksis-nightly-20261125T013000Z.backup.gz", bytes: 123, seconds: 4 },
      lastFailure: { at: failedAt, message: "no space left on device" },
    });
    const answer = await body();
    expect(answer.status).toBe("ok");
    expect(answer.backups).toEqual({
      scheduled: true,
      lastGoodAt: goodAt,
      ageHours: expect.closeTo(30, 0),
      lastFailureAt: failedAt,
      failing: true,
    });
    // Nothing of where they are nor what went wrong: that is in the log.
    expect(JSON.stringify(answer)).not.toMatch(/praksis-nightly|no space|praksis-healthz-backups/);
  } finally {
    delete process.env.BACKUP_DIR;
    delete process.env.BACKUPS_SCHEDULED;
    resetEnvForTests();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
