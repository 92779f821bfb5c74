import { notFound } from "~/services/ids";
import { documentFileName, warningDocument } from "~/services/pdf/documents.server";
import { studentDocument } from "~/services/pdf/download.server";
import { givenWarning } from "~/services/pdf/records.server";
import { placementOf } from "~/services/placement.server";
import type { Route } from "./+types/warning-pdf";

/** The warning given to the student; none, or only the teacher's draft, is a 404 for everyone (spec §8). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  return studentDocument({ request, context, params }, "warning", async ({ db, viewer, access, settings }) => {
    const warning = (await givenWarning(db, access.referenceId)) ?? notFound();
    const placement = (await placementOf(db, access.referenceId, viewer.userId)) ?? notFound();
    return {
      bytes: await warningDocument(placement, warning, settings),
      fileName: documentFileName(settings.t("fileNames.warning"), [
        { code: placement.header.subjectCode },
        placement.header.periodName,
        placement.student.displayName,
      ]),
    };
  });
}
