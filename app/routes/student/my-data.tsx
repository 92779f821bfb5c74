import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { href } from "~/components/href";
import { Table } from "~/components/ui";
import { Pagination } from "~/components/ui/Pagination";
import { provideNamespace } from "~/i18n-client/page-namespaces";
import enPrivacyData from "~/locales/en/privacyData.json";
import nbPrivacyData from "~/locales/nb/privacyData.json";
import { ROLE, ROLE_NAMES, isRoleId } from "~/services/identity";
import { requireRole } from "~/services/identity/index.server";
import { classesOfStudent, documentPaths } from "~/services/placements/index.server";
import { getDb } from "~/services/platform/db/index.server";
import { getLanguage } from "~/services/platform/i18n.server";
import { OPENINGS_PAGE_SIZE, openingsOf, pageParam } from "~/services/platform/record-openings.server";
import { formatDayTime } from "~/services/platform/semesters";
import type { Route } from "./+types/my-data";

provideNamespace("privacyData", { nb: nbPrivacyData, en: enPrivacyData });

export const handle = { titleKey: "privacyData:myData.title" };

/**
 * The student's own view of their data (GDPR art. 15 and 20, the rights of access and to data portability): who opened their pages and
 * documents, newest first, a page at a time, and a copy of everything (JSON, and the full-record
 * PDF per class). Only the student's own list: the session's user, never a URL parameter.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireRole(request, context, ROLE.Student);
  const userId = session.user.id;
  const page = pageParam(new URL(request.url).searchParams.get("page"));
  const db = await getDb();
  const offset = (page - 1) * OPENINGS_PAGE_SIZE;
  const [classes, openings] = await Promise.all([classesOfStudent(db, userId), openingsOf(db, userId, { offset })]);
  const language = getLanguage(context);
  return {
    classes: classes.map((c) => ({
      classId: c.classId,
      subjectCode: c.subjectCode,
      subjectName: c.subjectName,
      semesterName: c.semesterName,
      fullPdf: `${documentPaths(c.classId, userId, false).fullPdf}?download=1`,
    })),
    openings: openings.entries.map((entry, index) => ({
      key: `${offset + index}`,
      when: formatDayTime(entry.at, language),
      iso: entry.at.toISOString(),
      who: entry.viewerName,
      role: isRoleId(entry.viewerRole) ? ROLE_NAMES[entry.viewerRole] : null,
      kind: entry.kind,
      subjectCode: entry.subjectCode,
    })),
    page: {
      page,
      from: openings.total === 0 ? 0 : offset + 1,
      to: offset + openings.entries.length,
      total: openings.total,
      newer: page > 1 ? pageHref(page - 1) : null,
      older: offset + openings.entries.length < openings.total ? pageHref(page + 1) : null,
    },
  };
}

function pageHref(page: number): string {
  return page > 1
    ? `${href("/student/my-data")}?page=${page}#access-heading`
    : `${href("/student/my-data")}#access-heading`;
}

export default function MyData({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("privacyData");
  const { classes, openings, page } = loaderData;
  return (
    <div className="app-content">
      <h1>{t("myData.title")}</h1>
      <p className="app-lead">{t("myData.intro")}</p>

      <section aria-labelledby="copy-heading">
        <h2 id="copy-heading">{t("myData.copyHeading")}</h2>
        <p>{t("myData.copyText")}</p>
        <p>
          <Link to="/api/my-data" reloadDocument className="ui-button ui-button--secondary">
            {t("myData.downloadJson")}
          </Link>
        </p>
        <h3>{t("myData.pdfHeading")}</h3>
        {classes.length === 0 ? (
          <p>{t("myData.noClasses")}</p>
        ) : (
          <>
            <p>{t("myData.pdfText")}</p>
            <ul>
              {classes.map((c) => (
                <li key={c.classId}>
                  <Link to={c.fullPdf} reloadDocument>
                    {t("myData.pdfLink", { subject: `${c.subjectCode} ${c.subjectName}`, semester: c.semesterName })}
                  </Link>
                </li>
              ))}
            </ul>
          </>
        )}
      </section>

      <section aria-labelledby="access-heading">
        <h2 id="access-heading">{t("myData.accessHeading")}</h2>
        <p>{t("myData.accessText")}</p>
        {openings.length === 0 ? (
          <p>{t("myData.none")}</p>
        ) : (
          <Table
            caption={t("myData.accessCaption")}
            captionHidden
            columns={[
              { header: t("myData.when") },
              { header: t("myData.who") },
              { header: t("myData.role") },
              { header: t("myData.what") },
            ]}
            rows={openings.map((o) => {
              const what = t(`myData.kinds.${o.kind}`);
              return {
                key: o.key,
                cells: [
                  <time key="when" dateTime={o.iso}>
                    {o.when}
                  </time>,
                  o.who ?? t("myData.unknownPerson"),
                  o.role ? t(`common:roles.${o.role}.name`) : "",
                  o.subjectCode ? t("myData.inClass", { what, subject: o.subjectCode }) : what,
                ],
              };
            })}
          />
        )}
        {page.total > 0 ? (
          <Pagination
            navLabel={t("myData.pages")}
            className="app-pages"
            status={t("myData.shown", { from: page.from, to: page.to, total: page.total })}
            prev={page.newer ? { href: page.newer, label: t("myData.newer") } : undefined}
            href={page.older ?? undefined}
            label={t("myData.older")}
          />
        ) : null}
      </section>
    </div>
  );
}
