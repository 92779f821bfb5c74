import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql, type Logger } from "drizzle-orm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import * as schema from "./schema";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  close(): Promise<void>;
}

export const migrationsFolder = path.resolve(process.cwd(), "drizzle");

// Any fixed number shared by every instance of the app serialises concurrent start-ups.
const MIGRATION_LOCK = 7_290_412;

/**
 * Opens the database the configuration names and brings its schema up to date.
 * `postgres://…` → node-postgres pool; anything else is a PGlite data directory
 * (`memory://` for a throwaway in-memory database).
 */
export async function openDatabase(options: {
  url?: string;
  pgliteDir: string;
  poolSize?: number;
  /** Sees every statement; the tests count queries with it. */
  logger?: Logger;
}): Promise<Database> {
  if (options.url) {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 5_000,
    });
    // An idle client that loses its server must not crash the process; the pool replaces it.
    pool.on("error", (error) => console.error("[db] idle client error:", error.message));
    const db = drizzlePg({ client: pool, schema, logger: options.logger });
    const client = await pool.connect();
    try {
      await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
      await migratePg(drizzlePg({ client, schema }), { migrationsFolder });
    } finally {
      await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
      client.release();
    }
    return { db: db as unknown as Db, kind: "postgres", close: () => pool.end() };
  }

  return usePglite(await PGlite.create(options.pgliteDir), options.logger);
}

/** A PGlite database (a folder, memory, or a loaded snapshot) as the app uses it, brought up to date. */
export async function usePglite(client: PGlite, logger?: Logger): Promise<Database> {
  const db = drizzlePglite({ client, schema, logger });
  await migratePglite(db, { migrationsFolder });
  return { db: db as unknown as Db, kind: "pglite", close: () => client.close() };
}

export async function ping(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
