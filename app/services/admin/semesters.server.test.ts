import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { userIdOf } from "~/test/app";
import { openTestDatabase } from "~/test/db";
import {
  addSubjectsToSemester,
  createNextSemester,
  findSemester,
  listSemesters,
  semesterPage,
} from "./semesters.server";
import type { Database } from "~/services/platform/db/client.server";
import { seedDemo } from "~/services/demo/index.server";
import { auditEvents, classes, semesters, subjects, users } from "~/services/platform/db/schema";

const today = new Date("2026-11-22T12:00:00Z");

async function seeded(): Promise<Database> {
  const database = await openTestDatabase();
  await seedDemo(database.db, today);
  return database;
}

async function someAdmin(database: Database): Promise<number> {
  const [row] = await database.db
    .insert(users)
    .values({ displayName: "Test Admin", email: "test-admin@example.org" })
    .returning({ id: users.id });
  return row.id;
}

async function subjectId(database: Database, code: string): Promise<number> {
  const [row] = await database.db.select({ id: subjects.id }).from(subjects).where(eq(subjects.subjectCode, code));
  return row.id;
}

describe("on the demo data", () => {
  let database: Database;
  let admin: number;
  beforeAll(async () => {
    database = await seeded();
    admin = await userIdOf(database.db, "admin@example.org");
  });
  afterAll(() => database.close());

  test("the lists: Høst 2026 current with its two classes, Vår 2026 previous, nothing future, Vår 2027 next", async () => {
    const lists = await listSemesters(database.db, today);
    expect(lists.future).toEqual([]);
    expect(lists.current).toEqual([
      expect.objectContaining({
        name: "Høst 2026",
        startDate: "2026-07-01",
        endDate: "2026-12-31",
        classCount: 2,
        studentCount: 24,
      }),
    ]);
    expect(lists.past).toEqual([expect.objectContaining({ name: "Vår 2026", classCount: 1, studentCount: 4 })]);
    expect(lists.next).toEqual({ name: "Vår 2027", startDate: "2027-01-01", endDate: "2027-06-30" });
  });

  test("the semester page: classes by subject code, with teachers and students, and the subjects still free", async () => {
    const current = (await listSemesters(database.db, today)).current[0];
    const page = await semesterPage(database.db, current.id, today);
    expect(page?.semester).toEqual({
      id: current.id,
      name: "Høst 2026",
      startDate: "2026-07-01",
      endDate: "2026-12-31",
      status: "current",
    });
    expect(page?.classes.map((c) => [c.subjectCode, c.teacherCount, c.studentCount])).toEqual([
      ["SYK2001", 2, 12],
      ["SYK2002", 2, 12],
    ]);
    expect(page?.availableSubjects.map((s) => s.subjectCode)).toEqual(["SYK1002"]);
    expect(await semesterPage(database.db, 999_999, today)).toBeNull();
    expect(await findSemester(database.db, 999_999)).toBeNull();
  });

  test("creating the next semester makes Vår 2027 with the rule's dates, audited; a second create is refused", async () => {
    const created = await createNextSemester(database.db, { actorUserId: admin, ip: "192.0.2.9", today });
    expect(created).toEqual({
      ok: true,
      semester: { id: expect.any(Number), name: "Vår 2027", startDate: "2027-01-01", endDate: "2027-06-30" },
    });
    if (!created.ok) return;
    const [event] = await database.db.select().from(auditEvents).where(eq(auditEvents.action, "semester.created"));
    expect(event).toMatchObject({
      actorUserId: admin,
      ip: "192.0.2.9",
      details: { periodId: created.semester.id, name: "Vår 2027" },
    });

    const lists = await listSemesters(database.db, today);
    expect(lists.future.map((p) => p.name)).toEqual(["Vår 2027"]);
    expect(lists.next).toBeNull();

    expect(await createNextSemester(database.db, { actorUserId: admin, ip: null, today })).toEqual({
      ok: false,
      reason: "futureExists",
    });
    expect(await database.db.select().from(semesters)).toHaveLength(3);
  });

  test("two creates at the same moment make one semester", async () => {
    const other = await seeded();
    try {
      const results = await Promise.all([
        createNextSemester(other.db, { actorUserId: admin, ip: null, today }),
        createNextSemester(other.db, { actorUserId: admin, ip: null, today }),
      ]);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, reason: "futureExists" }]);
      expect(await other.db.select().from(semesters).where(eq(semesters.name, "Vår 2027"))).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  test("adding subjects makes one class each, with default dates, audited; adding them again changes nothing", async () => {
    const spring = (await listSemesters(database.db, today)).future[0];
    const [syk2001, syk2002] = [await subjectId(database, "SYK2001"), await subjectId(database, "SYK2002")];
    const result = await addSubjectsToSemester(database.db, {
      semesterId: spring.id,
      subjectIds: [syk2002, syk2001, syk2001],
      actorUserId: admin,
      ip: "192.0.2.9",
    });
    expect(result).toEqual({
      ok: true,
      added: [
        { classId: expect.any(Number), subjectCode: "SYK2001" },
        { classId: expect.any(Number), subjectCode: "SYK2002" },
      ],
    });
    const rows = await database.db.select().from(classes).where(eq(classes.semesterId, spring.id));
    expect(rows).toHaveLength(2);
    expect(rows.every((c) => c.midSemesterDate === "2027-04-01" && c.endSemesterDate === "2027-06-30")).toBe(true);
    const events = await database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "class.created"), eq(auditEvents.actorUserId, admin)));
    expect(events.map((e) => e.details)).toEqual(
      expect.arrayContaining([
        { periodId: spring.id, subjectCode: "SYK2001" }, // stored name
        { periodId: spring.id, subjectCode: "SYK2002" },
      ]),
    );

    const again = await addSubjectsToSemester(database.db, {
      semesterId: spring.id,
      subjectIds: [syk2001],
      actorUserId: admin,
      ip: null,
    });
    expect(again).toEqual({ ok: true, added: [] });
    expect(await database.db.select().from(classes).where(eq(classes.semesterId, spring.id))).toHaveLength(2);

    const page = await semesterPage(database.db, spring.id, today);
    expect(page?.semester.status).toBe("future");
    expect(page?.classes.map((c) => [c.subjectCode, c.teacherCount, c.studentCount])).toEqual([
      ["SYK2001", 0, 0],
      ["SYK2002", 0, 0],
    ]);
  });

  test("an unknown subject or semester adds nothing", async () => {
    const past = (await listSemesters(database.db, today)).past[0];
    const syk2001 = await subjectId(database, "SYK2001");
    expect(
      await addSubjectsToSemester(database.db, {
        semesterId: past.id,
        subjectIds: [syk2001, 999_999],
        actorUserId: admin,
        ip: null,
      }),
    ).toEqual({ ok: false, reason: "unknownSubject" });
    expect(await database.db.select().from(classes).where(eq(classes.semesterId, past.id))).toHaveLength(1);
    expect(
      await addSubjectsToSemester(database.db, {
        semesterId: 999_999,
        subjectIds: [syk2001],
        actorUserId: admin,
        ip: null,
      }),
    ).toEqual({ ok: false, reason: "unknownSemester" });
  });
});

test("a semester whose computed name is taken is refused with a reason, not a database error", async () => {
  const database = await openTestDatabase();
  try {
    // An odd semester named like the one the rule would make, with other (past) dates.
    await database.db.insert(semesters).values({ name: "Vår 2027", startDate: "2020-01-01", endDate: "2020-06-30" });
    const result = await createNextSemester(database.db, {
      actorUserId: await someAdmin(database),
      ip: null,
      today: new Date("2027-03-01T12:00:00Z"),
    });
    expect(result).toEqual({ ok: false, reason: "nameTaken", name: "Vår 2027" });
  } finally {
    await database.close();
  }
});

test("with no semester at all the first one is the semester containing today", async () => {
  const database = await openTestDatabase();
  try {
    const result = await createNextSemester(database.db, { actorUserId: await someAdmin(database), ip: null, today });
    expect(result).toMatchObject({
      ok: true,
      semester: { name: "Høst 2026", startDate: "2026-07-01", endDate: "2026-12-31" },
    });
  } finally {
    await database.close();
  }
});
