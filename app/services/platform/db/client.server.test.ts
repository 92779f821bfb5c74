import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { dropDatabase, testServerUrl } from "~/test/db";
import {
  checkServer,
  connectionsNeeded,
  DatabaseStartError,
  knownMigrations,
  migrationsFolder,
  openDatabase,
} from "./client.server";

// The database start-up against the test run's PostgreSQL (the embedded 18): the server's checks,
// one log line per migration applied, a schema newer than the code, MIGRATE_ON_START=false.

let admin: pg.Client;
const made: string[] = [];

beforeAll(async () => {
  admin = new pg.Client({ connectionString: testServerUrl() });
  await admin.connect();
});

afterAll(async () => {
  for (const name of made) await dropDatabase(admin, name);
  await admin.end();
});

/** An empty database on the test server (not from the migrated template), as an operator makes one. */
async function emptyDatabase(options = ""): Promise<string> {
  const name = `praksis_start_${made.length}_${process.pid}`;
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name} ${options}`);
  made.push(name);
  const url = new URL(testServerUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

function lines() {
  const said: { level: string; message: string }[] = [];
  const log = {
    info: (message: string) => said.push({ level: "info", message }),
    warn: (message: string) => said.push({ level: "warn", message }),
    error: (message: string) => said.push({ level: "error", message }),
  };
  return { said, log };
}

describe("migrations", () => {
  test("each migration applied is one line with its name; a second start applies none", async () => {
    const url = await emptyDatabase();
    const first = lines();
    const database = await openDatabase({ url, poolSize: 1, log: first.log });
    await database.close();
    const tags = knownMigrations().map((m) => m.tag);
    expect(tags.length).toBeGreaterThanOrEqual(5);
    expect(database.applied).toEqual(tags);
    expect(first.said).toEqual(tags.map((tag) => ({ level: "info", message: `migration ${tag} applied` })));

    const second = lines();
    const again = await openDatabase({ url, poolSize: 1, log: second.log });
    await again.close();
    expect(again.applied).toEqual([]);
    expect(second.said).toEqual([]);
  });

  test("a schema newer than the code stops the start, saying so, and changes nothing", async () => {
    const url = await emptyDatabase();
    const database = await openDatabase({ url, poolSize: 1, log: lines().log });
    // What a newer version of the app would have left: a migration this code's drizzle/ does not know.
    const later = Date.UTC(2099, 0, 2);
    await database.db.execute(
      sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-a-newer-version', ${later})`,
    );
    await database.close();
    const error = await openDatabase({ url, poolSize: 1, log: lines().log }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseStartError);
    expect((error as Error).message).toMatch(
      /schema is newer than this version of Praksis: it holds 1 migration that drizzle\/ here does not know \(made 2099-01-02\)/,
    );
    expect((error as Error).name).toBe("EnvError");
  });

  test("verify (MIGRATE_ON_START=false) applies nothing and names npm run migrate while one is pending; passes once migrated", async () => {
    const url = await emptyDatabase();
    const error = await openDatabase({ url, poolSize: 1, migrations: "verify", log: lines().log }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DatabaseStartError);
    expect((error as Error).message).toContain("run `npm run migrate`");
    expect((error as Error).message).toContain(knownMigrations()[0].tag);
    const check = new pg.Client({ connectionString: url });
    await check.connect();
    const { rows } = await check.query("select to_regclass('public.users') as users");
    await check.end();
    expect(rows[0].users).toBeNull();

    await (await openDatabase({ url, poolSize: 1, log: lines().log })).close();
    const verified = await openDatabase({ url, poolSize: 1, migrations: "verify", log: lines().log });
    await verified.close();
    expect(verified.applied).toEqual([]);
  });

  test("the migrations are found from the code's own place, whatever the working directory", () => {
    expect(path.isAbsolute(migrationsFolder)).toBe(true);
    expect(fs.existsSync(path.join(migrationsFolder, "meta/_journal.json"))).toBe(true);
    expect(path.relative(path.resolve(import.meta.dirname, "../../../.."), migrationsFolder)).toBe("drizzle");
  });
});

