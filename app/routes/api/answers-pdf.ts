import { idParam } from "~/services/platform/ids";
import { answersDocument, documentFileName, studentDocument } from "~/services/documents/index.server";
import { formResults } from "~/services/answering/index.server";
import type { Route } from "./+types/answers-pdf";

/** A form's answers about a student, both halves (the results page as a document). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const formId = idParam(params.formId);
  return studentDocument({ request, context, params }, "answers", async ({ db, viewer, access, settings }) => {
    const results = await formResults(db, viewer, {
      classId: access.classId,
      formId,
      studentUserId: access.studentUserId,
    });
    return {
      bytes: await answersDocument(results, settings),
      fileName: documentFileName(settings.t("fileNames.answers"), [
        results.form.name,
        { code: results.header.subjectCode },
        results.header.semesterName,
        results.student.displayName,
      ]),
      details: { formId },
    };
  });
}
