import { getDatabase } from "~/services/platform/db/index.server";
import { migrationStatus, ping } from "~/services/platform/db/client.server";
import { logFor } from "~/services/platform/log.server";

const started = Date.now();

/**
 * For load balancers, monitoring and start-up scripts: 200 when the database answers, 503 when it
 * does not. Says what an operator needs and nothing secret (no address, user or password of the
 * database; the cause of a failure goes to the log): which database, whether it answers and how
 * fast, which migration the schema is at, and how long this process has been up.
 */
export async function loader() {
  const headers = { "Cache-Control": "no-store" };
  const uptimeSeconds = Math.round((Date.now() - started) / 1000);
  let kind: "embedded" | "external" | null = null;
  try {
    const database = await getDatabase();
    kind = database.kind;
    const began = performance.now();
    await ping(database.db);
    const latencyMs = Math.round((performance.now() - began) * 10) / 10;
    const migrations = await migrationStatus(database.db);
    return Response.json({ status: "ok", database: { kind, answering: true, latencyMs }, migrations, uptimeSeconds }, { headers });
  } catch (error) {
    logFor("healthz").error(`database not answering: ${error instanceof Error ? error.message : error instanceof Response ? `${error.status}` : String(error)}`);
    return Response.json(
      { status: "unavailable", database: { kind, answering: false }, uptimeSeconds, error: "database unavailable" },
      { status: 503, headers },
    );
  }
}
