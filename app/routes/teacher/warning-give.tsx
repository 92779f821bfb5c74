import { useTranslation } from "react-i18next";
import { redirect } from "react-router";
import { href } from "~/components/href";
import { ConfirmActions } from "~/components/app/ConfirmStep";
import { WarningContent } from "~/components/app/Warning";
import { AlertBanner, PageHeading } from "~/components/ui";
import { provideNamespace } from "~/i18n-client/page-namespaces";
import enConfirmSteps from "~/locales/en/confirmSteps.json";
import nbConfirmSteps from "~/locales/nb/confirmSteps.json";
import { getDb } from "~/services/platform/db/index.server";
import { redirectWithFlash } from "~/services/platform/flash.server";
import { getInstance, getLanguage } from "~/services/platform/i18n.server";
import { idParam, notFound } from "~/services/platform/ids";
import { appName, currentInstitution } from "~/services/platform/institution.server";
import { formatDayTime } from "~/services/platform/semesters";
import { requireStudentAccess, displayNameOf } from "~/services/placements/index.server";
import { clientAddress, mailOrigin, readFormData } from "~/services/platform/request.server";
import { requireRole } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import { isComplete, postedWarningId } from "~/services/warnings";
import { submitWarning, warningFor } from "~/services/warnings/index.server";
import type { Route } from "./+types/warning-give";

provideNamespace("confirmSteps", { nb: nbConfirmSteps, en: enConfirmSteps });

export const handle = { titleKey: "confirmSteps:give.title" };

/**
 * Giving a warning asks first, on a page of its own (as deleting one does), so the step is the
 * same with JavaScript on and off: the draft as the student will see it, then "Gi varselet nå".
 * The post names the draft it showed (`warningId`) and the version of its text (`version`, its
 * last change): a draft changed since is shown again rather than given unseen. The text given
 * is the one shown.
 */
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
  const warningPage = href("/teacher/class/:classId/student/:studentUserId/warning", {
    classId: String(classId),
    studentUserId: String(studentUserId),
  });
  return { session, db, access, studentUserId, warningPage, self: `${warningPage}/give` };
}

export async function loader(args: Route.LoaderArgs) {
  const { session, db, access, studentUserId, warningPage } = await guard(args);
  const warning = await warningFor(db, access);
  // Nothing to give (any more): the warning page shows what there is.
  if (!warning || warning.state !== "draft") throw redirect(warningPage);
  const language = getLanguage(args.context);
  return {
    studentName: await displayNameOf(db, studentUserId),
    // The teacher who gives it answers for it, and the student reads their name (warnings.server.ts).
    teacherName: session.user.displayName,
    nowText: formatDayTime(new Date(), language),
    warning: {
      id: warning.id,
      version: String(warning.updatedAt.getTime()),
      text: warning.text,
      complete: isComplete(warning.text),
    },
    warningPage,
  };
}

export async function action(args: Route.ActionArgs) {
  const { session, db, access, studentUserId, warningPage, self } = await guard(args);
  const form = await readFormData(args.request);
  const seenId = postedWarningId(form.get("warningId"));
  const version = form.get("version");
  if (
    form.get("intent") !== "give" ||
    seenId === undefined ||
    seenId === null ||
    typeof version !== "string" ||
    !/^\d{1,16}$/.test(version)
  ) {
    throw new Response("Bad Request", { status: 400 });
  }
  const warning = await warningFor(db, access);
  if (!warning || warning.id !== seenId)
    return redirectWithFlash(warningPage, { type: "error", key: "warnings:errors.gone" });
  if (warning.state !== "draft")
    return redirectWithFlash(warningPage, { type: "info", key: "warnings:teacher.givenAgain" });
  if (String(warning.updatedAt.getTime()) !== version || !isComplete(warning.text)) {
    return redirectWithFlash(self, { type: "error", key: "confirmSteps:give.changed" });
  }
  const outcome = await submitWarning(db, {
    access,
    actorUserId: session.user.id,
    ip: clientAddress(args.request),
    text: warning.text,
    seenId,
    mail: {
      // The student's mail in Norwegian, as the app's other mails: no language choice to go by.
      t: getInstance(args.context).getFixedT("nb", "warnings"),
      origin: mailOrigin(),
      appName: appName(currentInstitution(), "nb"),
    },
  });
  if (!outcome.ok) {
    if (outcome.error === "notAllowed") notFound();
    // Given or deleted meanwhile (another tab, a colleague): the warning page shows what there is now.
    return redirectWithFlash(warningPage, {
      type: "error",
      key: outcome.error === "alreadyGiven" ? "warnings:errors.alreadyGiven" : "warnings:errors.gone",
    });
  }
  if (!outcome.changed) return redirectWithFlash(warningPage, { type: "info", key: "warnings:teacher.givenAgain" });
  const name = await displayNameOf(db, studentUserId);
  return outcome.mailSent
    ? redirectWithFlash(warningPage, { type: "success", key: "warnings:teacher.given", values: { name } })
    : redirectWithFlash(warningPage, { type: "info", key: "warnings:teacher.givenMailFailed", values: { name } });
}

export default function GiveWarning({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("confirmSteps");
  const { t: tw } = useTranslation("warnings");
  const { studentName, teacherName, nowText, warning, warningPage } = loaderData;
  return (
    <div className="app-content">
      <PageHeading caption={`${studentName} · ${tw("heading")}`}>
        {t("give.heading", { name: studentName })}
      </PageHeading>
      <p>{t("give.intro", { name: studentName })}</p>
      <section className="warning-preview" aria-labelledby="preview-heading">
        <h2 id="preview-heading">{t("give.preview")}</h2>
        <p>{tw("student.given", { teacher: teacherName, date: nowText })}</p>
        <WarningContent text={warning.text} headingLevel={3} />
      </section>
      {warning.complete ? null : <AlertBanner variant="error">{t("give.incomplete")}</AlertBanner>}
      <ConfirmActions
        fields={{ intent: "give", warningId: String(warning.id), version: warning.version }}
        confirm={warning.complete ? t("give.confirm") : undefined}
        back={{ label: t("give.back"), href: warningPage }}
        variant="primary"
      />
    </div>
  );
}
