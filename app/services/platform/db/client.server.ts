import { AsyncLocalStorage } from "node:async_hooks";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DrizzleQueryError, sql, type Logger } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { PgPreparedQuery, type PgDatabase, type PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import { EnvError } from "../env.server";
import { logFor } from "../log.server";
import * as schema from "./schema";

const dbLog = logFor("db");

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  /** The embedded PostgreSQL that `npm start` runs, or a PostgreSQL server of one's own. */
  kind: "embedded" | "external";
  close(): Promise<void>;
}

/**
 * What a request gets while PostgreSQL cannot be reached (restart, fail-over, network): a 503 that
 * says so (the root error boundary shows it as a page; API callers get it as it is), instead of a
 * 500 as for a bug. Thrown from the database layer, so every loader, action and middleware gets it.
 */
export const DATABASE_UNAVAILABLE_MESSAGE = "The database is not available right now. Try again in a minute.";

export function databaseUnavailable(): Response {
  const watch = outageWatch.getStore();
  if (watch) watch.unavailable = true;
  return new Response(DATABASE_UNAVAILABLE_MESSAGE, {
    status: 503,
    statusText: "Service Unavailable",
    headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "30", "Cache-Control": "no-store" },
  });
}

// Whether this request's 503 is the database's own: a request run through watchDatabase() is marked
// here whatever statement, middleware or action met the outage (a 503 is also what other pages
// answer for other reasons, e.g. a mail that could not be sent).
const outageWatch = new AsyncLocalStorage<{ unavailable: boolean }>();

/** Runs `run` and tells whether anything in it was answered with databaseUnavailable(). */
export async function watchDatabase<T>(run: () => Promise<T>): Promise<{ result: T; unavailable: boolean }> {
  const watch = { unavailable: false };
  const result = await outageWatch.run(watch, run);
  return { result, unavailable: watch.unavailable };
}

// Errors that mean "no connection to the server", not a fault of the statement. ENOENT: the Unix
// socket of the embedded server is gone while the server is down (only pool errors are asked).
// 53300: the server's max_connections (or the role's connection limit) is reached.
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOENT",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ETIMEDOUT",
  "EPIPE",
  "53300",
  "57P01",
  "57P02",
  "57P03",
  "08000",
  "08001",
  "08003",
  "08006",
]);

export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && CONNECTION_CODES.has(code)) return true;
  if (error instanceof AggregateError && error.errors.some(isConnectionError)) return true;
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down)/i.test(
    error.message,
  );
}

// Whether the last statement failed for want of a connection: logged once per outage, and once
// when the database answers again.
let down = false;

function unavailable(error: unknown): Response {
  if (!down) {
    down = true;
    dbLog.error(
      `PostgreSQL is unavailable: ${error instanceof Error ? error.message : String(error)}; answering 503 until it returns`,
    );
  }
  return databaseUnavailable();
}

function answered<T>(value: T): T {
  if (down) {
    down = false;
    dbLog.info("PostgreSQL answers again");
  }
  return value;
}

// drizzle wraps every failed statement in a DrizzleQueryError; the 503 must reach React Router as
// the Response it is, so it is unwrapped here (once, for every prepared query). A statement on a
// client already checked out (in a transaction) that loses its server becomes a 503 here too.
type QueryWithCache = (this: unknown, ...args: unknown[]) => Promise<unknown>;
const preparedQuery = PgPreparedQuery.prototype as unknown as {
  queryWithCache: QueryWithCache;
  unwrapsUnavailable?: boolean;
};
if (!preparedQuery.unwrapsUnavailable) {
  const original = preparedQuery.queryWithCache;
  preparedQuery.queryWithCache = async function (this: unknown, ...args: unknown[]) {
    try {
      return await original.apply(this, args);
    } catch (error) {
      if (error instanceof DrizzleQueryError && error.cause instanceof Response) throw error.cause;
      if (error instanceof DrizzleQueryError && isConnectionError(error.cause)) throw unavailable(error.cause);
      throw error;
    }
  };
  preparedQuery.unwrapsUnavailable = true;
}

/**
 * The pool as drizzle uses it, with connection failures turned into `databaseUnavailable()` and
 * logged once per outage (and once when the database answers again).
 */
