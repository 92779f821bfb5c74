import { notFound } from "~/services/platform/ids";
import { documentFileName, fullRecordDocument, studentDocument, fullRecord } from "~/services/documents/index.server";
import type { Route } from "./+types/full-pdf";

/** The student's whole placement in the class (`.../full/pdf`): the student's home links it for earlier classes too. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  return studentDocument({ request, context, params }, "full", async ({ db, viewer, access, settings }) => {
    const record = (await fullRecord(db, viewer, access)) ?? notFound();
    const { header, student } = record.placement;
    return {
      bytes: await fullRecordDocument(record, settings),
      fileName: documentFileName(settings.t("fileNames.full"), [
        { code: header.subjectCode },
        header.semesterName,
        student.displayName,
      ]),
    };
  });
}
