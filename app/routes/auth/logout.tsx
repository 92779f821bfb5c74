import { redirect } from "react-router";
import { logout, currentSession } from "~/services/identity/index.server";
import { getDb } from "~/services/platform/db/index.server";
import { redirectWithFlash } from "~/services/platform/flash.server";
import { clientAddress } from "~/services/platform/request.server";
import type { Route } from "./+types/logout";

/** Logging out changes state, so it is a POST (a button in the side menu). */
export async function action({ request, context }: Route.ActionArgs) {
  const session = currentSession(context);
  if (!session) return redirect("/", 303);
  const clear = await logout(await getDb(), {
    sessionId: session.id,
    userId: session.user.id,
    ip: clientAddress(request),
  });
  return redirectWithFlash("/", { type: "success", key: "auth:loggedOut" }, { "Set-Cookie": clear });
}

export function loader() {
  return redirect("/");
}
