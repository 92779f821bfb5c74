import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  data,
  Form,
  isRouteErrorResponse,
  Link,
  redirect,
  useLocation,
  type ShouldRevalidateFunctionArgs,
} from "react-router";
import { answerAutosave, type AutosaveConflict } from "~/components/app/answerAutosave";
import { SubmitButton } from "~/components/app/SubmitButton";
import { answerKeeper } from "~/components/app/unsentAnswers";
import { autosaveStatusText, guardPagePost, logInAgainHref, useAutosave } from "~/components/app/useAutosave";
import { AlertBanner, ButtonGroup, ErrorSummary, PageHeading, Progress, VisuallyHidden } from "~/components/ui";
import { useHydrated } from "~/components/ui/internal";
import { COMMENT_LIMIT, TEXT_ANSWER_LIMIT } from "~/services/answering";
import { getDb } from "~/services/platform/db/index.server";
import { recordOpening } from "~/services/platform/record-openings.server";
import { unsentKeyFor } from "~/services/platform/unsent-key.server";
import { redirectWithFlash } from "~/services/platform/flash.server";
import {
  formPageView,
  POST_INTENTS,
  submitFormPage,
  type FormPageView,
  type PostIntent,
  type PostResult,
} from "~/services/answering/index.server";
import { getInstance, getLanguage } from "~/services/platform/i18n.server";
import { currentInstitution, guidancePdf } from "~/services/platform/institution.server";
import { idParam } from "~/services/platform/ids";
import { clientAddress, readFormData } from "~/services/platform/request.server";
import { requireAreaRole } from "~/services/identity/index.server";
import { ROLE, safeRedirect } from "~/services/identity";
import type { Route } from "./+types/form-page";
import "~/styles/answers.css";
import { AnswerQuestion, ReadOnlyQuestion } from "~/components/app/AnswerQuestion";

export const handle = { titleKey: "answers:page.title" };

/** Answers save themselves 3 seconds after the last change: nothing typed is lost, and a pause in typing is not a save per key. */
const AUTOSAVE_DELAY_MS = 3000;

/** The viewer (in the role of the area the page's route entry is in) and the place the URL names. */
function guard(args: Route.LoaderArgs | Route.ActionArgs) {
  const session = requireAreaRole(args.request, args.context);
  const role = session.activeRole;
  const { params } = args;
  const ids = {
    classId: idParam(params.classId),
    formId: idParam(params.formId),
    assignmentId: idParam(params.assignmentId),
    studentUserId: role === ROLE.Admin ? null : idParam(params.studentUserId),
  };
  return { viewer: { userId: session.user.id, role }, ids };
}

/** Where "Avslutt" and the back link lead: the `from` the caller gave (same-site), else the role's page for the class. */
function exitPath(url: URL, role: number, ids: { classId: number; studentUserId: number | null }): string {
  const fallback =
    role === ROLE.Student
      ? "/student/forms"
      : role === ROLE.Admin
        ? `/admin/class/${ids.classId}`
        : `/${role === ROLE.Teacher ? "teacher" : "supervisor"}/class/${ids.classId}/student/${ids.studentUserId}`;
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
    scaleHref: `/independence-scale?${new URLSearchParams({ back: url.pathname + url.search })}`,
    guidanceHref: guidancePdf(currentInstitution(), getLanguage(args.context)),
    autosave: {
      classId: String(ids.classId),
      formId: String(ids.formId),
      assignmentId: String(ids.assignmentId),
      ...(ids.studentUserId === null ? {} : { studentUserId: String(ids.studentUserId) }),
    },
    // The person's own key for what the browser keeps until the server has it (ADR 0011): sealed,
    // so nobody else at that browser can read it.
    keeperKey: unsentKeyFor(viewer.userId),
  };
}

type Refused = Extract<PostResult, { kind: "refused" }>;

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
  if (result.kind === "refused") return data({ refused: result satisfies Refused }, { status: result.status });

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

type LoaderData = Route.ComponentProps["loaderData"];

