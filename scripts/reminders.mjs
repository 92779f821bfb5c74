// `npm run reminders`: one reminder run (docs/rules/reminders.md), for those who run it from cron instead of, or
// beside, the app's own interval (REMINDERS_INTERVAL_MINUTES). Safe to run while the app runs and on
// several machines at once: each reminder goes once (the reminder record's unique key).
// With DATABASE_URL it uses that database; without it, the embedded PostgreSQL that `npm start`
// runs in DATA_DIR/postgres (it must be running). It runs the build (`npm run build` first).
import fs from "node:fs";
import { register } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = path.resolve(import.meta.dirname, "..");
const buildDir = path.resolve(process.env.BUILD_DIR ?? path.join(root, "build"));
const serverBuild = path.join(buildDir, "server/index.js");

if (!process.env.DATABASE_URL) {
  const dataDir = path.resolve(process.env.DATA_DIR || path.join(root, "data"));
  const pidFile = path.join(dataDir, "postgres", "postmaster.pid");
  const credentialsFile = path.join(dataDir, "postgres-credentials.json");
  if (!fs.existsSync(pidFile) || !fs.existsSync(credentialsFile)) {
    console.error(
      `[reminders] no DATABASE_URL, and the embedded PostgreSQL in ${path.join(dataDir, "postgres")} is not running: start the app (npm start) or set DATABASE_URL`,
    );
    process.exit(1);
  }
  // postmaster.pid: the server's pid, data folder, start time, port, …
  const port = Number(fs.readFileSync(pidFile, "utf8").split("\n")[3]);
  const { user, password } = JSON.parse(fs.readFileSync(credentialsFile, "utf8"));
  process.env.DATABASE_URL = `postgres://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/praksis`;
  process.env.EMBEDDED_DATABASE = "true";
}
// A cron run never seeds the demo; the app does that.
process.env.SEED_DEMO = "false";
process.env.NODE_ENV ??= "production";
process.env.DATABASE_POOL_SIZE ??= "4";

// Like the server (server.mjs), a command never builds: a cron job on a service's production
// dependencies could not, and a build in the middle of the night is not what anyone asked for.
if (!fs.existsSync(serverBuild)) {
  console.error(`[reminders] no build in ${buildDir}: run \`npm run build\` first`);
  process.exit(1);
}
register("./react-router-production.mjs", import.meta.url);
const build = await import(pathToFileURL(serverBuild).href);
try {
  const summary = await build.entry.module.runRemindersOnce();
  console.info(
    `[reminders] due ${summary.due}; sent ${summary.sent}, failed ${summary.failed} (to be tried again), no longer due ${summary.dropped}`,
  );
  process.exit(summary.failed > 0 ? 2 : 0);
} catch (error) {
  console.error("[reminders] the run failed:", error instanceof Error ? error.message : error);
  process.exit(1);
}
