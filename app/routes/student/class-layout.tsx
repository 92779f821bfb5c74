import { Outlet } from "react-router";
import { getDb } from "~/services/db/index.server";
import { requireRole } from "~/services/request.server";
import { ROLE } from "~/services/roles";
import { osloDate } from "~/services/semesters";
import { requireCurrentReference } from "~/services/student-placement.server";
import type { Route } from "./+types/class-layout";

/**
 * Every student page below needs a class this semester (spec §2): a student without one is sent
 * to /student, where they can join one. The pages check again themselves.
 */
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, context }, next) => {
    const session = requireRole(request, context, ROLE.Student);
    await requireCurrentReference(await getDb(), request, session.user.id, osloDate(new Date()));
    return next();
  },
];

export default function StudentClassLayout() {
  return <Outlet />;
}
