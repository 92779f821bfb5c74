import { redirect } from "react-router";
import { requireAreaRole } from "~/services/identity/index.server";
import { ROLE_HOME } from "~/services/identity";
import type { Route } from "./+types/area-fallback";

/**
 * An unknown path inside an area leads to the area's home (an old or mistyped link still lands somewhere useful), for those who may use the
 * area; anyone else is sent on as by any page of the area (log-in page, role chooser), not into it.
 */
function areaHome({ request, context }: Route.LoaderArgs | Route.ActionArgs): string {
  return ROLE_HOME[requireAreaRole(request, context).activeRole];
}

export function loader(args: Route.LoaderArgs) {
  return redirect(areaHome(args));
}

export function action(args: Route.ActionArgs) {
  return redirect(areaHome(args), 303);
}
