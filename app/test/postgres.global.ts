// Vitest's global setup: one throwaway PostgreSQL cluster for the whole run, from the same npm-shipped
// binaries as the app's embedded database (no system PostgreSQL needed), in a temp folder, removed
// at the end. Each test file gets a database of its own, copied from a migrated template
// (app/test/db.ts). TEST_DATABASE_URL set beforehand (a server of one's own) is used instead.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startEmbeddedPostgres } from "../../scripts/embedded-postgres.mjs";
import { migratedTemplate } from "./db";

export default async function setup(): Promise<() => Promise<void>> {
  if (process.env.TEST_DATABASE_URL) {
    await migratedTemplate(process.env.TEST_DATABASE_URL);
    return async () => {};
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "praksis-test-pg-"));
  fs.chmodSync(dir, 0o755);
  const server = await startEmbeddedPostgres({
    dataDir: path.join(dir, "data"),
    database: "postgres",
    durable: false,
    restart: false,
    maxConnections: 400,
  });
  const url = new URL(server.url);
  process.env.TEST_DATABASE_URL = url.toString();
  await migratedTemplate(url.toString());
  return async () => {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
