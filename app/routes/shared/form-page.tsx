import { useTranslation } from "react-i18next";
import { data, redirect, type ShouldRevalidateFunctionArgs } from "react-router";
import { href } from "~/components/href";
import { AnswerForm, type AnswerRefused } from "~/components/app/AnswerForm";
import { AnswerPageError } from "~/components/app/AnswerPageError";
import { AnswerPageHeading } from "~/components/app/AnswerPageHeading";
import { guardPagePost } from "~/components/app/useAutosave";
import { AlertBanner } from "~/components/ui";
import { getDb } from "~/services/platform/db/index.server";
import { recordOpening } from "~/services/platform/record-openings.server";
import { unsentKeyFor } from "~/services/platform/unsent-key.server";
import { redirectWithFlash } from "~/services/platform/flash.server";
import { formPageView, POST_INTENTS, submitFormPage, type PostIntent } from "~/services/answering/index.server";
import { getInstance, getLanguage } from "~/services/platform/i18n.server";
import { currentInstitution, guidancePdf } from "~/services/platform/institution.server";
import { idParam } from "~/services/platform/ids";
import { clientAddress, readFormData } from "~/services/platform/request.server";
import { requireAreaRole } from "~/services/identity/index.server";
import { ROLE, safeRedirect } from "~/services/identity";
import type { Route } from "./+types/form-page";
import "~/styles/answers.css";

export const handle = { titleKey: "answers:page.title" };

/** The viewer (in the role of the area the page's route entry is in) and the place the URL names. */
function guard(args: Route.LoaderArgs | Route.ActionArgs) {
  const session = requireAreaRole(args.request, args.context);
  const role = session.activeRole;
  const { params } = args;
  const ids = {
    classId: idParam(params.classId),
    formId: idParam(params.formId),
    schemeId: idParam(params.schemeId),
    studentUserId: role === ROLE.Admin ? null : idParam(params.studentUserId),
  };
  return { viewer: { userId: session.user.id, role }, ids };
}

/** Where "Avslutt" and the back link lead: the `from` the caller gave (same-site), else the role's page for the class. */
function exitPath(url: URL, role: number, ids: { classId: number; studentUserId: number | null }): string {
  const place = { classId: String(ids.classId), userId: String(ids.studentUserId) };
  const fallback =
    role === ROLE.Student
      ? href("/student/forms")
      : role === ROLE.Admin
        ? href("/admin/class/:classId", place)
        : role === ROLE.Teacher
          ? href("/teacher/class/:classId/student/:userId", place)
          : href("/supervisor/class/:classId/student/:userId", place);
  return safeRedirect(url.searchParams.get("from"), fallback);
}

function pagePath(url: URL, page: number): string {
  const search = new URLSearchParams();
  search.set("group", String(page));
  const from = url.searchParams.get("from");
  if (from) search.set("from", from);
  return `${url.pathname}?${search}`;
}

export async function loader(args: Route.LoaderArgs) {
  const { viewer, ids } = guard(args);
  const url = new URL(args.request.url);
  const db = await getDb();
  const view = await formPageView(db, viewer, ids, url.searchParams.get("group"), getLanguage(args.context));
  // After the check in formPageView, so only a permitted opening is recorded (none for one's own).
  if (ids.studentUserId !== null) {
    await recordOpening(db, {
      viewerUserId: viewer.userId,
      viewerRole: viewer.role,
      studentUserId: ids.studentUserId,
      classId: ids.classId,
      kind: "formAnswers",
    });
  }
  return {
    // The step in the title ("Del 2 av 5 – …"): each page of the form is told apart in tabs and by screen readers.
    pageTitle:
      view.group && !view.locked
        ? `${getInstance(args.context).t("answers:page.progressLabel", { page: view.page, count: view.pageCount })} – ${view.formName}`
        : view.formName,
    view,
    exit: exitPath(url, viewer.role, ids),
    scaleHref: `${href("/independence-scale")}?${new URLSearchParams({ back: url.pathname + url.search })}`,
    guidanceHref: guidancePdf(currentInstitution(), getLanguage(args.context)),
    autosave: {
      classId: String(ids.classId),
      formId: String(ids.formId),
      schemeId: String(ids.schemeId),
      ...(ids.studentUserId === null ? {} : { studentUserId: String(ids.studentUserId) }),
    },
    // The person's own key for what the browser keeps until the server has it (ADR 0011): sealed,
    // so nobody else at that browser can read it.
    keeperKey: unsentKeyFor(viewer.userId),
  };
}

