import { and, desc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { openTestDatabase } from "~/test/db";
import { userIdOf } from "~/test/app";
import {
  escapeLike,
  getUserForEdit,
  listUsers,
  setUserActive,
  storedPhone,
  updatePhoneNumber,
  updateUser,
  USERS_PAGE_SIZE,
  type UserEditInput,
} from "./users.server";
import type { Database } from "~/services/platform/db/client.server";
import {
  answerSets,
  auditEvents,
  classSupervisors,
  classes,
  classTeachers,
  semesters,
  sessions,
  studentExtraSupervisors,
  studentReferences,
  subjects,
  userRoles,
  users,
} from "~/services/platform/db/schema";
import { seedDemo } from "~/services/demo/index.server";
import { ROLE } from "~/services/identity";
import { createSession, loadSession, resolveVippsUser } from "~/services/identity/index.server";

let database: Database;
let admin: { userId: number; ip: string };
const today = new Date("2026-11-22T12:00:00Z");

beforeAll(async () => {
  database = await openTestDatabase();
  await seedDemo(database.db, today);
  admin = { userId: await userIdOf(database.db, "admin@example.org"), ip: "192.0.2.9" };
});
afterAll(() => database.close());

const db = () => database.db;
const id = (email: string) => userIdOf(db(), email);

async function classId(subjectCode: string, semesterName: string): Promise<number> {
  const [row] = await db()
    .select({ id: classes.id })
    .from(classes)
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .innerJoin(semesters, eq(semesters.id, classes.semesterId))
    .where(and(eq(subjects.subjectCode, subjectCode), eq(semesters.name, semesterName)));
  return row.id;
}

/** The form as the user page would post it for the user as they are now, with `changes` applied. */
async function currentInput(userId: number, changes: Partial<UserEditInput> = {}): Promise<UserEditInput> {
  const edit = await getUserForEdit(db(), userId, today);
  if (!edit) throw new Error("no user");
  return {
    displayName: edit.user.displayName,
    roles: edit.roles,
    studentClassIds: edit.studentClassIds,
    teacherClassIds: edit.teacherClassIds,
    supervisorClassIds: edit.supervisorClassIds,
    ...changes,
  };
}

async function auditsAbout(userId: number, action: string) {
  return db()
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.subjectUserId, userId), eq(auditEvents.action, action)))
    .orderBy(desc(auditEvents.id));
}

// ─── The list ────────────────────────────────────────────────────────────────

test("escapeLike makes % _ and \\ literal", () => {
  expect(escapeLike("100%_a\\b")).toBe("100\\%\\_a\\\\b");
});

test("the list hides deactivated users unless asked, pages by 20 in a stable order, and counts the total", async () => {
  const first = await listUsers(db());
  // 1 admin, 3 teachers, 4 supervisors, 25 students; the deactivated student is left out.
  expect(first.total).toBe(33);
  expect(first.rows).toHaveLength(USERS_PAGE_SIZE);
  const second = await listUsers(db(), { offset: 20 });
  expect(second.rows).toHaveLength(13);
  const all = await listUsers(db(), { limit: 100 });
  expect([...first.rows, ...second.rows]).toEqual(all.rows);
  expect(all.rows.some((u) => u.email === "deaktivert@example.org")).toBe(false);

  const withInactive = await listUsers(db(), { includeInactive: true, limit: 100 });
  expect(withInactive.total).toBe(34);
  expect(withInactive.rows.find((u) => u.email === "deaktivert@example.org")).toMatchObject({ isActive: false });
});

test("each row carries the user's roles", async () => {
  const { rows } = await listUsers(db(), { search: "admin@example.org" });
  expect(rows).toEqual([
    {
      id: admin.userId,
      displayName: "Ada Administrator",
      email: "admin@example.org",
      isActive: true,
      roles: [ROLE.Admin, ROLE.Teacher],
    },
  ]);
});

test("the role filter keeps the users who hold the role, other roles too", async () => {
  const teachers = await listUsers(db(), { roleId: ROLE.Teacher });
  expect(teachers.rows.map((u) => u.email).sort()).toEqual([
    "admin@example.org",
    "laerer1@example.org",
    "laerer2@example.org",
    "laerer3@example.org",
  ]);
  expect(teachers.total).toBe(4);
  expect((await listUsers(db(), { roleId: ROLE.Supervisor })).total).toBe(4);
  expect((await listUsers(db(), { roleId: ROLE.Student, includeInactive: true })).total).toBe(26);
});

