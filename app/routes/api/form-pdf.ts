import { formForAnswering } from "~/services/answering/index.server";
import { getDb } from "~/services/platform/db/index.server";
import { idParam, notFound } from "~/services/platform/ids";
import {
  documentFileName,
  emptyFormDocument,
  documentSettings,
  pdfResponse,
  requireViewer,
  mayReadForm,
} from "~/services/documents/index.server";
import type { Route } from "./+types/form-pdf";

/**
 * A form without answers (`GET api/forms/{formId}/pdf`). It holds no one's data, so it is
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
