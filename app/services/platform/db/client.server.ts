import { AsyncLocalStorage } from "node:async_hooks";
import fs from "node:fs";
import path from "node:path";
import { DrizzleQueryError, sql, type Logger } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { PgPreparedQuery, type PgDatabase, type PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
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
const CONNECTION_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ENOENT", "ENOTFOUND", "EHOSTUNREACH", "ETIMEDOUT", "EPIPE", "57P01", "57P02", "57P03", "08000", "08001", "08003", "08006"]);

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
    dbLog.error(`PostgreSQL is unavailable: ${error instanceof Error ? error.message : String(error)}; answering 503 until it returns`);
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
const preparedQuery = PgPreparedQuery.prototype as unknown as { queryWithCache: QueryWithCache; unwrapsUnavailable?: boolean };
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
      if (error instanceof Error && /timeout exceeded when trying to connect/.test(error.message) && pool.totalCount >= size) {
        // Every connection was in use for the whole wait: overloaded, not down (one line a minute).
        if (Date.now() - busySince > 60_000) {
          busySince = Date.now();
          dbLog.error(`all ${size} PostgreSQL connections stayed busy for the whole wait: answering 503 (raise DATABASE_POOL_SIZE or add capacity)`);
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
        return (...args: unknown[]) => (target.query as (...a: unknown[]) => Promise<unknown>)(...args).then(answered, failed);
      }
      if (property === "connect") {
        return (...args: unknown[]) => {
          if (args.length > 0) return (target.connect as (...a: unknown[]) => unknown)(...args);
          return target.connect().then(answered, failed);
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

export const migrationsFolder = path.resolve(process.cwd(), "drizzle");

// Any fixed number shared by every instance of the app serialises concurrent start-ups.
const MIGRATION_LOCK = 7_290_412;

/**
 * Opens a node-postgres pool on `url` and brings the schema up to date (under an advisory lock, so
 * app processes starting together migrate once). The one way the app reaches its database: the
 * embedded server (ADR 0013) and a PostgreSQL of one's own alike.
 */
export async function openDatabase(options: {
  url: string;
  kind?: Database["kind"];
  poolSize?: number;
  /** Sees every statement; the tests count queries with it. */
  logger?: Logger;
}): Promise<Database> {
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
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await migratePg(drizzlePg({ client, schema }), { migrationsFolder });
  } finally {
    await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
    client.release();
  }
  return { db: db as unknown as Db, kind: options.kind ?? "external", close: () => pool.end() };
}

/** Which migrations of `drizzle/` the schema has (drizzle keeps them in drizzle.__drizzle_migrations). */
export async function migrationStatus(db: Db): Promise<{ applied: number; latest: string | null; pending: number }> {
  const result = await db.execute<{ created_at: string | number }>(sql`select created_at from drizzle.__drizzle_migrations order by created_at`);
  const rows = (Array.isArray(result) ? result : (result as { rows: { created_at: string | number }[] }).rows) as { created_at: string | number }[];
  const applied = new Set(rows.map((r) => Number(r.created_at)));
  let entries: { when: number; tag: string }[] = [];
  try {
    entries = (JSON.parse(fs.readFileSync(path.join(migrationsFolder, "meta/_journal.json"), "utf8")) as { entries: { when: number; tag: string }[] }).entries;
  } catch {
    // no journal next to the app: counts only
  }
  const known = entries.filter((e) => applied.has(e.when));
  return { applied: applied.size, latest: known.at(-1)?.tag ?? null, pending: entries.filter((e) => !applied.has(e.when)).length };
}

export async function ping(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
