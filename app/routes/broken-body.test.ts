import { afterAll, beforeAll, expect, test } from "vitest";
import { ROLE, type RoleId } from "~/services/roles";
import { cookieActingAs, startTestApp, stopTestApp } from "~/test/app";
import { callAction, TEST_ORIGIN, type RouteModuleLike } from "~/test/route";
import * as classPage from "./admin/class";
import * as formEditor from "./admin/form-editor";
import * as semesterPage from "./admin/semester";
import * as semestersPage from "./admin/semesters";
import * as subjectsPage from "./admin/subjects";
import * as userPage from "./admin/user";
import * as login from "./auth/login";
import * as providerStart from "./auth/provider-start";
import * as role from "./auth/role";
import * as privacyConsent from "./shared/privacy-consent";
import * as settings from "./shared/settings";

let app: Awaited<ReturnType<typeof startTestApp>>;
beforeAll(async () => {
  app = await startTestApp({ FEIDE_CLIENT_ID: "id", FEIDE_CLIENT_SECRET: "secret" });
});
afterAll(() => stopTestApp(app));

// Every action that reads a form: who posts, and the route params.
const actions: [string, RouteModuleLike, Record<string, string>, RoleId | null][] = [
  ["/login", login, {}, null],
  ["/auth/feide", providerStart, { provider: "feide" }, null],
  ["/role", role, {}, ROLE.Admin],
  ["/settings", settings, {}, ROLE.Admin],
  ["/privacy-consent", privacyConsent, {}, ROLE.Admin],
  ["/admin/class/1", classPage, { classId: "1" }, ROLE.Admin],
  ["/admin/forms/edit/1", formEditor, { formId: "1" }, ROLE.Admin],
  ["/admin/semesters/1", semesterPage, { semesterId: "1" }, ROLE.Admin],
  ["/admin/semesters", semestersPage, {}, ROLE.Admin],
  ["/admin/subjects", subjectsPage, {}, ROLE.Admin],
  ["/admin/users/2", userPage, { userId: "2" }, ROLE.Admin],
];

test.each(actions)("%s: a body that is not a form is the client's mistake (400), not a server error", async (path, mod, params, actAs) => {
  const cookie = actAs ? await cookieActingAs(app.database.db, "admin@example.org", actAs) : "";
  for (const type of ["multipart/form-data; boundary=zz", "multipart/form-data"]) {
    const request = new Request(new URL(path, TEST_ORIGIN), {
      method: "POST",
      headers: { Origin: TEST_ORIGIN, Cookie: cookie, "Content-Type": type, "x-praksis-remote-address": "192.0.2.1" },
      body: "--zz\r\nnot a part\u0000",
    });
    const response = await callAction(mod, request, params);
    expect(response.status, type).toBe(400);
  }
});
