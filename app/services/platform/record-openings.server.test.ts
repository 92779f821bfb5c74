import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { openTestDatabase } from "~/test/db";
import type { Database } from "./db/client.server";
import { recordOpenings, ROLE, users } from "./db/schema";
import { openingsOf, pageParam, recordOpening, recordOpeningsOf } from "./record-openings.server";

let database: Database;
let student: number;
let otherStudent: number;
let teacher: number;
let supervisor: number;

beforeAll(async () => {
  database = await openTestDatabase();
  const made = await database.db
    .insert(users)
    .values([
      { displayName: "Sara Student", email: "sara@example.org" },
      { displayName: "Ola Student", email: "ola@example.org" },
      { displayName: "Tone Lærer", email: "tone@example.org" },
      { displayName: "Vera Veileder", email: "vera@example.org" },
    ])
    .returning({ id: users.id });
  [student, otherStudent, teacher, supervisor] = made.map((u) => u.id);
});

afterAll(async () => {
  await database?.close();
});

const db = () => database.db;

async function rowsAbout(studentUserId: number) {
  return db().select().from(recordOpenings).where(eq(recordOpenings.studentUserId, studentUserId));
}

test("an opening is kept once per viewer, student, kind and hour: reloads and races add nothing", async () => {
  const opening = {
    viewerUserId: teacher,
    viewerRole: ROLE.Teacher,
    studentUserId: otherStudent,
    kind: "studentPage",
    classId: 7,
  } as const;
  await recordOpening(db(), opening);
  await recordOpening(db(), opening);
  await Promise.all(Array.from({ length: 10 }, () => recordOpening(db(), opening)));
  const rows = await rowsAbout(otherStudent);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ viewerUserId: teacher, viewerRole: ROLE.Teacher, kind: "studentPage", classId: 7 });
  expect(rows[0].hour.getTime() % 3_600_000).toBe(0);
  expect(rows[0].hour.getTime()).toBeLessThanOrEqual(rows[0].at.getTime());

  // Another kind of page, another viewer: each its own row.
  await recordOpening(db(), { ...opening, kind: "results" });
  await recordOpening(db(), { ...opening, viewerUserId: supervisor, viewerRole: ROLE.Supervisor });
  expect(await rowsAbout(otherStudent)).toHaveLength(3);

  // The same page an hour later is a new opening.
  await db()
    .update(recordOpenings)
    .set({ hour: sql`${recordOpenings.hour} - interval '1 hour'` })
    .where(eq(recordOpenings.studentUserId, otherStudent));
  await recordOpening(db(), opening);
  expect(await rowsAbout(otherStudent)).toHaveLength(4);
});

test("a student opening their own record is not an access by someone else", async () => {
  await recordOpening(db(), {
    viewerUserId: student,
    viewerRole: ROLE.Student,
    studentUserId: student,
    kind: "results",
  });
  expect(await rowsAbout(student)).toEqual([]);
});

test("the openings of a query's students are recorded by one statement, the viewer left out", async () => {
  await recordOpeningsOf(
    db(),
    { userId: teacher, role: ROLE.Admin },
    "semesterReport",
    sql`select * from (values (${student}::int, 1), (${student}::int, 2), (${teacher}::int, 3)) as v`,
  );
  const rows = await rowsAbout(student);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ kind: "semesterReport", viewerRole: ROLE.Admin });
  expect(await rowsAbout(teacher)).toEqual([]);
});

test("a student's openings: newest first, with who and in which role, a page at a time", async () => {
  const [someone] = await db()
    .insert(users)
    .values({ displayName: "Ny Student", email: "ny@example.org" })
    .returning({ id: users.id });
  const base = Date.parse("2026-11-20T08:00:00Z");
  await db()
    .insert(recordOpenings)
    .values(
      Array.from({ length: 30 }, (_, i) => ({
        studentUserId: someone.id,
        viewerUserId: i % 2 === 0 ? teacher : supervisor,
        viewerRole: i % 2 === 0 ? ROLE.Teacher : ROLE.Supervisor,
        kind: "studentPage",
        hour: new Date(base + i * 3_600_000),
        at: new Date(base + i * 3_600_000 + 60_000),
      })),
    );
  const first = await openingsOf(db(), someone.id, { offset: 0, limit: 25 });
  expect(first.total).toBe(30);
  expect(first.entries).toHaveLength(25);
  expect(first.entries[0]).toMatchObject({
    viewerName: "Vera Veileder",
    viewerRole: ROLE.Supervisor,
    kind: "studentPage",
    subjectCode: null,
  });
  expect(first.entries[0].at.toISOString()).toBe("2026-11-21T13:01:00.000Z");
  expect(first.entries[1]).toMatchObject({ viewerName: "Tone Lærer", viewerRole: ROLE.Teacher });
  const times = first.entries.map((e) => e.at.getTime());
  expect(times).toEqual([...times].sort((a, b) => b - a));

  const second = await openingsOf(db(), someone.id, { offset: 25, limit: 25 });
  expect(second.entries).toHaveLength(5);
  expect(second.entries.at(-1)?.at.toISOString()).toBe("2026-11-20T08:01:00.000Z");

  // Another student's list holds none of them.
  expect((await openingsOf(db(), student)).entries.every((e) => e.kind === "semesterReport")).toBe(true);
});

test("the page parameter: a whole number from 1, else the first page", () => {
  expect(pageParam(null)).toBe(1);
  expect(pageParam("3")).toBe(3);
  expect(pageParam("0")).toBe(1);
  expect(pageParam("-2")).toBe(1);
  expect(pageParam("2.5")).toBe(1);
  expect(pageParam("abc")).toBe(1);
  expect(pageParam("99999")).toBe(1000);
});
