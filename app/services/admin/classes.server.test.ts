import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Database, Db } from "~/services/platform/db/client.server";
import { seedDemo } from "~/services/demo/index.server";
import {
  answerSets,
  schemeForms,
  schemes,
  auditEvents,
  expectations,
  classSupervisors,
  classes,
  forms,
  semesters,
  studentExtraSupervisors,
  studentReferences,
  subjects,
  users,
} from "~/services/platform/db/schema";
import { openTestDatabase } from "~/test/db";
import {
  adminClassPage,
  supervisorStudentsPage,
  byDisplayName,
  checkEndSemesterDate,
  checkMidSemesterDate,
  copyExpectations,
  createScheme,
  expectationSources,
  parseDayInput,
  removeScheme,
  updateEndSemesterDate,
  updateMidSemesterDate,
} from "./classes.server";
import { classIdOf, userIdOf } from "~/test/app";

let database: Database;
let db: Db;

beforeAll(async () => {
  database = await openTestDatabase();
  db = database.db;
  await seedDemo(db, new Date("2026-11-22T12:00:00Z"));
});

afterAll(async () => {
  await database.close();
});

async function formIdOf(name: string): Promise<number> {
  const [row] = await db.select({ id: forms.id }).from(forms).where(eq(forms.name, name));
  return row.id;
}

/** A throwaway class of its own, so tests that change data do not meet each other. */
async function newClass(subjectCode: string): Promise<number> {
  const [subject] = await db
    .insert(subjects)
    .values({ subjectCode, name: `Emne ${subjectCode}` })
    .returning();
  const [semester] = await db.select().from(semesters).where(eq(semesters.name, "Høst 2026"));
  const [row] = await db
    .insert(classes)
    .values({
      subjectId: subject.id,
      semesterId: semester.id,
      midSemesterDate: "2026-10-01",
      endSemesterDate: "2026-12-17",
    })
    .returning();
  return row.id;
}

describe("dates", () => {
  test("a date input's value and a typed Norwegian date both parse; impossible dates do not", () => {
    expect(parseDayInput("2026-12-17")).toBe("2026-12-17");
    expect(parseDayInput(" 17.12.2026 ")).toBe("2026-12-17");
    expect(parseDayInput("1.2.2027")).toBe("2027-02-01");
    expect(parseDayInput("1/2/2027")).toBe("2027-02-01");
    expect(parseDayInput("2028-02-29")).toBe("2028-02-29");
    for (const bad of [
      "",
      "2026-02-29",
      "31.4.2026",
      "2026-13-01",
      "2026-00-10",
      "0.1.2026",
      "17.12.26",
      "i morgen",
      "2026-12-17T00:00",
    ]) {
      expect(parseDayInput(bad), bad).toBeNull();
    }
  });

  test("the end-semester date lies within the semester and not before the mid-semester date", () => {
    const header = { semesterStart: "2026-07-01", semesterEnd: "2026-12-31", midSemesterDate: "2026-10-01" };
    expect(checkEndSemesterDate("2026-12-17", header)).toEqual({ ok: true, date: "2026-12-17" });
    expect(checkEndSemesterDate("31.12.2026", header)).toEqual({ ok: true, date: "2026-12-31" });
    expect(checkEndSemesterDate("2026-10-01", header)).toEqual({ ok: true, date: "2026-10-01" });
    expect(checkEndSemesterDate("2026-09-30", header)).toEqual({ ok: false, error: "beforeMid" });
    expect(checkEndSemesterDate("2026-06-30", header)).toEqual({ ok: false, error: "beforeStart" });
    expect(checkEndSemesterDate("2027-01-01", header)).toEqual({ ok: false, error: "afterEnd" });
    expect(checkEndSemesterDate("2026-02-30", header)).toEqual({ ok: false, error: "invalid" });
    expect(checkEndSemesterDate("2026-07-01", { ...header, midSemesterDate: null })).toEqual({
      ok: true,
      date: "2026-07-01",
    });
  });
});

