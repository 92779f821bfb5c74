import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { PageHeading, SummaryList, Table, Tag } from "~/components/ui";
import { advisorStudentsPage, parseId } from "~/services/admin-classes.server";
import { getDb } from "~/services/db/index.server";
import { requireRole } from "~/services/request.server";
import { ROLE } from "~/services/roles";
import type { Route } from "./+types/class-advisor";

export const handle = { titleKey: "adminClass:advisor.title" };

export async function loader({ request, context, params }: Route.LoaderArgs) {
  requireRole(request, context, ROLE.Admin);
  const classId = parseId(params.classId);
  const userId = parseId(params.userId);
  if (classId === null || userId === null) throw new Response("Not Found", { status: 404 });
  const page = await advisorStudentsPage(await getDb(), classId, userId);
  if (!page) throw new Response("Not Found", { status: 404 });
  return page;
}

export default function AdminClassAdvisor({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("adminClass");
  const { header, supervisor, students } = loaderData;
  const classLink = `/admin/class/${header.classId}`;
  return (
    <div className="app-content">
      <p>
        <Link to={classLink}>
          {t("advisor.backToClass", { subjectCode: header.subjectCode, subjectName: header.subjectName })}
        </Link>
      </p>
      <PageHeading caption={`${header.subjectCode} ${header.subjectName}, ${header.periodName}`}>
        {t("advisor.heading", { name: supervisor.displayName })}
      </PageHeading>
      <SummaryList
        rows={[
          {
            key: t("advisor.supervisor"),
            value: (
              <>
                <Link to={`/admin/users/${supervisor.userId}`}>{supervisor.displayName}</Link> ({supervisor.email})
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
            key: t("advisor.class"),
            value: (
              <Link to={classLink}>
                {t("advisor.classValue", {
                  subjectCode: header.subjectCode,
                  subjectName: header.subjectName,
                  period: header.periodName,
                })}
              </Link>
            ),
          },
        ]}
      />
      <h2>{t("people.students", { count: students.length })}</h2>
      {students.length === 0 ? (
        <p>{t("advisor.none")}</p>
      ) : (
        <Table
          caption={t("advisor.studentsCaption", { name: supervisor.displayName })}
          captionHidden
          rowHeaders
          columns={[
            { header: t("people.name") },
            { header: t("people.email") },
            { header: t("people.teacher") },
            { header: t("advisor.relation") },
          ]}
          rows={students.map((s) => ({
            key: String(s.userId),
            inactive: !s.isActive,
            cells: [
              <>
                <Link to={`/admin/users/${s.userId}`}>{s.displayName}</Link>
                {s.isActive ? null : (
                  <>
                    {" "}
                    <Tag variant="neutral">{t("people.deactivated")}</Tag>
                  </>
                )}
              </>,
              s.email,
              s.teacherName ?? t("people.none"),
              s.relation === "assigned" ? t("advisor.assigned") : t("advisor.extra"),
            ],
          }))}
        />
      )}
    </div>
  );
}
