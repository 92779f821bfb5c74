import { redirect } from "react-router";
import { isProviderName, startProviderLogin, currentSession, homeOf } from "~/services/identity/index.server";
import { readFormData } from "~/services/platform/request.server";
import type { Route } from "./+types/provider-start";

/** POST /auth/feide or /auth/vipps: off to the provider. A GET has nothing to show and goes to the log-in page. */
export function loader() {
  throw redirect("/");
}

export async function action({ request, params, context }: Route.ActionArgs) {
  // No such provider: the log-in page lists those there are.
  if (!isProviderName(params.provider)) throw redirect("/", 303);
  const session = currentSession(context);
  if (session) throw redirect(homeOf(session), 303);
  const form = await readFormData(request);
  const redirectTo = form.get("redirectTo");
  return startProviderLogin(params.provider, request, typeof redirectTo === "string" ? redirectTo : null);
}