test("search finds name or e-mail, ignoring case, and treats % and _ literally", async () => {
  expect((await listUsers(db(), { search: "EMMA" })).rows.map((u) => u.displayName)).toEqual(["Emma Andersen"]);
  expect((await listUsers(db(), { search: "Student0", limit: 100 })).total).toBe(9);
  expect((await listUsers(db(), { search: "  veileder  " })).total).toBe(4);
  await db()
    .insert(users)
    .values([
      { displayName: "Hundre % Sikker", email: "prosent@example.org" },
      { displayName: "Under_Strek", email: "understrek@example.org" },
    ]);
  expect((await listUsers(db(), { search: "%" })).rows.map((u) => u.displayName)).toEqual(["Hundre % Sikker"]);
  expect((await listUsers(db(), { search: "_" })).rows.map((u) => u.displayName)).toEqual(["Under_Strek"]);
  expect((await listUsers(db(), { search: "ingen slik bruker" })).rows).toEqual([]);
});

test("names sort with numeric collation, ignoring case, with Æ Ø Å last in Norwegian order", async () => {
  const names = [
    "Sortert 10",
    "sortert 2",
    "Sortert 1",
    "Åse Sortert",
    "Øyvind Sortert",
    "Ærlig Sortert",
    "Anne Sortert",
    "Zorro Sortert",
  ];
  await db()
    .insert(users)
    .values(names.map((displayName, i) => ({ displayName, email: `sortert${i}@example.org` })));
  const { rows } = await listUsers(db(), { search: "sortert" });
  expect(rows.map((u) => u.displayName)).toEqual([
    "Anne Sortert",
    "Sortert 1",
    "sortert 2",
    "Sortert 10",
    "Zorro Sortert",
    "Ærlig Sortert",
    "Øyvind Sortert",
    "Åse Sortert",
  ]);
});

// ─── One user ────────────────────────────────────────────────────────────────

test("the user page shows every semester with classes, this one first, and the user's classes per role", async () => {
  const edit = await getUserForEdit(db(), await id("laerer1@example.org"), today);
  expect(edit?.semesters.map((s) => [s.name, s.status])).toEqual([
    ["Høst 2026", "current"],
    ["Vår 2026", "past"],
  ]);
  expect(edit?.semesters[0].classes.map((c) => c.subjectCode)).toEqual(["SYK2001", "SYK2002"]);
  expect(edit?.roles).toEqual([ROLE.Teacher]);
  expect(edit?.teacherClassIds).toEqual(
    [await classId("SYK2001", "Høst 2026"), await classId("SYK1002", "Vår 2026")].sort((a, b) => a - b),
  );
  expect(await getUserForEdit(db(), 999_999, today)).toBeNull();
});

test("at least one role; the user and their roles are left as they were", async () => {
  const userId = await id("student19@example.org");
  expect(await updateUser(db(), userId, await currentInput(userId, { roles: [] }), admin)).toEqual({
    ok: false,
    error: { kind: "rolesRequired" },
  });
  expect((await getUserForEdit(db(), userId, today))?.roles).toEqual([ROLE.Student]);
});

test("an admin cannot take the Admin role from themselves", async () => {
  const result = await updateUser(
    db(),
    admin.userId,
    await currentInput(admin.userId, { roles: [ROLE.Teacher] }),
    admin,
  );
  expect(result).toEqual({ ok: false, error: { kind: "ownAdminRole" } });
  expect((await getUserForEdit(db(), admin.userId, today))?.roles).toEqual([ROLE.Admin, ROLE.Teacher]);
});

test("an unknown user or class is refused", async () => {
  const userId = await id("student25@example.org");
  expect(await updateUser(db(), 999_999, await currentInput(userId), admin)).toEqual({
    ok: false,
    error: { kind: "notFound" },
  });
  expect(await updateUser(db(), userId, await currentInput(userId, { studentClassIds: [999_999] }), admin)).toEqual({
    ok: false,
    error: { kind: "unknownClass" },
  });
});

