import { expect, test } from "vitest";
import { openTestDatabase } from "./db";

test("test databases are PostgreSQL when TEST_DATABASE_URL is set, PGlite otherwise", async () => {
  const database = await openTestDatabase();
  try {
    expect(database.kind).toBe(process.env.TEST_DATABASE_URL ? "postgres" : "pglite");
  } finally {
    await database.close();
  }
});
