import { version } from "../../../package.json";
import { getDatabase } from "~/services/platform/db/index.server";
import { env } from "~/services/platform/env.server";
import { migrationStatus, ping } from "~/services/platform/db/client.server";
import { logFor } from "~/services/platform/log.server";
import { backupHealthNow } from "~/services/platform/backups.server";

const started = Date.now();

/**
 * What this instance is and how it runs: the app's version, demo mode, how mail goes (smtp, log,
 * outbox), and the nightly backups (whether they run, the last good one and its age in hours, the
 * last failure, and whether the latest attempt failed; no path nor message: those are in the log).
 */
function instance() {
  const config = env();
  const backups = backupHealthNow();
  return { version, demoMode: config.demoMode, mail: config.mailTransport, backups };
}

/**
 * For load balancers, monitoring and start-up scripts: 200 when the database answers, 503 when it
 * does not. Says what an operator needs and nothing secret (no address, user or password of the
 * database; the cause of a failure goes to the log): which database, whether it answers and how
 * fast, which migration the schema is at, how long this process has been up, the app's version,
 * demo mode, the mail transport and the nightly backups.
 */
export async function loader() {
  const headers = { "Cache-Control": "no-store" };
  const uptimeSeconds = Math.round((Date.now() - started) / 1000);
  // (A shutting-down instance's answer goes here, before the database is asked.)
  let kind: "embedded" | "external" | null = null;
  try {
    const database = await getDatabase();
    kind = database.kind;
    const began = performance.now();
    await ping(database.db);
    const latencyMs = Math.round((performance.now() - began) * 10) / 10;
    const migrations = await migrationStatus(database.db);
    return Response.json(
      { status: "ok", database: { kind, answering: true, latencyMs }, migrations, uptimeSeconds, ...instance() },
      { headers },
    );
  } catch (error) {
    logFor("healthz").error(
      `database not answering: ${error instanceof Error ? error.message : error instanceof Response ? `${error.status}` : String(error)}`,
    );
    return Response.json(
      {
        status: "unavailable",
        database: { kind, answering: false },
        uptimeSeconds,
        ...instance(),
        error: "database unavailable",
      },
      { status: 503, headers },
    );
  }
}
