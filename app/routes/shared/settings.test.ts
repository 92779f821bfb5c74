import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { userPreferences } from "~/services/platform/db/schema";
import { ROLE } from "~/services/identity";
import { cookieActingAs, startTestApp, stopTestApp, userIdOf } from "~/test/app";
import { callAction, callLoader, flashOf, getPage, postForm, TEST_ORIGIN } from "~/test/route";
import * as settings from "./settings";

let app: Awaited<ReturnType<typeof startTestApp>>;

beforeAll(async () => {
  app = await startTestApp();
});

afterAll(async () => {
  await stopTestApp(app);
});

/** A post with repeated fields, as a form of checkboxes sends it. */
function postPairs(path: string, pairs: [string, string][], cookie: string): Request {
  return new Request(new URL(path, TEST_ORIGIN), {
    method: "POST",
    headers: { Origin: TEST_ORIGIN, Cookie: cookie, "x-test-client-address": "192.0.2.1" },
    body: new URLSearchParams(pairs),
  });
}

async function preferencesOf(email: string) {
  const [row] = await app.database.db
    .select()
    .from(userPreferences)
    .where(eq(userPreferences.userId, await userIdOf(app.database.db, email)));
  return row ?? null;
}

test("a visitor sees the language only; a logged-in user also the reminder kinds of their roles, all on", async () => {
  expect((await (await callLoader(settings, getPage("/settings"))).json()).reminders).toBeNull();
  const cookie = await cookieActingAs(app.database.db, "veileder1@example.org", ROLE.Supervisor);
  const data = await (await callLoader(settings, getPage("/settings", { cookie }))).json();
  expect(data.reminders).toEqual([
    { kind: "deadline", on: true },
    { kind: "warning", on: true },
    { kind: "signing", on: true },
  ]);
});

test("switching kinds off and on with the plain form", async () => {
  const cookie = await cookieActingAs(app.database.db, "veileder2@example.org", ROLE.Supervisor);
  const off = await callAction(
    settings,
    postPairs(
      "/settings",
      [
        ["intent", "reminders"],
        ["kinds", "signing"],
      ],
      cookie,
    ),
  );
  expect(off.status).toBe(303);
  expect(off.headers.get("Location")).toBe("/settings#reminders");
  expect(await flashOf(off)).toEqual({ type: "success", key: "reminders:settings.saved" });
  expect((await preferencesOf("veileder2@example.org"))?.reminderOptOuts).toEqual(["deadline", "warning"]);
  const page = await (await callLoader(settings, getPage("/settings", { cookie }))).json();
  expect(page.reminders).toEqual([
    { kind: "deadline", on: false },
    { kind: "warning", on: false },
    { kind: "signing", on: true },
  ]);
  await callAction(
    settings,
    postPairs(
      "/settings",
      [
        ["intent", "reminders"],
        ["kinds", "deadline"],
        ["kinds", "warning"],
        ["kinds", "signing"],
        ["kinds", "bogus"],
      ],
      cookie,
    ),
  );
  expect((await preferencesOf("veileder2@example.org"))?.reminderOptOuts).toEqual([]);
});

test("a visitor cannot post reminder choices", async () => {
  const response = await callAction(settings, postForm("/settings", { intent: "reminders", kinds: "deadline" }));
  expect(response.status).toBe(401);
});

test("the language chosen by a logged-in user is kept for their mails; a visitor's only in the cookie", async () => {
  const cookie = await cookieActingAs(app.database.db, "student05@example.org", ROLE.Student);
  const response = await callAction(settings, postForm("/settings", { language: "en" }, { cookie }));
  expect(response.status).toBe(303);
  expect((await preferencesOf("student05@example.org"))?.language).toBe("en");
  const visitor = await callAction(settings, postForm("/settings", { language: "en" }));
  expect(visitor.headers.get("Set-Cookie")).toContain("lng=");
});
