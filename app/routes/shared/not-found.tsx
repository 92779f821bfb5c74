import { data } from "react-router";
import type { Route } from "./+types/not-found";

/** Any path no route knows: a real 404 (the i18n middleware needs a matching route to run). */
export function loader() {
  throw data(null, { status: 404 });
}

export function action() {
  throw data(null, { status: 404 });
}

export default function NotFound(_: Route.ComponentProps) {
  return null;
}
