import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { auditEvents, classes, semesters, subjects } from "~/services/platform/db/schema";
import { ROLE } from "~/services/identity";
import { cookieActingAs, startTestApp, stopTestApp, userIdOf } from "~/test/app";
import { callAction, callLoader, getPage, postForm, TEST_ORIGIN, flashOf } from "~/test/route";
import { calendar, dateText, englishDateText } from "~/test/calendar";
import * as semesterRoute from "./semester";
import * as semestersRoute from "./semesters";

let app: Awaited<ReturnType<typeof startTestApp>>;
let admin: string;
let teacher: string;

beforeAll(async () => {
  app = await startTestApp();
  admin = await cookieActingAs(app.database.db, "admin@example.org", ROLE.Admin);
  teacher = await cookieActingAs(app.database.db, "laerer1@example.org", ROLE.Teacher);
});

afterAll(async () => {
  await stopTestApp(app);
});

const db = () => app.database.db;
const { current, next } = calendar;

/** A form post with repeated fields (checkboxes), as a browser sends it. */
function postEntries(path: string, entries: [string, string][], cookie: string): Request {
  return new Request(new URL(path, TEST_ORIGIN), {
    method: "POST",
    headers: { Origin: TEST_ORIGIN, Cookie: cookie, "x-test-client-address": "192.0.2.1" },
    body: new URLSearchParams(entries),
  });
}

async function semesterIdOf(name: string): Promise<number> {
  const [row] = await db().select({ id: semesters.id }).from(semesters).where(eq(semesters.name, name));
  return row.id;
}

async function subjectIdOf(code: string): Promise<number> {
  const [row] = await db().select({ id: subjects.id }).from(subjects).where(eq(subjects.subjectCode, code));
  return row.id;
}

describe("/admin/semesters", () => {
  test("the admin sees current and previous semesters and the next one to create", async () => {
    const response = await callLoader(semestersRoute, getPage("/admin/semesters", { cookie: admin }));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.future).toEqual([]);
    expect(body.current).toEqual([
      expect.objectContaining({
        name: current.name,
        start: dateText(current.startDate),
        end: dateText(current.endDate),
        classCount: 2,
        studentCount: 24,
      }),
    ]);
    expect(body.past.map((p: { name: string }) => p.name)).toEqual([calendar.previous.name]);
    expect(body.next).toMatchObject({ name: next.name, start: dateText(next.startDate), end: dateText(next.endDate) });
    expect(body.createOpen).toBe(false);
    const open = await callLoader(semestersRoute, getPage("/admin/semesters?create=next", { cookie: admin }));
    expect((await open.json()).createOpen).toBe(true);
  });

  test("dates follow the admin's language", async () => {
    const response = await callLoader(
      semestersRoute,
      getPage("/admin/semesters", { cookie: admin, headers: { "Accept-Language": "en" } }),
    );
    expect((await response.json()).next).toMatchObject({
      start: englishDateText(next.startDate),
      end: englishDateText(next.endDate),
    });
  });

  test("someone else is sent to the role chooser, or to log in", async () => {
    const response = await callLoader(semestersRoute, getPage("/admin/semesters", { cookie: teacher }));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/role\?redirectTo=/);
    const anonymous = await callLoader(semestersRoute, getPage("/admin/semesters"));
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toMatch(/^\/\?redirectTo=/);
  });

  test("a non-admin cannot create a semester", async () => {
    const response = await callAction(
      semestersRoute,
      postForm("/admin/semesters", { intent: "create-next" }, { cookie: teacher }),
    );
    expect(response.status).toBe(403);
    expect(await db().select().from(semesters)).toHaveLength(2);
  });

  test("a post without a known intent is refused with a message", async () => {
    const response = await callAction(
      semestersRoute,
      postForm("/admin/semesters", { intent: "delete-all" }, { cookie: admin }),
    );
    expect(response.status).toBe(400);
    expect((await response.json()).error.key).toBe("adminSemesters:errors.unknownIntent");
    expect(await db().select().from(semesters)).toHaveLength(2);
  });

  test("the admin creates the next semester and lands on its page; a second create is refused with 409", async () => {
    const response = await callAction(
      semestersRoute,
      postForm("/admin/semesters", { intent: "create-next" }, { cookie: admin }),
    );
    expect(response.status).toBe(303);
    const id = await semesterIdOf(next.name);
    expect(response.headers.get("Location")).toBe(`/admin/semesters/${id}`);
    expect(await flashOf(response)).toEqual({
      type: "success",
      key: "adminSemesters:create.created",
      values: { name: next.name },
    });
    const [event] = await db().select().from(auditEvents).where(eq(auditEvents.action, "semester.created"));
    expect(event).toMatchObject({ actorUserId: await userIdOf(db(), "admin@example.org"), details: { periodId: id } });

    const again = await callAction(
      semestersRoute,
      postForm("/admin/semesters", { intent: "create-next" }, { cookie: admin }),
    );
    expect(again.status).toBe(409);
    expect((await again.json()).error.key).toBe("adminSemesters:errors.futureExists");
    expect(await db().select().from(semesters)).toHaveLength(3);

    const list = await (await callLoader(semestersRoute, getPage("/admin/semesters", { cookie: admin }))).json();
    expect(list.future.map((p: { name: string }) => p.name)).toEqual([next.name]);
    expect(list.next).toBeNull();
  });
});

