import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Database } from "~/services/platform/db/client.server";
import { ROLE } from "~/services/platform/db/role-ids";
import { auditEvents, userRoles, users } from "~/services/platform/db/schema";
import { openTestDatabase } from "~/test/db";
import { addAdministrator, adminCommand, listAdministrators, removeAdministrator } from "./administrators.server";

// The operator's command for administrators, on a database as a new installation has it: migrated,
// and nobody in it.

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

const db = () => database.db;

async function trail(userId: number) {
  return db()
    .select({ action: auditEvents.action, actor: auditEvents.actorUserId, details: auditEvents.details })
    .from(auditEvents)
    .where(eq(auditEvents.subjectUserId, userId))
    .orderBy(auditEvents.id);
}

async function rolesOf(userId: number): Promise<number[]> {
  return (
    await db()
      .select({ roleId: userRoles.roleId })
      .from(userRoles)
      .where(eq(userRoles.userId, userId))
      .orderBy(userRoles.roleId)
  ).map((r) => r.roleId);
}

test("the first administrator of an empty installation: a new active user with the Administrator role, audited with no actor; adding again changes nothing", async () => {
  expect(await listAdministrators(db())).toEqual([]);
  const added = await addAdministrator(db(), {
    email: "  Forste.Admin@Hogskolen.example.NO ",
    displayName: " Første Admin ",
  });
  expect(added).toEqual({
    ok: true,
    outcome: "created",
    user: {
      id: expect.any(Number),
      email: "forste.admin@hogskolen.example.no",
      displayName: "Første Admin",
      isActive: true,
    },
  });
  if (!added.ok) throw new Error("not added");
  const { id } = added.user;
  expect(await rolesOf(id)).toEqual([ROLE.Admin]);
  expect(await trail(id)).toEqual([
    { action: "admin.added_by_command", actor: null, details: { by: "command", created: true } },
  ]);

  const again = await addAdministrator(db(), {
    email: "FORSTE.ADMIN@HOGSKOLEN.EXAMPLE.NO",
    displayName: "Another Name",
  });
  expect(again).toEqual({
    ok: true,
    outcome: "already",
    user: { id, email: "forste.admin@hogskolen.example.no", displayName: "Første Admin", isActive: true },
  });
  expect(await trail(id)).toHaveLength(1);
  expect(await listAdministrators(db())).toEqual([
    { id, email: "forste.admin@hogskolen.example.no", displayName: "Første Admin", isActive: true },
  ]);
});

test("an existing user gets the Administrator role besides their own, and keeps their name; a deactivated one is made active again", async () => {
  const [teacher] = await db()
    .insert(users)
    .values({ email: "Laerer@Example.org", displayName: "Lise Lærer" })
    .returning({ id: users.id });
  await db().insert(userRoles).values({ userId: teacher.id, roleId: ROLE.Teacher });
  const granted = await addAdministrator(db(), { email: "laerer@example.org" });
  expect(granted).toMatchObject({ ok: true, outcome: "granted", user: { id: teacher.id, displayName: "Lise Lærer" } });
  expect(await rolesOf(teacher.id)).toEqual([ROLE.Admin, ROLE.Teacher]);
  expect(await trail(teacher.id)).toEqual([
    { action: "admin.added_by_command", actor: null, details: { by: "command", created: false, activated: false } },
  ]);

  const [gone] = await db()
    .insert(users)
    .values({ email: "gone@example.org", displayName: "Gone Admin", isActive: false })
    .returning({ id: users.id });
  await db().insert(userRoles).values({ userId: gone.id, roleId: ROLE.Admin });
  expect(await addAdministrator(db(), { email: "gone@example.org" })).toMatchObject({
    ok: true,
    outcome: "activated",
    user: { isActive: true },
  });
  const [row] = await db().select({ isActive: users.isActive }).from(users).where(eq(users.id, gone.id));
  expect(row.isActive).toBe(true);
  expect(await trail(gone.id)).toEqual([
    { action: "admin.added_by_command", actor: null, details: { by: "command", created: false, activated: true } },
  ]);
});

test("what cannot be added: not an address (as the log-in page takes them), a new user without a name, a name too long", async () => {
  expect(await addAdministrator(db(), { email: "not-an-address", displayName: "X" })).toEqual({
    ok: false,
    error: "badEmail",
  });
  expect(await addAdministrator(db(), { email: "ørjan@example.org", displayName: "X" })).toEqual({
    ok: false,
    error: "badEmail",
  });
  expect(await addAdministrator(db(), { email: "nobody-yet@example.org" })).toEqual({
    ok: false,
    error: "nameRequired",
  });
  expect(await addAdministrator(db(), { email: "nobody-yet@example.org", displayName: "   " })).toEqual({
    ok: false,
    error: "nameRequired",
  });
  expect(await addAdministrator(db(), { email: "nobody-yet@example.org", displayName: "x".repeat(201) })).toEqual({
    ok: false,
    error: "nameTooLong",
  });
  const [{ n }] = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(eq(users.email, "nobody-yet@example.org"));
  expect(n).toBe(0);
});

