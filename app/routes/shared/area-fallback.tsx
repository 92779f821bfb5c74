import { redirect } from "react-router";
import type { Route } from "./+types/area-fallback";

/** An unknown path inside an area leads to the area's home (spec §2). */
export function loader({ request }: Route.LoaderArgs) {
  const area = new URL(request.url).pathname.split("/")[1];
  return redirect(`/${area}`);
}

export function action({ request }: Route.ActionArgs) {
  const area = new URL(request.url).pathname.split("/")[1];
  return redirect(`/${area}`, 303);
}
