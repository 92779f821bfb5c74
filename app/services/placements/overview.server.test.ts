import { afterAll, beforeAll, expect, test } from "vitest";
import type { Database } from "~/services/platform/db/client.server";
import { seedDemo } from "~/services/demo/index.server";
import {
  adminOverview,
  classesOfSupervisor,
  classesOfStudent,
  classesOfTeacher,
  splitByCurrent,
} from "./overview.server";
import { ROLE } from "~/services/identity";
import { openTestDatabase } from "~/test/db";
import { userIdOf } from "~/test/app";

let database: Database;
const today = new Date("2026-11-22T12:00:00Z");
beforeAll(async () => {
  database = await openTestDatabase();
  await seedDemo(database.db, today);
});
afterAll(() => database.close());

test("a student who took last semester's placement sees this semester's class first, then the earlier one", async () => {
  const rows = await classesOfStudent(database.db, await userIdOf(database.db, "student01@example.org"), "2026-11-22");
  const { current, earlier } = splitByCurrent(rows);
  expect(current).toHaveLength(1);
  expect(current[0].semesterName).toBe("Høst 2026");
  expect(current[0].studentCount).toBe(12);
  expect(earlier.map((c) => c.semesterName)).toEqual(["Vår 2026"]);
});

test("the student without a class has none", async () => {
  expect(
    await classesOfStudent(database.db, await userIdOf(database.db, "student25@example.org"), "2026-11-22"),
  ).toEqual([]);
});

test("a teacher sees the classes they joined; a supervisor sees how many students are theirs", async () => {
  const teacher = await classesOfTeacher(database.db, await userIdOf(database.db, "laerer1@example.org"), "2026-11-22");
  expect(teacher.length).toBeGreaterThan(0);
  expect(teacher.every((c) => c.subjectCode.startsWith("SYK"))).toBe(true);
  const supervisor = await classesOfSupervisor(
    database.db,
    await userIdOf(database.db, "veileder1@example.org"),
    "2026-11-22",
  );
  const current = supervisor.filter((c) => c.isCurrent);
  expect(current.length).toBeGreaterThan(0);
  expect(current.every((c) => c.ownStudentCount > 0 && c.ownStudentCount <= c.studentCount)).toBe(true);
});

test("the admin overview lists this semester's classes and counts active users per role", async () => {
  const overview = await adminOverview(database.db, "2026-11-22");
  expect(overview.currentClasses.map((c) => c.subjectCode)).toEqual(["SYK2001", "SYK2002"]);
  const students = overview.roleCounts.find((r) => r.roleId === ROLE.Student);
  // 25 active demo students; the deactivated one is not counted.
  expect(students?.users).toBe(25);
});
