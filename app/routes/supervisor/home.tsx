import { ClassesHome } from "~/components/app/ClassesHome";
import { href } from "~/components/href";
import { StaffTodo } from "~/components/app/StaffTodo";
import { getDb } from "~/services/platform/db/index.server";
import { getLanguage } from "~/services/platform/i18n.server";
import { osloDate } from "~/services/platform/semesters";
import { splitByCurrent, classesOfSupervisor, staffTodo, staffTodoView } from "~/services/placements/index.server";
import { requireRole } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import type { Route } from "./+types/home";
import enTodo from "~/locales/en/todo.json";
import nbTodo from "~/locales/nb/todo.json";
import { provideNamespace } from "~/i18n-client/page-namespaces";

provideNamespace("todo", { nb: nbTodo, en: enTodo });

export const handle = { titleKey: "common:home.supervisor.title" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireRole(request, context, ROLE.Supervisor);
  const db = await getDb();
  // Attached classes and classes where the supervisor only follows a student they were invited to.
  const [classes, todo] = await Promise.all([
    classesOfSupervisor(db, session.user.id),
    staffTodo(db, { userId: session.user.id, role: "supervisor", today: osloDate(new Date()) }),
  ]);
  return {
    name: session.user.displayName,
    ...splitByCurrent(classes),
    todo: staffTodoView(todo, "supervisor", getLanguage(context)),
  };
}

export default function SupervisorHome({ loaderData }: Route.ComponentProps) {
  const { todo, ...home } = loaderData;
  return (
    <ClassesHome
      texts="home.supervisor"
      {...home}
      showOwn
      linkTo={(classId) => href("/supervisor/class/:classId", { classId: String(classId) })}
    >
      <StaffTodo todo={todo} />
    </ClassesHome>
  );
}
