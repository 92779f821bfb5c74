// Demo mode (README, Configuration): the demo seed, the "Demo" banner and the public /dev/outbox.
// The app itself turns it on only when DEMO_MODE (or the older SEED_DEMO) says so
// (app/services/platform/env.server.ts). This is the default the launchers (`npm start`:
// server.mjs, `npm run dev`: scripts/dev.mjs) fill in when neither is set: on only for an embedded
// database that was started fresh as the demo, never with a DATABASE_URL or SMTP_URL of one's own.
import fs from "node:fs";
import path from "node:path";

/** The file in DATA_DIR that marks an embedded database started as the demo. */
export const DEMO_MARKER = "demo-mode";

/** "true"/"1" → true, "false"/"0" → false, unset or empty → undefined; anything else is left to the app's check. */
function flag(value) {
  if (value === undefined || value === "") return undefined;
  if (value === "true" || value === "1") return true;
  if (value === "false" || value === "0") return false;
  return "invalid";
}

/**
 * The rule, without side effects. `databaseUrl`: DATABASE_URL as the operator set it (before the
 * launcher sets the embedded server's); `freshDatabase`: the embedded cluster was created just now;
 * `demoDatabase`: DATA_DIR carries the marker of a database started as the demo.
 * Returns the value to hand the app (`set`: undefined when the operator's own setting stands),
 * whether demo mode is on, and what to do with the marker.
 * @param {{ DEMO_MODE?: string, SEED_DEMO?: string, databaseUrl?: string, SMTP_URL?: string, freshDatabase: boolean, demoDatabase: boolean }} input
 * @returns {{ on: boolean | undefined, set: "true" | "false" | undefined, marker: "write" | "remove" | "keep", why: string }}
 */
export function demoModeRule(input) {
  const asked = flag(input.DEMO_MODE) ?? flag(input.SEED_DEMO);
  if (asked === "invalid")
    return { on: undefined, set: undefined, marker: "keep", why: "a wrong value (the app says which)" };
  // Switched off: stays off, also when the variable is later dropped; the data is kept.
  if (asked === false) return { on: false, set: undefined, marker: "remove", why: "switched off" };
  if (asked === true) return { on: true, set: undefined, marker: "keep", why: "asked for" };
  if (input.databaseUrl) return { on: false, set: "false", marker: "keep", why: "DATABASE_URL is set" };
  if (input.SMTP_URL) return { on: false, set: "false", marker: "keep", why: "SMTP_URL is set" };
  if (input.freshDatabase) return { on: true, set: "true", marker: "write", why: "a fresh embedded database" };
  if (input.demoDatabase)
    return { on: true, set: "true", marker: "keep", why: "the embedded database started as the demo" };
  return {
    on: false,
    set: "false",
    marker: "keep",
    why: "this embedded database is not marked as the demo: it was not created as one, or demo mode was switched off",
  };
}

/**
 * Applies the rule at start-up: fills in DEMO_MODE for the app processes when the operator did not
 * set it, keeps the marker, and says in the log what demo mode means while it is on.
 * @param {{ env?: NodeJS.ProcessEnv, dataDir: string, databaseUrl?: string, freshDatabase: boolean, log?: Pick<Console, "info" | "warn"> }} options
 */
export function applyDemoMode({ env = process.env, dataDir, databaseUrl, freshDatabase, log = console }) {
  const marker = path.join(dataDir, DEMO_MARKER);
  const decision = demoModeRule({
    DEMO_MODE: env.DEMO_MODE,
    SEED_DEMO: env.SEED_DEMO,
    databaseUrl,
    SMTP_URL: env.SMTP_URL,
    freshDatabase,
    demoDatabase: fs.existsSync(marker),
  });
  if (decision.set) env.DEMO_MODE = decision.set;
  if (decision.marker === "write") {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(
      marker,
      "This embedded database was started as the demo (README: DEMO_MODE). DEMO_MODE=false switches demo mode off for good; the data is kept.\n",
    );
  } else if (decision.marker === "remove") {
    fs.rmSync(marker, { force: true });
  }
  if (decision.on) {
    log.warn(
      // Codes are public at /dev/outbox only when mail goes to the demo's outbox (no SMTP_URL, no MAIL_TRANSPORT=log).
      env.SMTP_URL || env.MAIL_TRANSPORT === "log"
        ? `[demo] Demo mode is on (${decision.why}): the demo is seeded into an empty database and every page shows a "Demo" banner. Set DEMO_MODE=false for real use (the data is kept).`
        : `[demo] Demo mode is on (${decision.why}): log-in codes are public at /dev/outbox, the demo is seeded into an empty database and every page shows a "Demo" banner. Set DEMO_MODE=false for real use (the data is kept).`,
    );
  } else if (decision.on === false && !databaseUrl && !env.SMTP_URL && decision.why !== "switched off") {
    log.info(`[demo] Demo mode is off (${decision.why}); DEMO_MODE=true turns it on.`);
  }
  return decision;
}