describe("/admin/semesters/:semesterId", () => {
  test("the admin sees the semester's classes and the subjects that can be added", async () => {
    const id = await semesterIdOf(current.name);
    const response = await callLoader(semesterRoute, getPage(`/admin/semesters/${id}`, { cookie: admin }), {
      semesterId: String(id),
    });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.semester).toMatchObject({
      id,
      name: current.name,
      status: "current",
      start: dateText(current.startDate),
      end: dateText(current.endDate),
    });
    expect(body.classes.map((c: { subjectCode: string }) => c.subjectCode)).toEqual(["SYK2001", "SYK2002"]);
    expect(body.availableSubjects.map((s: { subjectCode: string }) => s.subjectCode)).toEqual(["SYK1002"]);
    expect(body.addOpen).toBe(false);
  });

  test.each(["999999", "abc", "0", "1.5", "99999999999"])(
    "an unknown or malformed id (%s) is 404",
    async (semesterId) => {
      const page = await callLoader(semesterRoute, getPage(`/admin/semesters/${semesterId}`, { cookie: admin }), {
        semesterId,
      });
      expect(page.status).toBe(404);
      const post = await callAction(
        semesterRoute,
        postEntries(`/admin/semesters/${semesterId}`, [["subjectIds", String(await subjectIdOf("SYK1002"))]], admin),
        { semesterId },
      );
      expect(post.status).toBe(404);
    },
  );

  test("a non-admin cannot add subjects", async () => {
    const id = await semesterIdOf(next.name);
    const response = await callAction(
      semesterRoute,
      postEntries(`/admin/semesters/${id}`, [["subjectIds", String(await subjectIdOf("SYK2001"))]], teacher),
      { semesterId: String(id) },
    );
    expect(response.status).toBe(403);
    expect(await db().select().from(classes).where(eq(classes.semesterId, id))).toHaveLength(0);
  });

  test("choosing no subject gives a message and 400", async () => {
    const id = await semesterIdOf(next.name);
    const response = await callAction(semesterRoute, postEntries(`/admin/semesters/${id}`, [], admin), {
      semesterId: String(id),
    });
    expect(response.status).toBe(400);
    const reply = await response.json();
    expect(reply.error.subjectIds).toEqual(["adminSemesters:errors.subjectsRequired"]);
  });

  test("a subject value that is not an id gives a message and keeps the choices", async () => {
    const id = await semesterIdOf(next.name);
    const good = String(await subjectIdOf("SYK2001"));
    const response = await callAction(
      semesterRoute,
      postEntries(
        `/admin/semesters/${id}`,
        [
          ["subjectIds", good],
          ["subjectIds", "x".repeat(5000)],
        ],
        admin,
      ),
      { semesterId: String(id) },
    );
    expect(response.status).toBe(400);
    const reply = await response.json();
    expect(JSON.stringify(reply.error)).toContain("adminSemesters:errors.subjectsInvalid");
    expect(reply.initialValue.subjectIds).toEqual([good, "x".repeat(5000)]);
    expect(await db().select().from(classes).where(eq(classes.semesterId, id))).toHaveLength(0);
  });

  test("a subject that does not exist is 404 and adds nothing", async () => {
    const id = await semesterIdOf(next.name);
    const response = await callAction(
      semesterRoute,
      postEntries(
        `/admin/semesters/${id}`,
        [
          ["subjectIds", String(await subjectIdOf("SYK2001"))],
          ["subjectIds", "999999"],
        ],
        admin,
      ),
      { semesterId: String(id) },
    );
    expect(response.status).toBe(404);
    expect(await db().select().from(classes).where(eq(classes.semesterId, id))).toHaveLength(0);
  });

  test("the admin adds SYK2001 and SYK2002; posting them again changes nothing", async () => {
    const id = await semesterIdOf(next.name);
    const entries: [string, string][] = [
      ["subjectIds", String(await subjectIdOf("SYK2001"))],
      ["subjectIds", String(await subjectIdOf("SYK2002"))],
    ];
    const response = await callAction(semesterRoute, postEntries(`/admin/semesters/${id}`, entries, admin), {
      semesterId: String(id),
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe(`/admin/semesters/${id}`);
    expect(await flashOf(response)).toEqual({
      type: "success",
      key: "adminSemesters:semester.added",
      values: { count: 2, codes: "SYK2001, SYK2002" },
    });
    const created = await db().select().from(classes).where(eq(classes.semesterId, id));
    expect(created).toHaveLength(2);
    const events = await db()
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.action, "class.created"),
          eq(auditEvents.actorUserId, await userIdOf(db(), "admin@example.org")),
        ),
      );
    expect(events.map((e) => e.classId).sort()).toEqual(created.map((c) => c.id).sort());

    const again = await callAction(semesterRoute, postEntries(`/admin/semesters/${id}`, entries, admin), {
      semesterId: String(id),
    });
    expect(again.status).toBe(303);
    expect(await flashOf(again)).toEqual({ type: "info", key: "adminSemesters:semester.nothingAdded" });
    expect(await db().select().from(classes).where(eq(classes.semesterId, id))).toHaveLength(2);

    const page = await (
      await callLoader(semesterRoute, getPage(`/admin/semesters/${id}`, { cookie: admin }), { semesterId: String(id) })
    ).json();
    expect(page.semester.status).toBe("future");
    expect(page.classes.map((c: { subjectCode: string }) => c.subjectCode)).toEqual(["SYK2001", "SYK2002"]);
    expect(page.availableSubjects.map((s: { subjectCode: string }) => s.subjectCode)).toEqual(["SYK1002"]);
  });

  test("a post from another site is refused", async () => {
    const id = await semesterIdOf(next.name);
    const response = await callAction(
      semesterRoute,
      postForm(
        `/admin/semesters/${id}`,
        { subjectIds: String(await subjectIdOf("SYK1002")) },
        { cookie: admin, origin: "https://evil.example" },
      ),
      { semesterId: String(id) },
    );
    expect(response.status).toBe(403);
    expect(await db().select().from(classes).where(eq(classes.semesterId, id))).toHaveLength(2);
  });
});
