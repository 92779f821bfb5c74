import { useTranslation } from "react-i18next";
import { ClassTable } from "~/components/app/ClassTable";
import { getDb } from "~/services/db/index.server";
import { classesOfTeacher } from "~/services/overview.server";
import { requireRole } from "~/services/request.server";
import { ROLE } from "~/services/roles";
import type { Route } from "./+types/home";

export const handle = { titleKey: "common:home.teacher.title" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireRole(request, context, ROLE.Teacher);
  const classes = await classesOfTeacher(await getDb(), session.user.id);
  return { name: session.user.displayName, current: classes.filter((c) => c.isCurrent), earlier: classes.filter((c) => !c.isCurrent) };
}

export default function TeacherHome({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div className="app-content">
      <h1>{t("home.teacher.title")}</h1>
      <p className="app-lead">{t("home.greeting", { name: loaderData.name })}</p>
      <h2>{t("home.teacher.current")}</h2>
      <ClassTable caption={t("home.teacher.current")} rows={loaderData.current} />
      {loaderData.earlier.length > 0 ? (
        <>
          <h2>{t("home.teacher.earlier")}</h2>
          <ClassTable caption={t("home.teacher.earlier")} rows={loaderData.earlier} />
        </>
      ) : null}
    </div>
  );
}
