import { redirect } from "react-router";
import type { Route } from "./+types/advisor-redirect";

/** /advisor… is the address the Advisor role's pages were first given; the area lives at /supervisor (the glossary's word for the role in URLs), so links to the old address still arrive. */
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