describe("sorting by display name", () => {
  test("numbers in names sort by value, Æ Ø Å come after Z, case does not matter, ties by id", () => {
    const rows = ["Student 10", "Åse Ås", "student 2", "Zelda", "Øystein", "Ærlig", "Student 1", "Anne"].map(
      (displayName, i) => ({
        userId: 100 - i,
        displayName,
      }),
    );
    expect(byDisplayName(rows).map((r) => r.displayName)).toEqual([
      "Anne",
      "Student 1",
      "student 2",
      "Student 10",
      "Zelda",
      "Ærlig",
      "Øystein",
      "Åse Ås",
    ]);
    expect(
      byDisplayName([
        { userId: 2, displayName: "Kari" },
        { userId: 1, displayName: "kari" },
      ]).map((r) => r.userId),
    ).toEqual([1, 2]);
  });

  test("the class page's lists come out in that order from the database", async () => {
    const classId = await newClass("SORT1");
    const people = await db
      .insert(users)
      .values(
        ["Student 10", "Student 2", "Øyvind Ås", "Student 1", "Bjørn"].map((name, i) => ({
          displayName: name,
          email: `sort${i}@example.org`,
        })),
      )
      .returning();
    await db.insert(studentReferences).values(people.map((p) => ({ classId, studentUserId: p.id })));
    const page = await adminClassPage(db, classId);
    expect(page?.students.map((s) => s.displayName)).toEqual([
      "Bjørn",
      "Student 1",
      "Student 2",
      "Student 10",
      "Øyvind Ås",
    ]);
  });
});

describe("the class page", () => {
  test("an unknown class has none", async () => {
    expect(await adminClassPage(db, 999_999)).toBeNull();
  });

  test("header, schemes with forms and sent answers, and the people, each list by name", async () => {
    const page = await adminClassPage(db, await classIdOf(db, "SYK2001"));
    expect(page).not.toBeNull();
    const { header, schemes, teachers, students, supervisors, mainForms, specificForms } = page!;
    expect(header).toMatchObject({
      subjectCode: "SYK2001",
      subjectName: "Praksis i sykehjem",
      semesterName: "Høst 2026",
      semesterStart: "2026-07-01",
      semesterEnd: "2026-12-31",
    });
    expect(header.midSemesterDate).toMatch(/^2026-\d\d-\d\d$/);
    expect(header.endSemesterDate).toBe("2026-12-17");

    expect(schemes.map((s) => s.isMidSemester)).toEqual([true, false]);
    expect(schemes[0].forms.map((f) => f.name)).toEqual(["Vurdering av kliniske kompetanser", "Legemiddelhåndtering"]);
    expect(schemes[0].forms.map((f) => f.isMainForm)).toEqual([true, false]);
    // Three students, two supervisors and one teacher have sent their mid-semester form; one draft each is left out.
    expect(schemes[0].sentAnswerSets).toBe(6);
    expect(schemes[1].sentAnswerSets).toBe(0);

    expect(teachers.map((p) => [p.displayName, p.studentCount])).toEqual([
      ["Ingrid Haugen", 5],
      ["Lars Bakken", 5],
    ]);
    expect(students).toHaveLength(12);
    const names = students.map((s) => s.displayName);
    expect(names).toEqual(names.toSorted(new Intl.Collator("nb", { numeric: true }).compare));
    expect(students.find((s) => s.email === "student01@example.org")).toMatchObject({
      teacherName: "Ingrid Haugen",
      supervisorName: "Marte Solberg",
    });
    expect(students.find((s) => s.email === "student12@example.org")).toMatchObject({
      teacherName: null,
      supervisorName: null,
    });
    // Marte follows five students as assigned supervisor and one more as an extra supervisor.
    expect(supervisors.map((p) => [p.displayName, p.studentCount])).toEqual([
      ["Marte Solberg", 6],
      ["Ole Kristiansen", 4],
    ]);

    expect(mainForms.map((f) => f.name)).toEqual(["Vurdering av kliniske kompetanser"]);
    expect(specificForms.map((f) => f.name)).toEqual(["Legemiddelhåndtering", "Sårstell og infeksjonsforebygging"]);
  });

  test("a supervisor who follows a student without being attached to the class is listed too", async () => {
    const classId = await newClass("EXTRA1");
    const [student, invited] = await db
      .insert(users)
      .values([
        { displayName: "Elev En", email: "extra-student@example.org" },
        { displayName: "Invitert Veileder", email: "extra-invited@example.org" },
      ])
      .returning();
    const [ref] = await db.insert(studentReferences).values({ classId, studentUserId: student.id }).returning();
    await db.insert(studentExtraSupervisors).values({ studentReferenceId: ref.id, userId: invited.id });
    const page = await adminClassPage(db, classId);
    expect(page?.supervisors.map((p) => [p.displayName, p.studentCount])).toEqual([["Invitert Veileder", 1]]);
    expect(page?.schemes).toEqual([]);
  });

  test("deleted forms cannot be chosen for a new scheme", async () => {
    const [deleted] = await db.insert(forms).values({ name: "Gammelt skjema", deletedAt: new Date() }).returning();
    const page = await adminClassPage(db, await classIdOf(db, "SYK2001"));
    expect(page?.specificForms.map((f) => f.formId)).not.toContain(deleted.id);
    expect(page?.mainForms.map((f) => f.formId)).not.toContain(deleted.id);
  });
});

