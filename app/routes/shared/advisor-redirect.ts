import { redirect } from "react-router";
import type { Route } from "./+types/advisor-redirect";

/** /advisor… is the Advisor role's home in the spec; the area lives at /supervisor (DESIGN.md §3). */
function toSupervisor(request: Request): Response {
  const url = new URL(request.url);
  return redirect(url.pathname.replace(/^\/advisor/i, "/supervisor") + url.search, 308);
}

export function loader({ request }: Route.LoaderArgs) {
  return toSupervisor(request);
}

export function action({ request }: Route.ActionArgs) {
  return toSupervisor(request);
}
