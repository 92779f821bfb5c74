import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { href } from "~/components/href";
import { PeopleTable } from "~/components/app/PeopleTable";
import { PageHeading, SummaryList, Tag } from "~/components/ui";
import { supervisorStudentsPage } from "~/services/admin/index.server";
import { getDb } from "~/services/platform/db/index.server";
import { idParam, notFound } from "~/services/platform/ids";
import { requireClassTeacher } from "~/services/placements/index.server";
import { requireRole } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import type { Route } from "./+types/supervisor";

export const handle = { titleKey: "teacher:supervisor.title" };

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const session = requireRole(request, context, ROLE.Teacher);
  const classId = idParam(params.classId);
  const userId = idParam(params.userId);
  const db = await getDb();
  await requireClassTeacher(db, { userId: session.user.id, role: ROLE.Teacher }, classId);
  const page = await supervisorStudentsPage(db, classId, userId);
  if (!page) notFound();
  const { header, supervisor, students } = page;
  return {
    classId,
    subject: `${header.subjectCode} ${header.subjectName}`,
    semesterName: header.semesterName,
    supervisor,
    students,
  };
}

export default function TeacherSupervisor({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("teacher");
  const { classId, subject, semesterName, supervisor, students } = loaderData;
  return (
    <div className="app-content">
      <p>
        <Link to={href("/teacher/class/:classId", { classId: String(classId) })}>
          {t("supervisor.backToClass", { subject })}
        </Link>
      </p>
      <PageHeading caption={`${subject}, ${semesterName}`}>
        {t("supervisor.heading", { name: supervisor.displayName })}
      </PageHeading>
      <SummaryList
        rows={[
          {
            key: t("supervisor.supervisor"),
            value: (
              <>
                {supervisor.displayName} (<a href={`mailto:${supervisor.email}`}>{supervisor.email}</a>)
                {supervisor.isActive ? null : (
                  <>
                    {" "}
                    <Tag variant="neutral">{t("class.people.deactivated")}</Tag>
                  </>
                )}
              </>
            ),
          },
        ]}
      />
      <h2>{t("supervisor.studentsHeading", { count: students.length })}</h2>
      <PeopleTable
        caption={t("supervisor.caption", { name: supervisor.displayName })}
        empty={t("supervisor.none")}
        people={students}
        href={(s) =>
          href("/teacher/class/:classId/student/:userId", { classId: String(classId), userId: String(s.userId) })
        }
        nameHeader={t("class.people.name")}
        emailHeader={t("class.people.email")}
        deactivatedLabel={t("class.people.deactivated")}
        columns={[
          { header: t("supervisor.teacher"), cell: (s) => s.teacherName ?? t("class.people.none") },
          {
            header: t("supervisor.relation"),
            cell: (s) => (s.relation === "assigned" ? t("supervisor.assigned") : t("supervisor.extra")),
          },
        ]}
      />
    </div>
  );
}
