import { Outlet } from "react-router";
import { requireRole } from "~/services/identity/index.server";
import { areaOfPath } from "~/services/identity";
import type { Route } from "./+types/area-layout";

/** The guard of a role area: everything under /admin, /student, /teacher or /supervisor. */
function guard(request: Request, context: Parameters<Route.MiddlewareFunction>[0]["context"]) {
  const role = areaOfPath(new URL(request.url).pathname);
  if (role === null) throw new Response("Not found", { status: 404 });
  return requireRole(request, context, role);
}

export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, context }, next) => {
    guard(request, context);
    return next();
  },
];

export default function AreaLayout() {
  return <Outlet />;
}