export default function FormPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("answers");
  const { view, exit, scaleHref, guidanceHref, autosave, keeperKey } = loaderData;
  const refused = actionData && "refused" in actionData ? actionData.refused : null;
  const postFailed = actionData !== undefined && "pagePostFailed" in actionData;
  const caption = [
    view.isMidSemester ? t("half.mid") : t("half.end"),
    view.subject,
    view.self ? null : view.student?.displayName,
  ]
    .filter(Boolean)
    .join(" · ");

  return (
    <div className="app-content answer-page">
      <p>
        <Link to={exit}>{t("page.back")}</Link>
      </p>
      <PageHeading caption={caption}>
        {view.formName}
        {/* The step is read with the heading, where focus goes after each move between the pages. */}
        {view.group && !view.locked ? (
          <VisuallyHidden>{` – ${t("page.progressText", { page: view.page, count: view.pageCount, group: view.group.name })}`}</VisuallyHidden>
        ) : null}
      </PageHeading>
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

function AnswerForm({
  view,
  refused,
  scaleHref,
  guidanceHref,
  autosave,
  keeperKey,
}: {
  view: FormPageView;
  refused: Refused | null;
  scaleHref: string;
  guidanceHref: string | null;
  autosave: LoaderData["autosave"];
  keeperKey: LoaderData["keeperKey"];
}) {
  const { t, i18n } = useTranslation("answers");
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  const group = view.group!;
  const [conflicts, setConflicts] = useState<Record<number, AutosaveConflict>>(() =>
    Object.fromEntries(
      Object.entries(refused?.conflicts ?? {}).map(([id, c]) => [id, { questionId: Number(id), ...c }]),
    ),
  );
  // One keeper for the page's life: it opens the key once, and keeps its entries in order.
  const { keyId, key } = keeperKey;
  const place = JSON.stringify(autosave);
  const keeper = useMemo(
    () => answerKeeper({ key: { keyId, key }, place: JSON.parse(place) as Record<string, string> }),
    [keyId, key, place],
  );
  const { status } = useAutosave(formRef, {
    endpoint: "/api/answers",
    delayMs: AUTOSAVE_DELAY_MS,
    enabled: hydrated,
    offline: keeper,
    adapter: answerAutosave({
      place: autosave,
      limits: { comment: COMMENT_LIMIT, text: TEXT_ANSWER_LIMIT },
      onConflicts: (list) =>
        setConflicts((current) => ({ ...current, ...Object.fromEntries(list.map((c) => [c.questionId, c])) })),
      // The person's own version is stored now: the question's conflict is settled.
      onSaved: (ids) =>
        setConflicts((current) => {
          const next = { ...current };
          for (const id of ids) delete next[id];
          return next;
        }),
    }),
  });
  useEffect(() => {
    if (refused)
      setConflicts(
        Object.fromEntries(Object.entries(refused.conflicts).map(([id, c]) => [id, { questionId: Number(id), ...c }])),
      );
  }, [refused]);

  const last = view.page === view.pageCount;
  const isExpectations = view.mode === "expectations";
  const errorItems = useMemo(() => {
    if (!refused) return [];
    const items: { fieldId: string; message: string }[] = [];
    if (refused.formError)
      items.push({ fieldId: `q-${group.questions[0]?.id}`, message: t(`errors.${refused.formError}`) });
    for (const [id, error] of Object.entries(refused.fieldErrors)) {
      const field = error === "commentTooLong" ? `c-${id}` : `q-${id}`;
      items.push({
        fieldId: field,
        message: t(`errors.${error}`, { limit: COMMENT_LIMIT, question: view.questionText[Number(id)] }),
      });
    }
    for (const id of Object.keys(refused.conflicts)) {
      items.push({ fieldId: `q-${id}`, message: t("conflict.summary", { question: view.questionText[Number(id)] }) });
    }
    if (refused.missing.length > 0)
      items.push({ fieldId: "missing-grades", message: t("missing.heading", { count: refused.missing.length }) });
    return items;
  }, [refused, group, t, view.questionText]);

  return (
    <>
      <ErrorSummary errors={errorItems} />
      {refused && refused.missing.length > 0 ? <MissingGrades missing={refused.missing} view={view} /> : null}

      <div className="answer-page__tools">
        <Progress
          id="answer-progress"
          label={t("page.progressLabel", { page: view.page, count: view.pageCount })}
          value={view.page}
          max={view.pageCount}
          valueText={t("page.progressText", { page: view.page, count: view.pageCount, group: group.name })}
        />
        <p className="answer-page__meta">
          {isExpectations
            ? t("expectations.count", { done: view.graded.done, total: view.graded.total })
            : view.sentText
              ? t("page.sent", { date: view.sentText })
              : t("page.notSent", { done: view.graded.done, total: view.graded.total })}
        </p>
        <p className="answer-page__links">
          <a href={scaleHref} target="_blank" rel="noopener">
            {t("page.scale")}
            <VisuallyHidden> {t("page.newTab")}</VisuallyHidden>
          </a>
          {guidanceHref ? (
            <>
              {" · "}
              <a href={guidanceHref} target="_blank" rel="noopener">
                {t("page.guidance")}
                <VisuallyHidden> {t("page.newTab")}</VisuallyHidden>
              </a>
            </>
          ) : null}
        </p>
      </div>

      <Form method="post" ref={formRef} noValidate className="answer-form">
        <input type="hidden" name="page" value={view.page} />
        <fieldset className="ui-fieldset answer-form__group">
          <legend className="ui-fieldset__legend ui-fieldset__legend--l">
            <h2 className="ui-fieldset__heading">{group.name}</h2>
          </legend>
          {group.readOnly ? <p>{t("question.studentGroup")}</p> : null}
          {group.questions.map((question, index) =>
            group.readOnly ? (
              <ReadOnlyQuestion key={question.id} number={index + 1} question={question} />
            ) : (
              <AnswerQuestion
                key={question.id}
                number={index + 1}
                question={question}
                group={group}
                posted={refused?.values[question.id]}
                token={refused?.tokens[question.id] ?? question.token}
                error={refused?.fieldErrors[question.id]}
                conflict={conflicts[question.id]}
                isExpectations={isExpectations}
                onResolve={() =>
                  setConflicts((current) => {
                    const next = { ...current };
                    delete next[question.id];
                    return next;
                  })
                }
              />
            ),
          )}
        </fieldset>

        {/* Rendered by the server too (empty): the page's script fills it in, and the buttons below
            stay where they were when the page appeared (a tap on them is never lost to a shift). */}
        <p className="answer-form__status" role="status">
          {hydrated ? autosaveStatusText(t, status, i18n.language) : null}
          {hydrated && status.state === "loggedOut" ? (
            <>
              {" "}
              <a href={logInAgainHref()}>{t("autosave.logIn")}</a>
            </>
          ) : null}
        </p>

        {/* The primary button first: pressing Enter in the form goes on, never back. */}
        <ButtonGroup className="answer-form__buttons">
          {!last ? (
            <SubmitButton name="intent" value="next">
              {t("buttons.next")}
            </SubmitButton>
          ) : isExpectations ? (
            <SubmitButton name="intent" value="save">
              {t("buttons.saveExpectations")}
            </SubmitButton>
          ) : (
            <SubmitButton name="intent" value="send">
              {view.sentText ? t("buttons.sendAgain") : t("buttons.send")}
            </SubmitButton>
          )}
          {view.page > 1 ? (
            <SubmitButton name="intent" value="previous" variant="secondary">
              {t("buttons.previous")}
            </SubmitButton>
          ) : null}
          <SubmitButton name="intent" value="exit" variant="secondary">
            {t("buttons.exit")}
          </SubmitButton>
        </ButtonGroup>
      </Form>
    </>
  );
}

function MissingGrades({ missing, view }: { missing: number[]; view: FormPageView }) {
  const { t } = useTranslation("answers");
  const location = useLocation();
  const search = new URLSearchParams(location.search);
  const hrefOf = (id: number) => {
    search.set("group", String(view.pageOfQuestion[id]));
    return `${location.pathname}?${search}#q-${id}`;
  };
  return (
    <div id="missing-grades" tabIndex={-1}>
      <AlertBanner variant="warning" heading={t("missing.heading", { count: missing.length })}>
        <p>{t("missing.text")}</p>
        <ul>
          {missing.map((id) => (
            <li key={id}>
              <Link to={hrefOf(id)}>
                {t("missing.item", { page: view.pageOfQuestion[id], question: view.questionText[id] })}
              </Link>
            </li>
          ))}
        </ul>
      </AlertBanner>
    </div>
  );
}

/**
 * The form page's own error page, inside the app's frame: a page that cannot be shown (the database
 * restarting, say) says so, and that what was typed is kept in this browser and comes back with the
 * page (the autosave's keeper); other errors read as on the app's error page.
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation(["answers", "common"]);
  const location = useLocation();
  const status = isRouteErrorResponse(error) ? error.status : null;
  if (status === 404 || status === 400) {
    const name = status === 404 ? "notFound" : "badRequest";
    return (
      <div className="app-content">
        <h1>{t(`common:errors.${name}Title`)}</h1>
        <p>{t(`common:errors.${name}Text`)}</p>
        <p>
          <Link to="/">{t("common:errors.home")}</Link>
        </p>
      </div>
    );
  }
  return (
    <div className="app-content">
      <h1>{t("answers:pagePost.errorHeading")}</h1>
      <p>{t("answers:pagePost.errorText")}</p>
      <p>
        {/* A plain link: the whole page is loaded again, and the autosave puts back what it kept. */}
        <a href={location.pathname + location.search}>{t("answers:pagePost.reload")}</a>
      </p>
      <p>
        <Link to="/">{t("common:errors.home")}</Link>
      </p>
    </div>
  );
}
