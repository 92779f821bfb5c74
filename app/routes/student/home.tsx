import { useTranslation } from "react-i18next";
import { href } from "~/components/href";
import { StudentCurrentClass } from "~/components/app/StudentCurrentClass";
import { StudentEarlierClasses } from "~/components/app/StudentEarlierClasses";
import { StudentJoinClass } from "~/components/app/StudentJoinClass";
import { StudentTodo } from "~/components/app/StudentTodo";
import { getDb } from "~/services/platform/db/index.server";
import { deadlineText } from "~/services/placements";
import { matchingClasses, requireRole } from "~/services/identity/index.server";
import {
  classesOfStudent,
  requireStudentAccess,
  placementOf,
  classesWithSigningForm,
  currentReferenceOf,
  documentPaths,
  studentFormPath,
  studentTodo,
} from "~/services/placements/index.server";
import { ROLE } from "~/services/identity";
import { osloDate } from "~/services/platform/semesters";
import type { Route } from "./+types/home";
import enTodo from "~/locales/en/todo.json";
import nbTodo from "~/locales/nb/todo.json";
import { provideNamespace } from "~/i18n-client/page-namespaces";

provideNamespace("todo", { nb: nbTodo, en: enTodo });

export const handle = { titleKey: "student:home.title" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireRole(request, context, ROLE.Student);
  const userId = session.user.id;
  const db = await getDb();
  const today = osloDate(new Date());
  const reference = await currentReferenceOf(db, userId, today);

  let current = null;
  let todo = null;
  if (reference) {
    await requireStudentAccess(db, { userId, role: ROLE.Student }, reference.classId, userId);
    const placement = await placementOf(db, reference.referenceId, userId, today);
    if (placement) {
      const classId = placement.header.classId;
      const list = await studentTodo(db, placement, today);
      todo = {
        warning: list.warning,
        signingHref: list.signingWaits
          ? href("/student/class/:classId/student/:studentUserId/signingform", {
              classId: String(classId),
              studentUserId: String(userId),
            })
          : null,
        forms: list.forms.map((f) => ({
          key: `${f.schemeId}-${f.formId}`,
          name: f.name,
          isMidSemester: f.isMidSemester,
          deadline: f.deadline ? deadlineText(f.deadline) : null,
          behind: f.due === "behind",
          draft: f.draft,
          href: studentFormPath(userId, f, classId),
        })),
      };
      current = {
        subjectCode: placement.header.subjectCode,
        subjectName: placement.header.subjectName,
        semesterName: placement.header.semesterName,
        teacher: placement.teacher?.displayName ?? null,
        supervisors: [placement.supervisor, ...placement.extraSupervisors]
          .filter((p) => p !== null)
          .map((p) => p.displayName),
        half: placement.half.half,
        deadline: placement.half.deadline ? deadlineText(placement.half.deadline) : null,
      };
    }
  }

  const signed = await classesWithSigningForm(db, userId);
  const earlier = (await classesOfStudent(db, userId, today))
    .filter((c) => c.endDate < today)
    .map((c) => ({
      classId: c.classId,
      subjectCode: c.subjectCode,
      subjectName: c.subjectName,
      semesterName: c.semesterName,
      ...documentPaths(c.classId, userId, signed.has(c.classId)),
    }));

  return {
    name: session.user.displayName,
    current,
    todo,
    matching: reference ? [] : await matchingClasses(db, userId, today),
    earlier,
  };
}

export default function StudentHome({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("student");
  const { name, current, todo, matching, earlier } = loaderData;

  return (
    <div className="app-content">
      <h1>{t("home.title")}</h1>
      <p className="app-lead">{t("home.greeting", { name })}</p>

      {todo ? <StudentTodo todo={todo} /> : null}

      {current ? <StudentCurrentClass current={current} /> : <StudentJoinClass matching={matching} />}

      <StudentEarlierClasses earlier={earlier} />
    </div>
  );
}
