import { useTranslation } from "react-i18next";
import { ClassTable } from "~/components/app/ClassTable";
import { getDb } from "~/services/db/index.server";
import { classesOfStudent } from "~/services/overview.server";
import { requireRole } from "~/services/request.server";
import { ROLE } from "~/services/roles";
import type { Route } from "./+types/home";

export const handle = { titleKey: "common:home.student.title" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireRole(request, context, ROLE.Student);
  const classes = await classesOfStudent(await getDb(), session.user.id);
  return { name: session.user.displayName, current: classes.filter((c) => c.isCurrent), earlier: classes.filter((c) => !c.isCurrent) };
}

export default function StudentHome({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div className="app-content">
      <h1>{t("home.student.title")}</h1>
      <p className="app-lead">{t("home.greeting", { name: loaderData.name })}</p>
      <h2>{t("home.student.current")}</h2>
      {loaderData.current.length === 0 ? (
        <p>{t("home.student.noClass")}</p>
      ) : (
        <ClassTable caption={t("home.student.current")} rows={loaderData.current} />
      )}
      {loaderData.earlier.length > 0 ? (
        <>
          <h2>{t("home.student.earlier")}</h2>
          <ClassTable caption={t("home.student.earlier")} rows={loaderData.earlier} />
        </>
      ) : null}
    </div>
  );
}
