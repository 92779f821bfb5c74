import { getDb } from "~/services/db/index.server";
import { ping } from "~/services/db/client.server";

/** For load balancers and start-up scripts: 200 when the database answers, 503 when it does not. */
export async function loader() {
  try {
    await ping(await getDb());
    return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return Response.json(
      { status: "unavailable", error: error instanceof Error ? error.message : "database unavailable" },
      { status: 503, headers: { "Cache-Control": "no-store" } },
    );
  }
}
