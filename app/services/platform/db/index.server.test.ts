import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterEach, expect, test, vi } from "vitest";
import { dropDatabase } from "~/test/db";
import { resetEnvForTests } from "~/services/platform/env.server";

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
  resetEnvForTests();
  vi.resetModules();
});

test("without DATABASE_URL the app refuses to start and says how to get a database", async () => {
  delete process.env.DATABASE_URL;
  const { getDatabase } = await import("./index.server");
  await expect(getDatabase()).rejects.toThrow(/DATABASE_URL: not set\. Start the app with `npm start`/);
});

test("on the embedded database in demo mode (as the launcher sets it) the app migrates and, through the entry's hook, seeds the demo", async () => {
  const pg = (await import("pg")).default;
  const server = process.env.TEST_DATABASE_URL!;
  const name = `praksis_embedded_${Date.now()}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "praksis-db-"));
  // In demo mode, as `npm start` sets it for a fresh embedded database (scripts/demo-mode.mjs).
  Object.assign(process.env, {
    DATABASE_URL: url.toString(),
    EMBEDDED_DATABASE: "true",
    DATA_DIR: dir,
    DEMO_MODE: "true",
  });
  delete process.env.SESSION_SECRET;
  delete process.env.SEED_DEMO;
  vi.spyOn(console, "info").mockImplementation(() => {});
  // The app's server entry hands the demo seed to the database start-up (platform knows no domain).
  await import("~/entry.server");
  const { getDatabase } = await import("./index.server");
  const database = await getDatabase();
  try {
    expect(database.kind).toBe("embedded");
    const rows = await database.db.execute(sql`select count(*)::int as n from users`);
    expect(Number((rows as { rows: { n: number }[] }).rows[0].n)).toBeGreaterThan(30);
  } finally {
    await database.close();
    await dropDatabase(admin, name);
    await admin.end();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("with DATABASE_URL of one's own the app uses a node-postgres pool on that server, migrates it and seeds nothing", async () => {
  const pg = (await import("pg")).default;
  const server = process.env.TEST_DATABASE_URL!;
  const name = `praksis_env_${Date.now()}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
  process.env.SESSION_SECRET = "x".repeat(40);
  process.env.SEED_DEMO = "false";
  vi.spyOn(console, "info").mockImplementation(() => {});
  const { getDatabase } = await import("./index.server");
  const database = await getDatabase();
  try {
    expect(database.kind).toBe("external");
    const roles = await database.db.execute(sql`select name from roles order by id`);
    expect((roles as { rows: { name: string }[] }).rows.map((r) => r.name)).toEqual([
      "Admin",
      "Student",
      "Teacher",
      "Advisor",
    ]);
    const users = await database.db.execute(sql`select count(*)::int as n from users`);
    expect(Number((users as { rows: { n: number }[] }).rows[0].n)).toBe(0);
  } finally {
    await database.close();
    await dropDatabase(admin, name);
    await admin.end();
  }
});

test("MIGRATE_ON_START=false: the app does not migrate, it stops naming `npm run migrate` while the schema is behind, and starts once migrateDatabase (npm run migrate) has run", async () => {
  const pg = (await import("pg")).default;
  const server = process.env.TEST_DATABASE_URL!;
  const name = `praksis_migrate_${Date.now()}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  Object.assign(process.env, {
    DATABASE_URL: url.toString(),
    SESSION_SECRET: "x".repeat(40),
    SEED_DEMO: "false",
    MIGRATE_ON_START: "false",
  });
  const { getDatabase, migrateDatabase } = await import("./index.server");
  try {
    await expect(getDatabase()).rejects.toThrow(
      /schema is behind this version of Praksis: \d+ migrations not applied \(0000_init, .*MIGRATE_ON_START=false leaves them to you: run `npm run migrate`/,
    );
    const applied = await migrateDatabase();
    expect(applied[0]).toBe("0000_init");
    expect(await migrateDatabase()).toEqual([]);
    const database = await getDatabase();
    const users = await database.db.execute(sql`select count(*)::int as n from users`);
    expect(Number((users as { rows: { n: number }[] }).rows[0].n)).toBe(0);
    await database.close();
  } finally {
    await dropDatabase(admin, name);
    await admin.end();
  }
});