test("a student is in at most one class per semester", async () => {
  const userId = await id("student25@example.org");
  const both = [await classId("SYK2001", "Høst 2026"), await classId("SYK2002", "Høst 2026")];
  expect(await updateUser(db(), userId, await currentInput(userId, { studentClassIds: both }), admin)).toEqual({
    ok: false,
    error: { kind: "twoClassesInSemester", semesterName: "Høst 2026" },
  });
  expect((await getUserForEdit(db(), userId, today))?.studentClassIds).toEqual([]);
});

test("a student can be placed in a class of each semester; the change is audited", async () => {
  const userId = await id("student25@example.org");
  const current = await classId("SYK2002", "Høst 2026");
  const previous = await classId("SYK1002", "Vår 2026");
  const result = await updateUser(
    db(),
    userId,
    await currentInput(userId, { studentClassIds: [current, previous] }),
    admin,
  );
  expect(result).toEqual({ ok: true, changed: true });
  expect((await getUserForEdit(db(), userId, today))?.studentClassIds).toEqual(
    [current, previous].sort((a, b) => a - b),
  );
  const [event] = await auditsAbout(userId, "user.updated");
  expect(event.details).toEqual({ studentClasses: { added: [current, previous].sort((a, b) => a - b), removed: [] } });
  expect(event).toMatchObject({ actorUserId: admin.userId, ip: "192.0.2.9" });
});

test("a student without assessments can move to another class; one with answers cannot leave theirs", async () => {
  const classA = await classId("SYK2001", "Høst 2026");
  const classB = await classId("SYK2002", "Høst 2026");
  const old = await classId("SYK1002", "Vår 2026");

  const student10 = await id("student10@example.org");
  expect(
    await updateUser(db(), student10, await currentInput(student10, { studentClassIds: [classB] }), admin),
  ).toEqual({
    ok: true,
    changed: true,
  });
  expect((await getUserForEdit(db(), student10, today))?.studentClassIds).toEqual([classB]);

  const student01 = await id("student01@example.org");
  expect((await db().select().from(answerSets).where(eq(answerSets.studentUserId, student01))).length).toBeGreaterThan(
    0,
  );
  const moved = await updateUser(
    db(),
    student01,
    await currentInput(student01, { studentClassIds: [classB, old] }),
    admin,
  );
  expect(moved).toEqual({
    ok: false,
    error: {
      kind: "studentHasAssessments",
      classes: [{ classId: classA, subjectCode: "SYK2001", semesterName: "Høst 2026" }],
    },
  });
  // Taking the Student role away would take them out of their classes too.
  const unroled = await updateUser(db(), student01, await currentInput(student01, { roles: [ROLE.Supervisor] }), admin);
  expect(unroled.ok).toBe(false);
  expect((await getUserForEdit(db(), student01, today))?.studentClassIds).toEqual([classA, old].sort((a, b) => a - b));
  expect((await getUserForEdit(db(), student01, today))?.roles).toEqual([ROLE.Student]);
});

test("a teacher who leaves a class is no longer the selected teacher of its students there", async () => {
  const teacher = await id("laerer3@example.org");
  const classB = await classId("SYK2002", "Høst 2026");
  const classA = await classId("SYK2001", "Høst 2026");
  const assigned = await db()
    .select()
    .from(studentReferences)
    .where(and(eq(studentReferences.classId, classB), eq(studentReferences.teacherUserId, teacher)));
  expect(assigned.length).toBeGreaterThan(0);

  const result = await updateUser(db(), teacher, await currentInput(teacher, { teacherClassIds: [classA] }), admin);
  expect(result).toEqual({ ok: true, changed: true });
  expect(await db().select().from(classTeachers).where(eq(classTeachers.userId, teacher))).toEqual([
    { classId: classA, userId: teacher },
  ]);
  const after = await db()
    .select({ teacherUserId: studentReferences.teacherUserId })
    .from(studentReferences)
    .where(
      inArray(
        studentReferences.id,
        assigned.map((r) => r.id),
      ),
    );
  expect(after.every((r) => r.teacherUserId === null)).toBe(true);
  // The other teacher of the class keeps their students.
  const others = await db()
    .select()
    .from(studentReferences)
    .where(and(eq(studentReferences.classId, classB), eq(studentReferences.teacherUserId, admin.userId)));
  expect(others.length).toBeGreaterThan(0);
  const [event] = await auditsAbout(teacher, "user.updated");
  expect(event.details).toEqual({ teacherClasses: { added: [classA], removed: [classB] } });
});

