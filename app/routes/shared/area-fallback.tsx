import { redirect } from "react-router";
import { notFound } from "~/services/platform/ids";
import { requireRole } from "~/services/identity/index.server";
import { areaOfPath } from "~/services/identity";
import type { Route } from "./+types/area-fallback";

/**
 * An unknown path inside an area leads to the area's home (an old or mistyped link still lands somewhere useful), for those who may use the
 * area; anyone else is sent on as by any page of the area (log-in page, role chooser), not into it.
 */
function areaHome({ request, context }: Route.LoaderArgs | Route.ActionArgs): string {
  const role = areaOfPath(new URL(request.url).pathname) ?? notFound();
  requireRole(request, context, role);
  return `/${new URL(request.url).pathname.split("/")[1]}`;
}

export function loader(args: Route.LoaderArgs) {
  return redirect(areaHome(args));
}

export function action(args: Route.ActionArgs) {
  return redirect(areaHome(args), 303);
}
