import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { seedDemo } from "~/services/demo/index.server";
import * as schema from "~/services/platform/db/schema";
import { openTestDatabase } from "~/test/db";
import { carryOverPglite, hasPgliteData } from "./carry-over-pglite.mjs";

// Until ADR 0013 the embedded database was PGlite in ./data/pglite: its data must reach the new
// embedded PostgreSQL whole, once.
let dir: string;
let pgliteDir: string;
const counts = new Map<string, number>();

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "praksis-carry-"));
  pgliteDir = path.join(dir, "pglite");
  const client = await PGlite.create(pgliteDir);
  const db = drizzle({ client, schema });
  await migrate(db, { migrationsFolder: path.resolve("drizzle") });
  await seedDemo(db);
  const { rows } = await client.query<{ tablename: string }>(
    "select tablename from pg_tables where schemaname = 'public'",
  );
  for (const { tablename } of rows) {
    const [{ n }] = (await client.query<{ n: number }>(`select count(*)::int as n from "${tablename}"`)).rows;
    counts.set(tablename, n);
  }
  await client.close();
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

test("every row of every table is carried over, ids continue after the copied ones, and the PGlite folder is kept under a new name", async () => {
  vi.spyOn(console, "info").mockImplementation(() => {});
  expect(hasPgliteData(pgliteDir)).toBe(true);
  const target = await openTestDatabase();
  try {
    // openTestDatabase's copy is migrated; the carry-over starts from an empty database like a new cluster's.
    const result = await carryOverPglite({ pgliteDir, url: target.url, log: { info() {} } });
    expect(result).toMatchObject({ rows: [...counts.values()].reduce((a, b) => a + b, 0) });
    expect(counts.get("users")).toBeGreaterThan(30);
    for (const [table, n] of counts) {
      const rows = await target.db.execute(sql.raw(`select count(*)::int as n from "${table}"`));
      expect([table, (rows as { rows: { n: number }[] }).rows[0].n]).toEqual([table, n]);
    }
    const [before] = (
      (await target.db.execute(sql`select max(id)::int as id from users`)) as unknown as { rows: { id: number }[] }
    ).rows;
    const [made] = await target.db
      .insert(schema.users)
      .values({ displayName: "Ny Bruker", email: "ny@example.org" })
      .returning({ id: schema.users.id });
    expect(made.id).toBeGreaterThan(before.id);
    expect(hasPgliteData(pgliteDir)).toBe(false);
    expect("movedTo" in result && fs.existsSync(path.join(result.movedTo, "PG_VERSION"))).toBe(true);
  } finally {
    await target.close();
  }
});

test("a PostgreSQL database that already has users is left alone, and so is the PGlite folder", async () => {
  const again = fs.readdirSync(dir).find((name) => name.startsWith("pglite-carried-over-"))!;
  const source = path.join(dir, again);
  const target = await openTestDatabase();
  try {
    await seedDemo(target.db);
    const result = await carryOverPglite({ pgliteDir: source, url: target.url, log: { info() {} } });
    expect(result).toEqual({ skipped: expect.stringMatching(/already has \d+ users/) });
    expect(hasPgliteData(source)).toBe(true);
  } finally {
    await target.close();
  }
});
