// `npm run restore FILE [--replace]`: a backup of `npm run backup` (ADR 0023) restored into an empty
// database: DATABASE_URL's (an external PostgreSQL: the way to move to one), else the embedded
// PostgreSQL in DATA_DIR/postgres (a new folder gets its cluster), which no app may be running.
// A database that holds data is refused unless --replace (then everything of the app's in it is
// dropped first). The file is verified (its checksum) before anything is changed, and the restore is
// one transaction: all of it, or nothing. Start the app on the database afterwards.
// Says in one line what it restored; exit code 0, or 1 with the cause and what to do.
import fs from "node:fs";
import path from "node:path";
import { readManifest, restoreBackup } from "./backup/index.mjs";
import { runningPort, startForCommand } from "./command-database.mjs";
import { DEMO_MARKER } from "./demo-mode.mjs";

const root = path.resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
const replace = args.includes("--replace");
const files = args.filter((a) => a !== "--replace");
if (files.length !== 1 || files[0].startsWith("-")) {
  console.error("[restore] usage: npm run restore FILE [--replace]");
  process.exit(1);
}
// A relative FILE is where the command was typed (npm runs scripts in the project's folder; INIT_CWD is where it was called).
const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), files[0]);
if (!fs.existsSync(file)) {
  console.error(`[restore] ${file}: no such file`);
  process.exit(1);
}

// The whole file is verified before anything is started or changed (a new data folder is not made for a damaged file).
let verified;
try {
  verified = await readManifest(file);
} catch (error) {
  console.error(`[restore] ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}

let databaseUrl = process.env.DATABASE_URL;
let into;
let server = null;
if (databaseUrl) {
  let where = "DATABASE_URL";
  try {
    const url = new URL(databaseUrl);
    where = `the database ${decodeURIComponent(url.pathname.slice(1))} on ${url.searchParams.get("host") ?? url.host}`;
  } catch {
    // not a URL pg can read either: its own error says so
  }
  into = where;
} else {
  const dataDir = path.resolve(process.env.DATA_DIR || path.join(root, "data"));
  const clusterDir = path.join(dataDir, "postgres");
  into = `the embedded PostgreSQL in ${clusterDir}`;
  if (runningPort(clusterDir) !== null) {
    console.error(
      `[restore] an app is running on ${into}: stop it first (Ctrl-C, or stop its service), then run the restore again`,
    );
    process.exit(1);
  }
  server = await startForCommand("restore", clusterDir);
  databaseUrl = server.url;
}

let exitCode = 1;
try {
  const { tables, rows, seconds, manifest } = await restoreBackup({ databaseUrl, file, replace, verified });
  // A school's data is not the demo: a folder that held the demo loses its marker (DEMO_MODE=true brings it back).
  const marker = server ? path.join(path.dirname(server.dataDir), DEMO_MARKER) : null;
  const wasDemo = marker !== null && fs.existsSync(marker);
  if (wasDemo) fs.rmSync(marker, { force: true });
  console.info(
    `[restore] restored ${file} into ${into}: ${tables} tables, ${rows} rows, ${seconds.toFixed(1)} s (snapshot ${manifest.snapshotAt}, migration ${manifest.migration?.tag ?? "none"}${replace ? "; what was there was replaced" : ""}${wasDemo ? "; demo mode is off for it" : ""})`,
  );
  exitCode = 0;
} catch (error) {
  console.error(`[restore] ${error instanceof Error ? error.message : error}`);
} finally {
  await server?.stop();
}
process.exit(exitCode);
