import { ClassesHome } from "~/components/app/ClassesHome";
import { getDb } from "~/services/db/index.server";
import { classesOfStudent, splitByCurrent } from "~/services/overview.server";
import { requireRole } from "~/services/request.server";
import { ROLE } from "~/services/roles";
import type { Route } from "./+types/home";

export const handle = { titleKey: "common:home.student.title" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireRole(request, context, ROLE.Student);
  const classes = await classesOfStudent(await getDb(), session.user.id);
  return { name: session.user.displayName, ...splitByCurrent(classes) };
}

export default function StudentHome({ loaderData }: Route.ComponentProps) {
  return <ClassesHome texts="home.student" {...loaderData} />;
}