describe("the end-semester date", () => {
  test("is saved and audited with the old and the new date", async () => {
    const classId = await newClass("END1");
    const admin = await userIdOf(db, "admin@example.org");
    const outcome = await updateEndSemesterDate(db, {
      classId,
      text: "20.12.2026",
      actorUserId: admin,
      ip: "192.0.2.9",
    });
    expect(outcome).toEqual({ ok: true, date: "2026-12-20" });
    const [row] = await db.select().from(classes).where(eq(classes.id, classId));
    expect(row.endSemesterDate).toBe("2026-12-20");
    const [event] = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "class.updated"), eq(auditEvents.classId, classId)));
    expect(event).toMatchObject({
      actorUserId: admin,
      ip: "192.0.2.9",
      details: { endSemesterDate: { from: "2026-12-17", to: "2026-12-20" } },
    });
  });

  test("a date outside the semester or before mid-semester is refused and nothing changes", async () => {
    const classId = await newClass("END2");
    const admin = await userIdOf(db, "admin@example.org");
    for (const [text, error] of [
      ["2027-01-15", "afterEnd"],
      ["2026-06-30", "beforeStart"],
      ["2026-09-01", "beforeMid"],
      ["31.11.2026", "invalid"],
    ] as const) {
      expect(await updateEndSemesterDate(db, { classId, text, actorUserId: admin })).toEqual({ ok: false, error });
    }
    const [row] = await db.select().from(classes).where(eq(classes.id, classId));
    expect(row.endSemesterDate).toBe("2026-12-17");
    const events = await db.select().from(auditEvents).where(eq(auditEvents.classId, classId));
    expect(events).toEqual([]);
  });

  test("an unknown class is not found", async () => {
    expect(await updateEndSemesterDate(db, { classId: 999_999, text: "2026-12-01", actorUserId: 1 })).toEqual({
      ok: false,
      error: "notFound",
    });
  });
});

