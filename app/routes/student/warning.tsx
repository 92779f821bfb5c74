import { useTranslation } from "react-i18next";
import { Form, Link, useNavigation } from "react-router";
import { href } from "~/components/href";
import { WarningContent } from "~/components/app/Warning";
import { AlertBanner, Button, PageHeading } from "~/components/ui";
import { getDb } from "~/services/platform/db/index.server";
import { redirectWithFlash } from "~/services/platform/flash.server";
import { getLanguage } from "~/services/platform/i18n.server";
import { notFound } from "~/services/platform/ids";
import { requireStudentAccess, requireCurrentReference } from "~/services/placements/index.server";
import { clientAddress, readFormData } from "~/services/platform/request.server";
import { requireRole } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import { osloDate } from "~/services/platform/semesters";
import { postedWarningId } from "~/services/warnings";
import { confirmWarning, warningFor, warningForView } from "~/services/warnings/index.server";
import type { Route } from "./+types/warning";
import "~/styles/warnings.css";

/** The student's class layout leaves its alert out here: this page is where it leads. */
export const handle = { titleKey: "warnings:title", showsWarning: true };

const SELF = "/student/warning";

/** The student's warning in their class this semester (the warning alert on every student page leads here). */
async function guard(args: Route.LoaderArgs | Route.ActionArgs) {
  const session = requireRole(args.request, args.context, ROLE.Student);
  const userId = session.user.id;
  const db = await getDb();
  const reference = await requireCurrentReference(db, args.request, userId, osloDate(new Date()));
  const access = await requireStudentAccess(db, { userId, role: ROLE.Student }, reference.classId, userId);
  return { session, db, access, reference };
}

export async function loader(args: Route.LoaderArgs) {
  const { db, access, reference } = await guard(args);
  const warning = await warningFor(db, access);
  return {
    subject: `${reference.subjectCode} ${reference.subjectName}`,
    warning: warning ? warningForView(warning, getLanguage(args.context)) : null,
    pdf: href("/api/classes/:classId/students/:studentUserId/warning/pdf", {
      classId: String(access.classId),
      studentUserId: String(access.studentUserId),
    }),
  };
}

export async function action(args: Route.ActionArgs) {
  const { session, db, access } = await guard(args);
  const seenId = postedWarningId((await readFormData(args.request)).get("warningId"));
  if (seenId === undefined || seenId === null) throw new Response("Bad Request", { status: 400 });
  const outcome = await confirmWarning(db, {
    access,
    actorUserId: session.user.id,
    ip: clientAddress(args.request),
    seenId,
  });
  if (!outcome.ok) {
    if (outcome.error === "notAllowed") notFound();
    // Deleted, or given anew, since the page was shown: the student reads what there is now.
    return redirectWithFlash(SELF, { type: "error", key: "warnings:student.changed" });
  }
  return redirectWithFlash(SELF, { type: "success", key: "warnings:student.confirmedFlash" });
}

export default function StudentWarning({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("warnings");
  const busy = useNavigation().state === "submitting";
  const { subject, warning, pdf } = loaderData;
  return (
    <div className="app-content">
      <p>
        <Link to="/student/forms">{t("student.backToForms")}</Link>
      </p>
      <PageHeading caption={subject}>{t("heading")}</PageHeading>
      {!warning ? (
        <p>{t("student.none", { subject })}</p>
      ) : (
        <>
          {warning.state === "confirmed" ? (
            <AlertBanner variant="success" heading={t("student.confirmedHeading")}>
              <p>{t("student.confirmedText", { date: warning.confirmedText })}</p>
            </AlertBanner>
          ) : null}
          <p>{t("student.given", { teacher: warning.teacherName, date: warning.givenText })}</p>
          <WarningContent text={warning.text} />
          <p>
            {/* A resource route (a file): a full document request, not client navigation. */}
            <a href={pdf}>{t("pdf")}</a>
          </p>
          {warning.state === "given" ? (
            <Form method="post" className="warning-confirm">
              <input type="hidden" name="warningId" value={warning.id} />
              <p id="confirm-hint">{t("student.confirmHint")}</p>
              <Button disabled={busy} aria-describedby="confirm-hint">
                {t("student.confirm")}
              </Button>
            </Form>
          ) : null}
        </>
      )}
    </div>
  );
}
