import fs from "node:fs";
import path from "node:path";
import { env } from "../env.server";
import { openDatabase, type Database, type Db } from "./client.server";
import { seedDemo } from "./seed.server";

export type { Db } from "./client.server";

let current: Promise<Database> | undefined;

async function start(): Promise<Database> {
  const config = env();
  const began = Date.now();
  if (!config.DATABASE_URL) fs.mkdirSync(path.resolve(config.PGLITE_DIR), { recursive: true });
  const database = await openDatabase({
    url: config.DATABASE_URL,
    pgliteDir: path.resolve(config.PGLITE_DIR),
    poolSize: config.DATABASE_POOL_SIZE,
  });
  const where = database.kind === "pglite" ? `PGlite in ${config.PGLITE_DIR}` : "PostgreSQL";
  console.info(`[db] ${where}: migrations applied in ${Date.now() - began} ms`);
  if (config.seedDemo) {
    const result = await seedDemo(database.db);
    if (result.seeded) {
      console.info("[db] Demo data seeded. Log in with an e-mail code (the code is shown at /dev/outbox):");
      for (const login of result.logins) {
        console.info(`       ${login.role.padEnd(10)} ${login.email.padEnd(28)} ${login.name}`);
      }
    }
  }
  return database;
}

/** The app's database, opened, migrated and (for the demo) seeded on first use. */
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