describe("creating a response scheme", () => {
  test("inserts the scheme and its forms at once and audits it", async () => {
    const classId = await newClass("SCH1");
    const admin = await userIdOf(db, "admin@example.org");
    const main = await formIdOf("Vurdering av kliniske kompetanser");
    const medication = await formIdOf("Legemiddelhåndtering");
    const outcome = await createScheme(db, {
      classId,
      isMidSemester: true,
      formIds: [medication, main, medication],
      actorUserId: admin,
      ip: "192.0.2.7",
    });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const [row] = await db.select().from(schemes).where(eq(schemes.id, outcome.schemeId));
    expect(row).toMatchObject({ classId, isMidSemester: true });
    const linked = await db.select().from(schemeForms).where(eq(schemeForms.schemeId, outcome.schemeId));
    expect(linked.map((l) => l.formId).toSorted((a, b) => a - b)).toEqual([main, medication].toSorted((a, b) => a - b));
    const [event] = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "scheme.created"), eq(auditEvents.classId, classId)))
      .orderBy(desc(auditEvents.id));
    expect(event).toMatchObject({
      actorUserId: admin,
      ip: "192.0.2.7",
      details: {
        assignmentId: outcome.schemeId,
        isMidSemester: true,
        formIds: [main, medication].toSorted((a, b) => a - b),
      },
    });

    const page = await adminClassPage(db, classId);
    expect(page?.schemes).toHaveLength(1);
    expect(page?.schemes[0].forms.map((f) => f.formId)).toEqual([main, medication]);
  });

  test("needs at least one form", async () => {
    const classId = await newClass("SCH2");
    expect(await createScheme(db, { classId, isMidSemester: false, formIds: [], actorUserId: 1 })).toEqual({
      ok: false,
      error: { kind: "noForms" },
    });
  });

  test("refuses unknown and deleted forms, and writes nothing", async () => {
    const classId = await newClass("SCH3");
    const main = await formIdOf("Vurdering av kliniske kompetanser");
    const [deleted] = await db.insert(forms).values({ name: "Slettet skjema", deletedAt: new Date() }).returning();
    for (const formIds of [[main, 999_999], [deleted.id]]) {
      expect(await createScheme(db, { classId, isMidSemester: true, formIds, actorUserId: 1 })).toEqual({
        ok: false,
        error: { kind: "unknownForm" },
      });
    }
    expect(await db.select().from(schemes).where(eq(schemes.classId, classId))).toEqual([]);
  });

  test("a form already in a scheme of the same half is refused; the other half is fine", async () => {
    const classId = await newClass("SCH4");
    const main = await formIdOf("Vurdering av kliniske kompetanser");
    const wound = await formIdOf("Sårstell og infeksjonsforebygging");
    expect((await createScheme(db, { classId, isMidSemester: true, formIds: [main], actorUserId: 1 })).ok).toBe(true);
    expect(await createScheme(db, { classId, isMidSemester: true, formIds: [wound, main], actorUserId: 1 })).toEqual({
      ok: false,
      error: { kind: "alreadyInScheme", formName: "Vurdering av kliniske kompetanser", isMidSemester: true },
    });
    expect((await createScheme(db, { classId, isMidSemester: false, formIds: [wound, main], actorUserId: 1 })).ok).toBe(
      true,
    );
    expect((await createScheme(db, { classId, isMidSemester: true, formIds: [wound], actorUserId: 1 })).ok).toBe(true);
    expect(await db.select().from(schemes).where(eq(schemes.classId, classId))).toHaveLength(3);
  });

  test("an unknown class is not found", async () => {
    const main = await formIdOf("Vurdering av kliniske kompetanser");
    expect(await createScheme(db, { classId: 999_999, isMidSemester: true, formIds: [main], actorUserId: 1 })).toEqual({
      ok: false,
      error: { kind: "notFound" },
    });
  });
});

describe("a supervisor's students in a class", () => {
  test("assigned students and those followed as extra supervisor, by name, with their teacher", async () => {
    const classId = await classIdOf(db, "SYK2001");
    const page = await supervisorStudentsPage(db, classId, await userIdOf(db, "veileder1@example.org"));
    expect(page?.supervisor.displayName).toBe("Marte Solberg");
    expect(page?.header.subjectCode).toBe("SYK2001");
    expect(page?.students.map((s) => [s.displayName, s.relation, s.teacherName])).toEqual([
      ["Ella Olsen", "assigned", "Ingrid Haugen"],
      ["Emma Andersen", "assigned", "Ingrid Haugen"],
      ["Ingrid Jensen", "assigned", "Ingrid Haugen"],
      ["Noah Johansen", "extra", "Lars Bakken"],
      ["Nora Hansen", "assigned", "Ingrid Haugen"],
      ["Sofie Nilsen", "assigned", "Ingrid Haugen"],
    ]);
  });

  test("a supervisor attached to the class without students yet gets an empty list", async () => {
    const classId = await classIdOf(db, "SYK2001");
    const supervisor = await userIdOf(db, "veileder4@example.org");
    expect(await supervisorStudentsPage(db, classId, supervisor)).toBeNull();
    await db.insert(classSupervisors).values({ classId, userId: supervisor });
    const page = await supervisorStudentsPage(db, classId, supervisor);
    expect(page?.students).toEqual([]);
  });

  test("none for someone who is no supervisor of the class, an unknown user or an unknown class", async () => {
    const classId = await classIdOf(db, "SYK2001");
    expect(await supervisorStudentsPage(db, classId, await userIdOf(db, "veileder3@example.org"))).toBeNull();
    expect(await supervisorStudentsPage(db, classId, await userIdOf(db, "laerer1@example.org"))).toBeNull();
    expect(await supervisorStudentsPage(db, classId, 999_999)).toBeNull();
    expect(await supervisorStudentsPage(db, 999_999, await userIdOf(db, "veileder1@example.org"))).toBeNull();
  });
});

