import { Outlet } from "react-router";
import { areaMiddleware } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import type { Route } from "./+types/area";

/** The area of the administrator: every page below /admin is for a session acting in that role, which the pages read from here. */
export const middleware: Route.MiddlewareFunction[] = [areaMiddleware(ROLE.Admin)];

export default function AdminArea() {
  return <Outlet />;
}
