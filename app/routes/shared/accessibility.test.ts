import { afterAll, beforeAll, expect, test } from "vitest";
import { ROLE } from "~/services/identity";
import { currentInstitution } from "~/services/platform/institution.server";
import { cookieActingAs, startTestApp, stopTestApp } from "~/test/app";
import { callLoader, getPage } from "~/test/route";
import * as root from "~/root";
import * as accessibility from "./accessibility";

let app: Awaited<ReturnType<typeof startTestApp>>;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => stopTestApp(app));

test("the accessibility page is open to everyone, and names the institution's statement and contact, in the reader's language", async () => {
  const institution = currentInstitution();
  const nb = await callLoader(accessibility, getPage("/accessibility"));
  expect(nb.status).toBe(200);
  expect(await nb.json()).toEqual({
    institutionName: institution.nb.institutionName,
    statementUrl: institution.accessibility.statementUrl,
    contactEmail: institution.accessibility.contactEmail,
  });
  const en = await callLoader(accessibility, getPage("/accessibility", { headers: { "Accept-Language": "en" } }));
  expect((await en.json()).institutionName).toBe(institution.en.institutionName);
});

test("logged in, it holds nothing of the person", async () => {
  const cookie = await cookieActingAs(app.database.db, "student01@example.org", ROLE.Student);
  const text = await (await callLoader(accessibility, getPage("/accessibility", { cookie }))).text();
  expect(text).not.toContain("Emma Andersen");
  expect(text).not.toContain("student01@example.org");
});

test("every page's footer gets the institution's statement address from the root loader", async () => {
  const response = await callLoader(root, getPage("/"));
  const body = await response.json();
  expect(body.institution.accessibilityStatementUrl).toBe(currentInstitution().accessibility.statementUrl);
  expect(body.institution.accessibilityStatementUrl).toMatch(/^https:\/\/uustatus\.no\//);
});
