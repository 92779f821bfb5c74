import { useTranslation } from "react-i18next";
import { data, Link } from "react-router";
import { href } from "~/components/href";
import { ClassDetails, SchemesTable } from "~/components/app/ClassDetails";
import { TeacherClassJoin } from "~/components/app/TeacherClassJoin";
import { TeacherClassLeave } from "~/components/app/TeacherClassLeave";
import { TeacherClassPeople } from "~/components/app/TeacherClassPeople";
import { TeacherClassProgress, type TeacherProgressRow } from "~/components/app/TeacherClassProgress";
import { PageHeading } from "~/components/ui";
import { classHeader, classHeaderView } from "~/services/admin/index.server";
import type { Db } from "~/services/platform/db/client.server";
import { getDb } from "~/services/platform/db/index.server";
import { deadlineText, formDue } from "~/services/placements";
import { redirectWithFlash } from "~/services/platform/flash.server";
import { getLanguage } from "~/services/platform/i18n.server";
import { idParam, notFound } from "~/services/platform/ids";
import {
  requireClassAccess,
  requireClassTeacher,
  halfProgress,
  joinClassAsTeacher,
  leaveClass,
  progressPage,
  readSort,
  teacherClassPage,
  type AuthorCounts,
  type HalfProgress,
  type ProgressPage,
  type ProgressRow,
} from "~/services/placements/index.server";
import { clientAddress, readFormData } from "~/services/platform/request.server";
import { requireRole } from "~/services/identity/index.server";
import { osloDate } from "~/services/platform/semesters";
import { ROLE } from "~/services/identity";
import type { Route } from "./+types/class";
import enTodo from "~/locales/en/todo.json";
import nbTodo from "~/locales/nb/todo.json";
import { provideNamespace } from "~/i18n-client/page-namespaces";

import "~/styles/overviews.css";

provideNamespace("todo", { nb: nbTodo, en: enTodo });

export const handle = { titleKey: "teacher:class.title" };

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const session = requireRole(request, context, ROLE.Teacher);
  const classId = idParam(params.classId);
  const db = await getDb();
  const access = await requireClassAccess(db, { userId: session.user.id, role: ROLE.Teacher }, classId);
  const query = new URL(request.url).searchParams;
  const { sort, dir } = readSort(query);
  const page = await teacherClassPage(db, { classId, viewerUserId: session.user.id, access, sort, dir });
  if (!page) notFound();
  const { header, half, members, formCount } = page;
  const today = osloDate(new Date());
  // Judged per student against their own deadline: a confirmed mid-semester part closes that half.
  const state: JudgeHalf = (counts, isMid, midConfirmed) =>
    halfProgress(counts, isMid ? formCount.mid : formCount.end, formDue(isMid, header, midConfirmed, today));
  return {
    header: classHeaderView(header, getLanguage(context)),
    deadline: { half: half.half, text: half.deadline ? deadlineText(half.deadline) : null },
    ended: page.ended,
    schemes: page.schemes.map(({ schemeId, isMidSemester, forms }) => ({
      schemeId,
      isMidSemester,
      forms: forms.filter((f) => !f.deleted).map(({ formId, name, isMainForm }) => ({ formId, name, isMainForm })),
    })),
    formCount,
    sort,
    dir,
    // An outsider (who may see the class's forms) gets nothing about its people: their names and addresses are for those who work with them.
    members: members
      ? {
          myStudents: members.myStudents.map((s) => ({
            userId: s.userId,
            displayName: s.displayName,
            email: s.email,
            isActive: s.isActive,
            supervisorName: s.supervisorName,
          })),
          supervisors: members.supervisors,
          // One page of the sorted overview: the page costs the same whatever the class size.
          progress: progressView(progressPage(members.progress, query), state),
        }
      : null,
  };
}

/** How a student's half stands: judged against the student's own deadline. */
type JudgeHalf = (counts: AuthorCounts, isMid: boolean, midConfirmed: boolean) => HalfProgress;

function progressView({ rows, ...page }: ProgressPage<ProgressRow>, state: JudgeHalf) {
  return {
    page,
    rows: rows.map((row): TeacherProgressRow => ({
      userId: row.userId,
      displayName: row.displayName,
      isActive: row.isActive,
      teacherName: row.teacherName,
      supervisorName: row.supervisorName,
      mid: { counts: row.mid, state: state(row.mid, true, row.midConfirmed) },
      end: { counts: row.end, state: state(row.end, false, row.midConfirmed) },
      warning: row.warning,
      signing: row.signing,
    })),
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const session = requireRole(request, context, ROLE.Teacher);
  const classId = idParam(params.classId);
  const db = await getDb();
  const viewer = { userId: session.user.id, role: ROLE.Teacher };
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  const self = href("/teacher/class/:classId", { classId: String(classId) });

  if (intent === "join") {
    await requireClassAccess(db, viewer, classId);
    const outcome = await joinClassAsTeacher(db, { classId, userId: session.user.id, ip: clientAddress(request) });
    if (!outcome.ok) {
      if (outcome.error === "notFound") notFound();
      if (outcome.error === "ended") return data({ error: "teacher:errors.ended" }, { status: 400 });
    }
    return redirectWithFlash(self, {
      type: outcome.ok ? "success" : "info",
      key: outcome.ok ? "teacher:class.joined" : "teacher:class.alreadyJoined",
      values: { subject: await subjectOf(db, classId) },
    });
  }

  if (intent === "leave") {
    await requireClassTeacher(db, viewer, classId);
    const outcome = await leaveClass(db, { classId, userId: session.user.id, ip: clientAddress(request) });
    if (!outcome.ok) notFound();
    const subject = await subjectOf(db, classId);
    const { released } = outcome;
    const names = released.map((s) => s.displayName).join(", ");
    return redirectWithFlash(
      href("/teacher"),
      released.length === 0
        ? { type: "success", key: "teacher:class.left", values: { subject } }
        : { type: "success", key: "teacher:class.leftReleased", values: { subject, count: released.length, names } },
    );
  }

  throw new Response("Bad Request", { status: 400 });
}

async function subjectOf(db: Db, classId: number): Promise<string> {
  const header = await classHeader(db, classId);
  return header ? `${header.subjectCode} ${header.subjectName}` : "";
}

export default function TeacherClass({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("teacher");
  const { header, deadline, ended, schemes, members } = loaderData;
  const classId = header.classId;

  return (
    <div className="app-content">
      <p>
        <Link to="/teacher">{t("class.backToHome")}</Link>
      </p>
      <PageHeading caption={header.semesterName}>
        {header.subjectCode} {header.subjectName}
      </PageHeading>

      <ClassDetails header={header} deadline={deadline} />

      {members ? (
        <>
          <TeacherClassPeople classId={classId} myStudents={members.myStudents} supervisors={members.supervisors} />
          <TeacherClassProgress
            classId={classId}
            progress={members.progress}
            formCount={loaderData.formCount}
            sort={loaderData.sort}
            dir={loaderData.dir}
          />
        </>
      ) : (
        <TeacherClassJoin ended={ended} error={actionData?.error} />
      )}

      <h2 id="schemes">{t("common:schemes.heading")}</h2>
      {/* The forms to read are for the class's teachers (an outsider joins first). */}
      <SchemesTable
        schemes={schemes}
        formHref={
          members
            ? (formId) =>
                `${href("/teacher/form/:formId", { formId: String(formId) })}?${new URLSearchParams({
                  from: href("/teacher/class/:classId", { classId: String(classId) }),
                })}`
            : undefined
        }
      />

      {members ? <TeacherClassLeave classId={classId} released={members.myStudents} /> : null}
    </div>
  );
}
