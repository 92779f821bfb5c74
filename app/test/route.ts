import { matchRoutes, RouterContextProvider, type MiddlewareFunction, type RouteObject } from "react-router";

/** Route params as a test gives them (every named segment present). */
type Params = Record<string, string>;
import { middleware as rootMiddleware } from "~/root";
import routes from "~/routes";
import type { Flash } from "~/services/platform/flash.server";
import { newRequestId, newRequestRecord, requestRecordContext } from "~/services/platform/log.server";
import { appCookies } from "~/services/platform/request.server";

export interface HandlerArgs {
  request: Request;
  url: URL;
  pattern: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each route module names its own params; the helpers pass whatever the test gives
  params: any;
  context: RouterContextProvider;
}

/** A route module as far as these helpers need it; method syntax so a module's narrower arg type fits. */
export interface RouteModuleLike {
  loader?(args: HandlerArgs): unknown;
  action?(args: HandlerArgs): unknown;
  middleware?: readonly unknown[];
}

function isDataWithResponseInit(value: unknown): value is { data: unknown; init: ResponseInit | null } {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { type?: unknown }).type === "DataWithResponseInit" &&
    "data" in value
  );
}

/** What a loader or action produced, as the Response the framework would send (JSON for data). */
function toResponse(result: unknown): Response {
  if (result instanceof Response) return result;
  if (isDataWithResponseInit(result)) return Response.json(result.data ?? null, result.init ?? undefined);
  return Response.json(result ?? null);
}

// The route modules of app/routes.ts, loaded when a test first reaches one as a layout.
const routeModules = import.meta.glob<RouteModuleLike>(["../routes/**/*.{ts,tsx}", "!../routes/**/*.test.*"]);

/**
 * The middleware of the layouts app/routes.ts puts a path under (a role area's guard, which gives
 * the pages below it their role), outermost first, as the framework runs it between the root's and
 * the page's own.
 */
async function layoutMiddlewareOf(pathname: string): Promise<unknown[]> {
  const layouts = (matchRoutes(routes as RouteObject[], pathname) ?? []).slice(0, -1);
  const modules = await Promise.all(
    layouts.map(({ route }) => routeModules[`../${(route as unknown as { file: string }).file}`]?.()),
  );
  return modules.flatMap((mod) => mod?.middleware ?? []);
}

/**
 * Runs the root middleware chain (security, i18n, session), the layouts' (app/routes.ts) and the route's own middleware around a
 * loader or action, as the framework does, and returns the Response. A thrown Response (a redirect,
 * a 403) is returned like a returned one; any other error is thrown.
 */
async function runRoute(
  mod: RouteModuleLike,
  handler: (args: HandlerArgs) => unknown,
  request: Request,
  params: Params,
): Promise<Response> {
  const context = new RouterContextProvider();
  // The client address the HTTP server would have found (scripts/http-app.mjs): here the test's own.
  const record = newRequestRecord(request.method, newRequestId());
  record.clientAddress = request.headers.get(TEST_CLIENT_ADDRESS) ?? undefined;
  context.set(requestRecordContext, record);
  const url = new URL(request.url);
  const args: HandlerArgs = { request, url, pattern: url.pathname, params, context };
  const chain = [
    ...rootMiddleware,
    ...(await layoutMiddlewareOf(url.pathname)),
    ...(mod.middleware ?? []),
  ] as unknown as MiddlewareFunction<Response>[];
  const dispatch = async (index: number): Promise<Response> => {
    if (index === chain.length) {
      try {
        return toResponse(await handler.call(mod, args));
      } catch (error) {
        // A thrown Response (redirect, 403) or a thrown data() (data(null, { status: 404 })) is the answer.
        if (error instanceof Response || isDataWithResponseInit(error)) return toResponse(error);
        throw error;
      }
    }
    // A middleware that returns nothing passes on what the rest of the chain answered, as in the framework.
    let inner: Promise<Response> | undefined;
    const next = () => (inner ??= dispatch(index + 1));
    try {
      return (await chain[index](args, next)) ?? (await next());
    } catch (error) {
      if (error instanceof Response) return error;
      throw error;
    }
  };
  return dispatch(0);
}

export async function callLoader(mod: RouteModuleLike, request: Request, params: Params = {}): Promise<Response> {
  if (!mod.loader) throw new Error("the route module has no loader");
  return runRoute(mod, mod.loader, request, params);
}

export async function callAction(mod: RouteModuleLike, request: Request, params: Params = {}): Promise<Response> {
  if (!mod.action) throw new Error("the route module has no action");
  return runRoute(mod, mod.action, request, params);
}

export const TEST_ORIGIN = "http://localhost";
/** The header a test request carries its client address in; only these helpers read it (the app never does). */
export const TEST_CLIENT_ADDRESS = "x-test-client-address";

/** A form post as a browser sends it: same-origin, url-encoded, from a given client address. */
export function postForm(
  path: string,
  fields: Record<string, string>,
  options: { cookie?: string; origin?: string | null; ip?: string; headers?: Record<string, string> } = {},
): Request {
  const headers = new Headers(options.headers);
  const origin = options.origin === undefined ? TEST_ORIGIN : options.origin;
  if (origin !== null) headers.set("Origin", origin);
  if (options.cookie) headers.set("Cookie", options.cookie);
  headers.set("x-test-client-address", options.ip ?? "192.0.2.1");
  return new Request(new URL(path, TEST_ORIGIN), { method: "POST", headers, body: new URLSearchParams(fields) });
}

export function getPage(path: string, options: { cookie?: string; headers?: Record<string, string> } = {}): Request {
  const headers = new Headers(options.headers);
  if (options.cookie) headers.set("Cookie", options.cookie);
  return new Request(new URL(path, TEST_ORIGIN), { headers });
}

/** The flash message a response sets, if any. */
export async function flashOf(response: Response): Promise<Flash | null> {
  const line = response.headers.getSetCookie().find((c) => c.includes("praksis_flash="));
  return line ? ((await appCookies().flash.parse(line.split(";")[0])) as Flash) : null;
}
