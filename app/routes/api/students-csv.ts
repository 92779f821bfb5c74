import { href } from "~/components/href";
import { audit } from "~/services/platform/audit.server";
import { attachmentDisposition } from "~/services/documents";
import { getDb } from "~/services/platform/db/index.server";
import { redirectWithFlash } from "~/services/platform/flash.server";
import { getInstance, getLanguage } from "~/services/platform/i18n.server";
import { clientAddress } from "~/services/platform/request.server";
import { logFor } from "~/services/platform/log.server";
import { requireRole } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import {
  openSemesterReport,
  recordReportOpenings,
  reportStudentIds,
  type SemesterReport,
  type Translate,
} from "~/services/documents/index.server";
import type { Route } from "./+types/students-csv";
import { idParam, notFound } from "~/services/platform/ids";

/**
 * The semester report (`GET api/periods/{id}/students-csv`). Outside the admin area's
 * layout, so it guards itself. Streamed: the file is written page by page as the browser reads it.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const session = requireRole(request, context, ROLE.Admin);
  const semesterId = idParam(params.semesterId);
  const fixed = getInstance(context).getFixedT(getLanguage(context), "adminSemesters");
  const t: Translate = (key, values) => fixed(key, values);
  const db = await getDb();

  let report: SemesterReport | null = null;
  try {
    report = await openSemesterReport(db, semesterId, { t });
    if (report) {
      // One entry for the download, naming its students and their count; each student's openings list still gets its own row.
      const studentUserIds = await reportStudentIds(db, semesterId);
      await Promise.all([
        audit(db, {
          action: "report.downloaded",
          actorUserId: session.user.id,
          details: { periodId: semesterId, report: "students-csv", students: studentUserIds.length, studentUserIds }, // stored name
          ip: clientAddress(request),
        }),
        recordReportOpenings(db, { userId: session.user.id, role: ROLE.Admin }, semesterId),
      ]);
    }
  } catch (error) {
    // Nothing has been sent yet, so the admin can be taken back to the page with a message.
    logFor("semester report").error({ err: error }, "the report could not be made");
    await report?.stream.cancel().catch(() => {});
    return redirectWithFlash(href("/admin/semesters/:semesterId", { semesterId: String(semesterId) }), {
      type: "error",
      key: "adminSemesters:report.failed",
    });
  }
  if (!report) notFound();

  return new Response(report.stream, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": attachmentDisposition(report.fileName),
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
