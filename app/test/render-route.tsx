import { cleanup, configure, render, waitFor } from "@testing-library/react";
import userEvent, { type UserEvent } from "@testing-library/user-event";
import type { i18n as I18n } from "i18next";
import type { ComponentType } from "react";
import { I18nextProvider } from "react-i18next";
import { createRoutesStub, matchPath, Outlet, redirect, useLoaderData, useLocation, useNavigation } from "react-router";
import { onTestFinished, vi } from "vitest";
// The client-side checks every house form loads (use-validated-form.ts), loaded with the harness.
import "@conform-to/zod/v4";
import { FlashRegion, type FlashMessage } from "~/components/ui";
import { CookieJar } from "~/test/cookie-jar";
import { flashMessage, testI18n, type Language } from "~/test/flash-text";
import {
  callAction,
  callLoader,
  flashOf,
  TEST_CLIENT_ADDRESS,
  TEST_ORIGIN,
  type HandlerArgs,
  type RouteModuleLike,
} from "~/test/route";

/*
 * Renders a route module's page as a person sees it: the module's own component, the data its real
 * loader makes against the test database for the user of a session cookie, the real texts (nb unless
 * told), and its real action behind every form the page posts. A redirect after a post lands on a
 * page that shows the flash message the action set, translated as the root loader does, in the
 * same role="status" region. Files that use it start with `// @vitest-environment happy-dom`.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each page's component takes its own route's props
type PageModule = RouteModuleLike & { default: ComponentType<any>; handle?: unknown };

export interface RenderRouteOptions {
  /** The route module (import * as page from "./page"). */
  module: PageModule;
  /** The address opened, with its query. */
  path: string;
  /** The route's pattern with its params (":classId"), when the address has any; else the path. */
  pattern?: string;
  /** The route's params, as the router would find them in the address. */
  params?: Record<string, string>;
  /** The session cookie ("praksis_session=…") the loader and action run with; none for a visitor. */
  cookie?: string;
  /** Data to render instead of the real loader's (a page that cannot be reached with real data). */
  loaderData?: unknown;
  /** An action's result to render the page with, as after a post the server answered on the same page. */
  actionData?: unknown;
  language?: Language;
  /** Other pages a redirect may land on, rendered with their real loader and action (a flow: e-mail, then code). */
  next?: { pattern: string; module: PageModule }[];
  /**
   * The app's own endpoints the page's script calls with fetch (an autosave), each answered by its
   * real resource route as the same user. Any other address fails as it would offline.
   */
  endpoints?: { pattern: string; module: RouteModuleLike }[];
}

export interface RenderedRoute {
  user: UserEvent;
  /** The address the page is at now (after a post's redirect: where it went). */
  location(): string;
  /** Resolves once a post and the loads after it are done (the page drawn with what they brought). */
  settled(): Promise<void>;
  /** The flash message shown now (its text as a person reads it), or null. */
  flashText(): string | null;
  i18n: I18n;
}

function isDataWithInit(value: unknown): value is { data: unknown; init: ResponseInit | null } {
  return typeof value === "object" && value !== null && (value as { type?: unknown }).type === "DataWithResponseInit";
}

/** The data a loader or action gave, as the framework hands it to the component (Dates stay Dates), or its Response. */
async function run(
  mod: PageModule,
  which: "loader" | "action",
  request: Request,
  params: Record<string, string>,
): Promise<{ data: unknown } | { response: Response }> {
  const handler = mod[which];
  if (!handler) throw new Error(`the route module has no ${which}`);
  let raw: unknown;
  let produced = false;
  const wrapped: RouteModuleLike = {
    middleware: mod.middleware,
    [which]: async (args: HandlerArgs) => {
      raw = await handler.call(mod, args);
      produced = true;
      return raw;
    },
  };
  const response =
    which === "loader" ? await callLoader(wrapped, request, params) : await callAction(wrapped, request, params);
  if (produced && !(raw instanceof Response)) return { data: isDataWithInit(raw) ? raw.data : raw };
  return { response };
}

