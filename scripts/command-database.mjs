// The database an operator's command (`npm run admin`, `npm run migrate`) works on: DATABASE_URL when
// set; else the embedded PostgreSQL in DATA_DIR/postgres, the one a running `npm start` looks after,
// reached like `npm run reminders` does (its postmaster.pid and the credentials file); and when no
// app runs it, started for the command alone and stopped after it (a fresh DATA_DIR gets its cluster).
import fs from "node:fs";
import { register } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = path.resolve(import.meta.dirname, "..");

/** The port of the server running on `clusterDir` (its postmaster.pid names a live process), or null. */
export function runningPort(clusterDir) {
  let lines;
  try {
    lines = fs.readFileSync(path.join(clusterDir, "postmaster.pid"), "utf8").split("\n");
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port)) return null;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: alive, but another user's (the server runs as `nobody` when the app runs as root).
    if (error?.code !== "EPERM") return null;
  }
  try {
    if (!fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("postgres")) return null;
  } catch {
    // no /proc (macOS): the pid file is trusted, as pg_ctl does
  }
  return port;
}

/**
 * Sets DATABASE_URL (and EMBEDDED_DATABASE, DATA_DIR) for the app's code the command runs; returns
 * what to call when the command is done (stops a server started here).
 * @param {{ name: string }} options the command's name, for its lines
 * @returns {Promise<{ stop(): Promise<void> }>}
 */
export async function commandDatabase({ name }) {
  if (process.env.DATABASE_URL) return { async stop() {} };
  const dataDir = path.resolve(process.env.DATA_DIR || path.join(root, "data"));
  process.env.DATA_DIR = dataDir;
  process.env.EMBEDDED_DATABASE = "true";
  const clusterDir = path.join(dataDir, "postgres");
  const credentialsFile = path.join(dataDir, "postgres-credentials.json");
  const port = runningPort(clusterDir);
  if (port !== null && fs.existsSync(credentialsFile)) {
    const { user, password } = JSON.parse(fs.readFileSync(credentialsFile, "utf8"));
    process.env.DATABASE_URL = `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/praksis`;
    return { async stop() {} };
  }
  console.info(`[${name}] no app runs the embedded PostgreSQL in ${clusterDir}: starting it for this command`);
  const server = await startForCommand(name, clusterDir);
  process.env.DATABASE_URL = server.url;
  return {
    async stop() {
      await server.stop();
    },
  };
}

/**
 * The app's production build (`npm run build`), to be loaded as server.mjs loads it once the
 * database is set: a command never builds (that needs the devDependencies), so without a build it
 * says so and ends here, before anything is started.
 * @returns {() => Promise<any>} loads the build and gives its server entry
 */
export function productionBuild({ name }) {
  const serverBuild = path.join(path.resolve(process.env.BUILD_DIR ?? path.join(root, "build")), "server/index.js");
  if (!fs.existsSync(serverBuild)) {
    console.error(
      `[${name}] no build at ${serverBuild}: run \`npm run build\` first (it is part of installing a new version)`,
    );
    process.exit(1);
  }
  return async () => {
    register("./react-router-production.mjs", import.meta.url);
    const build = await import(pathToFileURL(serverBuild).href);
    return build.entry.module;
  };
}

/**
 * Starts the embedded PostgreSQL in `clusterDir` for a command (a new cluster in a new folder), its
 * lines under the command's name; when it cannot start, says why in one line and exits 1.
 * @param {string} name the command's name, for its lines
 * @param {string} clusterDir
 */
export async function startForCommand(name, clusterDir) {
  const { startEmbeddedPostgres } = await import("./embedded-postgres.mjs");
  const say = (line) => console.info(`[${name}] ${line.replace(/^\[db\] /, "")}`);
  try {
    return await startEmbeddedPostgres({
      dataDir: clusterDir,
      restart: false,
      log: { info: say, warn: say, error: say },
    });
  } catch (error) {
    console.error(
      `[${name}] the embedded PostgreSQL could not start: ${error instanceof Error ? error.message.replace(/^\[db\] /, "") : error}`,
    );
    process.exit(1);
  }
}
