import { afterAll, beforeAll, expect, test } from "vitest";
import { cookieOf, cookiesOf, FOREIGN_MARKERS, PRINCIPAL_NAMES, type Principal } from "~/test/principals";
import { startTestApp, stopTestApp } from "~/test/app";
import {
  giveStudent01Documents,
  permissionMatrix,
  importRoute,
  routeRows,
  seedIds,
  standardParams,
  urlOf,
  type MatrixEntry,
  type Rule,
} from "~/test/route-matrix";
import { callAction, callLoader, getPage, postForm, type RouteModuleLike } from "~/test/route";

/**
 * The permission matrix: every route of app/routes.ts × every principal, loader (GET) and
 * action (POST), held to app/test/route-matrix.ts. Each module is called on its own, without its
 * parents' middleware: React Router runs a parent's and a child's loaders in parallel, so every
 * loader and action must guard itself: a guard only in a layout would not stop the child's loader.
 */

let app: Awaited<ReturnType<typeof startTestApp>>;
let matrix: Record<string, MatrixEntry>;
let params: Record<string, string>;
let cookies: Record<Principal, string>;
const rows = routeRows();

beforeAll(async () => {
  app = await startTestApp({ FEIDE_CLIENT_ID: "id", FEIDE_CLIENT_SECRET: "secret" });
  const ids = await seedIds(app.database.db);
  await giveStudent01Documents(app.database.db, ids);
  matrix = permissionMatrix(ids);
  params = standardParams(ids);
  cookies = await cookiesOf(app.database.db);
});
afterAll(() => stopTestApp(app));

/** Where a refused request may be sent: the log-in page, the role chooser, the privacy gate. */
const REFUSAL_REDIRECT = /^\/(\?redirectTo=|role(\?|$)|privacy-consent(\?|$))/;

function locationOf(response: Response): string {
  const location = response.headers.get("Location") ?? "";
  return location.startsWith("http") ? new URL(location).pathname + new URL(location).search : location;
}

/** Why the answer breaks the rule for this principal, or null. */
async function verdict(
  rule: Rule,
  principal: Principal,
  response: Response,
  kind: "loader" | "action",
): Promise<string | null> {
  const status = response.status;
  const location = locationOf(response);
  const body = await response.text();
  const shown = `${status}${location ? ` → ${location}` : ""}`;
  if (!principal.startsWith("other") && principal !== "anon") {
    // The own four are entitled to student01; the rest must never see her.
  } else {
    const leak = FOREIGN_MARKERS.find((marker) => body.includes(marker));
    if (leak) return `${shown}: the body shows "${leak}"`;
  }
  if ("public" in rule) {
    if (rule.status !== undefined) return status === rule.status ? null : `${shown}, expected ${rule.status}`;
    return status < 500 ? null : `${shown}, a server error`;
  }
  const refused =
    [401, 403, 404].includes(status) || (status >= 300 && status < 400 && REFUSAL_REDIRECT.test(location));
  if (!rule.allow.includes(principal)) return refused ? null : `${shown}, expected a refusal`;
  if (status >= 500) return `${shown}, a server error`;
  if (refused) return `${shown}, expected to be let in`;
  // A loader must answer; an action may refuse the (deliberately harmless) body with a 4xx of its own.
  if (kind === "loader" && status >= 400) return `${shown}, expected a page`;
  return null;
}

test("every entry of the matrix names a route of the table", () => {
  const ids = new Set(rows.map((row) => row.id));
  const stale = Object.keys(
    permissionMatrix({ classA: 1, mainForm: 1, formOfA: 1, midA: 1, semester: 1, student01: 1, veileder1: 1 }),
  ).filter((id) => !ids.has(id));
  expect(stale, "matrix entries for routes that are not in app/routes.ts").toEqual([]);
});

test.each(rows.map((row) => [row.id, row] as const))("%s", async (id, row) => {
  const entry = matrix[id];
  if (!entry) {
    throw new Error(
      `the route "${id}" (/${row.pattern}, ${row.file}) has no entry in the permission matrix (app/test/route-matrix.ts)`,
    );
  }
  const mod = await importRoute(row);
  // A layout with middleware only is held to its loader rule through its middleware.
  const loaderTarget: RouteModuleLike | null = mod.loader
    ? mod
    : mod.middleware
      ? { middleware: mod.middleware, loader: () => new Response("through the middleware") }
      : null;
  expect(Boolean(entry.loader), `${id}: a loader rule exactly when the module has a loader or middleware`).toBe(
    loaderTarget !== null,
  );
  expect(Boolean(entry.action), `${id}: an action rule exactly when the module has an action`).toBe(
    Boolean(mod.action),
  );

  const url = urlOf(row, { ...params, ...entry.params });
  const routeParams = { ...params, ...entry.params };
  const failures: string[] = [];
  for (const principal of PRINCIPAL_NAMES) {
    if (entry.loader && loaderTarget) {
      const response = await callLoader(loaderTarget, getPage(url, { cookie: cookies[principal] }), routeParams);
      const why = await verdict(entry.loader, principal, response, "loader");
      if (why) failures.push(`GET ${url} as ${principal}: ${why}`);
    }
    if (entry.action && mod.action) {
      const cookie = entry.freshSession ? await cookieOf(app.database.db, principal) : cookies[principal];
      const response = await callAction(mod, postForm(url, entry.body ?? {}, { cookie }), routeParams);
      const why = await verdict(entry.action, principal, response, "action");
      if (why) failures.push(`POST ${url} as ${principal}: ${why}`);
    }
  }
  expect(failures).toEqual([]);
});
