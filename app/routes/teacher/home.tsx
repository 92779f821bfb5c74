import { ClassesHome } from "~/components/app/ClassesHome";
import { getDb } from "~/services/db/index.server";
import { classesOfTeacher, splitByCurrent } from "~/services/overview.server";
import { requireRole } from "~/services/request.server";
import { ROLE } from "~/services/roles";
import type { Route } from "./+types/home";

export const handle = { titleKey: "common:home.teacher.title" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireRole(request, context, ROLE.Teacher);
  const classes = await classesOfTeacher(await getDb(), session.user.id);
  return { name: session.user.displayName, ...splitByCurrent(classes) };
}

export default function TeacherHome({ loaderData }: Route.ComponentProps) {
  return <ClassesHome texts="home.teacher" {...loaderData} />;
}
