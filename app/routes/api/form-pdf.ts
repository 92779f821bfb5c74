import { formForAnswering } from "~/services/answers.server";
import { getDb } from "~/services/db/index.server";
import { idParam, notFound } from "~/services/ids";
import { documentFileName, emptyFormDocument } from "~/services/pdf/documents.server";
import { documentSettings, pdfResponse, requireViewer } from "~/services/pdf/download.server";
import { mayReadForm } from "~/services/pdf/records.server";
import type { Route } from "./+types/form-pdf";

/**
 * A form without answers (spec §7 `GET api/forms/{formId}/pdf`). It holds no one's data, so it is
 * not audited; it is still only for those who work with the form (ADR 0010).
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const viewer = requireViewer({ request, context });
  const formId = idParam(params.formId);
  const db = await getDb();
  if (!(await mayReadForm(db, viewer, formId))) notFound();
  const form = (await formForAnswering(db, formId)) ?? notFound();
  const settings = documentSettings(context);
  const bytes = await emptyFormDocument(form, settings);
  return pdfResponse(request, bytes, documentFileName(settings.t("fileNames.form"), [form.name]));
}
