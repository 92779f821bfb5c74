import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { href } from "~/components/href";
import { PageHeading, SummaryList, Tag } from "~/components/ui";
import { supervisorStudentsPage } from "~/services/admin/index.server";
import { getDb } from "~/services/platform/db/index.server";
import { requireRole } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import { PeopleTable } from "~/components/app/PeopleTable";
import type { Route } from "./+types/class-supervisor";
import { idParam, notFound } from "~/services/platform/ids";
import enAdminClass from "~/locales/en/adminClass.json";
import nbAdminClass from "~/locales/nb/adminClass.json";
import { provideNamespace } from "~/i18n-client/page-namespaces";

// Only the admin's class pages use these texts: not in the language chunk every page loads (ADR 0012).
provideNamespace("adminClass", { nb: nbAdminClass, en: enAdminClass });

export const handle = { titleKey: "adminClass:supervisor.title" };

export async function loader({ request, context, params }: Route.LoaderArgs) {
  requireRole(request, context, ROLE.Admin);
  const classId = idParam(params.classId);
  const userId = idParam(params.userId);
  const page = await supervisorStudentsPage(await getDb(), classId, userId);
  if (!page) notFound();
  return page;
}

export default function AdminClassSupervisor({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("adminClass");
  const { header, supervisor, students } = loaderData;
  const classLink = href("/admin/class/:classId", { classId: String(header.classId) });
  return (
    <div className="app-content">
      <p>
        <Link to={classLink}>
          {t("supervisor.backToClass", { subjectCode: header.subjectCode, subjectName: header.subjectName })}
        </Link>
      </p>
      <PageHeading caption={`${header.subjectCode} ${header.subjectName}, ${header.semesterName}`}>
        {t("supervisor.heading", { name: supervisor.displayName })}
      </PageHeading>
      <SummaryList
        rows={[
          {
            key: t("supervisor.supervisor"),
            value: (
              <>
                <Link to={href("/admin/users/:userId", { userId: String(supervisor.userId) })}>
                  {supervisor.displayName}
                </Link>{" "}
                ({supervisor.email})
                {supervisor.isActive ? null : (
                  <>
                    {" "}
                    <Tag variant="neutral">{t("people.deactivated")}</Tag>
                  </>
                )}
              </>
            ),
          },
          {
            key: t("supervisor.class"),
            value: (
              <Link to={classLink}>
                {t("supervisor.classValue", {
                  subjectCode: header.subjectCode,
                  subjectName: header.subjectName,
                  semester: header.semesterName,
                })}
              </Link>
            ),
          },
        ]}
      />
      <h2>{t("people.students", { count: students.length })}</h2>
      <PeopleTable
        caption={t("supervisor.studentsCaption", { name: supervisor.displayName })}
        empty={t("supervisor.none")}
        people={students}
        href={(s) => href("/admin/users/:userId", { userId: String(s.userId) })}
        nameHeader={t("people.name")}
        emailHeader={t("people.email")}
        deactivatedLabel={t("people.deactivated")}
        columns={[
          { header: t("people.teacher"), cell: (s) => s.teacherName ?? t("people.none") },
          {
            header: t("supervisor.relation"),
            cell: (s) => (s.relation === "assigned" ? t("supervisor.assigned") : t("supervisor.extra")),
          },
        ]}
      />
    </div>
  );
}