/** The data the real loader gives the user of `cookie` at `path`; fails on a redirect or an error status. */
export async function loaderDataOf(
  mod: PageModule,
  path: string,
  cookie?: string,
  params: Record<string, string> = {},
  language?: Language,
): Promise<unknown> {
  const out = await run(mod, "loader", pageRequest(path, cookie, language), params);
  if ("response" in out)
    throw new Error(
      `the loader of ${path} answered ${out.response.status} ${out.response.headers.get("Location") ?? ""}`,
    );
  return out.data;
}

/** The data the real action answers a post of `fields` with on the same page (an error result); fails on a redirect. */
export async function actionDataOf(
  mod: PageModule,
  path: string,
  fields: Record<string, string | string[]>,
  cookie?: string,
  params: Record<string, string> = {},
): Promise<unknown> {
  const out = await run(mod, "action", postRequest(path, toBody(fields), cookie), params);
  if ("response" in out)
    throw new Error(
      `the action of ${path} answered ${out.response.status} ${out.response.headers.get("Location") ?? ""}`,
    );
  return out.data;
}

function toBody(fields: Record<string, string | string[]>): URLSearchParams {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) body.append(name, v);
  return body;
}

function pageRequest(path: string, cookie?: string, language?: Language): Request {
  const headers = new Headers();
  if (cookie) headers.set("Cookie", cookie);
  if (language) headers.set("Accept-Language", language);
  return new Request(new URL(path, TEST_ORIGIN), { headers });
}

function postRequest(path: string, body: URLSearchParams, cookie?: string): Request {
  const headers = new Headers({ Origin: TEST_ORIGIN, "Content-Type": "application/x-www-form-urlencoded" });
  headers.set(TEST_CLIENT_ADDRESS, "192.0.2.1");
  if (cookie) headers.set("Cookie", cookie);
  return new Request(new URL(path, TEST_ORIGIN), { method: "POST", headers, body: body.toString() });
}

function jarWith(cookie: string | undefined): CookieJar {
  const jar = new CookieJar();
  if (!cookie) return jar;
  const headers = new Headers();
  for (const pair of cookie.split(/;\s*/)) if (pair) headers.append("Set-Cookie", pair);
  jar.take(new Response(null, { headers }));
  return jar;
}

// A post runs the real action and the page's loader against the database: on a busy machine that
// can take longer than Testing Library's default second.
configure({ asyncUtilTimeout: 5000 });

/**
 * Renders the page. Forms on it post to the module's real action as the same user; a redirect
 * goes to a page that shows only the flash (another route's page is not rendered). Query the
 * result with `screen` (by role and label).
 */
