import { useTranslation } from "react-i18next";
import { Form, useNavigation } from "react-router";
import { DraftFields, DraftHiddenFields } from "~/components/app/FormEditorFields";
import { FormView } from "~/components/app/FormView";
import { AlertBanner, Button, ButtonGroup, LinkButton } from "~/components/ui";
import type { EditorMode, FieldErrors, FormDraft } from "~/services/admin";

/**
 * The form editor: the draft as fields, or previewed as a student sees it (the draft kept in hidden
 * fields), and the save button. Every button posts the whole draft to `path`, so it works without JS.
 */
export function AdminFormEditor({
  path,
  draft,
  mode,
  errors,
  answeredQuestionIds,
  answeredGroupIds,
}: {
  path: string;
  draft: FormDraft;
  mode: EditorMode;
  errors: FieldErrors;
  answeredQuestionIds: number[];
  answeredGroupIds: number[];
}) {
  const { t } = useTranslation("adminForms");
  const busy = useNavigation().state !== "idle";
  return (
    <Form method="post" action={path} className="form-editor" noValidate>
      <div className="form-editor__mode" role="group" aria-label={t("editor.mode")}>
        <Button name="intent" value="edit" variant="secondary" aria-pressed={mode === "edit"} disabled={busy}>
          {t("editor.edit")}
        </Button>
        <Button name="intent" value="preview" variant="secondary" aria-pressed={mode === "preview"} disabled={busy}>
          {t("editor.preview")}
        </Button>
      </div>

      {mode === "preview" ? (
        <>
          <DraftHiddenFields draft={draft} />
          <AlertBanner variant="info">{t("editor.previewIntro")}</AlertBanner>
          <h2 className="form-editor__preview-title">{draft.name}</h2>
          <FormView
            groups={draft.groups}
            idPrefix="preview"
            inputName={(group, question) => `preview.${group.key}.${question.key}`}
          />
        </>
      ) : (
        <DraftFields
          draft={draft}
          errors={errors}
          answeredQuestionIds={answeredQuestionIds}
          answeredGroupIds={answeredGroupIds}
          path={path}
          t={t}
          busy={busy}
        />
      )}

      <p className="app-meta">{t("editor.unsaved")}</p>
      <ButtonGroup>
        <Button name="intent" value="save" disabled={busy}>
          {t("editor.save")}
        </Button>
        <LinkButton to="/admin/forms" variant="secondary">
          {t("editor.back")}
        </LinkButton>
      </ButtonGroup>
    </Form>
  );
}
