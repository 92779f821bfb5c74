import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { auditEvents, privacyAcceptances, sessions } from "~/services/platform/db/schema";
import { currentInstitution } from "~/services/platform/institution.server";
import { sessionCookieFor, startTestApp, stopTestApp, userIdOf } from "~/test/app";
import { CookieJar, setCookieFor } from "~/test/cookie-jar";
import { callAction, callLoader, getPage, postForm } from "~/test/route";
import * as role from "../auth/role";
import * as consent from "./privacy-consent";
import { flashTextOf } from "~/test/flash-text";

let app: Awaited<ReturnType<typeof startTestApp>>;

beforeAll(async () => {
  app = await startTestApp();
});

afterAll(async () => {
  await stopTestApp(app);
});

async function acceptancesOf(email: string) {
  const userId = await userIdOf(app.database.db, email);
  return app.database.db.select().from(privacyAcceptances).where(eq(privacyAcceptances.userId, userId));
}

async function sessionCount(email: string) {
  const userId = await userIdOf(app.database.db, email);
  return (await app.database.db.select().from(sessions).where(eq(sessions.userId, userId))).length;
}

test("without a session the consent page sends to the login page", async () => {
  const response = await callLoader(consent, getPage("/privacy-consent"));
  expect(response.headers.get("Location")).toBe("/?redirectTo=%2Fprivacy-consent");
});

test("the consent page shows the policy in the user's language", async () => {
  const cookie = await sessionCookieFor(app.database.db, "student01@example.org");
  const nb = await callLoader(consent, getPage("/privacy-consent?redirectTo=%2Fstudent", { cookie }));
  expect(await nb.json()).toEqual({ privacy: currentInstitution().nb.privacy, redirectTo: "/student" });
  const en = await callLoader(consent, getPage("/privacy-consent", { cookie, headers: { "Accept-Language": "en" } }));
  expect((await en.json()).privacy).toEqual(currentInstitution().en.privacy);
});

test("accepting stores the acceptance of the version in force, audits it and goes on", async () => {
  const cookie = await sessionCookieFor(app.database.db, "laerer1@example.org");
  const response = await callAction(
    consent,
    postForm("/privacy-consent", { intent: "accept", redirectTo: "/teacher/classes" }, { cookie }),
  );
  expect(response.status).toBe(303);
  expect(response.headers.get("Location")).toBe("/teacher/classes");

  const rows = await acceptancesOf("laerer1@example.org");
  expect(rows.map((r) => r.policyVersion)).toEqual([currentInstitution().privacyPolicyVersion]);
  const userId = await userIdOf(app.database.db, "laerer1@example.org");
  const events = await app.database.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.action, "privacy.accepted"), eq(auditEvents.actorUserId, userId)));
  expect(events).toHaveLength(1);

  const again = await callLoader(consent, getPage("/privacy-consent", { cookie }));
  expect(again.headers.get("Location")).toBe("/teacher");
});

test("accepting twice keeps one acceptance", async () => {
  const cookie = await sessionCookieFor(app.database.db, "veileder1@example.org");
  await callAction(consent, postForm("/privacy-consent", { intent: "accept" }, { cookie }));
  const second = await callAction(consent, postForm("/privacy-consent", { intent: "accept" }, { cookie }));
  expect(second.status).toBe(303);
  expect(second.headers.get("Location")).toBe("/supervisor");
  expect(await acceptancesOf("veileder1@example.org")).toHaveLength(1);
});

test("after accepting, a user with two roles goes to the chooser, and an off-site target is ignored", async () => {
  const cookie = await sessionCookieFor(app.database.db, "admin@example.org");
  const response = await callAction(
    consent,
    postForm("/privacy-consent", { intent: "accept", redirectTo: "https://evil.example/" }, { cookie }),
  );
  expect(response.headers.get("Location")).toBe("/role");
  const chooser = await callLoader(role, getPage("/role", { cookie }));
  expect(chooser.status).toBe(200);
});

test("a redirectTo that normalises to another host is not followed after accepting", async () => {
  const cookie = await sessionCookieFor(app.database.db, "student05@example.org");
  const response = await callAction(
    consent,
    postForm("/privacy-consent", { intent: "accept", redirectTo: "/.//evil.example" }, { cookie }),
  );
  expect(response.status).toBe(303);
  expect(response.headers.get("Location")).toBe("/student");
});

test("the consent page, once accepted, does not redirect off-site through a crafted link", async () => {
  const cookie = await sessionCookieFor(app.database.db, "student05@example.org");
  const response = await callLoader(consent, getPage("/privacy-consent?redirectTo=%2F.%2F%2Fevil.example", { cookie }));
  const location = response.headers.get("Location") ?? "";
  expect(new URL(location, "http://localhost").host).toBe("localhost");
});

test("declining ends the session, clears the cookie and says why", async () => {
  const jar = new CookieJar();
  const cookie = await sessionCookieFor(app.database.db, "student02@example.org");
  jar.take(new Response(null, { headers: { "Set-Cookie": cookie } }));
  expect(await sessionCount("student02@example.org")).toBe(1);

  const response = jar.take(
    await callAction(consent, postForm("/privacy-consent", { intent: "decline" }, { cookie: jar.header() })),
  );
  expect([302, 303]).toContain(response.status);
  expect(response.headers.get("Location")).toBe("/");
  expect(setCookieFor(response, "praksis_session")).toMatch(/Max-Age=0/i);
  expect(await flashTextOf(response)).toBe("Du har takket nei til personvernerklæringen og er logget ut.");
  expect(jar.has("praksis_session")).toBe(false);
  expect(await sessionCount("student02@example.org")).toBe(0);
  expect(await acceptancesOf("student02@example.org")).toEqual([]);

  const replay = await callLoader(consent, getPage("/privacy-consent", { cookie }));
  expect(replay.headers.get("Location")).toBe("/?redirectTo=%2Fprivacy-consent");
});

test("an unknown intent gets 400 and changes nothing", async () => {
  const cookie = await sessionCookieFor(app.database.db, "student03@example.org");
  const response = await callAction(consent, postForm("/privacy-consent", { intent: "maybe" }, { cookie }));
  expect(response.status).toBe(400);
  expect(await acceptancesOf("student03@example.org")).toEqual([]);
  expect(await sessionCount("student03@example.org")).toBe(1);
});

test("a consent post from another site is refused with 403 and changes nothing", async () => {
  const cookie = await sessionCookieFor(app.database.db, "student04@example.org");
  for (const intent of ["accept", "decline"]) {
    const response = await callAction(
      consent,
      postForm("/privacy-consent", { intent }, { cookie, origin: "https://evil.example" }),
    );
    expect(response.status).toBe(403);
  }
  const refererOnly = await callAction(
    consent,
    postForm(
      "/privacy-consent",
      { intent: "accept" },
      { cookie, origin: null, headers: { Referer: "https://evil.example/x" } },
    ),
  );
  expect(refererOnly.status).toBe(403);
  expect(await acceptancesOf("student04@example.org")).toEqual([]);
  expect(await sessionCount("student04@example.org")).toBe(1);
});
