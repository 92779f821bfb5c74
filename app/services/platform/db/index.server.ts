import cluster from "node:cluster";
import os from "node:os";
import { env, EnvError } from "~/services/platform/env.server";
import { logFor } from "~/services/platform/log.server";
import { openDatabase, type Database, type Db } from "./client.server";

export type { Db } from "./client.server";

let current: Promise<Database> | undefined;
let prepare: ((database: Database) => Promise<void>) | undefined;

/**
 * Work to do once the database is open and migrated, before it is handed out: the app's entry sets
 * the demo seed here (platform code knows no domain, so the seed is handed in, not imported).
 */
export function prepareDatabaseWith(task: (database: Database) => Promise<void>): void {
  prepare = task;
}

function databaseUrl(): string {
  const config = env();
  if (!config.DATABASE_URL) {
    // The launchers (`npm start`, `npm run dev`, the tests) start the embedded PostgreSQL and set it.
    throw new EnvError(
      "Invalid configuration (environment variables):\n  DATABASE_URL: not set. Start the app with `npm start` or `npm run dev`, which run the embedded PostgreSQL, or set DATABASE_URL=postgres://… to a server of your own",
    );
  }
  return config.DATABASE_URL;
}

/**
 * The app processes of this instance, each with a pool: `npm start` runs WEB_CONCURRENCY of them
 * (default one per core, server.mjs); anything else (`npm run dev`, a command) is one process.
 */
function appProcesses(): number {
  if (!cluster.isWorker) return 1;
  return Math.max(1, Number(process.env.WEB_CONCURRENCY) || os.availableParallelism());
}

async function start(): Promise<Database> {
  const config = env();
  const url = databaseUrl();
  const began = Date.now();
  const database = await openDatabase({
    url,
    kind: config.EMBEDDED_DATABASE ? "embedded" : "external",
    poolSize: config.DATABASE_POOL_SIZE,
    migrations: config.MIGRATE_ON_START ? "apply" : "verify",
    // Said once per start: by the first app process of `npm start` (the others start after it).
    check: {
      budget: { poolSize: config.DATABASE_POOL_SIZE, processes: appProcesses() },
      report: !cluster.isWorker || cluster.worker?.id === 1,
    },
  });
  const what = database.kind === "embedded" ? "embedded PostgreSQL" : "PostgreSQL";
  const applied = database.applied.length;
  logFor("db").info(
    `${what}: schema up to date${applied > 0 ? ` (${applied} migration${applied === 1 ? "" : "s"} applied)` : config.MIGRATE_ON_START ? "" : " (MIGRATE_ON_START=false: checked, not migrated)"} in ${Date.now() - began} ms`,
  );
  await prepare?.(database);
  return database;
}

/**
 * `npm run migrate`: the checks and the migrations alone, whatever MIGRATE_ON_START says, and
 * nothing else (no demo seed, no app). Returns the migrations applied, oldest first.
 */
export async function migrateDatabase(): Promise<string[]> {
  const database = await openDatabase({ url: databaseUrl(), poolSize: 1, migrations: "apply", check: {} });
  await database.close();
  return database.applied;
}

/** The app's database, opened, migrated and prepared (the demo seed) on first use. */
export async function getDatabase(): Promise<Database> {
  current ??= start().catch((error: unknown) => {
    current = undefined;
    throw error;
  });
  return current;
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}

/** Closes the app's database when it was opened (a command that is done: `npm run admin`). */
export async function closeDatabase(): Promise<void> {
  const opened = current;
  current = undefined;
  if (opened) await (await opened.catch(() => null))?.close();
}

/** Tests hand in a database of their own. */
export function useDatabaseForTests(database: Database): void {
  current = Promise.resolve(database);
}