// eslint-disable-next-line max-lines-per-function -- the route stub's table of pages is one piece: the page, its redirect targets, its endpoints and the flash page share the session and the cookie jar
export async function renderRoute(options: RenderRouteOptions): Promise<RenderedRoute> {
  const { module: mod, path, params = {}, language = "nb" } = options;
  const pattern = options.pattern ?? path.split("?")[0];
  const i18n = await testI18n(language);
  const jar = jarWith(options.cookie);
  let pending: FlashMessage | null = null;
  let shownFlash: FlashMessage | null = null;
  let here = path;
  let busy = false;

  const loaderData =
    options.loaderData !== undefined
      ? options.loaderData
      : await loaderDataOf(mod, path, jar.header(), params, language);

  const pageLoader =
    (page: PageModule) =>
    async ({ request, params: routeParams }: { request: Request; params: Record<string, string | undefined> }) => {
      const url = new URL(request.url);
      const out = await run(page, "loader", pageRequest(url.pathname + url.search, jar.header(), language), {
        ...params,
        ...routeParams,
      } as Record<string, string>);
      if ("response" in out) {
        jar.take(out.response);
        const location = out.response.headers.get("Location");
        if (location) throw redirect(location);
        throw out.response;
      }
      return out.data;
    };
  const pageAction =
    (page: PageModule) =>
    async ({ request, params: routeParams }: { request: Request; params: Record<string, string | undefined> }) => {
      const url = new URL(request.url);
      const form = await request.formData();
      const body = new URLSearchParams();
      for (const [name, value] of form.entries()) if (typeof value === "string") body.append(name, value);
      const out = await run(page, "action", postRequest(url.pathname + url.search, body, jar.header()), {
        ...params,
        ...routeParams,
      } as Record<string, string>);
      if ("data" in out) return out.data;
      jar.take(out.response);
      const flash = await flashOf(out.response);
      if (flash) pending = flashMessage(i18n, flash);
      const location = out.response.headers.get("Location");
      if (location) return redirect(location);
      throw out.response;
    };

  // Unmounted when the test ends (its timers, an autosave, stop with it). Registered per test, not
  // in a module-level afterEach: files of the project share this module (vitest.config.ts).
  onTestFinished(() => {
    cleanup();
    vi.unstubAllGlobals();
  });
  const endpoints = options.endpoints ?? [];
  vi.stubGlobal("fetch", async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), TEST_ORIGIN);
    const found = endpoints.map((e) => ({ e, match: matchPath(e.pattern, url.pathname) })).find((m) => m.match);
    if (!found) throw new TypeError(`fetch failed: no endpoint for ${url.pathname} in this test`);
    const request = new Request(url, input instanceof Request ? input : init);
    const headers = new Headers(request.headers);
    headers.set("Cookie", jar.header());
    headers.set("Origin", TEST_ORIGIN);
    headers.set(TEST_CLIENT_ADDRESS, "192.0.2.1");
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
    const sent = new Request(url, { method: request.method, headers, body });
    const routeParams = found.match!.params as Record<string, string>;
    const response =
      sent.method === "GET"
        ? await callLoader(found.e.module, sent, routeParams)
        : await callAction(found.e.module, sent, routeParams);
    jar.take(response);
    return response;
  });

  function Shell() {
    const { flash } = useLoaderData() as { flash: FlashMessage | null };
    here = useLocation().pathname + useLocation().search;
    busy = useNavigation().state !== "idle";
    shownFlash = flash;
    return (
      <main id="main" tabIndex={-1}>
        <FlashRegion flash={flash} />
        <Outlet />
      </main>
    );
  }

  const Stub = createRoutesStub([
    {
      id: "shell",
      loader: () => {
        const flash = pending;
        pending = null;
        return { flash };
      },
      Component: Shell,
      children: [
        {
          id: "page",
          path: pattern,
          Component: mod.default,
          handle: mod.handle,
          loader: options.loaderData !== undefined ? () => options.loaderData : pageLoader(mod),
          action: mod.action ? pageAction(mod) : undefined,
        },
        // The pages a post may go on to, each with its real loader and action.
        ...(options.next ?? []).map((next, index) => ({
          id: `next${index}`,
          path: next.pattern,
          Component: next.module.default,
          handle: next.module.handle,
          loader: next.module.loader ? pageLoader(next.module) : undefined,
          action: next.module.action ? pageAction(next.module) : undefined,
        })),
        // Where a redirect to another page lands: the shell shows its flash.
        { id: "elsewhere", path: "*", Component: () => null },
      ],
    },
  ]);

  render(
    <I18nextProvider i18n={i18n}>
      <Stub
        initialEntries={[path]}
        hydrationData={{
          loaderData: { shell: { flash: null }, page: loaderData },
          ...(options.actionData !== undefined ? { actionData: { page: options.actionData } } : {}),
        }}
      />
    </I18nextProvider>,
  );
  // The shell's flash region is there once the router has rendered the page.
  await waitFor(() => {
    if (!document.querySelector("#main > .ui-flash-region")) throw new Error("the page has not rendered");
  });
  return {
    user: userEvent.setup({ delay: null }),
    location: () => here,
    settled: () =>
      waitFor(() => {
        if (busy) throw new Error("the router is still busy");
      }),
    flashText: () => shownFlash?.message ?? null,
    i18n,
  };
}

/** What a screen reader reads after a field's name: the texts its aria-describedby points to (hint, error). */
export function descriptionOf(element: Element): string {
  const ids = (element.getAttribute("aria-describedby") ?? "").split(/\s+/).filter(Boolean);
  return ids
    .map((id) => element.ownerDocument.getElementById(id)?.textContent ?? "")
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
}

export { flashTextOf, testI18n } from "~/test/flash-text";
