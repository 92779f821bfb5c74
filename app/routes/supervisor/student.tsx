import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { href } from "~/components/href";
import { SigningFormCard } from "~/components/app/SigningFormCard";
import { StudentPlacement } from "~/components/app/StudentPlacement";
import { WarningCard } from "~/components/app/WarningCard";
import { PageHeading } from "~/components/ui";
import { getDb } from "~/services/platform/db/index.server";
import { recordOpening } from "~/services/platform/record-openings.server";
import { getLanguage } from "~/services/platform/i18n.server";
import { idParam, notFound } from "~/services/platform/ids";
import { requireStudentAccess, placementOf, placementForView } from "~/services/placements/index.server";
import { requireRole } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import { signingFormCard } from "~/services/signing/index.server";
import { warningFor, warningForView } from "~/services/warnings/index.server";
import type { Route } from "./+types/student";
import enSupervisor from "~/locales/en/supervisor.json";
import nbSupervisor from "~/locales/nb/supervisor.json";
import { provideNamespace } from "~/i18n-client/page-namespaces";

provideNamespace("supervisor", { nb: nbSupervisor, en: enSupervisor });

export const handle = { titleKey: "supervisor:student.title" };

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const session = requireRole(request, context, ROLE.Supervisor);
  const classId = idParam(params.classId);
  const studentUserId = idParam(params.userId);
  const db = await getDb();
  // Only the supervisor's own students, assigned or extra; anyone else's is a 404.
  const access = await requireStudentAccess(
    db,
    { userId: session.user.id, role: ROLE.Supervisor },
    classId,
    studentUserId,
  );
  const opening = {
    viewerUserId: session.user.id,
    viewerRole: ROLE.Supervisor,
    studentUserId,
    classId,
    kind: "studentPage",
  } as const;
  const [placement, warning] = await Promise.all([
    placementOf(db, access.referenceId, session.user.id),
    // A given warning, read-only; a draft is the teachers' alone (ADR 0008).
    warningFor(db, access),
    recordOpening(db, opening),
  ]);
  if (!placement) notFound();
  const language = getLanguage(context);
  return {
    placement: placementForView(placement, language),
    relation: access.relation,
    signingForm: await signingFormCard(db, access.referenceId, language),
    warning: warning ? warningForView(warning, language) : null,
  };
}

export default function SupervisorStudent({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("supervisor");
  const { placement, relation, signingForm, warning } = loaderData;
  const { header, student } = placement;
  const ids = { classId: String(header.classId), studentUserId: String(student.userId) };
  return (
    <div className="app-content">
      <p>
        <Link to={href("/supervisor/class/:classId", ids)}>
          {t("student.backToClass", { subjectCode: header.subjectCode, subjectName: header.subjectName })}
        </Link>
      </p>
      <PageHeading caption={`${header.subjectCode} ${header.subjectName}, ${header.semesterName}`}>
        {student.displayName}
      </PageHeading>
      <p>{relation === "supervisor" ? t("student.youAreAssigned") : t("student.youAreExtra")}</p>
      <StudentPlacement
        placement={placement}
        formHref={(f) =>
          href("/supervisor/class/:classId/student/:studentUserId/form/:formId/assignment/:schemeId", {
            ...ids,
            formId: String(f.formId),
            schemeId: String(f.schemeId),
          })
        }
        resultsHref={(f) =>
          href("/supervisor/class/:classId/student/:studentUserId/form/:formId/results", {
            ...ids,
            formId: String(f.formId),
          })
        }
      >
        <SigningFormCard
          card={signingForm}
          href={href("/supervisor/class/:classId/student/:studentUserId/signingform", ids)}
        />
        <WarningCard warning={warning} />
      </StudentPlacement>
    </div>
  );
}
