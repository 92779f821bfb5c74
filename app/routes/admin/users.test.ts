import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import {
  auditEvents,
  classes,
  classTeachers,
  semesters,
  sessions,
  studentReferences,
  subjects,
  userRoles,
  users,
} from "~/services/platform/db/schema";
import { ROLE } from "~/services/identity";
import { cookieActingAs, startTestApp, stopTestApp, userIdOf } from "~/test/app";
import { callAction, callLoader, getPage, postForm } from "~/test/route";
import * as userPage from "./user";
import * as usersPage from "./users";
import { calendar } from "~/test/calendar";
import { flashTextOf } from "~/test/flash-text";

let app: Awaited<ReturnType<typeof startTestApp>>;
let admin: string;
let teacher: string;

beforeAll(async () => {
  app = await startTestApp();
  admin = await cookieActingAs(app.database.db, "admin@example.org", ROLE.Admin);
  teacher = await cookieActingAs(app.database.db, "laerer1@example.org", ROLE.Teacher);
});
afterAll(() => stopTestApp(app));

const db = () => app.database.db;
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

interface ListData {
  users: { id: number; displayName: string; email: string; isActive: boolean; roles: number[] }[];
  total: number;
  moreHref: string | null;
}

async function list(query = "", cookie = admin): Promise<ListData> {
  const response = await callLoader(usersPage, getPage(`/admin/users${query}`, { cookie }));
  expect(response.status).toBe(200);
  return (await response.json()) as ListData;
}

interface Reply {
  intent: string;
  result: { error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> };
}

function save(userId: number, fields: Record<string, string | string[]>, cookie = admin) {
  const body = new URLSearchParams({ intent: "save" });
  for (const [name, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) body.append(name, v);
  }
  const request = postForm(`/admin/users/${userId}`, {}, { cookie });
  return callAction(userPage, new Request(request, { body }), { userId: String(userId) });
}

function setStatus(userId: number, intent: "activate" | "deactivate", cookie = admin) {
  return callAction(userPage, postForm(`/admin/users/${userId}`, { intent }, { cookie }), { userId: String(userId) });
}

// ─── The list ────────────────────────────────────────────────────────────────

test("the list shows 20 active users, sorted by name, and a load-more link to the next 20", async () => {
  const first = await list();
  expect(first.total).toBe(33);
  expect(first.users).toHaveLength(20);
  expect(first.users[0].displayName).toBe("Ada Administrator");
  expect(first.moreHref).toBe("/admin/users?offset=20#user-21");

  const more = await list("?offset=20");
  expect(more.users).toHaveLength(33);
  expect(more.users.slice(0, 20)).toEqual(first.users);
  expect(more.moreHref).toBeNull();
});

test("the role filter, the search and deactivated users on request; load more keeps the filters", async () => {
  const students = await list(`?role=${ROLE.Student}`);
  expect(students.total).toBe(25);
  expect(students.moreHref).toBe(`/admin/users?role=${ROLE.Student}&offset=20#user-21`);

  const found = await list(`?role=${ROLE.Teacher}&search=LAERER`);
  // Sorted by name: Ingrid Haugen, Lars Bakken, Siri Lunde.
  expect(found.users.map((u) => u.email)).toEqual([
    "laerer1@example.org",
    "laerer2@example.org",
    "laerer3@example.org",
  ]);
  expect(found.moreHref).toBeNull();

  expect((await list("?search=deaktivert")).users).toEqual([]);
  const withInactive = await list("?search=deaktivert&includeInactive=1");
  expect(withInactive.users).toEqual([expect.objectContaining({ email: "deaktivert@example.org", isActive: false })]);

  const many = await list("?search=student&includeInactive=1");
  expect(many.moreHref).toBe("/admin/users?search=student&includeInactive=1&offset=20#user-21");
});

test("malformed parameters give the unfiltered first page, not an error", async () => {
  for (const query of [
    "?role=9",
    "?role=abc",
    "?offset=-20",
    "?offset=abc",
    "?offset=7",
    `?search=${"x".repeat(5000)}`,
  ]) {
    const response = await callLoader(usersPage, getPage(`/admin/users${query}`, { cookie: admin }));
    expect(response.status, query).toBe(200);
  }
  expect((await list("?role=9")).total).toBe(33);
  expect((await list("?offset=7")).users).toHaveLength(20);
});

test("someone not acting as admin cannot see the list or a user page", async () => {
  for (const response of [
    await callLoader(usersPage, getPage("/admin/users", { cookie: teacher })),
    await callLoader(userPage, getPage("/admin/users/1", { cookie: teacher }), { userId: "1" }),
  ]) {
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/role\?redirectTo=/);
  }
});

// ─── The user page ───────────────────────────────────────────────────────────

