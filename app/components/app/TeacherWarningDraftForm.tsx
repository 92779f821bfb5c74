import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import { SubmitButton } from "~/components/app/SubmitButton";
import { WarningFacts } from "~/components/app/Warning";
import { AUTOSAVE_DELAY_MS } from "~/components/app/autosaveDecision";
import { autosaveStatusText, logInAgainHref, useAutosave, type OfflineKeeper } from "~/components/app/useAutosave";
import { warningAutosave, type WarningAutosaveRefusal } from "~/components/app/warningAutosave";
import { errorSummaryItems, firstError } from "~/components/form-errors";
import { useValidatedForm } from "~/components/use-validated-form";
import { ButtonGroup, ErrorSummary, TextArea } from "~/components/ui";
import { useHydrated } from "~/components/ui/internal";
import {
  isComplete,
  normaliseWarning,
  WARNING_FIELDS,
  WARNING_TEXT_LIMIT,
  type WarningField,
} from "~/services/warnings";
import type { WarningForView } from "~/services/warnings/index.server";
import type { UnsentKey } from "./unsentStore";

export interface TeacherWarningDraftFormProps {
  /** The draft so far, or null before the first save. */
  warning: WarningForView | null;
  paths: { delete: string; autosave: string };
  /** The teacher's own key for the draft the browser keeps until the server has it (ADR 0011). */
  keeper: { key: UnsentKey; classId: string; studentUserId: string };
  /** A refused post's answer: its reply, and the warning to continue from when that changed. */
  actionData: { result: SubmissionResult<string[]>; seenId?: number | null } | undefined;
}

/**
 * The teacher's draft of a warning: its three texts, saved as typed (and kept sealed in the browser
 * until the server has them), "Lagre utkast", and "Gi varsel", which asks once more on the next page.
 */
export function TeacherWarningDraftForm({ warning, paths, keeper, actionData }: TeacherWarningDraftFormProps) {
  const { t, i18n } = useTranslation("warnings");
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  const [form, fields] = useValidatedForm(
    // The page's own checks, the same as its action's: fetched once the page is interactive (ADR 0012).
    () => import("~/routes/teacher/warning.schema").then((m) => m.schema),
    actionData?.result,
  );
  const [refused, setRefused] = useState<WarningAutosaveRefusal | null>(null);
  // The draft's keeper for an ended session (ADR 0011) is loaded after the page, like the form's
  // schema (ADR 0012): the page's first load stays within its weight.
  const [draftKeeper, setDraftKeeper] = useState<OfflineKeeper | undefined>(undefined);
  const { key, classId, studentUserId } = keeper;
  const { keyId, key: secret } = key;
  useEffect(() => {
    let live = true;
    void import("~/components/app/unsentWarning").then(
      (module) => live && setDraftKeeper(module.warningKeeper({ key: { keyId, key: secret }, classId, studentUserId })),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [keyId, secret, classId, studentUserId]);
  const { status } = useAutosave(formRef, {
    endpoint: paths.autosave,
    delayMs: AUTOSAVE_DELAY_MS,
    enabled: hydrated && refused === null,
    adapter: warningAutosave({ onRefused: setRefused }),
    offline: draftKeeper,
  });

  const initial = (field: WarningField): string => {
    const posted = fields[field].initialValue;
    return typeof posted === "string" ? posted : (warning?.text[field] ?? "");
  };
  const [complete, setComplete] = useState(() =>
    isComplete(normaliseWarning(Object.fromEntries(WARNING_FIELDS.map((f) => [f, initial(f)])))),
  );
  const seenId = actionData?.seenId !== undefined ? actionData.seenId : (warning?.id ?? null);
  const summary = errorSummaryItems(
    t,
    WARNING_FIELDS.map((field) => fields[field]),
    { errors: form.errors, fieldId: "comment" },
  );

  return (
    <>
      <ErrorSummary errors={summary} />
      {warning ? <WarningFacts warning={warning} /> : null}
      <p>{t("teacher.intro")}</p>
      <p>{t("teacher.draftPrivate")}</p>
      <Form
        method="post"
        {...getFormProps(form)}
        ref={formRef}
        onInput={(event) =>
          setComplete(isComplete(normaliseWarning(Object.fromEntries(new FormData(event.currentTarget)))))
        }
      >
        {/* Keyed by the id, so a new one from the server replaces the field; an autosave updates it in place. */}
        <input type="hidden" name="warningId" defaultValue={seenId ?? ""} key={`warning-${seenId ?? "new"}`} />
        {WARNING_FIELDS.map((field) => (
          <TextArea
            key={field}
            name={fields[field].name}
            id={fields[field].id}
            label={t(`fields.${field}.label`)}
            hint={t(`fields.${field}.hint`)}
            rows={field === "passRequirementSummary" ? 4 : 8}
            maxLength={WARNING_TEXT_LIMIT}
            defaultValue={initial(field)}
            error={firstError(t, fields[field].errors)}
          />
        ))}
        {/* The status and the hint are the server's too: the buttons stay where the page showed them. */}
        <p className="warning-form__status" role="status">
          {hydrated ? autosaveStatusText(t, status, i18n.language) : null}
          {hydrated && status.state === "loggedOut" ? (
            <>
              {" "}
              <a href={logInAgainHref()}>{t("autosave.logIn")}</a>
            </>
          ) : null}
        </p>
        <p id="give-hint">{t("teacher.giveHint")}</p>
        {!complete ? <p id="complete-hint">{t("teacher.completeHint")}</p> : null}
        <ButtonGroup>
          {/* Saving is the page's first button; giving asks once more, on the next page. */}
          <SubmitButton name="intent" value="save">
            {t("teacher.save")}
          </SubmitButton>
          <SubmitButton
            name="intent"
            value="submit"
            variant="secondary"
            disabled={hydrated && !complete}
            aria-describedby={!complete ? "give-hint complete-hint" : "give-hint"}
          >
            {t("teacher.give")}
          </SubmitButton>
        </ButtonGroup>
      </Form>
      {warning ? (
        <p>
          <Link to={paths.delete}>{t("teacher.deleteDraft")}</Link>
        </p>
      ) : null}
    </>
  );
}
