import { Outlet } from "react-router";
import { areaMiddleware } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import type { Route } from "./+types/area";

/** The area of the student: every page below /student is for a session acting in that role, which the pages read from here. */
export const middleware: Route.MiddlewareFunction[] = [areaMiddleware(ROLE.Student)];

export default function StudentArea() {
  return <Outlet />;
}
