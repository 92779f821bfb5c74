import { readAuditQuery } from "~/services/admin/index.server";
import { attachmentDisposition } from "~/services/documents";
import { openAuditCsv, type Translate } from "~/services/documents/index.server";
import { ROLE } from "~/services/identity";
import { requireRole } from "~/services/identity/index.server";
import { audit } from "~/services/platform/audit.server";
import { getDb } from "~/services/platform/db/index.server";
import { getInstance, getLanguage } from "~/services/platform/i18n.server";
import { clientAddress } from "~/services/platform/request.server";
import type { Route } from "./+types/audit-csv";

/**
 * The admin's audit search as CSV, for a record kept outside Praksis: the same parameters as /admin/audit, every match up
 * to the export limit, streamed. Outside the admin area's layout, so it guards itself; the export
 * is itself audited, with the search it was.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireRole(request, context, ROLE.Admin);
  const query = readAuditQuery(new URL(request.url).searchParams);
  const fixed = getInstance(context).getFixedT(getLanguage(context), "privacyData");
  const t: Translate<"privacyData"> = (key, values) => fixed(key, values);
  const db = await getDb();
  await audit(db, {
    action: "audit.exported",
    actorUserId: session.user.id,
    ip: clientAddress(request),
    details: { person: query.person, as: query.as, action: query.action, from: query.from, to: query.to },
  });
  const csv = openAuditCsv(db, query, { t });
  return new Response(csv.stream, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": attachmentDisposition(csv.fileName),
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