test("the user page shows the user, roles, classes and semesters; unknown ids are a 404", async () => {
  const userId = await id("laerer3@example.org");
  const response = await callLoader(userPage, getPage(`/admin/users/${userId}`, { cookie: admin }), {
    userId: String(userId),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as {
    user: { email: string };
    roles: number[];
    teacherClassIds: number[];
    semesters: { name: string }[];
    isSelf: boolean;
    confirmDeactivate: boolean;
  };
  expect(body.user.email).toBe("laerer3@example.org");
  expect(body.roles).toEqual([ROLE.Teacher]);
  expect(body.teacherClassIds).toEqual([await classId("SYK2002", calendar.current.name)]);
  expect(body.semesters.length).toBeGreaterThanOrEqual(2);
  expect(body.isSelf).toBe(false);
  expect(body.confirmDeactivate).toBe(false);

  const confirm = await callLoader(userPage, getPage(`/admin/users/${userId}?confirm=deactivate`, { cookie: admin }), {
    userId: String(userId),
  });
  expect(((await confirm.json()) as { confirmDeactivate: boolean }).confirmDeactivate).toBe(true);

  for (const bad of ["999999", "abc", "1e3"]) {
    const missing = await callLoader(userPage, getPage(`/admin/users/${bad}`, { cookie: admin }), { userId: bad });
    expect(missing.status, bad).toBe(404);
  }
});

test("every action on the user page is refused (403) for someone not acting as admin", async () => {
  const userId = await id("student22@example.org");
  expect((await save(userId, { displayName: "Hacket", roles: [String(ROLE.Admin)] }, teacher)).status).toBe(403);
  expect((await setStatus(userId, "deactivate", teacher)).status).toBe(403);
  expect((await setStatus(userId, "activate", teacher)).status).toBe(403);
  const [user] = await db().select().from(users).where(eq(users.id, userId));
  expect(user).toMatchObject({ displayName: "Tobias Myhre", isActive: true });
  expect(await db().select().from(userRoles).where(eq(userRoles.userId, userId))).toEqual([
    { userId, roleId: ROLE.Student },
  ]);
});

test("saving roles and classes redirects (303) with a message, and the role change is audited", async () => {
  const userId = await id("laerer2@example.org");
  const classA = await classId("SYK2001", calendar.current.name);
  const classB = await classId("SYK2002", calendar.current.name);
  const response = await save(userId, {
    displayName: "Lars Bakken",
    roles: [String(ROLE.Teacher), String(ROLE.Supervisor)],
    teacherClasses: [String(classA), String(classB)],
    supervisorClasses: [String(classB)],
  });
  expect(response.status).toBe(303);
  expect(response.headers.get("Location")).toBe(`/admin/users/${userId}`);
  expect(await flashTextOf(response)).toBe("Endringene for Lars Bakken er lagret.");

  const teaching = await db()
    .select({ classId: classTeachers.classId })
    .from(classTeachers)
    .where(eq(classTeachers.userId, userId));
  expect(teaching.map((r) => r.classId).sort((a, b) => a - b)).toEqual([classA, classB].sort((a, b) => a - b));
  const [event] = await db()
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.action, "user.roles_changed"), eq(auditEvents.subjectUserId, userId)));
  expect(event.details).toEqual({ before: [ROLE.Teacher], after: [ROLE.Teacher, ROLE.Supervisor] });
});

test("a student's class select posts one value per semester; 'no class' is an empty value", async () => {
  const userId = await id("student25@example.org");
  const classB = await classId("SYK2002", calendar.current.name);
  const response = await save(userId, {
    displayName: "Amalie Vik",
    roles: [String(ROLE.Student)],
    studentClasses: [String(classB), ""],
  });
  expect(response.status).toBe(303);
  const refs = await db().select().from(studentReferences).where(eq(studentReferences.studentUserId, userId));
  expect(refs.map((r) => r.classId)).toEqual([classB]);
});

test("no role, no name or an over-long name get clear messages and a 400, keeping what was typed", async () => {
  const userId = await id("student23@example.org");
  const noRoles = await save(userId, { displayName: "Ida Ødegård-Nytt" });
  expect(noRoles.status).toBe(400);
  const reply = (await noRoles.json()) as Reply;
  expect(reply.result.error?.roles).toEqual(["adminUsers:user.errors.rolesRequired"]);
  expect(reply.result.initialValue?.displayName).toBe("Ida Ødegård-Nytt");

  const noName = (await (await save(userId, { roles: [String(ROLE.Student)] })).json()) as Reply;
  expect(noName.result.error?.displayName).toEqual(["adminUsers:user.errors.nameRequired"]);

  const long = await save(userId, { displayName: "N".repeat(201), roles: [String(ROLE.Student)] });
  expect(long.status).toBe(400);
  expect(((await long.json()) as Reply).result.error?.displayName).toEqual(["adminUsers:user.errors.nameTooLong"]);

  const unknownRole = await save(userId, { displayName: "Ida", roles: ["7"] });
  expect(unknownRole.status).toBe(400);

  const [user] = await db().select().from(users).where(eq(users.id, userId));
  expect(user.displayName).toBe("Ida Ødegård");
});

test("an unknown user or class is a 404; a malformed class id a 400", async () => {
  expect((await save(999_999, { displayName: "X", roles: [String(ROLE.Student)] })).status).toBe(404);
  const userId = await id("student24@example.org");
  const unknownClass = await save(userId, {
    displayName: "Magnus Knutsen",
    roles: [String(ROLE.Student)],
    studentClasses: ["999999"],
  });
  expect(unknownClass.status).toBe(404);
  const malformed = await save(userId, {
    displayName: "Magnus Knutsen",
    roles: [String(ROLE.Teacher)],
    teacherClasses: ["abc"],
  });
  expect(malformed.status).toBe(400);
});

