import { afterAll, beforeAll, expect, test } from "vitest";
import { and, eq } from "drizzle-orm";
import type { Database } from "~/services/platform/db/client.server";
import { classes, semesters, signingForms, studentReferences, subjects } from "~/services/platform/db/schema";
import { seedDemo } from "~/services/demo/index.server";
import { placementOf } from "./placement.server";
import { openTestDatabase } from "~/test/db";
import { userIdOf } from "~/test/app";

let database: Database;
const id: Record<string, number> = {};

async function referenceOf(email: string, code: string): Promise<number> {
  const db = database.db;
  const [row] = await db
    .select({ id: studentReferences.id })
    .from(studentReferences)
    .innerJoin(classes, eq(classes.id, studentReferences.classId))
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .innerJoin(semesters, eq(semesters.id, classes.semesterId))
    .where(
      and(
        eq(studentReferences.studentUserId, await userIdOf(db, email)),
        eq(subjects.subjectCode, code),
        eq(semesters.name, "Høst 2026"),
      ),
    );
  return row.id;
}

beforeAll(async () => {
  database = await openTestDatabase();
  await seedDemo(database.db, new Date("2026-11-22T12:00:00Z"));
  for (const name of ["laerer1", "veileder1", "veileder2", "student01", "student02", "student04"]) {
    id[name] = await userIdOf(database.db, `${name}@example.org`);
  }
});

afterAll(async () => {
  await database?.close();
});

test("a placement names the people and shows who has sent which form, per half", async () => {
  const ref = await referenceOf("student01@example.org", "SYK2001");
  const placement = (await placementOf(database.db, ref, id.student01, "2026-09-01"))!;
  expect(placement.header.subjectCode).toBe("SYK2001");
  expect(placement.student.userId).toBe(id.student01);
  expect(placement.teacher?.displayName).toBe("Ingrid Haugen");
  expect(placement.supervisor?.displayName).toBe("Marte Solberg");
  expect(placement.extraSupervisors).toEqual([]);
  expect(placement.schemes.map((s) => s.isMidSemester)).toEqual([true, false]);

  const [mid, end] = placement.schemes;
  const main = mid.forms.find((f) => f.isMainForm)!;
  // The seed: student01, their supervisor and their teacher have all sent the mid-semester main form.
  expect(main.own.state).toBe("sent");
  expect(main.sentBy.student).toBeInstanceOf(Date);
  expect(main.sentBy.supervisor).toBeInstanceOf(Date);
  expect(main.sentBy.teacher).toBeInstanceOf(Date);
  const specific = mid.forms.find((f) => !f.isMainForm)!;
  expect(specific.own).toEqual({ state: "none", at: null });
  expect(specific.sentBy).toEqual({ student: null, supervisor: null, teacher: null });
  expect(end.forms.every((f) => f.sentBy.student === null && f.own.state === "none")).toBe(true);
});

test("own state is the viewer's: a draft is the author's, and others see only what was sent", async () => {
  const ref = await referenceOf("student04@example.org", "SYK2001");
  const asStudent = (await placementOf(database.db, ref, id.student04, "2026-09-01"))!;
  const main = asStudent.schemes[0].forms.find((f) => f.isMainForm)!;
  expect(main.own.state).toBe("draft");
  expect(main.own.at).toBeInstanceOf(Date);
  expect(main.sentBy.student).toBeNull();
  const asTeacher = (await placementOf(database.db, ref, id.laerer1, "2026-09-01"))!;
  const seen = asTeacher.schemes[0].forms.find((f) => f.isMainForm)!;
  expect(seen.own.state).toBe("none");
  expect(seen.sentBy.student).toBeNull();
});

test("extra supervisors are listed, and an extra supervisor's sent form counts as the supervisor's", async () => {
  const ref = await referenceOf("student02@example.org", "SYK2001");
  const placement = (await placementOf(database.db, ref, id.veileder1, "2026-09-01"))!;
  expect(placement.supervisor?.userId).toBe(id.veileder2);
  expect(placement.extraSupervisors.map((p) => p.userId)).toEqual([id.veileder1]);
});

test("the half switches after the mid-semester date, or at once when the teacher confirms the mid-semester part", async () => {
  const ref = await referenceOf("student01@example.org", "SYK2001");
  const before = (await placementOf(database.db, ref, id.student01, "2026-08-20"))!;
  expect(before.half).toEqual({ half: "mid", deadline: before.header.midSemesterDate });
  const after = (await placementOf(database.db, ref, id.student01, "2027-01-10"))!;
  expect(after.half).toEqual({ half: "end", deadline: after.header.endSemesterDate });

  await database.db.insert(signingForms).values({ studentReferenceId: ref, midSemesterCompletedDate: "2026-08-19" });
  const confirmed = (await placementOf(database.db, ref, id.student01, "2026-08-20"))!;
  expect(confirmed.half.half).toBe("end");
  await database.db.delete(signingForms).where(eq(signingForms.studentReferenceId, ref));
});

test("an unknown reference is null", async () => {
  expect(await placementOf(database.db, 999_999, id.student01)).toBeNull();
});
