// `npm run migrate`: the database's checks (version, locale) and the migrations in drizzle/, alone,
// then exit: for operators who start the app with MIGRATE_ON_START=false and migrate as a step of
// their own (before starting the new version). Each migration applied is one log line with its name;
// a schema newer than this code stops it with a message. Through the production build (no
// devDependencies); on DATABASE_URL or the embedded PostgreSQL (scripts/command-database.mjs).
// Exit code 0: the schema is current; 1: it is not (the message says why).
import { commandDatabase, productionBuild } from "./command-database.mjs";

process.env.DEMO_MODE = "false";
process.env.SEED_DEMO = "false";
process.env.NODE_ENV ??= "production";
process.env.LOG_FORMAT ??= "pretty";

const loadBuild = productionBuild({ name: "migrate" });
const database = await commandDatabase({ name: "migrate" });
let exitCode = 1;
try {
  const entry = await loadBuild();
  const applied = await entry.migrateDatabase();
  entry.log.info(
    { component: "migrate" },
    applied.length === 0
      ? "the schema is up to date: nothing to apply"
      : `${applied.length} migration${applied.length === 1 ? "" : "s"} applied: the schema is up to date`,
  );
  exitCode = 0;
} catch (error) {
  console.error(
    `[migrate] ${error instanceof Error && error.name === "EnvError" ? error.message : `failed: ${error instanceof Error ? error.message : error}`}`,
  );
} finally {
  await database.stop();
}
process.exit(exitCode);
