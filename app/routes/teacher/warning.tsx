import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, type ShouldRevalidateFunctionArgs } from "react-router";
import { SubmitButton } from "~/components/app/SubmitButton";
import { WarningContent, WarningFacts } from "~/components/app/Warning";
import {
  autosaveStatusText,
  guardPagePost,
  logInAgainHref,
  useAutosave,
  type OfflineKeeper,
} from "~/components/app/useAutosave";
import { warningAutosave, type WarningAutosaveRefusal } from "~/components/app/warningAutosave";
import { errorSummaryItems, firstError } from "~/components/form-errors";
import { useValidatedForm } from "~/components/use-validated-form";
import { AlertBanner, ButtonGroup, ErrorSummary, PageHeading, TextArea } from "~/components/ui";
import { useHydrated } from "~/components/ui/internal";
import { classHeader } from "~/services/admin/index.server";
import { getDb } from "~/services/platform/db/index.server";
import { recordOpening } from "~/services/platform/record-openings.server";
import { unsentKeyFor } from "~/services/platform/unsent-key.server";
import { redirectWithFlash } from "~/services/platform/flash.server";
import { getLanguage } from "~/services/platform/i18n.server";
import { idParam, notFound } from "~/services/platform/ids";
import { requireStudentAccess, displayNameOf } from "~/services/placements/index.server";
import { clientAddress, readFormData } from "~/services/platform/request.server";
import { requireRole } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import {
  isComplete,
  normaliseWarning,
  postedWarningId,
  WARNING_FIELDS,
  WARNING_TEXT_LIMIT,
  type WarningField,
  type WarningText,
} from "~/services/warnings";
import { saveWarningDraft, warningFor, warningForView } from "~/services/warnings/index.server";
import { schema } from "./warning.schema";
import type { Route } from "./+types/warning";
import "~/styles/warnings.css";

export const handle = { titleKey: "warnings:title" };

/** The draft saves itself 3 seconds after the last edit, as answers do: nothing typed is lost. */
const AUTOSAVE_DELAY_MS = 3000;

/**
 * A refused post: the reply (messages and what was typed), the warning the page continues from
 * when that changed (`seenId`), and the text that could not be saved because the warning was given.
 */
function refused(
  result: SubmissionResult<string[]>,
  status: number,
  more: { seenId?: number | null; unsaved?: WarningText } = {},
) {
  return data({ result, seenId: more.seenId, unsaved: more.unsaved ?? null }, { status });
}

async function guard(args: Route.LoaderArgs | Route.ActionArgs) {
  const session = requireRole(args.request, args.context, ROLE.Teacher);
  const classId = idParam(args.params.classId);
  const studentUserId = idParam(args.params.studentUserId);
  const db = await getDb();
  // Every teacher of the class, not only the student's own: a colleague may stand in (ADR 0008).
  const access = await requireStudentAccess(
    db,
    { userId: session.user.id, role: ROLE.Teacher },
    classId,
    studentUserId,
  );
  const studentPage = `/teacher/class/${classId}/student/${studentUserId}`;
  return { session, db, access, classId, studentUserId, studentPage, self: `${studentPage}/warning` };
}

export async function loader(args: Route.LoaderArgs) {
  const { session, db, access, classId, studentUserId, studentPage, self } = await guard(args);
  const opening = {
    viewerUserId: session.user.id,
    viewerRole: ROLE.Teacher,
    studentUserId,
    classId,
    kind: "warning",
  } as const;
  const [header, warning, studentName] = await Promise.all([
    classHeader(db, classId),
    warningFor(db, access),
    displayNameOf(db, studentUserId),
    recordOpening(db, opening),
  ]);
  if (!header) notFound();
  return {
    header: { subjectCode: header.subjectCode, subjectName: header.subjectName },
    studentName,
    warning: warning ? warningForView(warning, getLanguage(args.context)) : null,
    paths: {
      student: studentPage,
      delete: `${self}/delete`,
      autosave: `/api/classes/${classId}/students/${studentUserId}/warning`,
      pdf: `/api/classes/${classId}/students/${studentUserId}/warning/pdf`,
    },
    // The teacher's own key for the draft the browser keeps until the server has it (ADR 0011):
    // sealed, so nobody else at that browser can read it.
    keeper: { key: unsentKeyFor(session.user.id), classId: String(classId), studentUserId: String(studentUserId) },
  };
}

