import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { auditEvents, privacyAcceptances, sessions } from "~/services/platform/db/schema";
import { currentInstitution } from "~/services/platform/institution.server";
import { ROLE } from "~/services/identity";
import { sessionCookieFor, startTestApp, stopTestApp, userIdOf } from "~/test/app";
import { setCookieFor } from "~/test/cookie-jar";
import { callAction, callLoader, getPage, postForm } from "~/test/route";
import * as role from "./role";
import { flashTextOf } from "~/test/flash-text";

let app: Awaited<ReturnType<typeof startTestApp>>;

beforeAll(async () => {
  app = await startTestApp();
  for (const email of ["admin@example.org", "laerer1@example.org"]) {
    await app.database.db.insert(privacyAcceptances).values({
      userId: await userIdOf(app.database.db, email),
      policyVersion: currentInstitution().privacyPolicyVersion,
    });
  }
});

afterAll(async () => {
  await stopTestApp(app);
});

async function activeRoleOf(userEmail: string) {
  const userId = await userIdOf(app.database.db, userEmail);
  const rows = await app.database.db.select().from(sessions).where(eq(sessions.userId, userId));
  return rows.map((r) => r.activeRoleId);
}

test("without a session the chooser sends to the login page and back", async () => {
  const response = await callLoader(role, getPage("/role?redirectTo=%2Fteacher"));
  expect(response.status).toBe(302);
  expect(response.headers.get("Location")).toBe(`/?redirectTo=${encodeURIComponent("/role?redirectTo=%2Fteacher")}`);
});

test("without a session a role post is not accepted", async () => {
  const response = await callAction(role, postForm("/role", { roleId: String(ROLE.Teacher) }));
  expect(response.status).toBe(302);
  expect(response.headers.get("Location")).toMatch(/^\/\?redirectTo=/);
});

test("a stale session cookie is cleared", async () => {
  const cookie = await sessionCookieFor(app.database.db, "laerer1@example.org");
  await app.database.db
    .delete(sessions)
    .where(eq(sessions.userId, await userIdOf(app.database.db, "laerer1@example.org")));
  const response = await callLoader(role, getPage("/role", { cookie }));
  expect(setCookieFor(response, "praksis_session")).toMatch(/Max-Age=0/i);
});

test("before the privacy policy is accepted, the chooser sends to the consent page and refuses posts", async () => {
  const cookie = await sessionCookieFor(app.database.db, "student01@example.org");
  const page = await callLoader(role, getPage("/role", { cookie }));
  expect(page.headers.get("Location")).toBe("/privacy-consent?redirectTo=%2Frole");
  const post = await callAction(role, postForm("/role", { roleId: String(ROLE.Student) }, { cookie }));
  expect(post.status).toBe(403);
});

test("the chooser lists the user's roles and says when the wanted area needs a role they lack", async () => {
  const cookie = await sessionCookieFor(app.database.db, "admin@example.org");
  const response = await callLoader(role, getPage("/role?redirectTo=%2Fstudent%2Fforms", { cookie }));
  expect(response.status).toBe(200);
  expect(response.headers.get("Cache-Control")).toBe("no-store");
  expect(await response.json()).toEqual({
    roles: [
      { id: ROLE.Admin, name: "Admin" },
      { id: ROLE.Teacher, name: "Teacher" },
    ],
    activeRole: null,
    redirectTo: "/student/forms",
    missingRole: "Student",
  });
});

test("choosing a role the user does not hold gets 400 and changes nothing", async () => {
  const cookie = await sessionCookieFor(app.database.db, "admin@example.org");
  const before = await activeRoleOf("admin@example.org");
  for (const roleId of [String(ROLE.Student), String(ROLE.Supervisor), "7", "abc", ""]) {
    const response = await callAction(role, postForm("/role", { roleId }, { cookie }));
    expect(response.status, `roleId=${roleId}`).toBe(400);
    expect(await response.json()).toEqual({ error: "common:role.invalid" });
  }
  const missing = await callAction(role, postForm("/role", {}, { cookie }));
  expect(missing.status).toBe(400);
  expect(await activeRoleOf("admin@example.org")).toEqual(before);
});

test("choosing a held role sets it, audits it and goes to its home with a message", async () => {
  const cookie = await sessionCookieFor(app.database.db, "admin@example.org");
  const response = await callAction(role, postForm("/role", { roleId: String(ROLE.Teacher) }, { cookie }));
  expect([302, 303]).toContain(response.status);
  expect(response.headers.get("Location")).toBe("/teacher");
  expect(await flashTextOf(response)).toBe("Du bruker nå rollen Praksislærer.");

  const page = await callLoader(role, getPage("/role", { cookie }));
  expect((await page.json()).activeRole).toBe(ROLE.Teacher);

  const userId = await userIdOf(app.database.db, "admin@example.org");
  const events = await app.database.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.action, "role.selected"), eq(auditEvents.actorUserId, userId)));
  expect(events.length).toBeGreaterThan(0);
});

test("after choosing, the user goes on to the page asked for when it is in that role's area", async () => {
  const cookie = await sessionCookieFor(app.database.db, "admin@example.org");
  const into = await callAction(
    role,
    postForm("/role", { roleId: String(ROLE.Admin), redirectTo: "/admin/users?page=2" }, { cookie }),
  );
  expect(into.headers.get("Location")).toBe("/admin/users?page=2");
  const elsewhere = await callAction(
    role,
    postForm("/role", { roleId: String(ROLE.Teacher), redirectTo: "/admin/users" }, { cookie }),
  );
  expect(elsewhere.headers.get("Location")).toBe("/teacher");
  const offsite = await callAction(
    role,
    postForm("/role", { roleId: String(ROLE.Admin), redirectTo: "//evil.com/admin" }, { cookie }),
  );
  expect(offsite.headers.get("Location")).toBe("/admin");
});

test("a role post from another site is refused with 403 and changes nothing", async () => {
  const cookie = await sessionCookieFor(app.database.db, "admin@example.org");
  const response = await callAction(
    role,
    postForm("/role", { roleId: String(ROLE.Admin) }, { cookie, origin: "https://evil.example" }),
  );
  expect(response.status).toBe(403);
  const page = await callLoader(role, getPage("/role", { cookie }));
  expect((await page.json()).activeRole).toBeNull();
});
