// `npm run backup [FILE]`: an online, consistent backup of the app's database to one file (ADR 0023),
// while the app runs: DATABASE_URL's database, else the embedded PostgreSQL in DATA_DIR/postgres (the
// one a running `npm start` looks after; started for the command when no app runs). FILE defaults to
// DATA_DIR/backups/praksis-<UTC time>.backup.gz. Restore it with `npm run restore FILE`.
// Says in one line what it wrote; exit code 0, or 1 with the cause and what to do.
import path from "node:path";
import { formatBytes, writeBackup } from "./backup/index.mjs";
import { commandDatabase } from "./command-database.mjs";

const root = path.resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
if (args.some((a) => a.startsWith("-")) || args.length > 1) {
  console.error("[backup] usage: npm run backup [FILE]  (default: DATA_DIR/backups/praksis-<UTC time>.backup.gz)");
  process.exit(1);
}
const stamp = new Date()
  .toISOString()
  .replace(/[-:]/g, "")
  .replace(/\.\d+Z$/, "Z");
// A relative FILE is where the command was typed (npm runs scripts in the project's folder; INIT_CWD is where it was called).
const file = path.resolve(
  process.env.INIT_CWD ?? process.cwd(),
  args[0] ??
    path.join(path.resolve(process.env.DATA_DIR || path.join(root, "data")), "backups", `praksis-${stamp}.backup.gz`),
);

const database = await commandDatabase({ name: "backup" });
let exitCode = 1;
try {
  const { bytes, seconds, manifest } = await writeBackup({ databaseUrl: process.env.DATABASE_URL, file });
  console.info(
    `[backup] wrote ${file}: ${formatBytes(bytes)}, ${manifest.tables.length} tables, ${manifest.rows} rows, ${seconds.toFixed(1)} s (snapshot ${manifest.snapshotAt}, migration ${manifest.migration?.tag ?? "none"})`,
  );
  exitCode = 0;
} catch (error) {
  console.error(`[backup] failed, no backup written: ${error instanceof Error ? error.message : error}`);
} finally {
  await database.stop();
}
process.exit(exitCode);
