import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ROLE } from "~/services/identity";
import { auditEvents, users } from "~/services/platform/db/schema";
import { ERASED_NAME } from "~/services/records";
import { cookieActingAs, startTestApp, stopTestApp, userIdOf } from "~/test/app";
import { callAction, callLoader, flashOf, getPage, postForm } from "~/test/route";
import * as page from "./erase-user";
import * as userPage from "./user";

let app: Awaited<ReturnType<typeof startTestApp>>;
let cookie: string;
let adminId: number;
let noahId: number;

beforeAll(async () => {
  app = await startTestApp();
  cookie = await cookieActingAs(app.database.db, "admin@example.org", ROLE.Admin);
  adminId = await userIdOf(app.database.db, "admin@example.org");
  // Noah Johansen (student02, SYK2001): answers, a signing form, record openings.
  noahId = await userIdOf(app.database.db, "student02@example.org");
});

afterAll(async () => {
  await stopTestApp(app);
});

const pathOf = (userId: number) => `/admin/users/${userId}/erase`;
const paramsOf = (userId: number) => ({ userId: String(userId) });

async function load(userId: number) {
  const response = await callLoader(page, getPage(pathOf(userId), { cookie }), paramsOf(userId));
  expect(response.status).toBe(200);
  return (await response.json()) as Awaited<ReturnType<typeof page.loader>>;
}

function post(userId: number, fields: Record<string, string>) {
  return callAction(page, postForm(pathOf(userId), fields, { cookie }), paramsOf(userId));
}

async function person(userId: number) {
  const [row] = await app.database.db.select().from(users).where(eq(users.id, userId));
  return row;
}

test("the page lists what goes now (the account among it) and what is kept, with the day it may go", async () => {
  const view = await load(noahId);
  expect(view.person).toMatchObject({ name: "Noah Johansen", email: "student02@example.org", erased: false });
  expect(view.isSelf).toBe(false);
  expect(view.userPage).toBe(`/admin/users/${noahId}`);
  expect(view.goes).toContainEqual({ kind: "account", count: 1 });
  expect(view.goes.every((g) => g.count > 0)).toBe(true);
  for (const kept of view.kept) expect(kept.until).toMatch(/^\d{1,2}\.\d{1,2}\.\d{4}$/);
});

test("an unknown person is a 404; the admin's own page says they cannot erase themself", async () => {
  const unknown = await callLoader(page, getPage(pathOf(999_999), { cookie }), paramsOf(999_999));
  expect(unknown.status).toBe(404);
  expect((await load(adminId)).isSelf).toBe(true);
});

test("without the box ticked nothing happens (400, the box's message); an unknown intent is a 400 with no message", async () => {
  const refused = await post(noahId, { intent: "erase" });
  expect(refused.status).toBe(400);
  const body = JSON.stringify(await refused.json());
  expect(body).toContain("records:erase.errors.understood");
  expect((await person(noahId)).displayName).toBe("Noah Johansen");
  const wrong = await post(noahId, { intent: "delete", understood: "yes" });
  expect(wrong.status).toBe(400);
  expect((await person(noahId)).displayName).toBe("Noah Johansen");
});

test("the admin cannot erase themself: 400 with the message, nothing changed", async () => {
  const refused = await post(adminId, { intent: "erase", understood: "yes" });
  expect(refused.status).toBe(400);
  expect(JSON.stringify(await refused.json())).toContain("records:erase.errors.self");
  expect((await person(adminId)).displayName).toBe("Ada Administrator");
});

test("confirmed: the person is anonymised and audited, the admin is back on the user page with a flash, which then says they are erased", async () => {
  const response = await post(noahId, { intent: "erase", understood: "yes" });
  expect(response.status).toBe(303);
  expect(response.headers.get("Location")).toBe(`/admin/users/${noahId}`);
  expect(await flashOf(response)).toMatchObject({
    type: "success",
    key: "records:erase.done",
    values: { name: "Noah Johansen" },
  });
  const after = await person(noahId);
  expect(after.displayName).toBe(ERASED_NAME);
  expect(after.email ?? "").not.toContain("student02");
  const [audited] = await app.database.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.actorUserId, adminId), eq(auditEvents.subjectUserId, noahId)))
    .orderBy(desc(auditEvents.id))
    .limit(1);
  expect(audited.action).toMatch(/eras/);

  const user = await callLoader(userPage, getPage(`/admin/users/${noahId}`, { cookie }), paramsOf(noahId));
  expect(((await user.json()) as { erased: boolean }).erased).toBe(true);
  expect((await load(noahId)).person.erased).toBe(true);

  const again = await post(noahId, { intent: "erase", understood: "yes" });
  expect(await flashOf(again)).toMatchObject({ type: "info", key: "records:erase.already" });
});
