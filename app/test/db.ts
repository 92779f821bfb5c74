import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { Logger } from "drizzle-orm";
import { migrationsFolder, openDatabase, usePglite, type Database } from "~/services/platform/db/client.server";

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or — when TEST_DATABASE_URL
 * names a PostgreSQL server (scripts/with-postgres.sh starts a throwaway one) — a new database
 * on that server, dropped again on close.
 */
export async function openTestDatabase(options: { logger?: Logger } = {}): Promise<Database> {
  const server = process.env.TEST_DATABASE_URL;
  if (!server) return openMigratedPglite(options.logger);
  const name = `praksis_test_${crypto.randomBytes(6).toString("hex")}`;
  const template = await migratedTemplate(server);
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database ${name} template ${template}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), pgliteDir: "", poolSize: 4, logger: options.logger });
  return {
    ...database,
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
  for (let i = 0; i < 100; i++) {
    const { rows } = await admin.query("select count(*)::int as n from pg_stat_activity where datname = $1", [name]);
    if (rows[0].n === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await admin.query(`drop database if exists ${name} with (force)`);
}

/**
 * An in-memory PGlite with the schema, from a snapshot of a freshly migrated one: migrating takes
 * seconds, loading the snapshot a fraction of that, and every test file needs one. The snapshot is
 * kept under node_modules/.cache, named by the migrations it holds, so a new migration makes a new
 * one. (Each test file runs in a process of its own, so a file on disk is what they can share.)
 */
async function openMigratedPglite(logger?: Logger): Promise<Database> {
  const snapshot = path.join(process.cwd(), "node_modules", ".cache", "praksis-test", `migrated-${migrationsHash()}.tar`);
  if (fs.existsSync(snapshot)) {
    const client = await PGlite.create({ loadDataDir: new Blob([fs.readFileSync(snapshot)]) });
    // Migrating again finds nothing to do, and keeps the app's usual path honest.
    return usePglite(client, logger);
  }
  const client = await PGlite.create("memory://");
  const database = await usePglite(client, logger);
  const dump = await client.dumpDataDir("none");
  fs.mkdirSync(path.dirname(snapshot), { recursive: true });
  // Written aside and renamed, so a file running at the same time never reads half a snapshot.
  const partial = `${snapshot}.${process.pid}.partial`;
  fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  fs.renameSync(partial, snapshot);
  return database;
}

function migrationsHash(): string {
  const hash = crypto.createHash("sha256");
  for (const file of fs.readdirSync(migrationsFolder).filter((f) => f.endsWith(".sql")).sort()) {
    hash.update(file).update(fs.readFileSync(path.join(migrationsFolder, file)));
  }
  return hash.digest("hex").slice(0, 16);
}

/**
 * On PostgreSQL the same idea as the PGlite snapshot: a template database, migrated once per set of
 * migrations, that each test file's database is copied from. Made under an advisory lock, so files
 * starting together make it once.
 */
async function migratedTemplate(server: string): Promise<string> {
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
      const database = await openDatabase({ url: url.toString(), pgliteDir: "", poolSize: 1 });
      await database.close();
      await admin.query(`alter database ${building} rename to ${template}`);
    }
  } finally {
    await admin.query("select pg_advisory_unlock(7290414)").catch(() => {});
    await admin.end();
  }
  return template;
}
