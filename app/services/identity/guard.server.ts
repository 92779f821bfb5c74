import { redirect, createContext, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { getDb } from "~/services/platform/db/index.server";
import { currentInstitution } from "~/services/platform/institution.server";
import { noteUser } from "~/services/platform/log.server";
import { apiError } from "~/services/platform/json-api.server";
import { appCookies } from "~/services/platform/request.server";
import { ROLE_HOME, type RoleId } from "./roles";
import { loadSession, type CurrentSession } from "./session.server";

/** The session of the request, loaded once by sessionMiddleware; the guards below read it. */
export const sessionContext = createContext<CurrentSession | null>(null);

export function currentSession(context: Readonly<RouterContextProvider>): CurrentSession | null {
  return context.get(sessionContext);
}

function loginRedirect(request: Request): never {
  const url = new URL(request.url);
  const back = url.pathname + url.search;
  throw redirect(back === "/" ? "/" : `/?redirectTo=${encodeURIComponent(back)}`);
}

function backTo(request: Request): string {
  const url = new URL(request.url);
  return encodeURIComponent(url.pathname + url.search);
}

/**
 * Every protected loader and action starts here: no session → the login page, then back; a
 * policy not yet accepted → the privacy gate, then back.
 */
export function requireSession(
  request: Request,
  context: Readonly<RouterContextProvider>,
  options: { privacyGate?: boolean } = {},
): CurrentSession {
  const session = currentSession(context);
  if (!session) loginRedirect(request);
  if (options.privacyGate !== false && !session.privacyAccepted) {
    if (request.method !== "GET" && request.method !== "HEAD") throw new Response("Forbidden", { status: 403 });
    throw redirect(`/privacy-consent?redirectTo=${backTo(request)}`);
  }
  return session;
}

/**
 * The session must act in `role`. A user who holds the role but acts in another is switched by the
 * role chooser, not silently; a user without it is sent to the chooser.
 */
export function requireRole(
  request: Request,
  context: Readonly<RouterContextProvider>,
  role: RoleId,
): CurrentSession & { activeRole: RoleId } {
  const session = requireSession(request, context);
  if (session.activeRole !== role) {
    if (request.method !== "GET" && request.method !== "HEAD") {
      throw new Response("Forbidden", { status: 403 });
    }
    throw redirect(`/role?redirectTo=${backTo(request)}`);
  }
  return session as CurrentSession & { activeRole: RoleId };
}

/** The role of the area a page is in, as the area's route entry gives it (areaMiddleware). */
const areaContext = createContext<RoleId | null>(null);

/**
 * The guard of a role's area (`app/routes/<area>/area.tsx`, everything below /admin, /student,
 * /teacher or /supervisor in app/routes.ts): only a session acting in `role` goes on, and the pages
 * below, some of them shared by several areas, read the role from here (requireAreaRole), never
 * from the URL.
 */
export function areaMiddleware(role: RoleId): MiddlewareFunction<Response> {
  return async ({ request, context }, next) => {
    requireRole(request, context, role);
    context.set(areaContext, role);
    return next();
  };
}

/** The session of a page inside a role's area, acting in the area's role (areaMiddleware). */
export function requireAreaRole(
  request: Request,
  context: Readonly<RouterContextProvider>,
): CurrentSession & { activeRole: RoleId } {
  const role = context.get(areaContext);
  if (role === null) throw new Error("requireAreaRole: the page is not below a role's area in app/routes.ts");
  return requireRole(request, context, role);
}

export function homeOf(session: CurrentSession): string {
  return session.activeRole ? ROLE_HOME[session.activeRole] : "/role";
}

/** Loads the session behind the cookie once per request; a stale cookie is cleared. */
export const sessionMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const { session: cookie } = appCookies();
  const token = (await cookie.parse(request.headers.get("cookie"))) as unknown;
  let stale = false;
  if (typeof token === "string" && token.length > 0) {
    const session = await loadSession(await getDb(), token, currentInstitution().privacyPolicyVersion);
    context.set(sessionContext, session);
    // The request's log line names the user (by id only).
    noteUser(context, session?.user.id);
    stale = session === null;
  }
  const response = await next();
  // A logged-in person's pages are never kept by a shared cache.
  if (context.get(sessionContext)) response.headers.set("Cache-Control", "no-store");
  const name = cookie.name;
  if (stale && !response.headers.getSetCookie().some((c) => c.startsWith(`${name}=`))) {
    response.headers.append("Set-Cookie", await cookie.serialize("", { maxAge: 0 }));
  }
  return response;
};

/**
 * requireSession for a JSON endpoint that a page's script calls (platform/json-api.server.ts): the
 * same checks, each refused in JSON the script can act on (401 `loggedOut`, 403
 * `privacyNotAccepted`) instead of a redirect that fetch would follow to an HTML page.
 */
export function requireApiSession(context: Readonly<RouterContextProvider>): CurrentSession {
  const session = currentSession(context);
  if (!session) throw apiError(401, "loggedOut");
  if (!session.privacyAccepted) throw apiError(403, "privacyNotAccepted");
  return session;
}

/** requireRole for a JSON endpoint: another active role is 403 `forbidden`. */
export function requireApiRole(
  context: Readonly<RouterContextProvider>,
  role: RoleId,
): CurrentSession & { activeRole: RoleId } {
  const session = requireApiSession(context);
  if (session.activeRole !== role) throw apiError(403, "forbidden");
  return session as CurrentSession & { activeRole: RoleId };
}
