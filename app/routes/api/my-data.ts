import { ROLE } from "~/services/identity";
import { requireRole } from "~/services/identity/index.server";
import { attachmentDisposition } from "~/services/documents";
import { openMyDataExport } from "~/services/documents/index.server";
import { audit } from "~/services/platform/audit.server";
import { getDb } from "~/services/platform/db/index.server";
import { notFound } from "~/services/platform/ids";
import { clientAddress } from "~/services/platform/request.server";
import type { Route } from "./+types/my-data";

/**
 * A student's copy of everything Praksis holds about them (GDPR art. 20, the right to data portability), as JSON
 * written while the browser reads it. The student's own only: the session's user decides whose.
 * Outside the student area's layout, so it guards itself; the download is itself audited.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireRole(request, context, ROLE.Student);
  const userId = session.user.id;
  const db = await getDb();
  const [copy] = await Promise.all([
    openMyDataExport(db, userId),
    audit(db, {
      action: "my_data.downloaded",
      actorUserId: userId,
      subjectUserId: userId,
      ip: clientAddress(request),
      details: { format: "json" },
    }),
  ]);
  if (!copy) notFound();
  return new Response(copy.stream, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": attachmentDisposition(copy.fileName),
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