function guardedPool(pool: pg.Pool, size: number): pg.Pool {
  let busySince = 0;
  const failed = (error: unknown): never => {
    if (isConnectionError(error)) {
      if (
        error instanceof Error &&
        /timeout exceeded when trying to connect/.test(error.message) &&
        pool.totalCount >= size
      ) {
        // Every connection was in use for the whole wait: overloaded, not down (one line a minute).
        if (Date.now() - busySince > 60_000) {
          busySince = Date.now();
          dbLog.error(
            `all ${size} PostgreSQL connections stayed busy for the whole wait: answering 503 (raise DATABASE_POOL_SIZE or add capacity)`,
          );
        }
        throw databaseUnavailable();
      }
      throw unavailable(error);
    }
    throw error;
  };
  return new Proxy(pool, {
    get(target, property, receiver) {
      if (property === "query") {
        return (...args: unknown[]) =>
          (target.query as (...a: unknown[]) => Promise<unknown>)(...args).then(answered, failed);
      }
      if (property === "connect") {
        return (...args: unknown[]) => {
          if (args.length > 0) return (target.connect as (...a: unknown[]) => unknown)(...args);
          return target.connect().then(answered, failed);
        };
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * The migrations of this version of the code: `drizzle/` at the top of the checkout, found from this
 * file's own place (the source, or the build in build/server), so the app and the commands work from
 * any working directory; the working directory's `drizzle/` when neither is there.
 */
export const migrationsFolder = findMigrationsFolder();

function findMigrationsFolder(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (fs.existsSync(path.join(dir, "drizzle", "meta", "_journal.json"))) return path.join(dir, "drizzle");
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve(process.cwd(), "drizzle");
    dir = parent;
  }
}

// Any fixed number shared by every instance of the app serialises concurrent start-ups.
const MIGRATION_LOCK = 7_290_412;

/** The oldest PostgreSQL the app supports (tested on Debian's 15 and the embedded 18). */
export const OLDEST_POSTGRES = 14;

/**
 * Connections beyond the app processes' pools: `npm run reminders` (a pool of 4) and one of the
 * operator's commands (`npm run migrate`, `npm run admin`) at a time.
 */
export const CONNECTION_MARGIN = 5;

/** How many connections one instance of the app may open: a pool per app process, and the margin. */
export function connectionsNeeded(budget: { poolSize: number; processes: number }): number {
  return budget.poolSize * budget.processes + CONNECTION_MARGIN;
}

export interface ServerCheck {
  /** An error stops the start (the app would misbehave); a warning is logged and the start goes on. */
  level: "error" | "warn" | "info";
  message: string;
}

interface ServerFacts {
  version: number;
  versionText: string;
  database: string;
  encoding: string;
  collate: string;
  ctype: string;
  /** The locale that folds case, with its provider: `libc C.UTF-8`, `builtin C.UTF-8`, `icu nb-NO`. */
  locale: string;
  foldsCase: boolean;
  maxConnections: number;
  reserved: number;
}

const PROVIDERS: Record<string, string> = { c: "libc", i: "icu", b: "builtin" };

type Queryable = Pick<pg.ClientBase, "query">;

async function serverFacts(client: Queryable): Promise<ServerFacts> {
  // What any role may read: no superuser, no pg_monitor. reserved_connections exists from 16 on;
  // pg_database's locale columns differ by version, so the row is read as JSON.
  const { rows } = await client.query(`
    select current_setting('server_version_num')::int as version,
           current_setting('server_version') as "versionText",
           current_database() as database,
           pg_encoding_to_char(d.encoding) as encoding,
           d.datcollate as collate,
           d.datctype as ctype,
           (lower('ÆØÅ') = 'æøå' and upper('æøå') = 'ÆØÅ') as "foldsCase",
           current_setting('max_connections')::int as "maxConnections",
           current_setting('superuser_reserved_connections')::int
             + coalesce(nullif(current_setting('reserved_connections', true), ''), '0')::int as reserved,
           to_jsonb(d) as row
    from pg_database d where d.datname = current_database()`);
  const { row, ...facts } = rows[0] as Omit<ServerFacts, "locale"> & { row?: Record<string, unknown> };
  const text = (value: unknown) => (typeof value === "string" ? value : undefined);
  const provider = PROVIDERS[text(row?.datlocprovider) ?? "c"] ?? "libc";
  const own = provider === "libc" ? facts.ctype : (text(row?.datlocale) ?? text(row?.daticulocale) ?? facts.ctype);
  return { ...facts, locale: `${provider} ${own}` };
}

/**
 * What the app needs of the PostgreSQL it is given, checked before it migrates: a version it
 * supports, a database whose locale folds Norwegian letters (in the C locale lower('Ø') stays 'Ø',
 * so searches and e-mail addresses would not ignore case), and, when `budget` says how many
 * connections this instance may open, room for them under max_connections.
 */
export async function checkServer(
  client: Queryable,
  budget?: { poolSize: number; processes: number },
): Promise<ServerCheck[]> {
  const facts = await serverFacts(client);
  const checks: ServerCheck[] = [];
  const major = Math.floor(facts.version / 10_000);
  if (major < OLDEST_POSTGRES) {
    checks.push({
      level: "error",
      message: `PostgreSQL ${facts.versionText} is older than Praksis supports (${OLDEST_POSTGRES} or newer; tested on 15 and 18): upgrade the server, or point DATABASE_URL at a newer one`,
    });
  }
  if (facts.encoding !== "UTF8" || !facts.foldsCase) {
    const libc = facts.ctype === facts.collate ? facts.ctype : `${facts.collate}/${facts.ctype}`;
    const what =
      facts.encoding !== "UTF8"
        ? `the encoding ${facts.encoding}`
        : `the locale ${facts.locale.startsWith("libc ") ? libc : facts.locale}`;
    checks.push({
      level: "error",
      message:
        `the database ${facts.database} has ${what}, in which lower('Ø') is not 'ø': searches and e-mail addresses would not ignore case in Norwegian. ` +
        `Create the database with ENCODING 'UTF8' LOCALE 'C.UTF-8' (or 'nb_NO.UTF-8') TEMPLATE template0 and restore into it (README: "The institution's PostgreSQL")`,
    });
  }
  if (budget) {
    const needed = connectionsNeeded(budget);
    const available = facts.maxConnections - facts.reserved;
    // "pools of N", not "N app processes": server.mjs's own start-up line says that.
    const how = `${budget.processes} pool${budget.processes === 1 ? "" : "s"} of DATABASE_POOL_SIZE ${budget.poolSize}, one per app process, + ${CONNECTION_MARGIN} for npm run reminders and the commands`;
    const room = `max_connections ${facts.maxConnections} − ${facts.reserved} reserved`;
    if (needed > available) {
      checks.push({
        level: "warn",
        message:
          `this instance may open up to ${needed} connections to PostgreSQL (${how}), but the server allows ${available} (${room}): ` +
          `under load requests will wait and answer 503. Lower DATABASE_POOL_SIZE or WEB_CONCURRENCY, or raise max_connections (each instance needs as many)`,
      });
    } else {
      checks.push({
        level: "info",
        message: `PostgreSQL ${facts.versionText}, database ${facts.database} (${facts.encoding}, ${facts.locale}): this instance may open up to ${needed} of its ${available} connections (${how}; ${room})`,
      });
    }
  }
  return checks;
}

export interface MigrationEntry {
  tag: string;
  /** drizzle's key of a migration: the journal's `when`, kept as created_at in drizzle.__drizzle_migrations. */
  when: number;
}

/** The migrations this version of the code knows, oldest first (drizzle/meta/_journal.json). */
export function knownMigrations(folder = migrationsFolder): MigrationEntry[] {
  const journal = JSON.parse(fs.readFileSync(path.join(folder, "meta/_journal.json"), "utf8")) as {
    entries: MigrationEntry[];
  };
  return journal.entries.map(({ tag, when }) => ({ tag, when }));
}

export interface MigrationPlan {
  /** To be applied, oldest first: those newer than the newest applied (drizzle's own rule). */
  pending: MigrationEntry[];
  /** Applied to the database but unknown to this code: the schema is newer than the code. */
  unknown: Date[];
}

export async function migrationPlan(client: Queryable, folder = migrationsFolder): Promise<MigrationPlan> {
  const known = knownMigrations(folder);
  const { rows: table } = await client.query(
    "select to_regclass('drizzle.__drizzle_migrations') is not null as present",
  );
  const applied = (table[0] as { present: boolean }).present
    ? (await client.query("select created_at from drizzle.__drizzle_migrations order by created_at")).rows.map(
        (r: { created_at: string | number }) => Number(r.created_at),
      )
    : [];
  const last = applied.length > 0 ? Math.max(...applied) : -Infinity;
  const knownWhen = new Set(known.map((m) => m.when));
  return {
    pending: known.filter((m) => m.when > last),
    unknown: applied.filter((when) => !knownWhen.has(when)).map((when) => new Date(when)),
  };
}

/** Stops the start: the message names what is wrong and what to do (the server prints it as it is). */
export class DatabaseStartError extends EnvError {}

function newerSchema(plan: MigrationPlan): DatabaseStartError {
  const dates = plan.unknown.map((d) => d.toISOString().slice(0, 10)).join(", ");
  return new DatabaseStartError(
    `The database's schema is newer than this version of Praksis: it holds ${plan.unknown.length} migration${plan.unknown.length === 1 ? "" : "s"} ` +
      `that drizzle/ here does not know (made ${dates}). Run the version of Praksis that migrated it (or a newer one), or restore the backup taken before that upgrade.`,
  );
}

export interface OpenOptions {
  url: string;
  kind?: Database["kind"];
  poolSize?: number;
  /** Sees every statement; the tests count queries with it. */
  logger?: Logger;
  /**
   * `apply` (the default) brings the schema up to date; `verify` changes nothing and stops when a
   * migration is pending (MIGRATE_ON_START=false: the operator runs `npm run migrate`).
   */
  migrations?: "apply" | "verify";
  /** Check the server (version, locale) before migrating; with `budget`, its connections too. */
  check?: { budget?: { poolSize: number; processes: number }; report?: boolean };
  /** Where the checks and the migrations applied are said: the app's log (`db`) unless given. */
  log?: Record<"info" | "warn" | "error", (message: string) => void>;
}

/**
 * Opens a node-postgres pool on `url`, checks the server when asked, and brings the schema up to
 * date (under an advisory lock, so app processes starting together migrate once), logging each
 * migration applied by name. The one way the app reaches its database: the embedded server
 * (ADR 0013) and a PostgreSQL of one's own alike.
 */
export async function openDatabase(options: OpenOptions): Promise<Database & { applied: string[] }> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 5_000,
  });
  // A client that loses its server must not crash the process: an idle one is reported to the
  // pool (which replaces it), a checked-out one to the client itself (its query fails as well).
  pool.on("error", (error) => dbLog.error(`idle client error: ${error.message}`));
  pool.on("connect", (client) => client.on("error", (error) => dbLog.error(`client error: ${error.message}`)));
  const db = drizzlePg({ client: guardedPool(pool, options.poolSize ?? 10), schema, logger: options.logger });
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  const log: Record<"info" | "warn" | "error", (message: string) => void> = options.log ?? dbLog;
  const applied: string[] = [];
  let locked = false;
  let failure: unknown;
  try {
    if (options.check) {
      const checks = await checkServer(client, options.check.budget);
      const errors = checks.filter((c) => c.level === "error");
      if (errors.length > 0) throw new DatabaseStartError(errors.map((c) => c.message).join("\n"));
      if (options.check.report !== false) for (const c of checks) log[c.level](c.message);
    }
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
    locked = true;
    const plan = await migrationPlan(client);
    if (plan.unknown.length > 0) throw newerSchema(plan);
    if (plan.pending.length > 0) {
      if (options.migrations === "verify") {
        throw new DatabaseStartError(
          `The database's schema is behind this version of Praksis: ${plan.pending.length} migration${plan.pending.length === 1 ? "" : "s"} not applied ` +
            `(${plan.pending.map((m) => m.tag).join(", ")}), and MIGRATE_ON_START=false leaves them to you: run \`npm run migrate\`, then start the app again`,
        );
      }
      await migratePg(drizzlePg({ client, schema }), { migrationsFolder });
      // drizzle applies them in one transaction: each is named once it is committed.
      for (const migration of plan.pending) {
        log.info(`migration ${migration.tag} applied`);
        applied.push(migration.tag);
      }
    }
  } catch (error) {
    failure = error;
  } finally {
    if (locked) await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
    client.release();
  }
  if (failure !== undefined) {
    await pool.end().catch(() => {});
    throw failure as Error;
  }
  return { db: db as unknown as Db, kind: options.kind ?? "external", close: () => pool.end(), applied };
}

/** Which migrations of `drizzle/` the schema has (drizzle keeps them in drizzle.__drizzle_migrations). */
export async function migrationStatus(db: Db): Promise<{ applied: number; latest: string | null; pending: number }> {
  const result = await db.execute<{ created_at: string | number }>(
    sql`select created_at from drizzle.__drizzle_migrations order by created_at`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: { created_at: string | number }[] }).rows) as {
    created_at: string | number;
  }[];
  const applied = new Set(rows.map((r) => Number(r.created_at)));
  let entries: { when: number; tag: string }[] = [];
  try {
    entries = (
      JSON.parse(fs.readFileSync(path.join(migrationsFolder, "meta/_journal.json"), "utf8")) as {
        entries: { when: number; tag: string }[];
      }
    ).entries;
  } catch {
    // no journal next to the app: counts only
  }
  const known = entries.filter((e) => applied.has(e.when));
  return {
    applied: applied.size,
    latest: known.at(-1)?.tag ?? null,
    pending: entries.filter((e) => !applied.has(e.when)).length,
  };
}

/** How many rows an insert, update or delete touched (node-postgres's rowCount). */
export function rowsAffected(result: unknown): number {
  return (result as { rowCount?: number | null }).rowCount ?? 0;
}

export async function ping(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