test("the same address added by two commands at once: one user, one role", async () => {
  const results = await Promise.all([
    addAdministrator(db(), { email: "twice@example.org", displayName: "Twice" }),
    addAdministrator(db(), { email: "TWICE@example.org", displayName: "Twice" }),
  ]);
  expect(results.map((r) => r.ok && r.outcome).sort()).toEqual(["already", "created"]);
  const rows = await db()
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.email})`, "twice@example.org"));
  expect(rows).toHaveLength(1);
  expect(await rolesOf(rows[0].id)).toEqual([ROLE.Admin]);
});

test("removing takes the role only, audited; never from the last active administrator, even by two removals at once", async () => {
  // Start from exactly two active administrators.
  for (const admin of await listAdministrators(db())) {
    if (!["forste.admin@hogskolen.example.no", "laerer@example.org"].includes(admin.email.toLowerCase())) {
      await db()
        .delete(userRoles)
        .where(and(eq(userRoles.userId, admin.id), eq(userRoles.roleId, ROLE.Admin)));
    }
  }
  expect((await listAdministrators(db())).map((a) => a.email)).toEqual([
    "forste.admin@hogskolen.example.no",
    "Laerer@Example.org",
  ]);

  const both = await Promise.all([
    removeAdministrator(db(), { email: "forste.admin@hogskolen.example.no" }),
    removeAdministrator(db(), { email: "laerer@example.org" }),
  ]);
  expect(both.filter((r) => r.ok)).toHaveLength(1);
  expect(both.filter((r) => !r.ok)).toEqual([{ ok: false, error: "last" }]);
  expect(await listAdministrators(db())).toHaveLength(1);

  const [left] = await listAdministrators(db());
  expect(await removeAdministrator(db(), { email: left.email })).toEqual({ ok: false, error: "last" });

  // The teacher, once no longer an administrator, is still a teacher; the removal is in the trail.
  const teacher = (await db().select({ id: users.id }).from(users).where(eq(users.email, "Laerer@Example.org")))[0];
  await addAdministrator(db(), { email: "laerer@example.org" });
  await addAdministrator(db(), { email: "forste.admin@hogskolen.example.no" });
  expect(await removeAdministrator(db(), { email: "LAERER@example.org" })).toMatchObject({
    ok: true,
    outcome: "removed",
    rolesLeft: 1,
  });
  expect(await rolesOf(teacher.id)).toEqual([ROLE.Teacher]);
  expect((await trail(teacher.id)).at(-1)).toEqual({
    action: "admin.removed_by_command",
    actor: null,
    details: { by: "command" },
  });
  expect(await removeAdministrator(db(), { email: "laerer@example.org" })).toMatchObject({
    ok: true,
    outcome: "notAdmin",
  });
  expect(await removeAdministrator(db(), { email: "unknown@example.org" })).toEqual({ ok: false, error: "unknown" });
});

test("the command: its lines and exit codes", async () => {
  const list = await adminCommand(db(), ["list"]);
  expect(list.exitCode).toBe(0);
  expect(list.lines[0]).toMatch(/^\d+ administrators?:$/);
  expect(list.lines).toContain("  forste.admin@hogskolen.example.no  Første Admin");

  expect(await adminCommand(db(), ["add", "ny.admin@example.org", "Ny Admin"])).toEqual({
    exitCode: 0,
    lines: [
      "ny.admin@example.org (Ny Admin) is an administrator: a new user, who logs in with an e-mail code sent to that address.",
    ],
  });
  expect(await adminCommand(db(), ["add", "ny.admin@example.org", "Ny Admin"])).toEqual({
    exitCode: 0,
    lines: ["ny.admin@example.org (Ny Admin) is an administrator already: nothing changed."],
  });
  expect(await adminCommand(db(), ["remove", "ny.admin@example.org"])).toEqual({
    exitCode: 0,
    lines: [
      "ny.admin@example.org is no longer an administrator. They have no other role: give them one on the Users page, or deactivate them there.",
    ],
  });
  expect(await adminCommand(db(), ["remove", "ny.admin@example.org"])).toEqual({
    exitCode: 0,
    lines: ["ny.admin@example.org is not an administrator: nothing changed."],
  });
  expect((await adminCommand(db(), ["remove", "unknown@example.org"])).exitCode).toBe(1);

  const usage = await adminCommand(db(), []);
  expect(usage.exitCode).toBe(2);
  expect(usage.lines).toContain(
    '  npm run admin -- add EMAIL "NAME"   make EMAIL an administrator (a new user needs NAME)',
  );
  expect((await adminCommand(db(), ["add", "new-person@example.org"])).lines[0]).toBe(
    "No user has the address new-person@example.org yet: give the new administrator's name too.",
  );
  expect((await adminCommand(db(), ["add", "nonsense"])).exitCode).toBe(2);
  expect((await adminCommand(db(), ["remove", "a@example.org", "extra"])).exitCode).toBe(2);
});
