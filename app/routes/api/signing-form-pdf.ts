import { notFound } from "~/services/platform/ids";
import {
  documentFileName,
  signingFormDocument,
  studentDocument,
  signingFormRecord,
} from "~/services/documents/index.server";
import { placementOf } from "~/services/placements/index.server";
import type { Route } from "./+types/signing-form-pdf";

/** The student's signing form as it stands; a form not yet saved is a 404 (there is no document yet, and an empty one would look signed off). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  return studentDocument({ request, context, params }, "signingForm", async ({ db, viewer, access, settings }) => {
    const form = (await signingFormRecord(db, access.referenceId)) ?? notFound();
    const placement = (await placementOf(db, access.referenceId, viewer.userId)) ?? notFound();
    return {
      bytes: await signingFormDocument(placement, form, settings),
      fileName: documentFileName(settings.t("fileNames.signingForm"), [
        { code: placement.header.subjectCode },
        placement.header.semesterName,
        placement.student.displayName,
      ]),
    };
  });
}