describe("undoing set-up mistakes", () => {
  const actor = async () => userIdOf(db, "admin@example.org");

  test("the mid-semester date lies within the semester and before the end-semester date", () => {
    const header = { semesterStart: "2026-07-01", semesterEnd: "2026-12-31", endSemesterDate: "2026-12-17" };
    expect(checkMidSemesterDate("2026-10-15", header)).toEqual({ ok: true, date: "2026-10-15" });
    expect(checkMidSemesterDate("1.7.2026", header)).toEqual({ ok: true, date: "2026-07-01" });
    expect(checkMidSemesterDate("2026-12-16", header)).toEqual({ ok: true, date: "2026-12-16" });
    expect(checkMidSemesterDate("2026-12-17", header)).toEqual({ ok: false, error: "notBeforeEnd" });
    expect(checkMidSemesterDate("2026-12-20", header)).toEqual({ ok: false, error: "notBeforeEnd" });
    expect(checkMidSemesterDate("2026-06-30", header)).toEqual({ ok: false, error: "beforeStart" });
    expect(checkMidSemesterDate("2027-01-01", { ...header, endSemesterDate: null })).toEqual({
      ok: false,
      error: "afterEnd",
    });
    expect(checkMidSemesterDate("2026-12-31", { ...header, endSemesterDate: null })).toEqual({
      ok: true,
      date: "2026-12-31",
    });
    expect(checkMidSemesterDate("31.2.2026", header)).toEqual({ ok: false, error: "invalid" });
    expect(checkMidSemesterDate("", header)).toEqual({ ok: false, error: "invalid" });
  });

  test("moving the mid-semester date is saved and audited with the old and new date; a wrong one changes nothing", async () => {
    const classId = await newClass("MID1");
    const admin = await actor();
    expect(await updateMidSemesterDate(db, { classId, text: "2026-12-17", actorUserId: admin })).toEqual({
      ok: false,
      error: "notBeforeEnd",
    });
    expect(await updateMidSemesterDate(db, { classId: 999_999, text: "2026-10-20", actorUserId: admin })).toEqual({
      ok: false,
      error: "notFound",
    });
    expect(await updateMidSemesterDate(db, { classId, text: "20.10.2026", actorUserId: admin })).toEqual({
      ok: true,
      date: "2026-10-20",
    });
    const [row] = await db.select({ mid: classes.midSemesterDate }).from(classes).where(eq(classes.id, classId));
    expect(row.mid).toBe("2026-10-20");
    const [entry] = await db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.classId, classId))
      .orderBy(desc(auditEvents.id))
      .limit(1);
    expect(entry).toMatchObject({
      action: "class.updated",
      actorUserId: admin,
      details: { midSemesterDate: { from: "2026-10-01", to: "2026-10-20" } },
    });
  });

  test("a scheme nobody has answered is removed and audited; one with answers (a draft too) is refused and kept", async () => {
    const classId = await newClass("RM1");
    const admin = await actor();
    const main = await formIdOf("Vurdering av kliniske kompetanser");
    const created = await createScheme(db, { classId, isMidSemester: true, formIds: [main], actorUserId: admin });
    if (!created.ok) throw new Error("no scheme");
    // Another class's id with this scheme is not this class's scheme.
    const other = await newClass("RM2");
    expect(await removeScheme(db, { classId: other, schemeId: created.schemeId, actorUserId: admin })).toEqual({
      ok: false,
      error: "notFound",
    });

    const [student] = await db
      .insert(users)
      .values({ displayName: "Utkast Student", email: "rm1-student@example.org" })
      .returning();
    const [draft] = await db
      .insert(answerSets)
      .values({
        formId: main,
        schemeId: created.schemeId,
        studentUserId: student.id,
        authorUserId: student.id,
        authorRoleId: 2,
        isMidSemester: true,
      })
      .returning();
    expect(await removeScheme(db, { classId, schemeId: created.schemeId, actorUserId: admin })).toEqual({
      ok: false,
      error: "hasAnswers",
      answerSets: 1,
    });
    const page = await adminClassPage(db, classId);
    expect(page?.schemes.map((s) => [s.answerSets, s.sentAnswerSets])).toEqual([[1, 0]]);

    await db.delete(answerSets).where(eq(answerSets.id, draft.id));
    expect(await removeScheme(db, { classId, schemeId: created.schemeId, actorUserId: admin })).toEqual({
      ok: true,
      isMidSemester: true,
    });
    expect(await db.select().from(schemes).where(eq(schemes.classId, classId))).toEqual([]);
    const [entry] = await db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.classId, classId))
      .orderBy(desc(auditEvents.id))
      .limit(1);
    expect(entry).toMatchObject({
      action: "scheme.removed",
      details: { assignmentId: created.schemeId, isMidSemester: true, formIds: [main] },
    });
    // The same form can be added again afterwards.
    expect((await createScheme(db, { classId, isMidSemester: true, formIds: [main], actorUserId: admin })).ok).toBe(
      true,
    );
  });

  test("expected levels are copied from an earlier semester's class of the same subject, all at once; what did not match is named", async () => {
    const admin = await actor();
    const previous = await classIdOf(db, "SYK1002");
    const [old] = await db.select({ subjectId: classes.subjectId }).from(classes).where(eq(classes.id, previous));
    const [semester] = await db.select().from(semesters).where(eq(semesters.name, "Høst 2026"));
    const [target] = await db
      .insert(classes)
      .values({
        subjectId: old.subjectId,
        semesterId: semester.id,
        midSemesterDate: "2026-10-01",
        endSemesterDate: "2026-12-17",
      })
      .returning();
    const main = await formIdOf("Vurdering av kliniske kompetanser");
    const medication = await formIdOf("Legemiddelhåndtering");

    expect(await copyExpectations(db, { classId: target.id, sourceClassId: previous, actorUserId: admin })).toEqual({
      ok: false,
      error: "noSchemes",
    });
    await createScheme(db, {
      classId: target.id,
      isMidSemester: true,
      formIds: [main, medication],
      actorUserId: admin,
    });
    await createScheme(db, { classId: target.id, isMidSemester: false, formIds: [main], actorUserId: admin });

    const sources = await expectationSources(db, target.id);
    expect(sources.map((s) => s.classId)).toEqual([previous]);
    expect(sources[0].semesterName).not.toBe("Høst 2026");
    // Not a class of the same subject in an earlier semester: refused.
    expect(
      await copyExpectations(db, {
        classId: target.id,
        sourceClassId: await classIdOf(db, "SYK2001"),
        actorUserId: admin,
      }),
    ).toEqual({
      ok: false,
      error: "unknownSource",
    });
    expect(await copyExpectations(db, { classId: previous, sourceClassId: target.id, actorUserId: admin })).toEqual({
      ok: false,
      error: "unknownSource",
    });

    const result = await copyExpectations(db, { classId: target.id, sourceClassId: previous, actorUserId: admin });
    if (!result.ok) throw new Error(result.error);
    const levelsBefore = await db.select().from(expectations).where(eq(expectations.classId, previous));
    const midCount = levelsBefore.filter((l) => l.isMidSemester && l.formId === main).length;
    expect(midCount).toBeGreaterThan(0);
    expect(result.copied.map((c) => [c.name, c.isMidSemester, c.questions])).toEqual([
      ["Vurdering av kliniske kompetanser", true, midCount],
      ["Vurdering av kliniske kompetanser", false, levelsBefore.length - midCount],
    ]);
    expect(result.notMatched.map((c) => [c.name, c.isMidSemester])).toEqual([["Legemiddelhåndtering", true]]);
    // The semester copied from, for the admin's message.
    expect(result.sourceSemesterName).toBe(sources[0].semesterName);
    const copied = await db.select().from(expectations).where(eq(expectations.classId, target.id));
    const key = (l: (typeof copied)[number]) => `${l.formId}:${l.questionId}:${l.isMidSemester}=${l.value}`;
    expect(copied.map(key).sort()).toEqual(levelsBefore.map(key).sort());
    const [entry] = await db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.classId, target.id))
      .orderBy(desc(auditEvents.id))
      .limit(1);
    expect(entry).toMatchObject({ action: "expectations.copied", details: { fromClassId: previous } });

    // Copying again replaces a level changed by hand, and adds nothing twice.
    await db.update(expectations).set({ value: "4" }).where(eq(expectations.classId, target.id));
    await copyExpectations(db, { classId: target.id, sourceClassId: previous, actorUserId: admin });
    const again = await db.select().from(expectations).where(eq(expectations.classId, target.id));
    expect(again.map(key).sort()).toEqual(levelsBefore.map(key).sort());
  });
});