export async function action(args: Route.ActionArgs) {
  const { session, db, access, self } = await guard(args);
  const formData = await readFormData(args.request);
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") return refused(submission.reply(), 400);
  const seenId = postedWarningId(submission.value.warningId);
  if (seenId === undefined) throw new Response("Bad Request", { status: 400 });
  const text = normaliseWarning(submission.value);
  const change = { access, actorUserId: session.user.id, ip: clientAddress(args.request), text, seenId };

  // "Gi varsel" gives nothing yet: it saves the draft (all three texts, as the schema checked) and
  // shows it on its own page as the student will see it, where "Gi varselet nå" gives it.
  const outcome = await saveWarningDraft(db, change);

  if (!outcome.ok) {
    switch (outcome.error) {
      case "notAllowed":
        return notFound();
      case "invalid":
        // The schema above checks the same rules (warnings.ts) on the same text first.
        throw new Response("Bad Request", { status: 400 });
      case "gone":
        // The text stays on the page; it continues from the warning there is now.
        return refused(submission.reply({ formErrors: ["warnings:errors.gone"] }), 409, { seenId: outcome.currentId });
      case "alreadyGiven":
        return refused(submission.reply({ formErrors: ["warnings:errors.alreadyGiven"] }), 409, { unsaved: text });
    }
  }
  if (submission.value.intent === "submit") return redirect(`${self}/give`, 303);
  return redirectWithFlash(self, { type: "success", key: "warnings:teacher.saved" });
}

/**
 * With JavaScript the page's posts go through here: one the server could not take (a 5xx while the
 * database restarts, no answer) keeps the page and the text with a message instead of the error
 * page; the draft kept in the browser is forgotten only once a post has stored it.
 */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return guardPagePost(serverAction);
}

/**
 * A refusal (409) means the warning changed elsewhere: show it as it is now, with or without
 * JavaScript. A post that did not get through leaves the page as it is (its data would not load either).
 */
export function shouldRevalidate({
  actionStatus,
  actionResult,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (actionResult && typeof actionResult === "object" && "pagePostFailed" in actionResult) return false;
  return actionStatus === 409 ? true : defaultShouldRevalidate;
}

type LoaderData = Route.ComponentProps["loaderData"];
type ActionData = Exclude<Route.ComponentProps["actionData"], { pagePostFailed: true }>;

export default function TeacherWarning({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("warnings");
  const { header, studentName, warning, paths } = loaderData;
  const given = warning !== null && warning.state !== "draft";
  const postFailed = actionData !== undefined && "pagePostFailed" in actionData;
  const reply = actionData && "result" in actionData ? actionData : undefined;
  const unsaved = reply?.unsaved ?? null;

  return (
    <div className="app-content">
      <p>
        <Link to={paths.student}>{t("teacher.backToStudent", { name: studentName })}</Link>
      </p>
      <PageHeading caption={`${studentName} · ${header.subjectCode} ${header.subjectName}`}>{t("heading")}</PageHeading>
      {postFailed ? (
        <AlertBanner variant="error" role="alert" heading={t("pagePost.failedHeading")}>
          <p>{t("pagePost.failedText")}</p>
        </AlertBanner>
      ) : null}
      {given ? (
        <>
          {unsaved ? (
            <AlertBanner variant="error" heading={t("teacher.unsavedHeading")}>
              <p>{t("teacher.unsavedText")}</p>
              <WarningContent text={unsaved} headingLevel={3} />
            </AlertBanner>
          ) : null}
          <WarningFacts warning={warning} />
          <p>{t("teacher.givenIntro")}</p>
          <WarningContent text={warning.text} />
          <p>
            {/* A resource route (a file): a full document request, not client navigation. */}
            <a href={paths.pdf}>{t("pdf")}</a>
          </p>
          <p>
            <Link to={paths.delete}>{t("teacher.delete")}</Link>
          </p>
        </>
      ) : (
        <DraftForm warning={warning} paths={paths} keeper={loaderData.keeper} actionData={reply} />
      )}
    </div>
  );
}

function DraftForm({
  warning,
  paths,
  keeper,
  actionData,
}: {
  warning: LoaderData["warning"];
  paths: LoaderData["paths"];
  keeper: LoaderData["keeper"];
  actionData: ActionData | undefined;
}) {
  const { t, i18n } = useTranslation("warnings");
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  const [form, fields] = useValidatedForm(() => import("./warning.schema").then((m) => m.schema), actionData?.result);
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
