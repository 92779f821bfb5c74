// Until ADR 0013 the embedded database was PGlite in ./data/pglite. Its data is carried over once
// into the embedded PostgreSQL server (ADR 0013): both brought to the same migrations, every table
// copied row for row (as JSON, so every type arrives as it was), the sequences set past the copied
// ids, all in one transaction; then the PGlite folder is renamed, never deleted.
//
//   node scripts/carry-over-pglite.mjs <pglite folder> <postgres://…>   (npm start does it by itself)
import fs from "node:fs";
import path from "node:path";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";

const migrationsFolder = path.resolve(import.meta.dirname, "../drizzle");
const BATCH = 2_000;

/** Whether `dir` holds a PGlite database that has not been carried over yet. */
export function hasPgliteData(dir) {
  return fs.existsSync(path.join(dir, "PG_VERSION"));
}

/**
 * Copies the PGlite database in `pgliteDir` into the (empty) database at `url`, and renames the
 * folder to `<folder>-carried-over-<date>`. A database at `url` that already holds users is left
 * alone and the folder is kept as it is (the message says so).
 * @returns {Promise<{ tables: number, rows: number, movedTo: string } | { skipped: string }>}
 */
export async function carryOverPglite({ pgliteDir, url, log = console }) {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle: drizzlePglite } = await import("drizzle-orm/pglite");
  const { migrate: migratePglite } = await import("drizzle-orm/pglite/migrator");
  const began = Date.now();
  const source = await PGlite.create(pgliteDir);
  const target = new pg.Client({ connectionString: url });
  await target.connect();
  try {
    await migratePglite(drizzlePglite({ client: source }), { migrationsFolder });
    await migratePg(drizzlePg({ client: target }), { migrationsFolder });
    const { rows: present } = await target.query("select count(*)::int as n from users");
    if (present[0].n > 0) {
      return { skipped: `the PostgreSQL database already has ${present[0].n} users; ${pgliteDir} is left as it is` };
    }
    const { rows: tables } = await target.query(
      "select tablename from pg_tables where schemaname = 'public' order by tablename",
    );
    let copied = 0;
    await target.query("begin");
    try {
      // Foreign keys are not checked while copying (the rows were consistent where they came from),
      // so the tables can be copied in any order.
      await target.query("set local session_replication_role = replica");
      // What the migrations put in (the roles) comes from the copy, as everything else.
      await target.query(
        `truncate table ${tables.map(({ tablename }) => `"${tablename.replaceAll('"', '""')}"`).join(", ")}`,
      );
      for (const { tablename } of tables) {
        const quoted = `"${tablename.replaceAll('"', '""')}"`;
        for (let offset = 0; ; offset += BATCH) {
          const { rows } = await source.query(
            `select coalesce(json_agg(t), '[]'::json) as rows from (select * from ${quoted} order by 1 offset ${offset} limit ${BATCH}) t`,
          );
          const batch = rows[0].rows;
          if (batch.length === 0) break;
          await target.query(`insert into ${quoted} select * from json_populate_recordset(null::${quoted}, $1::json)`, [
            JSON.stringify(batch),
          ]);
          copied += batch.length;
          if (batch.length < BATCH) break;
        }
      }
      // Every serial and identity column continues after the largest copied id.
      const { rows: sequences } = await target.query(`
        select table_name, column_name, pg_get_serial_sequence(quote_ident(table_name), column_name) as seq
        from information_schema.columns
        where table_schema = 'public' and pg_get_serial_sequence(quote_ident(table_name), column_name) is not null`);
      for (const { table_name, column_name, seq } of sequences) {
        await target.query(
          `select setval($1, coalesce((select max("${column_name}") from "${table_name}"), 0) + 1, false)`,
          [seq],
        );
      }
      await target.query("commit");
    } catch (error) {
      await target.query("rollback").catch(() => {});
      throw error;
    }
    await source.close();
    const movedTo = `${pgliteDir}-carried-over-${new Date().toISOString().slice(0, 10)}`;
    fs.renameSync(pgliteDir, movedTo);
    log.info(
      `[db] carried the PGlite database over into PostgreSQL: ${copied} rows of ${tables.length} tables in ${Date.now() - began} ms; the old folder is kept as ${movedTo}`,
    );
    return { tables: tables.length, rows: copied, movedTo };
  } finally {
    await target.end();
    if (!source.closed) await source.close().catch(() => {});
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const [pgliteDir, url] = process.argv.slice(2);
  if (!pgliteDir || !url) {
    console.error("usage: node scripts/carry-over-pglite.mjs <pglite folder> <postgres://…>");
    process.exit(2);
  }
  const result = await carryOverPglite({ pgliteDir: path.resolve(pgliteDir), url });
  if ("skipped" in result) console.info(`[db] nothing carried over: ${result.skipped}`);
}
