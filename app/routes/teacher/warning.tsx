import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Link, redirect, type ShouldRevalidateFunctionArgs } from "react-router";
import { href } from "~/components/href";
import { TeacherWarningDraftForm } from "~/components/app/TeacherWarningDraftForm";
import { WarningContent, WarningFacts } from "~/components/app/Warning";
import { guardPagePost } from "~/components/app/useAutosave";
import { AlertBanner, PageHeading } from "~/components/ui";
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
import { normaliseWarning, postedWarningId, type WarningText } from "~/services/warnings";
import { saveWarningDraft, warningFor, warningForView } from "~/services/warnings/index.server";
import { schema } from "./warning.schema";
import type { Route } from "./+types/warning";
import "~/styles/warnings.css";

export const handle = { titleKey: "warnings:title" };

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
  const studentPage = href("/teacher/class/:classId/student/:userId", {
    classId: String(classId),
    userId: String(studentUserId),
  });
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
      autosave: href("/api/classes/:classId/students/:studentUserId/warning", {
        classId: String(classId),
        studentUserId: String(studentUserId),
      }),
      pdf: href("/api/classes/:classId/students/:studentUserId/warning/pdf", {
        classId: String(classId),
        studentUserId: String(studentUserId),
      }),
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
        <TeacherWarningDraftForm warning={warning} paths={paths} keeper={loaderData.keeper} actionData={reply} />
      )}
    </div>
  );
}
