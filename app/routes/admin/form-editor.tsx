import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Link } from "react-router";
import { href } from "~/components/href";
import { AdminFormDelete } from "~/components/app/AdminFormDelete";
import { AdminFormEditor } from "~/components/app/AdminFormEditor";
import { AlertBanner, ErrorSummary, PageHeading } from "~/components/ui";
import { deleteForm, loadForm, saveForm } from "~/services/admin/index.server";
import { getDb } from "~/services/platform/db/index.server";
import { redirectWithFlash } from "~/services/platform/flash.server";
import {
  applyIntent,
  emptyDraft,
  fieldId,
  parseIntent,
  type EditorMode,
  type FieldErrors,
  type FormDraft,
} from "~/services/admin";
import { postedDraftSchema } from "~/services/admin/form-draft.schema";
import { clientAddress, readFormData } from "~/services/platform/request.server";
import { requireRole } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import { idParam, notFound } from "~/services/platform/ids";
import type { Route } from "./+types/form-editor";
import enAdminForms from "~/locales/en/adminForms.json";
import nbAdminForms from "~/locales/nb/adminForms.json";
import { provideNamespace } from "~/i18n-client/page-namespaces";

// Only the admin's form pages use these texts: not in the language chunk every page loads (ADR 0012).
provideNamespace("adminForms", { nb: nbAdminForms, en: enAdminForms });

// One module for /admin/forms/create and /admin/forms/edit/:formId: the same editor, with or without a stored form.
export const handle = { titleKey: "adminForms:editor.title" };

/** The form id of the edit route; null on the create route. A malformed id is as unknown as a missing one. */
function formIdOf(params: Route.LoaderArgs["params"]): number | null {
  if (!("formId" in params) || params.formId === undefined) return null;
  return idParam(params.formId);
}

async function storedForm(formId: number) {
  const form = await loadForm(await getDb(), formId);
  if (!form) notFound();
  return form;
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  requireRole(request, context, ROLE.Admin);
  const formId = formIdOf(params);
  const form = formId === null ? null : await storedForm(formId);
  return {
    formId,
    draft: form?.draft ?? emptyDraft(),
    answeredQuestionIds: form?.answeredQuestionIds ?? [],
    answeredGroupIds: form?.answeredGroupIds ?? [],
    confirmDelete: formId !== null && new URL(request.url).searchParams.has("slett"),
  };
}

/** What the editor shows after a post that did not save: the posted draft, changed by the button. */
interface EditorState {
  draft: FormDraft | null;
  mode: EditorMode;
  errors: FieldErrors;
  formError?: string;
}

function editorState(state: EditorState, status = 200) {
  return data(state, { status });
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const session = requireRole(request, context, ROLE.Admin);
  const formId = formIdOf(params);
  if (formId !== null) await storedForm(formId);
  const db = await getDb();
  const actor = { userId: session.user.id, ip: clientAddress(request) };
  const formData = await readFormData(request);
  const intentValue = formData.get("intent");

  if (intentValue === "delete") {
    if (formId === null)
      return editorState({ draft: null, mode: "edit", errors: {}, formError: "adminForms:errors.malformed" }, 400);
    const result = await deleteForm(db, formId, actor);
    if (result.status === "not-found") notFound();
    if (result.status === "in-use") {
      return data({ deleteError: { semesters: result.semesters } }, { status: 409 });
    }
    return redirectWithFlash(href("/admin/forms"), { type: "success", key: "adminForms:delete.deleted" });
  }

  const intent = parseIntent(intentValue);
  const submission = parseWithZod(formData, { schema: postedDraftSchema });
  if (!intent || submission.status !== "success") {
    return editorState({ draft: null, mode: "edit", errors: {}, formError: "adminForms:errors.malformed" }, 400);
  }
  const draft = submission.value;

  if (intent.type !== "save") {
    return editorState({
      draft: applyIntent(draft, intent),
      mode: intent.type === "preview" ? "preview" : "edit",
      errors: {},
    });
  }
  const result = await saveForm(db, formId, draft, actor);
  switch (result.status) {
    case "saved":
      return redirectWithFlash(href("/admin/forms/edit/:formId", { formId: String(result.formId) }), {
        type: "success",
        key: "adminForms:editor.saved",
      });
    case "invalid":
      return editorState({ draft, mode: "edit", errors: result.errors }, 400);
    case "foreign-ids":
      return editorState({ draft, mode: "edit", errors: {}, formError: "adminForms:errors.foreignIds" }, 400);
    case "not-found":
      notFound();
  }
}

function isEditorState(value: unknown): value is EditorState {
  return typeof value === "object" && value !== null && "mode" in value;
}

export default function FormEditor({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("adminForms");
  const state = isEditorState(actionData) ? actionData : null;
  const deleteError = actionData && "deleteError" in actionData ? actionData.deleteError : null;
  const draft = state?.draft ?? loaderData.draft;
  const mode = state?.mode ?? "edit";
  const errors = state?.errors ?? {};
  const formError = state?.formError;
  const editPath =
    loaderData.formId === null
      ? href("/admin/forms/create")
      : href("/admin/forms/edit/:formId", { formId: String(loaderData.formId) });

  const summary = [
    ...Object.entries(errors).map(([name, keys]) => ({ fieldId: fieldId(name), message: t(keys[0]) })),
    ...(formError ? [{ fieldId: "name", message: t(formError) }] : []),
  ];

  return (
    <div className="app-content">
      <p>
        <Link to="/admin/forms">{t("editor.back")}</Link>
      </p>
      <ErrorSummary errors={summary} />
      {deleteError ? (
        <AlertBanner variant="error" role="alert">
          {t("delete.inUse", { semesters: deleteError.semesters.join(", ") })}
        </AlertBanner>
      ) : null}
      <PageHeading caption={loaderData.formId === null ? undefined : loaderData.draft.name}>
        {loaderData.formId === null ? t("editor.createTitle") : t("editor.editTitle")}
      </PageHeading>

      <AdminFormEditor
        path={editPath}
        draft={draft}
        mode={mode}
        errors={errors}
        answeredQuestionIds={loaderData.answeredQuestionIds}
        answeredGroupIds={loaderData.answeredGroupIds}
      />

      {loaderData.formId === null ? null : (
        <AdminFormDelete formId={loaderData.formId} confirm={loaderData.confirmDelete} />
      )}
    </div>
  );
}