test("the rules of the service come back as messages: own Admin role, two classes, a student with answers", async () => {
  const adminId = await id("admin@example.org");
  const own = await save(adminId, { displayName: "Ada Administrator", roles: [String(ROLE.Teacher)] });
  expect(own.status).toBe(400);
  expect(((await own.json()) as Reply).result.error?.roles).toEqual(["adminUsers:user.errors.ownAdminRole"]);

  const classA = await classId("SYK2001", calendar.current.name);
  const classB = await classId("SYK2002", calendar.current.name);
  const student24 = await id("student24@example.org");
  const two = await save(student24, {
    displayName: "Magnus Knutsen",
    roles: [String(ROLE.Student)],
    studentClasses: [String(classA), String(classB)],
  });
  expect(two.status).toBe(400);
  expect(((await two.json()) as Reply).result.error?.studentClasses).toEqual([
    "adminUsers:user.errors.twoClassesInSemester",
  ]);

  const student01 = await id("student01@example.org");
  const old = await classId("SYK1002", calendar.previous.name);
  const answered = await save(student01, {
    displayName: "Emma Andersen",
    roles: [String(ROLE.Student)],
    studentClasses: [String(classB), String(old)],
  });
  expect(answered.status).toBe(409);
  const reply = (await answered.json()) as Reply;
  expect(reply.result.error?.studentClasses).toEqual([
    `adminUsers:user.errors.studentHasAssessments?${new URLSearchParams({ classes: `SYK2001 (${calendar.current.name})` })}`,
  ]);
  expect(reply.result.initialValue?.studentClasses).toEqual([String(classB), String(old)]);
});

test("deactivating ends the user's sessions at once; activating again; an admin cannot deactivate themselves", async () => {
  const userId = await id("student21@example.org");
  const studentCookie = await cookieActingAs(db(), "student21@example.org", ROLE.Student);
  expect(await db().select().from(sessions).where(eq(sessions.userId, userId))).toHaveLength(1);

  const off = await setStatus(userId, "deactivate");
  expect(off.status).toBe(303);
  expect(off.headers.get("Location")).toBe(`/admin/users/${userId}`);
  expect(await db().select().from(sessions).where(eq(sessions.userId, userId))).toEqual([]);
  // The student's next request finds no session.
  const after = await callLoader(usersPage, getPage("/admin/users", { cookie: studentCookie }));
  expect(after.headers.get("Location")).toMatch(/^\/\?redirectTo=/);

  const on = await setStatus(userId, "activate");
  expect(on.status).toBe(303);
  const [user] = await db().select({ isActive: users.isActive }).from(users).where(eq(users.id, userId));
  expect(user.isActive).toBe(true);

  const self = await setStatus(await id("admin@example.org"), "deactivate");
  expect(self.status).toBe(400);
  expect(await self.json()).toEqual({ intent: "status", error: "adminUsers:user.errors.deactivateSelf" });
  expect((await setStatus(999_999, "deactivate")).status).toBe(404);
});

test("the admin corrects a supervisor's phone number: it becomes unproved for Vipps; a wrong one is named and changes nothing", async () => {
  const userId = await id("veileder2@example.org");
  const path = `/admin/users/${userId}`;
  const post = (fields: Record<string, string>, cookie = admin) =>
    callAction(userPage, postForm(path, fields, { cookie }), { userId: String(userId) });
  await db().update(users).set({ verifiedPhone: "4799887766", vippsSub: "sub-veileder2" }).where(eq(users.id, userId));
  const stored = async () =>
    (
      await db()
        .select({ p: users.phoneNumber, v: users.verifiedPhone, s: users.vippsSub })
        .from(users)
        .where(eq(users.id, userId))
    )[0];
  const before = await stored();

  for (const typed of ["123", "ring meg", "9".repeat(40)]) {
    const refused = await post({ intent: "phone", phoneNumber: typed });
    expect(refused.status, typed).toBe(400);
    expect(await refused.json()).toMatchObject({ intent: "phone", error: "adminUsers:user.errors.phoneInvalid" });
  }
  expect((await post({ intent: "phone", phoneNumber: "98765432" }, teacher)).status).toBe(403);
  expect(await stored()).toEqual(before);

  const saved = await post({ intent: "phone", phoneNumber: "987 65 432" });
  expect(saved.status).toBe(303);
  expect(await stored()).toEqual({ p: "+4798765432", v: null, s: null });
  const [event] = await db()
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.action, "user.phone_changed"), eq(auditEvents.subjectUserId, userId)));
  expect(event.details).toEqual({ phone: "changed", vippsUnproved: true });

  const page = await callLoader(userPage, getPage(path, { cookie: admin }), { userId: String(userId) });
  expect(((await page.json()) as { user: { phoneNumber: string } }).user.phoneNumber).toBe("+4798765432");
});
