// Backups of the app's database (ADR 0023): a logical copy of every table of the app's schema taken
// in ONE snapshot (a REPEATABLE READ READ ONLY transaction, `COPY … TO STDOUT` per table), written
// as one gzip file with a manifest, and restored into an empty database after the app's migrations.
// Used by `npm run backup` / `npm run restore` (scripts/backup.mjs, scripts/restore.mjs) and by the
// nightly backup of the embedded default.
//
// The file (gzip of):
//   {"format":"praksis-backup","version":1}\n
//   for each table, parents before children:
//     {"table":"users","columns":["id",…]}\n
//     the rows in COPY's text format (one line each)
//     \.\n
//   {"manifest":{…}}\n   (last line: app version, migration, snapshot time, row counts, sequences,
//                         and the SHA-256 of every byte before this line)
// Streamed both ways: the database is never held in memory.
import crypto from "node:crypto";
import { once } from "node:events";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import pg from "pg";
import copyStreams from "pg-copy-streams";
import { applyMigrations, knownMigrations, MIGRATION_LOCK, root, seededTables } from "./migrations.mjs";

export const FORMAT = "praksis-backup";
export const FORMAT_VERSION = 1;

/** A backup or a restore that cannot be done: the message names the cause and what to do. */
export class BackupError extends Error {
  constructor(message) {
    super(message);
    this.name = "BackupError";
  }
}

const quote = (name) => `"${String(name).replaceAll('"', '""')}"`;
const NEWLINE = 0x0a;
const END_OF_ROWS = Buffer.from("\\.\n");
const ROWS_THEN_END = Buffer.from("\n\\.\n");

function appVersion() {
  return JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).version;
}

function countLines(chunk) {
  let n = 0;
  for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, at + 1)) n++;
  return n;
}

async function connect(databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (error) {
    throw new BackupError(
      `cannot reach the database (${error instanceof Error ? error.message : error}): check DATABASE_URL, or start the app (the embedded PostgreSQL)`,
    );
  }
  return client;
}

/** The app's tables (schema public), with their columns (no generated ones), parents before children. */
async function appTables(client) {
  const { rows: tables } = await client.query(`
    select c.oid::int as oid, c.relname as name,
           array(select a.attname from pg_attribute a
                 where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
                 order by a.attnum)::text[] as columns
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
    order by c.relname`);
  const { rows: references } = await client.query(`
    select conrelid::int as child, confrelid::int as parent, conname as name,
           pg_get_constraintdef(oid) as definition
    from pg_constraint
    where contype = 'f' and connamespace = 'public'::regnamespace`);
  // Parents first (Kahn's order by name); a self-reference is checked at the end of its COPY, so it
  // does not count; tables in a cycle (none today) follow in name order, and a restore drops and
  // adds again the references that point forward.
  const parents = new Map(tables.map((t) => [t.oid, new Set()]));
  for (const r of references) if (r.child !== r.parent) parents.get(r.child)?.add(r.parent);
  const ordered = [];
  const placed = new Set();
  while (ordered.length < tables.length) {
    const next = tables.find((t) => !placed.has(t.oid) && [...parents.get(t.oid)].every((p) => placed.has(p)));
    const table = next ?? tables.find((t) => !placed.has(t.oid));
    placed.add(table.oid);
    ordered.push(table);
  }
  return { tables: ordered, references };
}

/** The sequences owned by the app's columns (serial, bigserial, identity), with their table and column. */
async function ownedSequences(client) {
  const { rows } = await client.query(`
    select s.relname as name, t.relname as "table", a.attname as "column"
    from pg_class s
    join pg_depend d on d.objid = s.oid and d.classid = 'pg_class'::regclass and d.refclassid = 'pg_class'::regclass and d.deptype in ('a', 'i')
    join pg_class t on t.oid = d.refobjid
    join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
    join pg_namespace n on n.oid = s.relnamespace
    where s.relkind = 'S' and n.nspname = 'public'
    order by s.relname`);
  return rows;
}

/** The newest migration applied (drizzle.__drizzle_migrations), with its tag from the journal when known. */
async function latestMigration(client) {
  const { rows: present } = await client.query(
    "select to_regclass('drizzle.__drizzle_migrations') is not null as present",
  );
  if (!present[0].present) return null;
  const { rows } = await client.query(
    "select hash, created_at::text as created_at, (select count(*)::int from drizzle.__drizzle_migrations) as count from drizzle.__drizzle_migrations order by created_at desc limit 1",
  );
  if (rows.length === 0) return null;
  const when = Number(rows[0].created_at);
  const known = knownMigrations().find((m) => m.when === when);
  return { tag: known?.tag ?? null, hash: rows[0].hash, createdAt: when, applied: rows[0].count };
}

