import { redirect } from "react-router";
import { getDb } from "~/services/platform/db/index.server";
import { finishProviderLogin, currentSession, homeOf } from "~/services/identity/index.server";
import { clientAddress } from "~/services/platform/request.server";
import type { Route } from "./+types/provider-callback";

/** /feide-success and /vipps-success: the provider's answer. Always a redirect, never a page of its own. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const provider = new URL(request.url).pathname.startsWith("/vipps") ? "vipps" : "feide";
  const session = currentSession(context);
  if (session) throw redirect(homeOf(session));
  return finishProviderLogin(await getDb(), provider, request, clientAddress(request));
}
