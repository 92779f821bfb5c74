import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { href } from "~/components/href";
import { ResultsHalf } from "~/components/app/ResultsHalf";
import { PageHeading } from "~/components/ui";
import { getDb } from "~/services/platform/db/index.server";
import { recordOpening } from "~/services/platform/record-openings.server";
import { getLanguage } from "~/services/platform/i18n.server";
import { idParam } from "~/services/platform/ids";
import { requireAreaRole } from "~/services/identity/index.server";
import { formResults, resultsForView } from "~/services/answering/index.server";
import { ROLE } from "~/services/identity";
import type { Route } from "./+types/form-results";
import "~/styles/answers.css";
import enDocuments from "~/locales/en/documents.json";
import nbDocuments from "~/locales/nb/documents.json";
import { provideNamespace } from "~/i18n-client/page-namespaces";

provideNamespace("documents", { nb: nbDocuments, en: enDocuments });

export const handle = { titleKey: "answers:results.title" };

/** Where the back link leads: the student's forms page, or the staff member's page of the student. */
function backPath(role: number, ids: { classId: number; studentUserId: number }): string {
  if (role === ROLE.Student) return href("/student/forms");
  const params = { classId: String(ids.classId), userId: String(ids.studentUserId) };
  return role === ROLE.Teacher
    ? href("/teacher/class/:classId/student/:userId", params)
    : href("/supervisor/class/:classId/student/:userId", params);
}

/** Where the viewer answers the form in one of its schemes (the student's path has another order). */
function answerPath(role: number, ids: { classId: number; studentUserId: number; formId: number }, schemeId: number) {
  const params = {
    classId: String(ids.classId),
    studentUserId: String(ids.studentUserId),
    formId: String(ids.formId),
    schemeId: String(schemeId),
  };
  if (role === ROLE.Student)
    return href("/student/:studentUserId/form/:formId/class/:classId/assignment/:schemeId", params);
  return role === ROLE.Teacher
    ? href("/teacher/class/:classId/student/:studentUserId/form/:formId/assignment/:schemeId", params)
    : href("/supervisor/class/:classId/student/:studentUserId/form/:formId/assignment/:schemeId", params);
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const session = requireAreaRole(request, context);
  const role = session.activeRole;
  const ids = {
    classId: idParam(params.classId),
    formId: idParam(params.formId),
    studentUserId: idParam(params.studentUserId),
  };
  const db = await getDb();
  const results = await formResults(db, { userId: session.user.id, role }, ids);
  // After the check above, so only a permitted opening is recorded (none for the student's own).
  await recordOpening(db, {
    viewerUserId: session.user.id,
    viewerRole: role,
    studentUserId: ids.studentUserId,
    classId: ids.classId,
    kind: "results",
  });
  const view = resultsForView(results, getLanguage(context));
  return {
    pageTitle: view.formName,
    view: {
      ...view,
      halves: view.halves.map((half) => ({
        ...half,
        answerHref: half.schemeId === null ? null : answerPath(role, ids, half.schemeId),
      })),
    },
    back: backPath(role, ids),
    pdfHref: href("/api/classes/:classId/students/:studentUserId/forms/:formId/pdf", {
      classId: String(ids.classId),
      studentUserId: String(ids.studentUserId),
      formId: String(ids.formId),
    }),
  };
}

export default function FormResults({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("answers");
  const { view, back, pdfHref } = loaderData;
  return (
    <div className="app-content results-page">
      <p>
        <Link to={back}>{t("results.back")}</Link>
      </p>
      <PageHeading
        caption={[view.subject, view.relation === "self" ? null : view.student.displayName].filter(Boolean).join(" · ")}
      >
        {t("results.heading", { form: view.formName })}
      </PageHeading>
      <p>{view.relation === "self" ? t("results.introStudent") : t("results.introStaff")}</p>
      <p>
        {/* A resource route (a file), so a full document request rather than client navigation. */}
        <a href={pdfHref}>{t("documents:links.resultsPdf")}</a>
      </p>
      {view.halves.flatMap((half) =>
        half.answerHref === null
          ? []
          : [<ResultsHalf key={String(half.isMidSemester)} half={half} answerHref={half.answerHref} />],
      )}
    </div>
  );
}
