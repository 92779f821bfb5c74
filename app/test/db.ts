import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import type { Logger } from "drizzle-orm";
import { migrationsFolder, openDatabase, type Database } from "~/services/platform/db/client.server";

/** The test run's PostgreSQL server (app/test/postgres.global.ts starts one), as a URL to its `postgres` database. */
export function testServerUrl(): string {
  const server = process.env.TEST_DATABASE_URL;
  if (!server) {
    throw new Error(
      "TEST_DATABASE_URL is not set: run the tests with vitest (its global setup starts a throwaway PostgreSQL)",
    );
  }
  return server;
}

/**
 * A fresh, migrated database for one test file on the test run's PostgreSQL server, copied from a
 * template (migrated once per set of migrations), dropped again on close. `url` is for a server
 * process that is to open the same database.
 */
export async function openTestDatabase(
  options: { logger?: Logger; poolSize?: number } = {},
): Promise<Database & { url: string }> {
  const server = testServerUrl();
  const name = `praksis_test_${crypto.randomBytes(6).toString("hex")}`;
  const template = await migratedTemplate(server);
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  // A file copy of the (small) template: faster than the default WAL-logged copy.
  await admin.query(`create database ${name} template ${template} strategy file_copy`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  const database = await openDatabase({
    url: url.toString(),
    kind: "embedded",
    poolSize: options.poolSize ?? 4,
    logger: options.logger,
  });
  return {
    ...database,
    url: url.toString(),
    async close() {
      await database.close();
      const dropper = new pg.Client({ connectionString: server });
      await dropper.connect();
      await dropDatabase(dropper, name);
      await dropper.end();
    },
  };
}

/**
 * Drops a database once its connections have gone. pg's Pool.end() resolves when its clients are
 * told to end, not when they have: a forced drop before then reaches a client that is still
 * closing, and the pool reports that client's error.
 */
export async function dropDatabase(admin: pg.Client, name: string): Promise<void> {
  await untilUnused(admin, name);
  await admin.query(`drop database if exists ${name} with (force)`);
}

async function untilUnused(admin: pg.Client, name: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const { rows } = await admin.query("select count(*)::int as n from pg_stat_activity where datname = $1", [name]);
    if (rows[0].n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function migrationsHash(): string {
  const hash = crypto.createHash("sha256");
  for (const file of fs
    .readdirSync(migrationsFolder)
    .filter((f) => f.endsWith(".sql"))
    .sort()) {
    hash.update(file).update(fs.readFileSync(path.join(migrationsFolder, file)));
  }
  return hash.digest("hex").slice(0, 16);
}

/**
 * A template database, migrated once per set of migrations, that each test file's database is
 * copied from (`create database … template`). Made under an advisory lock, so files starting
 * together make it once.
 */
export async function migratedTemplate(server: string): Promise<string> {
  const template = `praksis_template_${migrationsHash()}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query("select pg_advisory_lock(7290414)");
    const { rowCount } = await admin.query("select 1 from pg_database where datname = $1", [template]);
    if (rowCount === 0) {
      const building = `${template}_building`;
      await admin.query(`drop database if exists ${building}`);
      await admin.query(`create database ${building}`);
      const url = new URL(server);
      url.pathname = `/${building}`;
      const database = await openDatabase({ url: url.toString(), poolSize: 1 });
      await database.close();
      await untilUnused(admin, building);
      await admin.query(`alter database ${building} rename to ${template}`);
    }
  } finally {
    await admin.query("select pg_advisory_unlock(7290414)").catch(() => {});
    await admin.end();
  }
  return template;
}
