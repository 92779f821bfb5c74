import { Outlet } from "react-router";
import { areaMiddleware } from "~/services/identity/index.server";
import { ROLE } from "~/services/identity";
import type { Route } from "./+types/area";

/** The area of the practice supervisor: every page below /supervisor is for a session acting in that role, which the pages read from here. */
export const middleware: Route.MiddlewareFunction[] = [areaMiddleware(ROLE.Supervisor)];

export default function SupervisorArea() {
  return <Outlet />;
}
