import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { auditEvents, semesters, recordOpenings } from "~/services/platform/db/schema";
import type { Flash } from "~/services/platform/flash.server";
import { appCookies } from "~/services/platform/request.server";
import { ROLE } from "~/services/identity";
import { cookieActingAs, startTestApp, stopTestApp, userIdOf } from "~/test/app";
import { callLoader, getPage } from "~/test/route";
import * as csv from "./students-csv";
import { asciiName, calendar } from "~/test/calendar";

/** Lets one test make the report fail before anything is streamed, as a lost database would. */
const failure = vi.hoisted(() => ({ next: false }));
vi.mock("~/services/documents/semester-report.server", async (importOriginal) => {
  const original = await importOriginal<typeof import("~/services/documents/semester-report.server")>();
  return {
    ...original,
    openSemesterReport: (...args: Parameters<typeof original.openSemesterReport>) => {
      if (failure.next) {
        failure.next = false;
        return Promise.reject(new Error("connection terminated"));
      }
      return original.openSemesterReport(...args);
    },
  };
});

let app: Awaited<ReturnType<typeof startTestApp>>;
let admin: string;
let autumn: number;
const { current } = calendar;

beforeAll(async () => {
  app = await startTestApp();
  admin = await cookieActingAs(app.database.db, "admin@example.org", ROLE.Admin);
  [{ id: autumn }] = await app.database.db
    .select({ id: semesters.id })
    .from(semesters)
    .where(eq(semesters.name, current.name));
});

afterAll(async () => {
  await stopTestApp(app);
});

const db = () => app.database.db;
const path = (id: number | string) => `/api/periods/${id}/students-csv`;

async function downloads(): Promise<unknown[]> {
  const rows = await db().select().from(auditEvents).where(eq(auditEvents.action, "report.downloaded"));
  return rows.map((r) => r.details);
}

test("the admin downloads the semester's report: a CSV attachment, not cached, audited", async () => {
  const response = await callLoader(csv, getPage(path(autumn), { cookie: admin }), { semesterId: String(autumn) });
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
  expect(response.headers.get("Content-Disposition")).toBe(
    `attachment; filename="Semesterrapport ${asciiName(current.name)}.csv"; filename*=UTF-8''Semesterrapport%20${encodeURIComponent(current.name)}.csv`,
  );
  expect(response.headers.get("Cache-Control")).toBe("no-store");

  const bytes = new Uint8Array(await response.arrayBuffer());
  expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes).slice(1).split("\r\n");
  expect(lines.pop()).toBe("");
  expect(lines).toHaveLength(25);
  expect(lines[0]).toMatch(/^Student;E-post;Emnekode;Emnenavn;Praksislærer;/);
  expect(lines.filter((l) => l.includes(";SYK2001;"))).toHaveLength(12);
  expect(lines.filter((l) => l.includes(";SYK2002;"))).toHaveLength(12);

  const [event] = await db()
    .select()
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.action, "report.downloaded"),
        eq(auditEvents.actorUserId, await userIdOf(db(), "admin@example.org")),
      ),
    );
  expect(event).toMatchObject({ details: { periodId: autumn, students: 24 }, ip: "unknown" });
  // One entry for the download, naming its 24 students; each student's own list of openings still gets a row.
  const ids = (event.details as { studentUserIds: number[] }).studentUserIds;
  expect(ids).toHaveLength(24);
  expect(ids).toContain(await userIdOf(db(), "student01@example.org"));
  const openings = await db()
    .select()
    .from(recordOpenings)
    .where(
      and(
        eq(recordOpenings.kind, "semesterReport"),
        eq(recordOpenings.viewerUserId, await userIdOf(db(), "admin@example.org")),
      ),
    );
  expect(openings.map((o) => o.studentUserId).toSorted((a, b) => a - b)).toEqual(ids);
});

test("an admin reading English gets English headings and file name", async () => {
  const response = await callLoader(
    csv,
    getPage(path(autumn), { cookie: admin, headers: { "Accept-Language": "en" } }),
    { semesterId: String(autumn) },
  );
  expect(response.headers.get("Content-Disposition")).toContain(
    `filename*=UTF-8''Semester%20report%20${encodeURIComponent(current.name)}.csv`,
  );
  const text = await response.text();
  // Response.text() drops the byte-order mark, as UTF-8 decoding does.
  expect(text).toMatch(/^Student;E-mail;Subject code;/);
});

test("a teacher, a student or nobody gets no report and leaves no download in the log", async () => {
  const before = (await downloads()).length;
  for (const [email, role] of [
    ["laerer1@example.org", ROLE.Teacher],
    ["student01@example.org", ROLE.Student],
  ] as const) {
    const cookie = await cookieActingAs(db(), email, role);
    const response = await callLoader(csv, getPage(path(autumn), { cookie }), { semesterId: String(autumn) });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/role\?redirectTo=/);
    expect(response.headers.get("Content-Disposition")).toBeNull();
  }
  // The admin acting as teacher is not acting as admin.
  const adminAsTeacher = await cookieActingAs(db(), "admin@example.org", ROLE.Teacher);
  expect(
    (await callLoader(csv, getPage(path(autumn), { cookie: adminAsTeacher }), { semesterId: String(autumn) })).status,
  ).toBe(302);
  const anonymous = await callLoader(csv, getPage(path(autumn)), { semesterId: String(autumn) });
  expect(anonymous.status).toBe(302);
  expect(anonymous.headers.get("Location")).toMatch(/^\/\?redirectTo=/);
  expect(await downloads()).toHaveLength(before);
});

test.each(["999999", "abc", "-1", "0"])("an unknown or malformed semester id (%s) is 404", async (semesterId) => {
  const before = (await downloads()).length;
  const response = await callLoader(csv, getPage(path(semesterId), { cookie: admin }), { semesterId });
  expect(response.status).toBe(404);
  expect(await downloads()).toHaveLength(before);
});

test("when the report cannot be read the admin is taken back to the semester with a message", async () => {
  // The failure is logged for the operators; expected here, so it must not fail the test.
  const errors = vi.spyOn(console, "error").mockImplementation(() => {});
  failure.next = true;
  const before = (await downloads()).length;
  const response = await callLoader(csv, getPage(path(autumn), { cookie: admin }), { semesterId: String(autumn) });
  expect(response.status).toBe(303);
  expect(response.headers.get("Location")).toBe(`/admin/semesters/${autumn}`);
  const line = response.headers.getSetCookie().find((c) => c.includes("praksis_flash="));
  expect(line && ((await appCookies().flash.parse(line.split(";")[0])) as Flash)).toEqual({
    type: "error",
    key: "adminSemesters:report.failed",
  });
  expect(await downloads()).toHaveLength(before);
  // Logged once, with the cause's stack (scripts/log.mjs writes through console.error in tests).
  expect(errors.mock.calls).toEqual([
    [expect.stringMatching(/^\[semester report\] the report could not be made\nError: connection terminated\n\s+at /)],
  ]);
});
