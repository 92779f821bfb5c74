// A page post without JavaScript while PostgreSQL is away: the root's 503 page gives back what was
// posted, in a plain form that sends it again. Run through React Router's own static handler (the
// code the server runs: middleware, the error's way to the root boundary, the render), so what is
// tested is what the browser gets.
import net from "node:net";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import {
  createStaticHandler,
  createStaticRouter,
  Outlet,
  redirect,
  RouterContextProvider,
  StaticRouterProvider,
  useRouteError,
  type RouteObject,
} from "react-router";
import { afterAll, afterEach, beforeAll, beforeEach, expect, test, vi } from "vitest";
import type { Database } from "~/services/platform/db/client.server";
import { getDb, useDatabaseForTests } from "~/services/platform/db/index.server";
import * as schema from "~/services/platform/db/schema";
import { getInstance } from "~/services/platform/i18n.server";
import { appCookies } from "~/services/platform/request.server";
import { startTestApp, stopTestApp } from "~/test/app";
import { ErrorBoundary, middleware } from "./root";

let app: Awaited<ReturnType<typeof startTestApp>>;
let closedPool: pg.Pool;
let logged: string[] = [];
let received: [string, string][] = [];

/** A port nobody listens on: every connection is refused at once. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  app = await startTestApp();
  closedPool = new pg.Pool({
    host: "127.0.0.1",
    port: await closedPort(),
    user: "x",
    database: "x",
    connectionTimeoutMillis: 2_000,
  });
});
afterAll(async () => {
  await closedPool.end().catch(() => {});
  await stopTestApp(app);
});

beforeEach(() => {
  logged = [];
  for (const level of ["error", "warn", "info", "debug", "log"] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      logged.push(args.map(String).join(" "));
    });
  }
});
afterEach(() => {
  useDatabaseForTests(app.database);
});

/** The database gone: every statement's connection is refused (the app's 503 path, unchanged). */
function databaseDown(): void {
  const down: Database = { kind: "external", db: drizzle({ client: closedPool, schema }), close: async () => {} };
  useDatabaseForTests(down);
}

function RootBoundary() {
  return <ErrorBoundary error={useRouteError()} params={{}} loaderData={undefined} />;
}

// The root (its real middleware and error boundary) over a page whose action reads the database.
const routes: RouteObject[] = [
  {
    id: "root",
    path: "/",
    middleware: middleware as never,
    Component: Outlet,
    ErrorBoundary: RootBoundary,
    children: [
      {
        id: "page",
        path: "page",
        Component: () => <p>the page</p>,
        loader: () => null,
        action: async ({ request }) => {
          received = [...new URLSearchParams(await request.text())];
          await (await getDb()).select({ id: schema.users.id }).from(schema.users).limit(1);
          return redirect("/page?saved");
        },
      },
    ],
  },
];

/**
 * One request as the server handles it: a document (the page rendered as HTML), or with `dataRequest`
 * as JavaScript's data request (`.data`), whose answer React Router encodes itself, not as HTML.
 */
async function serve(
  request: Request,
  options: { dataRequest?: boolean } = {},
): Promise<{ status: number; html: string; errorData: unknown }> {
  const handler = createStaticHandler(routes);
  const context = new RouterContextProvider();
  let errorData: unknown;
  const response = await handler.query(request, {
    requestContext: context,
    generateMiddlewareResponse: async (query) => {
      const result = await query(request);
      if (result instanceof Response) return result;
      const error = result.errors?.root as { data?: unknown } | undefined;
      errorData = error?.data;
      if (options.dataRequest)
        return new Response("encoded", { status: result.statusCode, headers: { "Content-Type": "text/x-script" } });
      const router = createStaticRouter(handler.dataRoutes, result);
      const html = renderToString(
        <I18nextProvider i18n={getInstance(context)}>
          <StaticRouterProvider router={router} context={result} hydrate={false} />
        </I18nextProvider>,
      );
      return new Response(html, { status: result.statusCode, headers: { "Content-Type": "text/html; charset=utf-8" } });
    },
  });
  if (!(response instanceof Response)) throw new Error("expected a Response");
  return { status: response.status, html: await response.text(), errorData };
}

const TYPED = "Hun var trygg i stellet <b>& tok ansvar</b>\nny linje";

function pagePost(body: BodyInit, contentType: string, options: { cookie?: string } = {}): Request {
  const headers = new Headers({ Origin: "http://localhost", "Content-Type": contentType, "Accept-Language": "nb" });
  if (options.cookie) headers.set("Cookie", options.cookie);
  // A browser's form post declares its length.
  if (typeof body === "string" || body instanceof URLSearchParams)
    headers.set("Content-Length", String(new TextEncoder().encode(String(body)).byteLength));
  return new Request("http://localhost/page", { method: "POST", headers, body });
}