/**
 * Writes a consistent backup of the app's database at `databaseUrl` to `file` while the app runs:
 * one REPEATABLE READ READ ONLY transaction (one snapshot), each table copied out in turn, gzip,
 * written to `file.partial` and renamed once complete.
 * @param {{ databaseUrl: string, file: string, log?: { info(message: string): void }, gzipLevel?: number }} options
 */
export async function writeBackup({ databaseUrl, file, log, gzipLevel = 3 }) {
  const began = performance.now();
  const target = path.resolve(file);
  const partial = `${target}.partial`;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const client = await connect(databaseUrl);
  const gzip = zlib.createGzip({ level: gzipLevel });
  const out = fs.createWriteStream(partial, { mode: 0o600 });
  const written = new Promise((resolve, reject) => {
    out.on("finish", resolve);
    out.on("error", reject);
    gzip.on("error", reject);
  });
  written.catch(() => {});
  gzip.pipe(out);
  const hash = crypto.createHash("sha256");
  const write = async (chunk) => {
    hash.update(chunk);
    if (!gzip.write(chunk)) await Promise.race([once(gzip, "drain"), written]);
  };
  let finished = false;
  try {
    await client.query("begin isolation level repeatable read read only");
    // The transaction's first statement takes its snapshot: the clock read in it is the snapshot's
    // time (just after it: every save in the copy was committed before this time).
    const { rows: facts } = await client.query(
      "select clock_timestamp() as snapshot, current_setting('server_version') as server, current_database() as database",
    );
    await client.query("set local statement_timeout = 0");
    await client.query("set local idle_in_transaction_session_timeout = 0");
    const { tables } = await appTables(client);
    if (tables.length === 0)
      throw new BackupError("the database holds none of the app's tables: nothing to back up (is DATABASE_URL right?)");
    // As pg_dump does: no migration may change a table while it is copied (reads and writes go on).
    await client.query(`lock table ${tables.map((t) => quote(t.name)).join(", ")} in access share mode`);
    const migration = await latestMigration(client);
    const sequences = [];
    for (const s of await ownedSequences(client)) {
      const { rows } = await client.query(`select last_value::text as value, is_called from ${quote(s.name)}`);
      sequences.push({ ...s, lastValue: Number(rows[0].value), isCalled: rows[0].is_called });
    }
    await write(Buffer.from(`${JSON.stringify({ format: FORMAT, version: FORMAT_VERSION })}\n`));
    const counted = [];
    for (const table of tables) {
      await write(Buffer.from(`${JSON.stringify({ table: table.name, columns: table.columns })}\n`));
      const columns = table.columns.map(quote).join(", ");
      const stream = client.query(copyStreams.to(`copy ${quote(table.name)} (${columns}) to stdout`));
      let rows = 0;
      for await (const chunk of stream) {
        rows += countLines(chunk);
        await write(chunk);
      }
      await write(END_OF_ROWS);
      counted.push({ name: table.name, columns: table.columns, rows });
    }
    await client.query("commit");
    const manifest = {
      format: FORMAT,
      version: FORMAT_VERSION,
      app: { name: "praksis", version: appVersion() },
      migration,
      snapshotAt: new Date(facts[0].snapshot).toISOString(),
      server: facts[0].server,
      tables: counted,
      rows: counted.reduce((n, t) => n + t.rows, 0),
      sequences,
      sha256: hash.digest("hex"),
    };
    gzip.end(`${JSON.stringify({ manifest })}\n`);
    await written;
    const handle = await fs.promises.open(partial, "r");
    await handle.sync();
    await handle.close();
    await fs.promises.rename(partial, target);
    finished = true;
    const bytes = fs.statSync(target).size;
    const seconds = (performance.now() - began) / 1000;
    log?.info(
      `backup written: ${target} (${formatBytes(bytes)}, ${manifest.tables.length} tables, ${manifest.rows} rows, ${seconds.toFixed(1)} s)`,
    );
    return { file: target, bytes, seconds, manifest };
  } finally {
    await client.query("rollback").catch(() => {});
    await client.end().catch(() => {});
    if (!finished) {
      gzip.destroy();
      out.destroy();
      fs.rmSync(partial, { force: true });
    }
  }
}

