import { useTranslation } from "react-i18next";
import { ClassTable } from "~/components/app/ClassTable";
import { getDb } from "~/services/db/index.server";
import { classesOfAdvisor } from "~/services/overview.server";
import { requireRole } from "~/services/request.server";
import { ROLE } from "~/services/roles";
import type { Route } from "./+types/home";

export const handle = { titleKey: "common:home.supervisor.title" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireRole(request, context, ROLE.Advisor);
  const classes = await classesOfAdvisor(await getDb(), session.user.id);
  return { name: session.user.displayName, current: classes.filter((c) => c.isCurrent), earlier: classes.filter((c) => !c.isCurrent) };
}

export default function SupervisorHome({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div className="app-content">
      <h1>{t("home.supervisor.title")}</h1>
      <p className="app-lead">{t("home.greeting", { name: loaderData.name })}</p>
      <h2>{t("home.supervisor.current")}</h2>
      <ClassTable caption={t("home.supervisor.current")} rows={loaderData.current} showOwn />
      {loaderData.earlier.length > 0 ? (
        <>
          <h2>{t("home.supervisor.earlier")}</h2>
          <ClassTable caption={t("home.supervisor.earlier")} rows={loaderData.earlier} showOwn />
        </>
      ) : null}
    </div>
  );
}
