import { sql } from "drizzle-orm";
import pg from "pg";
import { expect, test } from "vitest";
import { openTestDatabase } from "./db";

test("each test database is a PostgreSQL database of its own, copied from the migrated template, and dropped on close", async () => {
  const [a, b] = await Promise.all([openTestDatabase(), openTestDatabase()]);
  expect(a.url).not.toBe(b.url);
  const name = new URL(a.url).pathname.slice(1);
  try {
    const roles = await a.db.execute(sql`select name from roles order by id`);
    expect((roles as { rows: { name: string }[] }).rows.map((r) => r.name)).toEqual([
      "Admin",
      "Student",
      "Teacher",
      "Advisor",
    ]);
  } finally {
    await a.close();
    await b.close();
  }
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  const { rowCount } = await admin.query("select 1 from pg_database where datname = $1", [name]);
  await admin.end();
  expect(rowCount).toBe(0);
});