const fields = () =>
  new URLSearchParams([
    ["b:12", "1x9k2a.0b7m3q.4"],
    ["a:12", TYPED],
    ["c:12", ""],
    ["intent", "next"],
  ]);

async function sessionCookie(): Promise<string> {
  return (await appCookies().session.serialize("a-session-token")).split(";")[0];
}

/** The hidden inputs of the page's post form, as [name, value]. */
function hiddenFields(html: string): [string, string][] {
  const form = html.match(/<form method="post"[^>]*>([\s\S]*?)<\/form>/)?.[1] ?? "";
  return [...form.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"\/>/g)].map((m) => [
    unescape(m[1]),
    unescape(m[2]),
  ]);
}

function unescape(text: string): string {
  return text
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'")
    .replaceAll("&amp;", "&");
}

test("a page post when the session cannot be read: the 503 page gives every field back in a form that sends it again", async () => {
  const cookie = await sessionCookie();
  databaseDown();
  const { status, html } = await serve(
    pagePost(fields(), "application/x-www-form-urlencoded;charset=UTF-8", { cookie }),
  );
  expect(status).toBe(503);
  expect(html).toContain("Det du skrev er ikke lagret ennå");
  // A plain form back to the same address (no action: the page's own), every field as posted, in order.
  expect(html).toMatch(/<form method="post">/);
  expect(hiddenFields(html)).toEqual([...fields()]);
  expect(html).toMatch(/<button[^>]*type="submit"[^>]*>Send på nytt<\/button>/);
  // What was typed, readable (escaped by React: no markup of the person's text gets through).
  expect(html).toMatch(/<details/);
  expect(html).toContain("Hun var trygg i stellet &lt;b&gt;&amp; tok ansvar&lt;/b&gt;\nny linje");
  expect(html).not.toContain("<b>&");
  // The base token and the button's value are not "typed text".
  expect(html.match(/<details[\s\S]*<\/details>/)?.[0]).not.toContain("1x9k2a");
  // One heading, no duplicate ids.
  expect(html.match(/<h1/g)).toHaveLength(1);
  const ids = [...html.matchAll(/\sid="([^"]*)"/g)].map((m) => m[1]);
  expect(new Set(ids).size).toBe(ids.length);
  // Never in a log line.
  expect(logged.join("\n")).not.toContain("trygg");
});

test("the database failing in the action (no session): the same page, in English for an English reader", async () => {
  databaseDown();
  const request = pagePost(fields(), "application/x-www-form-urlencoded");
  request.headers.set("Accept-Language", "en");
  const { status, html } = await serve(request);
  expect(status).toBe(503);
  expect(html).toContain("What you wrote is not saved yet");
  expect(hiddenFields(html)).toEqual([...fields()]);
  expect(html).toMatch(/>Send again<\/button>/);
});

test("sent again with the database back, the post goes through with the fields as first posted", async () => {
  databaseDown();
  const stopped = await serve(pagePost(fields(), "application/x-www-form-urlencoded"));
  expect(stopped.status).toBe(503);
  useDatabaseForTests(app.database);
  received = [];
  const again = await serve(
    pagePost(new URLSearchParams(hiddenFields(stopped.html)), "application/x-www-form-urlencoded"),
  );
  expect(again.status).toBe(302);
  expect(received).toEqual([...fields()]);
});

test("nothing is given back for multipart, other content types, an oversized body, a GET or JavaScript's data request", async () => {
  databaseDown();
  const multipart = new FormData();
  multipart.set("a:12", TYPED);
  const json = JSON.stringify({ "a:12": TYPED });
  const big = new URLSearchParams([["a:12", `${TYPED}${"x".repeat(5 * 1024 * 1024)}`]]);
  for (const request of [
    pagePost(multipart, ""),
    pagePost(json, "application/json"),
    pagePost(TYPED, "text/plain"),
    pagePost(big, "application/x-www-form-urlencoded"),
  ]) {
    if (request.headers.get("Content-Type") === "") request.headers.delete("Content-Type");
    const { status, html } = await serve(request);
    expect([503, 413]).toContain(status);
    expect(html).not.toContain("trygg");
    expect(html).not.toMatch(/<form method="post">/);
  }
  const get = await serve(new Request("http://localhost/page", { headers: { Cookie: await sessionCookie() } }));
  expect(get.status).toBe(503);
  expect(get.html).not.toMatch(/<form method="post">/);
  // JavaScript's data request keeps the database's own 503 (its page keeps what was typed itself).
  const dataRequest = await serve(
    pagePost(fields(), "application/x-www-form-urlencoded", { cookie: await sessionCookie() }),
    { dataRequest: true },
  );
  expect(dataRequest.status).toBe(503);
  expect(JSON.stringify(dataRequest.errorData)).not.toContain("trygg");
  expect(logged.join("\n")).not.toContain("trygg");
});