export async function action(args: Route.ActionArgs) {
  const { viewer, ids } = guard(args);
  const url = new URL(args.request.url);
  const form = await readFormData(args.request);
  const intent = form.get("intent");
  if (typeof intent !== "string" || !(POST_INTENTS as readonly string[]).includes(intent)) {
    throw new Response("Bad Request", { status: 400 });
  }
  const db = await getDb();
  const result = await submitFormPage(db, viewer, ids, form, {
    send: intent === "send",
    ip: clientAddress(args.request),
  });
  if (result.kind === "malformed") throw new Response("Bad Request", { status: 400 });
  if (result.kind === "locked")
    return redirectWithFlash(pagePath(url, 1), { type: "error", key: "answers:locked.flash" });
  if (result.kind === "refused") return data({ refused: result satisfies AnswerRefused }, { status: result.status });

  const page = Number(form.get("page"));
  const current = Number.isInteger(page) && page >= 1 ? page : 1;
  switch (intent as PostIntent) {
    case "previous":
      return redirect(pagePath(url, Math.max(1, current - 1)), 303);
    case "next":
      return redirect(pagePath(url, current + 1), 303);
    case "save":
      return redirectWithFlash(pagePath(url, current), { type: "success", key: "answers:flash.saved" });
    case "exit":
      return redirectWithFlash(exitPath(url, viewer.role, ids), { type: "success", key: "answers:flash.saved" });
    case "send":
      return redirectWithFlash(exitPath(url, viewer.role, ids), {
        type: "success",
        key: result.justSent ? "answers:flash.sent" : "answers:flash.saved",
      });
  }
}

/**
 * With JavaScript the page post goes through here: a post the server could not take (a 5xx while the
 * database restarts, no answer) keeps the page and its fields with a message instead of the error
 * page, and the answers kept in the browser are forgotten only once a post has stored them.
 */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return guardPagePost(serverAction);
}

/** A page post that did not get through leaves the page as it is: its data would not load either. */
export function shouldRevalidate({ actionResult, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (actionResult && typeof actionResult === "object" && "pagePostFailed" in actionResult) return false;
  return defaultShouldRevalidate;
}

export default function FormPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("answers");
  const { view, exit, scaleHref, guidanceHref, autosave, keeperKey } = loaderData;
  const refused = actionData && "refused" in actionData ? actionData.refused : null;
  const postFailed = actionData !== undefined && "pagePostFailed" in actionData;

  return (
    <div className="app-content answer-page">
      <AnswerPageHeading view={view} exit={exit} />
      {view.mode === "expectations" ? <p>{t("expectations.intro")}</p> : null}
      {postFailed ? (
        <AlertBanner variant="error" role="alert" heading={t("pagePost.failedHeading")}>
          <p>{t("pagePost.failedText")}</p>
        </AlertBanner>
      ) : null}

      {view.locked ? (
        <AlertBanner variant="info" heading={t("locked.heading")}>
          <p>{t("locked.text")}</p>
        </AlertBanner>
      ) : view.group === null ? (
        <p>{t("page.noGroups")}</p>
      ) : (
        <AnswerForm
          key={`${view.group.id}-${view.page}`}
          view={view}
          refused={refused}
          scaleHref={scaleHref}
          guidanceHref={guidanceHref}
          autosave={autosave}
          keeperKey={keeperKey}
        />
      )}
    </div>
  );
}

/** The form page's own error page (AnswerPageError): what was typed is kept in this browser. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AnswerPageError error={error} />;
}
