import { redirect } from "react-router";
import { logout, currentSession } from "~/services/identity/index.server";
import { getDb } from "~/services/platform/db/index.server";
import { redirectWithFlash, type Flash } from "~/services/platform/flash.server";
import { clientAddress, readFormData } from "~/services/platform/request.server";
import type { Route } from "./+types/logout";

/**
 * How many answers the menu counted as kept in this browser, not sent yet (with JavaScript; none
 * without, where nothing is kept). Only a number for the message; anything else reads as none.
 */
function unsentCount(form: FormData | null): number {
  const text = form?.get("unsent");
  if (typeof text !== "string" || !/^\d{1,4}$/.test(text)) return 0;
  return Number(text);
}

/**
 * Logging out changes state, so it is a POST (a button in the side menu). Answers kept in the
 * browser stay there, sealed with the person's key (ADR 0011): the message says how many, and that
 * they are sent when the person logs in here again.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const session = currentSession(context);
  if (!session) return redirect("/", 303);
  // Logging out never fails for the form: a body that cannot be read counts as none.
  const unsent = unsentCount(await readFormData(request).catch(() => null));
  const clear = await logout(await getDb(), {
    sessionId: session.id,
    userId: session.user.id,
    ip: clientAddress(request),
  });
  const flash: Flash =
    unsent > 0
      ? { type: "info" as const, key: "auth:loggedOutUnsent", values: { count: unsent } }
      : { type: "success" as const, key: "auth:loggedOut" };
  return redirectWithFlash("/", flash, { "Set-Cookie": clear });
}

export function loader() {
  return redirect("/");
}
