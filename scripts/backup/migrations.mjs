// The app's migrations (drizzle/), read with drizzle's own reader and applied as drizzle's migrator
// applies them (each statement, then its row in drizzle.__drizzle_migrations), but on a client the
// caller holds in a transaction: a restore migrates up to the backup's migration, loads the data,
// then applies the newer ones, and commits all of it at once or nothing.
import fs from "node:fs";
import path from "node:path";
import { readMigrationFiles } from "drizzle-orm/migrator";

export const root = path.resolve(import.meta.dirname, "../..");
export const migrationsFolder = path.join(root, "drizzle");

/** The app's advisory lock for migrating (app/services/platform/db/client.server.ts): one migrator at a time. */
export const MIGRATION_LOCK = 7_290_412;

/**
 * The migrations this checkout knows, oldest first: tag (drizzle/meta/_journal.json), when (the
 * journal's key, kept as created_at), hash (of the .sql file, as drizzle keeps it), statements.
 * @returns {{ tag: string, when: number, hash: string, statements: string[] }[]}
 */
export function knownMigrations(folder = migrationsFolder) {
  const journal = JSON.parse(fs.readFileSync(path.join(folder, "meta/_journal.json"), "utf8"));
  const files = readMigrationFiles({ migrationsFolder: folder });
  return journal.entries.map((entry, i) => ({
    tag: entry.tag,
    when: entry.when,
    hash: files[i].hash,
    statements: files[i].sql,
  }));
}

/** The tables the migrations themselves fill (the fixed roles): their rows are not a school's data. */
export function seededTables(folder = migrationsFolder) {
  const names = new Set();
  for (const file of fs.readdirSync(folder).filter((f) => f.endsWith(".sql"))) {
    for (const m of fs.readFileSync(path.join(folder, file), "utf8").matchAll(/insert\s+into\s+"?(\w+)"?/gi))
      names.add(m[1]);
  }
  return names;
}

/**
 * Applies `migrations` in order on `client` (inside the caller's transaction), creating drizzle's
 * bookkeeping table as drizzle does.
 */
export async function applyMigrations(client, migrations) {
  await client.query("create schema if not exists drizzle");
  await client.query(
    "create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)",
  );
  for (const migration of migrations) {
    for (const statement of migration.statements) {
      if (statement.trim()) await client.query(statement);
    }
    await client.query("insert into drizzle.__drizzle_migrations (hash, created_at) values ($1, $2)", [
      migration.hash,
      migration.when,
    ]);
  }
}
