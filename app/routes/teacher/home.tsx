import { useTranslation } from "react-i18next";
import { href } from "~/components/href";
import { ClassTable } from "~/components/app/ClassTable";
import { StaffTodo } from "~/components/app/StaffTodo";
import { getDb } from "~/services/platform/db/index.server";
import { getLanguage } from "~/services/platform/i18n.server";
import { osloDate } from "~/services/platform/semesters";
import {
  classesOfTeacher,
  splitByCurrent,
  otherClassesThisSemester,
  staffTodo,
  staffTodoView,
} from "~/services/placements/index.server";
import { requireRole } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import type { Route } from "./+types/home";
import enTodo from "~/locales/en/todo.json";
import nbTodo from "~/locales/nb/todo.json";
import { provideNamespace } from "~/i18n-client/page-namespaces";

provideNamespace("todo", { nb: nbTodo, en: enTodo });

export const handle = { titleKey: "teacher:home.title" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireRole(request, context, ROLE.Teacher);
  const db = await getDb();
  const [own, others, todo] = await Promise.all([
    classesOfTeacher(db, session.user.id),
    otherClassesThisSemester(db, session.user.id),
    staffTodo(db, { userId: session.user.id, role: "teacher", today: osloDate(new Date()) }),
  ]);
  return {
    name: session.user.displayName,
    ...splitByCurrent(own),
    others,
    todo: staffTodoView(todo, "teacher", getLanguage(context)),
  };
}

const classLink = (classId: number) => href("/teacher/class/:classId", { classId: String(classId) });

export default function TeacherHome({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("teacher");
  const { name, current, earlier, others, todo } = loaderData;
  return (
    <div className="app-content">
      <h1>{t("home.title")}</h1>
      <p className="app-lead">{t("common:home.greeting", { name })}</p>

      <StaffTodo todo={todo} />

      <h2>{t("home.current")}</h2>
      {current.length === 0 ? (
        <p>{t("home.noCurrent")}</p>
      ) : (
        <ClassTable caption={t("home.current")} rows={current} linkTo={classLink} />
      )}

      <h2>{t("home.others")}</h2>
      {others.length === 0 ? (
        <p>{t("home.noOthers")}</p>
      ) : (
        <>
          <p>{t("home.othersIntro")}</p>
          <ClassTable caption={t("home.others")} rows={others} linkTo={classLink} />
        </>
      )}

      {earlier.length > 0 ? (
        <>
          <h2>{t("home.earlier")}</h2>
          <ClassTable caption={t("home.earlier")} rows={earlier} linkTo={classLink} />
        </>
      ) : null}
    </div>
  );
}