test("a supervisor who leaves a class is cleared as selected and extra supervisor there, not elsewhere", async () => {
  const supervisor = await id("veileder1@example.org");
  const old = await classId("SYK1002", "Vår 2026");
  expect(
    await db().select().from(studentExtraSupervisors).where(eq(studentExtraSupervisors.userId, supervisor)),
  ).toHaveLength(1);

  const result = await updateUser(
    db(),
    supervisor,
    await currentInput(supervisor, { supervisorClassIds: [old] }),
    admin,
  );
  expect(result.ok).toBe(true);
  expect(await db().select().from(classSupervisors).where(eq(classSupervisors.userId, supervisor))).toEqual([
    { classId: old, userId: supervisor, viaInvitation: false },
  ]);
  const refs = await db().select().from(studentReferences).where(eq(studentReferences.supervisorUserId, supervisor));
  expect(refs.length).toBeGreaterThan(0);
  expect(refs.every((r) => r.classId === old)).toBe(true);
  expect(
    await db().select().from(studentExtraSupervisors).where(eq(studentExtraSupervisors.userId, supervisor)),
  ).toEqual([]);
});

test("role changes are audited with the roles before and after; the name is trimmed", async () => {
  const userId = await id("student20@example.org");
  const result = await updateUser(
    db(),
    userId,
    await currentInput(userId, { displayName: "  Mathias Aas-Berg ", roles: [ROLE.Student, ROLE.Supervisor] }),
    admin,
  );
  expect(result).toEqual({ ok: true, changed: true });
  const [roles] = await auditsAbout(userId, "user.roles_changed");
  expect(roles.details).toEqual({ before: [ROLE.Student], after: [ROLE.Student, ROLE.Supervisor] });
  const [updated] = await auditsAbout(userId, "user.updated");
  expect(updated.details).toEqual({ displayName: { before: "Mathias Aas", after: "Mathias Aas-Berg" } });
  expect(
    await db().select({ roleId: userRoles.roleId }).from(userRoles).where(eq(userRoles.userId, userId)),
  ).toHaveLength(2);
});

test("saving without changes writes nothing", async () => {
  const userId = await id("student18@example.org");
  const before = (await db().select().from(auditEvents)).length;
  expect(await updateUser(db(), userId, await currentInput(userId), admin)).toEqual({ ok: true, changed: false });
  expect((await db().select().from(auditEvents)).length).toBe(before);
});

// ─── Activation ──────────────────────────────────────────────────────────────

test("deactivating ends the user's sessions at once; activating lets them in again; both are audited", async () => {
  const userId = await id("student21@example.org");
  const { token } = await createSession(db(), { userId });
  expect(await loadSession(db(), token, "v")).not.toBeNull();

  expect(await setUserActive(db(), userId, false, admin)).toEqual({ ok: true, changed: true });
  expect(await db().select().from(sessions).where(eq(sessions.userId, userId))).toEqual([]);
  expect(await loadSession(db(), token, "v")).toBeNull();
  expect((await listUsers(db(), { search: "student21" })).rows).toEqual([]);
  expect(await auditsAbout(userId, "user.deactivated")).toHaveLength(1);

  expect(await setUserActive(db(), userId, false, admin)).toEqual({ ok: true, changed: false });
  expect(await setUserActive(db(), userId, true, admin)).toEqual({ ok: true, changed: true });
  expect((await listUsers(db(), { search: "student21" })).rows).toHaveLength(1);
  expect(await auditsAbout(userId, "user.activated")).toHaveLength(1);
});

test("an admin cannot deactivate themselves; an unknown user is not found", async () => {
  expect(await setUserActive(db(), admin.userId, false, admin)).toEqual({ ok: false, reason: "self" });
  expect(await setUserActive(db(), 999_999, false, admin)).toEqual({ ok: false, reason: "notFound" });
  const [me] = await db().select({ isActive: users.isActive }).from(users).where(eq(users.id, admin.userId));
  expect(me.isActive).toBe(true);
});

test("a phone number is stored as digits with a country code, or refused when it is none", () => {
  expect(storedPhone(" 987 65 432 ")).toBe("+4798765432");
  expect(storedPhone("+47 987-65-432")).toBe("+4798765432");
  expect(storedPhone("0046 70 123 45 67")).toBe("+46701234567");
  expect(storedPhone("")).toBeNull();
  expect(storedPhone("   ")).toBeNull();
  for (const bad of ["1234567", "1234567890123456", "98765432x", "ring meg", "+47 987\u202e65432"])
    expect(storedPhone(bad), bad).toBe(false);
});