export function formatBytes(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function damaged(file, why) {
  return new BackupError(
    `${file} is not a whole Praksis backup (${why}): it is damaged or was cut short; use another backup`,
  );
}

/**
 * Reads a backup file as a stream of events: each table's header, its rows (in chunks of COPY's
 * text format), its end, and last the manifest, whose checksum is verified against the bytes read.
 * Throws a BackupError for anything but a whole, unaltered file.
 */
async function* readBackup(file) {
  const name = path.basename(file);
  let input;
  try {
    input = fs.createReadStream(file);
    await once(input, "open");
  } catch (error) {
    throw new BackupError(`cannot read ${file}: ${error instanceof Error ? error.message : error}`);
  }
  const gunzip = zlib.createGunzip();
  input.on("error", (error) => gunzip.destroy(error));
  input.pipe(gunzip);
  const hash = crypto.createHash("sha256");
  let buffer = Buffer.alloc(0);
  let state = "start"; // start → line ⇄ rows → done
  let lineStart = true;
  let manifest = null;

  function* take(final) {
    for (;;) {
      if (state === "done") {
        if (buffer.length > 0) throw damaged(name, "bytes after the manifest");
        return;
      }
      if (state === "start" || state === "line") {
        const end = buffer.indexOf(NEWLINE);
        if (end === -1) {
          if (buffer.length > 1 << 20) throw damaged(name, "no line where one was expected");
          if (final) throw damaged(name, state === "start" ? "empty" : "no manifest at the end");
          return;
        }
        let parsed;
        try {
          parsed = JSON.parse(buffer.subarray(0, end).toString("utf8"));
        } catch {
          parsed = null;
        }
        if (state === "start") {
          if (parsed?.format !== FORMAT) throw new BackupError(`${name} is not a Praksis backup`);
          if (parsed.version !== FORMAT_VERSION)
            throw new BackupError(
              `${name} is a Praksis backup of format ${parsed.version}, which this version does not read (it reads ${FORMAT_VERSION}): restore it with the version of Praksis that wrote it`,
            );
          hash.update(buffer.subarray(0, end + 1));
          buffer = buffer.subarray(end + 1);
          state = "line";
        } else if (parsed?.manifest) {
          manifest = parsed.manifest;
          buffer = buffer.subarray(end + 1);
          state = "done";
        } else if (typeof parsed?.table === "string" && Array.isArray(parsed.columns)) {
          hash.update(buffer.subarray(0, end + 1));
          buffer = buffer.subarray(end + 1);
          state = "rows";
          lineStart = true;
          yield { kind: "table", table: parsed.table, columns: parsed.columns };
        } else {
          throw damaged(name, parsed ? "an unknown section" : "a section header is not readable");
        }
        continue;
      }
      // rows: up to the line `\.` (never a row: COPY writes a backslash in data as `\\`)
      if (lineStart) {
        if (buffer.length < END_OF_ROWS.length) {
          if (final) throw damaged(name, "a table's rows end early");
          return;
        }
        if (buffer.subarray(0, END_OF_ROWS.length).equals(END_OF_ROWS)) {
          hash.update(END_OF_ROWS);
          buffer = buffer.subarray(END_OF_ROWS.length);
          state = "line";
          yield { kind: "end" };
          continue;
        }
      }
      const at = buffer.indexOf(ROWS_THEN_END);
      if (at !== -1) {
        const rows = buffer.subarray(0, at + 1);
        hash.update(rows);
        buffer = buffer.subarray(at + 1);
        lineStart = true;
        yield { kind: "rows", chunk: rows };
        continue;
      }
      if (final) throw damaged(name, "a table's rows end early");
      const keep = ROWS_THEN_END.length - 1;
      if (buffer.length <= keep) return;
      const rows = buffer.subarray(0, buffer.length - keep);
      lineStart = buffer[buffer.length - keep - 1] === NEWLINE;
      hash.update(rows);
      buffer = buffer.subarray(buffer.length - keep);
      yield { kind: "rows", chunk: rows };
      return;
    }
  }

  try {
    for await (const chunk of gunzip) {
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
      yield* take(false);
    }
  } catch (error) {
    if (error instanceof BackupError) throw error;
    const code = error?.code;
    if (code === "Z_BUF_ERROR" || code === "Z_DATA_ERROR" || code === "ERR_ZLIB_INITIALIZATION_FAILED")
      throw damaged(name, error.message);
    throw new BackupError(`cannot read ${file}: ${error instanceof Error ? error.message : error}`);
  } finally {
    input.destroy();
  }
  yield* take(true);
  if (!manifest) throw damaged(name, "no manifest at the end");
  if (manifest.sha256 !== hash.digest("hex")) throw damaged(name, "its checksum does not match its contents");
  yield { kind: "manifest", manifest };
}

/** The manifest of a backup file, once the whole file is read and its checksum verified. */
export async function readManifest(file) {
  let manifest = null;
  for await (const event of readBackup(file)) if (event.kind === "manifest") manifest = event.manifest;
  return manifest;
}

/** The database's server: a version the app supports, and a locale in which lower('Ø') is 'ø' (as the app checks at start). */
async function checkTarget(client) {
  const { rows } = await client.query(`
    select current_setting('server_version_num')::int / 10000 as major, current_setting('server_version') as version,
           current_database() as database, pg_encoding_to_char(d.encoding) as encoding,
           (lower('ÆØÅ') = 'æøå' and upper('æøå') = 'ÆØÅ') as folds
    from pg_database d where d.datname = current_database()`);
  const facts = rows[0];
  if (facts.major < 14)
    throw new BackupError(
      `PostgreSQL ${facts.version} is older than Praksis supports (14 or newer): restore into a newer server`,
    );
  if (facts.encoding !== "UTF8" || !facts.folds)
    throw new BackupError(
      `the database ${facts.database} has a locale in which lower('Ø') is not 'ø' (the app would refuse to start on it): create it with ENCODING 'UTF8' LOCALE 'C.UTF-8' TEMPLATE template0 and restore into that`,
    );
  return facts;
}

/** How many of the app's tables hold a school's data (rows other than those the migrations insert). */
async function tablesWithData(client) {
  const seeded = seededTables();
  const { tables } = await appTables(client);
  const full = [];
  for (const table of tables) {
    if (seeded.has(table.name)) continue;
    const { rowCount } = await client.query(`select 1 from ${quote(table.name)} limit 1`);
    if (rowCount > 0) full.push(table.name);
  }
  return full;
}

/** Drops everything of the app's in the database: its tables, sequences, views and types, and drizzle's bookkeeping. */
async function dropAppObjects(client) {
  await client.query("drop schema if exists drizzle cascade");
  const { rows } = await client.query(`
    select c.relkind as kind, c.relname as name from pg_class c
    where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
      and not (c.relkind = 'S' and exists (select 1 from pg_depend d where d.objid = c.oid and d.deptype in ('a', 'i')))`);
  const kinds = { r: "table", p: "table", v: "view", m: "materialized view", S: "sequence", f: "foreign table" };
  for (const { kind, name } of rows) await client.query(`drop ${kinds[kind]} if exists ${quote(name)} cascade`);
  const { rows: types } = await client.query(`
    select t.typname as name from pg_type t
    where t.typnamespace = 'public'::regnamespace and t.typtype in ('e', 'd', 'c', 'r')
      and (t.typrelid = 0 or (select relkind from pg_class where oid = t.typrelid) = 'c')`);
  for (const { name } of types) await client.query(`drop type if exists ${quote(name)} cascade`);
}

/**
 * Restores `file` into the database at `databaseUrl`: verifies the file, refuses a database that
 * holds data unless `replace`, then in ONE transaction: drops the app's objects, applies the app's
 * migrations up to the backup's, copies every table in, applies the newer migrations, sets each
 * sequence past its largest id, and checks the row counts against the manifest.
 * @param {{ databaseUrl: string, file: string, replace?: boolean, log?: { info(message: string): void }, verified?: object }} options
 */
export async function restoreBackup({ databaseUrl, file, replace = false, log, verified }) {
  const began = performance.now();
  // Read and verified before (the caller's readManifest): the load below verifies the checksum
  // again before it commits, so a file changed in between is still refused.
  const manifest = verified ?? (await readManifest(file));
  const known = knownMigrations();
  let upTo = -1;
  if (manifest.migration) {
    upTo = known.findIndex((m) => m.when === manifest.migration.createdAt);
    if (upTo === -1) {
      throw new BackupError(
        `the backup was made by a newer version of Praksis (its latest migration ${manifest.migration.tag ?? new Date(manifest.migration.createdAt).toISOString()} is unknown here; the backup's app version is ${manifest.app?.version}): install that version or a newer one, and restore with it`,
      );
    }
  }
  const client = await connect(databaseUrl);
  try {
    await checkTarget(client);
    await client.query("begin");
    // A server's own limits for the app's statements (an institution may set them) do not cut a restore short.
    await client.query("set local statement_timeout = 0");
    await client.query("set local idle_in_transaction_session_timeout = 0");
    await client.query("set local lock_timeout = 0");
    await client.query("select pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    const full = await tablesWithData(client);
    if (full.length > 0 && !replace) {
      throw new BackupError(
        `the database holds data (${full.length} of the app's tables have rows, e.g. ${full.slice(0, 3).join(", ")}): restore into an empty database, or add --replace to drop everything of the app's in it and restore the backup instead`,
      );
    }
    await dropAppObjects(client);
    await applyMigrations(client, known.slice(0, upTo + 1));
    const { tables, references } = await appTables(client);
    const byName = new Map(tables.map((t) => [t.name, t]));
    for (const t of manifest.tables) {
      const there = byName.get(t.name);
      const missing = there ? t.columns.filter((c) => !there.columns.includes(c)) : [];
      if (!there || missing.length > 0)
        throw new BackupError(
          `the backup's table ${t.name}${there ? ` (columns ${missing.join(", ")})` : ""} is not in the schema of its own migration: the backup does not match this version's migrations`,
        );
    }
    // Rows the migrations inserted (the fixed roles) are replaced by the backup's own.
    if (tables.length > 0) await client.query(`truncate ${tables.map((t) => quote(t.name)).join(", ")}`);
    // A reference to a table loaded later (a cycle; none today) is dropped for the load and added again after.
    const position = new Map(manifest.tables.map((t, i) => [byName.get(t.name)?.oid, i]));
    const forward = references.filter(
      (r) => r.child !== r.parent && (position.get(r.parent) ?? -1) > (position.get(r.child) ?? -1),
    );
    const nameOf = new Map(tables.map((t) => [t.oid, t.name]));
    for (const r of forward)
      await client.query(`alter table ${quote(nameOf.get(r.child))} drop constraint ${quote(r.name)}`);

    const loaded = new Map();
    let copy = null;
    let copyDone = null;
    let table = null;
    for await (const event of readBackup(file)) {
      if (event.kind === "table") {
        table = event.table;
        copy = client.query(
          copyStreams.from(`copy ${quote(table)} (${event.columns.map(quote).join(", ")}) from stdin`),
        );
        copyDone = new Promise((resolve, reject) => {
          copy.on("finish", resolve);
          copy.on("error", reject);
        });
        copyDone.catch(() => {});
      } else if (event.kind === "rows") {
        if (!copy.write(event.chunk)) await Promise.race([once(copy, "drain"), copyDone]);
      } else if (event.kind === "end") {
        copy.end();
        await copyDone;
        loaded.set(table, copy.rowCount);
        copy = null;
      }
    }
    for (const r of forward)
      await client.query(`alter table ${quote(nameOf.get(r.child))} add constraint ${quote(r.name)} ${r.definition}`);
    const wrong = manifest.tables.filter((t) => loaded.get(t.name) !== t.rows);
    if (wrong.length > 0)
      throw new BackupError(
        `row counts differ from the backup's manifest (${wrong.map((t) => `${t.name}: ${loaded.get(t.name)} of ${t.rows}`).join(", ")}): nothing was restored`,
      );
    await applyMigrations(client, known.slice(upTo + 1));
    // Every sequence past its largest id, and never behind where it stood in the backup.
    const stood = new Map((manifest.sequences ?? []).map((s) => [s.name, s.isCalled ? s.lastValue : s.lastValue - 1]));
    for (const s of await ownedSequences(client)) {
      const { rows } = await client.query(
        `select coalesce(max(${quote(s.column)}), 0)::text as max from ${quote(s.table)}`,
      );
      const next = Math.max(Number(rows[0].max), stood.get(s.name) ?? 0);
      if (next > 0) await client.query("select setval($1, $2, true)", [quote(s.name), next]);
      else await client.query("select setval($1, 1, false)", [quote(s.name)]);
    }
    await client.query("commit");
    const rows = [...loaded.values()].reduce((n, r) => n + r, 0);
    const seconds = (performance.now() - began) / 1000;
    log?.info(`restored: ${path.resolve(file)} (${loaded.size} tables, ${rows} rows, ${seconds.toFixed(1)} s)`);
    return { tables: loaded.size, rows, seconds, manifest };
  } catch (error) {
    await client.query("rollback").catch(() => {});
    if (error instanceof BackupError) throw error;
    throw new BackupError(`the restore failed and changed nothing: ${error instanceof Error ? error.message : error}`);
  } finally {
    await client.end().catch(() => {});
  }
}
