// `npm run admin -- add EMAIL "NAME" | list | remove EMAIL`: the administrators, from the command line
// (the first one of a new installation above all). Through the production build, so it needs no
// devDependencies; on DATABASE_URL, or on the embedded PostgreSQL whether or not the app runs
// (scripts/command-database.mjs). Idempotent and audited (app/services/admin/administrators.server.ts).
// Exit code 0: done or nothing to do; 1: refused (the last administrator, an unknown address) or failed;
// 2: not understood.
import { commandDatabase, productionBuild } from "./command-database.mjs";

// A command never seeds the demo. Its answer is its output: the app's log (the database's checks,
// migrations applied on a fresh database) only when something is wrong, unless LOG_LEVEL says more.
process.env.DEMO_MODE = "false";
process.env.SEED_DEMO = "false";
process.env.NODE_ENV ??= "production";
process.env.LOG_FORMAT ??= "pretty";
process.env.LOG_LEVEL ??= "warn";
process.env.DATABASE_POOL_SIZE ??= "2";

const loadBuild = productionBuild({ name: "admin" });
const database = await commandDatabase({ name: "admin" });
let exitCode = 1;
let entry = null;
try {
  entry = await loadBuild();
  const result = await entry.runAdminCommand(process.argv.slice(2));
  for (const line of result.lines) (result.exitCode === 0 ? console.info : console.error)(line);
  exitCode = result.exitCode;
} catch (error) {
  console.error(`[admin] failed: ${error instanceof Error ? error.message : error}`);
} finally {
  await entry?.closeDatabase();
  await database.stop();
}
process.exit(exitCode);
