import crypto from "node:crypto";
import pg from "pg";
import type { Logger } from "drizzle-orm";
import { openDatabase, type Database } from "~/services/db/client.server";

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or — when TEST_DATABASE_URL
 * names a PostgreSQL server (scripts/with-postgres.sh starts a throwaway one) — a new database
 * on that server, dropped again on close.
 */
export async function openTestDatabase(options: { logger?: Logger } = {}): Promise<Database> {
  const server = process.env.TEST_DATABASE_URL;
  if (!server) return openDatabase({ pgliteDir: "memory://", logger: options.logger });
  const name = `praksis_test_${crypto.randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database ${name}`);
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
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}
