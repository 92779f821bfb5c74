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

async function start(): Promise<Database> {
  const config = env();
  if (!config.DATABASE_URL) {
    // The launchers (`npm start`, `npm run dev`, the tests) start the embedded PostgreSQL and set it.
    throw new EnvError(
      "Invalid configuration (environment variables):\n  DATABASE_URL: not set. Start the app with `npm start` or `npm run dev`, which run the embedded PostgreSQL, or set DATABASE_URL=postgres://… to a server of your own",
    );
  }
  const began = Date.now();
  const database = await openDatabase({
    url: config.DATABASE_URL,
    kind: config.EMBEDDED_DATABASE ? "embedded" : "external",
    poolSize: config.DATABASE_POOL_SIZE,
  });
  logFor("db").info(`${database.kind === "embedded" ? "embedded PostgreSQL" : "PostgreSQL"}: migrations applied in ${Date.now() - began} ms`);
  await prepare?.(database);
  return database;
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

/** Tests hand in a database of their own. */
export function useDatabaseForTests(database: Database): void {
  current = Promise.resolve(database);
}
