import { notFound } from "~/services/platform/ids";
import { documentFileName, warningDocument, studentDocument, givenWarning } from "~/services/documents/index.server";
import { placementOf } from "~/services/placements/index.server";
import type { Route } from "./+types/warning-pdf";

/** The warning given to the student; none, or only the teacher's draft, is a 404 for everyone (a draft is the teacher's own until it is given). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  return studentDocument({ request, context, params }, "warning", async ({ db, viewer, access, settings }) => {
    const warning = (await givenWarning(db, access.referenceId)) ?? notFound();
    const placement = (await placementOf(db, access.referenceId, viewer.userId)) ?? notFound();
    return {
      bytes: await warningDocument(placement, warning, settings),
      fileName: documentFileName(settings.t("fileNames.warning"), [
        { code: placement.header.subjectCode },
        placement.header.semesterName,
        placement.student.displayName,
      ]),
    };
  });
}