describe("the server's checks", () => {
  test("the test run's PostgreSQL passes: supported, folds Norwegian letters; the connection budget is stated", async () => {
    const url = await emptyDatabase();
    const said = lines();
    const database = await openDatabase({
      url,
      poolSize: 1,
      log: said.log,
      check: { budget: { poolSize: 10, processes: 2 } },
    });
    await database.close();
    const checks = said.said.filter((l) => !l.message.startsWith("migration "));
    expect(checks).toHaveLength(1);
    expect(checks[0].level).toBe("info");
    expect(checks[0].message).toMatch(
      /^PostgreSQL 1\d\.\S+, database praksis_start_\d+_\d+ \(UTF8, builtin C\.UTF-8\): this instance may open up to 25 of its \d+ connections \(2 pools of DATABASE_POOL_SIZE 10, one per app process, \+ 5/,
    );
  });

  test("more connections than the server allows is a warning that says what to change", async () => {
    const client = new pg.Client({ connectionString: testServerUrl() });
    await client.connect();
    try {
      const { rows } = await client.query(
        "select current_setting('max_connections')::int as max, current_setting('superuser_reserved_connections')::int as reserved",
      );
      const available = rows[0].max - rows[0].reserved;
      const processes = Math.ceil(available / 10);
      const checks = await checkServer(client, { poolSize: 10, processes });
      expect(connectionsNeeded({ poolSize: 10, processes })).toBeGreaterThan(available);
      expect(checks).toEqual([
        {
          level: "warn",
          message: expect.stringContaining(
            `this instance may open up to ${10 * processes + 5} connections to PostgreSQL (${processes} pools of DATABASE_POOL_SIZE 10, one per app process, + 5 for npm run reminders and the commands), but the server allows ${available} (max_connections ${rows[0].max} − ${rows[0].reserved} reserved)`,
          ),
        },
      ]);
      expect(checks[0].message).toContain("Lower DATABASE_POOL_SIZE or WEB_CONCURRENCY, or raise max_connections");
    } finally {
      await client.end();
    }
  });

  test("a database in the C locale stops the start before anything is migrated: lower('Ø') is not 'ø' there", async () => {
    const url = await emptyDatabase("locale_provider libc locale 'C' template template0");
    const error = await openDatabase({ url, poolSize: 1, check: {}, log: lines().log }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseStartError);
    expect((error as Error).message).toMatch(
      /the database praksis_start_\d+_\d+ has the locale C, in which lower\('Ø'\) is not 'ø'/,
    );
    expect((error as Error).message).toContain("LOCALE 'C.UTF-8'");
    const check = new pg.Client({ connectionString: url });
    await check.connect();
    const { rows } = await check.query("select to_regclass('drizzle.__drizzle_migrations') as migrations");
    await check.end();
    expect(rows[0].migrations).toBeNull();
  });

  test("a server older than 14 is refused, naming its version", async () => {
    const facts = {
      version: 130_011,
      versionText: "13.11",
      database: "praksis",
      encoding: "UTF8",
      collate: "C.UTF-8",
      ctype: "C.UTF-8",
      foldsCase: true,
      maxConnections: 100,
      reserved: 3,
      row: { datlocprovider: "c" },
    };
    const checks = await checkServer({ query: async () => ({ rows: [facts] }) } as never);
    expect(checks).toEqual([
      {
        level: "error",
        message: expect.stringContaining("PostgreSQL 13.11 is older than Praksis supports (14 or newer"),
      },
    ]);
    const supported = await checkServer({
      query: async () => ({ rows: [{ ...facts, version: 140_000, versionText: "14.0" }] }),
    } as never);
    expect(supported).toEqual([]);
  });
});

test("a server that refuses one more connection (max_connections, or the role's limit: 53300) answers 503 like an outage, not 500", async () => {
  const role = `praksis_limited_${process.pid}`;
  await admin.query(`drop role if exists ${role}`);
  await admin.query(`create role ${role} login password 'limited-password' connection limit 1`);
  const url = new URL(await emptyDatabase(`owner ${role}`));
  url.username = role;
  url.password = "limited-password";
  const database = await openDatabase({ url: url.toString(), poolSize: 2, log: lines().log });
  const errors = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    // One connection held by a transaction; the pool's second is refused by the server.
    let release!: () => void;
    const held = database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await new Promise<void>((resolve) => (release = resolve));
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const refused = await database.db.execute(sql`select 1`).catch((e: unknown) => e);
    release();
    await held;
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).status).toBe(503);
    expect(errors.mock.calls.map((c) => c.join(" ")).join("\n")).toMatch(
      /PostgreSQL is unavailable: .*too many connections for role/,
    );
  } finally {
    await database.close();
    const name = url.pathname.slice(1);
    await dropDatabase(admin, name);
    made.splice(made.indexOf(name), 1);
    await admin.query(`drop role ${role}`);
  }
});
