import { ClassesHome } from "~/components/app/ClassesHome";
import { getDb } from "~/services/platform/db/index.server";
import { splitByCurrent, classesOfSupervisor } from "~/services/placements/index.server";
import { requireRole } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import type { Route } from "./+types/home";

export const handle = { titleKey: "common:home.supervisor.title" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireRole(request, context, ROLE.Advisor);
  // Attached classes and classes where the supervisor only follows a student they were invited to.
  const classes = await classesOfSupervisor(await getDb(), session.user.id);
  return { name: session.user.displayName, ...splitByCurrent(classes) };
}

export default function SupervisorHome({ loaderData }: Route.ComponentProps) {
  return <ClassesHome texts="home.supervisor" {...loaderData} showOwn linkTo={(classId) => `/supervisor/class/${classId}`} />;
}