test("a changed phone number is unproved for Vipps: the verified number and the Vipps identity go; audited without the numbers", async () => {
  const db = database.db;
  const supervisorId = await userIdOf(db, "veileder1@example.org");
  await db.update(users).set({ vippsSub: "vipps-sub-veileder1" }).where(eq(users.id, supervisorId));
  const [before] = await db.select().from(users).where(eq(users.id, supervisorId));
  expect(before.verifiedPhone).toBe("4741234567");

  // The same number typed another way changes nothing, and keeps the proof.
  expect(await updatePhoneNumber(db, supervisorId, "412 34 567", admin)).toEqual({
    ok: true,
    changed: false,
    vippsUnproved: false,
  });
  expect(await updatePhoneNumber(db, supervisorId, "12", admin)).toEqual({ ok: false, error: "invalid" });
  expect(await updatePhoneNumber(db, 999_999, "98765432", admin)).toEqual({ ok: false, error: "notFound" });
  const [kept] = await db.select().from(users).where(eq(users.id, supervisorId));
  expect([kept.phoneNumber, kept.verifiedPhone, kept.vippsSub]).toEqual([
    "+4741234567",
    "4741234567",
    "vipps-sub-veileder1",
  ]);

  expect(await updatePhoneNumber(db, supervisorId, "+47 912 34 567", admin)).toEqual({
    ok: true,
    changed: true,
    vippsUnproved: true,
  });
  const [after] = await db.select().from(users).where(eq(users.id, supervisorId));
  expect([after.phoneNumber, after.verifiedPhone, after.vippsSub]).toEqual(["+4791234567", null, null]);
  const [entry] = await db
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.subjectUserId, supervisorId))
    .orderBy(desc(auditEvents.id))
    .limit(1);
  expect(entry).toMatchObject({
    action: "user.phone_changed",
    actorUserId: admin.userId,
    details: { phone: "changed", vippsUnproved: true },
  });
  expect(JSON.stringify(entry.details)).not.toMatch(/4791234567|4741234567/);

  // Vipps: the old identity no longer logs in by itself, and the new number must first be proved with the e-mail code.
  expect(
    await resolveVippsUser(db, { sub: "vipps-sub-veileder1", phone: "4791234567", email: null, name: null }),
  ).toEqual({ kind: "prove", userId: supervisorId });
  await expect(
    resolveVippsUser(db, { sub: "someone-else", phone: "4741234567", email: null, name: null }),
  ).rejects.toThrow();

  // Removing the number.
  expect(await updatePhoneNumber(db, supervisorId, "", admin)).toEqual({
    ok: true,
    changed: true,
    vippsUnproved: false,
  });
  const [removed] = await db.select({ phone: users.phoneNumber }).from(users).where(eq(users.id, supervisorId));
  expect(removed.phone).toBeNull();
});

test("an erased (anonymised) person is never changed again: no new name, roles, classes, phone or access", async () => {
  const db = database.db;
  const erasedId = await id("student12@example.org");
  await db
    .update(users)
    .set({ displayName: "Slettet bruker", isActive: false, anonymisedAt: new Date("2026-11-20T12:00:00Z") })
    .where(eq(users.id, erasedId));
  const before = await getUserForEdit(db, erasedId, today);
  expect(before?.user.anonymisedAt).toEqual(new Date("2026-11-20T12:00:00Z"));

  expect(await updateUser(db, erasedId, await currentInput(erasedId, { displayName: "Nytt navn" }), admin)).toEqual({
    ok: false,
    error: { kind: "erased" },
  });
  expect(await setUserActive(db, erasedId, true, admin)).toEqual({ ok: false, reason: "erased" });
  expect(await updatePhoneNumber(db, erasedId, "+47 912 34 567", admin)).toEqual({ ok: false, error: "erased" });
  // Deactivating stays possible (it already is): nothing to refuse in taking access away.
  expect(await setUserActive(db, erasedId, false, admin)).toEqual({ ok: true, changed: false });

  const after = await getUserForEdit(db, erasedId, today);
  expect(after?.user).toMatchObject({ displayName: "Slettet bruker", isActive: false, phoneNumber: null });
  expect(after?.roles).toEqual(before?.roles);
});
