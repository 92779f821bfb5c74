import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Database, Db } from "~/services/platform/db/client.server";
import { seedDemo } from "~/services/demo/index.server";
import {
  answerSets,
  schemeForms,
  schemes,
  auditEvents,
  expectations,
  forms,
  signingForms,
  studentExtraSupervisors,
  studentReferences,
} from "~/services/platform/db/schema";
import { openTestDatabase } from "~/test/db";
import { answerToken, EMPTY, type PostedAnswer } from "./answering";
import {
  answeringPlace,
  maySeeExpectations,
  maySeeSet,
  ownAnswers,
  saveAnswers,
  saveExpectations,
  storedExpectations,
  visibleSets,
  type AnsweringPlace,
} from "./answers.server";
import type { Viewer } from "~/services/placements/index.server";
import { formResults } from "./results.server";
import { ROLE, type RoleId } from "~/services/identity";
import { classIdOf, userIdOf } from "~/test/app";

const NOW = new Date("2026-11-22T12:00:00Z");
let database: Database;
let db: Db;

beforeAll(async () => {
  database = await openTestDatabase();
  db = database.db;
  await seedDemo(db, NOW);
});

afterAll(async () => {
  await database.close();
});

async function formIdOf(name: string): Promise<number> {
  const [row] = await db.select({ id: forms.id }).from(forms).where(eq(forms.name, name));
  return row.id;
}

async function schemeOf(classId: number, isMidSemester: boolean): Promise<number> {
  const [row] = await db
    .select({ id: schemes.id })
    .from(schemes)
    .where(and(eq(schemes.classId, classId), eq(schemes.isMidSemester, isMidSemester)));
  return row.id;
}

const MAIN = "Vurdering av kliniske kompetanser";

async function viewer(email: string, role: RoleId): Promise<Viewer> {
  return { userId: await userIdOf(db, email), role };
}

/** The place where `who` answers the main form about `studentEmail` in SYK2001. */
async function placeFor(who: Viewer, studentEmail: string | null, isMidSemester = true): Promise<AnsweringPlace> {
  const classId = await classIdOf(db, "SYK2001");
  return answeringPlace(db, who, {
    classId,
    formId: await formIdOf(MAIN),
    schemeId: await schemeOf(classId, isMidSemester),
    studentUserId: studentEmail === null ? null : await userIdOf(db, studentEmail),
  });
}

function gradingQuestions(place: AnsweringPlace) {
  return place.form.groups.filter((g) => g.type === "grading").flatMap((g) => g.questions);
}

/** Posts as a fresh page would: each answer's base is the token of what was stored when the page was read. */
async function post(
  place: AnsweringPlace,
  authorUserId: number,
  answers: { questionId: number; value: string | null; comment?: string | null }[],
) {
  const own = await ownAnswers(db, place, authorUserId);
  return answers.map((a): PostedAnswer => ({
    questionId: a.questionId,
    value: a.value,
    comment: a.comment ?? null,
    base: answerToken(own.answers.get(a.questionId) ?? EMPTY),
  }));
}

describe("who may answer where (answeringPlace)", () => {
  test("the student about themself, the assigned supervisor, any teacher of the class, and the admin without a student", async () => {
    const student = await placeFor(await viewer("student05@example.org", ROLE.Student), "student05@example.org");
    expect(student).toMatchObject({ relation: "self", isMidSemester: true, locked: false, form: { name: MAIN } });
    expect(student.form.groups.map((g) => g.type)).toContain("text");
    // student05's supervisor is veileder1, teacher laerer1; laerer2 also teaches SYK2001.
    expect(
      (await placeFor(await viewer("veileder1@example.org", ROLE.Supervisor), "student05@example.org")).relation,
    ).toBe("supervisor");
    expect((await placeFor(await viewer("laerer2@example.org", ROLE.Teacher), "student05@example.org")).relation).toBe(
      "teacher",
    );
    expect((await placeFor(await viewer("admin@example.org", ROLE.Admin), null)).relation).toBe("admin");
    expect(
      (await placeFor(await viewer("student05@example.org", ROLE.Student), "student05@example.org", false))
        .isMidSemester,
    ).toBe(false);
  });

  test("another student's id, a supervisor who does not follow the student, a teacher of another class: 404", async () => {
    await expect(
      placeFor(await viewer("student05@example.org", ROLE.Student), "student06@example.org"),
    ).rejects.toMatchObject({ status: 404 });
    // veileder2 supervises in SYK2001, but not student05.
    await expect(
      placeFor(await viewer("veileder2@example.org", ROLE.Supervisor), "student05@example.org"),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      placeFor(await viewer("laerer3@example.org", ROLE.Teacher), "student05@example.org"),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      placeFor(await viewer("admin@example.org", ROLE.Admin), "student05@example.org"),
    ).rejects.toMatchObject({ status: 404 });
  });

  test("a form not in the scheme, or a scheme of another class: 404", async () => {
    const who = await viewer("student05@example.org", ROLE.Student);
    const classA = await classIdOf(db, "SYK2001");
    const studentUserId = await userIdOf(db, "student05@example.org");
    const wound = await formIdOf("Sårstell og infeksjonsforebygging");
    await expect(
      answeringPlace(db, who, {
        classId: classA,
        formId: wound,
        schemeId: await schemeOf(classA, true),
        studentUserId,
      }),
    ).rejects.toMatchObject({ status: 404 });
    const classB = await classIdOf(db, "SYK2002");
    await expect(
      answeringPlace(db, who, {
        classId: classA,
        formId: await formIdOf(MAIN),
        schemeId: await schemeOf(classB, true),
        studentUserId,
      }),
    ).rejects.toMatchObject({ status: 404 });
  });
});

describe("saving and sending", () => {
  test("autosaved answers are the author's private draft; sending needs every grade, then everyone allowed sees them", async () => {
    const who = await viewer("student05@example.org", ROLE.Student);
    const place = await placeFor(who, "student05@example.org");
    const [first, second, ...rest] = gradingQuestions(place);
    const saved = await saveAnswers(
      db,
      place,
      { userId: who.userId, roleId: ROLE.Student },
      await post(place, who.userId, [
        { questionId: first.id, value: "2", comment: "Trygg på rutinene" },
        { questionId: second.id, value: "5" },
      ]),
      { send: false, now: NOW },
    );
    expect(saved).toMatchObject({ ok: true, conflicts: [], sentAt: null, justSent: false, missing: [] });
    const [set] = await db
      .select()
      .from(answerSets)
      .where(and(eq(answerSets.studentUserId, who.userId), eq(answerSets.authorUserId, who.userId)));
    expect(set).toMatchObject({ isMidSemester: true, authorRoleId: ROLE.Student, sentAt: null });

    const scope = { formId: place.form.formId, studentUserId: who.userId, schemeIds: [place.schemeId] };
    const teacher = await userIdOf(db, "laerer1@example.org");
    expect(
      (await visibleSets(db, { userId: teacher, relation: "teacher" }, scope)).map((s) => s.authorUserId),
    ).not.toContain(who.userId);
    expect(
      (await visibleSets(db, { userId: who.userId, relation: "self" }, scope)).map((s) => s.authorUserId),
    ).toContain(who.userId);

    // Sending with grades missing saves, but does not send, and names what is missing.
    const incomplete = await saveAnswers(db, place, { userId: who.userId, roleId: ROLE.Student }, [], {
      send: true,
      now: NOW,
    });
    expect(incomplete).toMatchObject({ ok: true, justSent: false, sentAt: null, missing: rest.map((q) => q.id) });

    const all = await post(
      place,
      who.userId,
      rest.map((q) => ({ questionId: q.id, value: "1" })),
    );
    const sent = await saveAnswers(db, place, { userId: who.userId, roleId: ROLE.Student }, all, {
      send: true,
      now: NOW,
      ip: "192.0.2.9",
    });
    expect(sent).toMatchObject({ ok: true, justSent: true, missing: [] });
    expect(sent.ok && sent.sentAt?.getTime()).toBe(NOW.getTime());
    const [event] = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "answers.sent"), eq(auditEvents.actorUserId, who.userId)));
    expect(event).toMatchObject({
      subjectUserId: who.userId,
      ip: "192.0.2.9",
      details: { formId: place.form.formId, isMidSemester: true },
    });
    // The row keeps the name it has always been stored under: the scheme is "assignmentId" there.
    expect(event.details).toMatchObject({ assignmentId: place.schemeId });
    expect(event.details).not.toHaveProperty("schemeId");
    const seen = await visibleSets(db, { userId: teacher, relation: "teacher" }, scope);
    expect(seen.find((s) => s.authorUserId === who.userId)?.answers.get(first.id)).toMatchObject({
      value: "2",
      comment: "Trygg på rutinene",
    });

    // Edits after sending stay visible; the form stays sent when saved again.
    const later = new Date(NOW.getTime() + 60_000);
    const edit = await saveAnswers(
      db,
      place,
      { userId: who.userId, roleId: ROLE.Student },
      await post(place, who.userId, [{ questionId: first.id, value: "1" }]),
      {
        send: true,
        now: later,
      },
    );
    expect(edit).toMatchObject({ ok: true, justSent: false });
    expect(edit.ok && edit.sentAt?.getTime()).toBe(NOW.getTime());
    expect(
      (await visibleSets(db, { userId: teacher, relation: "teacher" }, scope))
        .find((s) => s.authorUserId === who.userId)
        ?.answers.get(first.id)?.value,
    ).toBe("1");
  });

  test("two tabs: the second different change to one answer is a conflict, kept out until saved again", async () => {
    const who = await viewer("student06@example.org", ROLE.Student);
    const place = await placeFor(who, "student06@example.org");
    const [question, other] = gradingQuestions(place);
    const author = { userId: who.userId, roleId: ROLE.Student };
    // Both tabs were opened before anything was saved.
    const tabA = await post(place, who.userId, [{ questionId: question.id, value: "2" }]);
    const tabB = await post(place, who.userId, [
      { questionId: question.id, value: "3" },
      { questionId: other.id, value: "1" },
    ]);
    expect(await saveAnswers(db, place, author, tabA, { send: false })).toMatchObject({ ok: true, conflicts: [] });
    const second = await saveAnswers(db, place, author, tabB, { send: false });
    expect(second).toMatchObject({
      ok: true,
      conflicts: [
        { questionId: question.id, stored: { value: "2", comment: null }, posted: { value: "3", comment: null } },
      ],
    });
    let own = await ownAnswers(db, place, who.userId);
    expect(own.answers.get(question.id)?.value).toBe("2");
    expect(own.answers.get(other.id)?.value).toBe("1");
    // Tab B was told; saving again from the token it got overwrites, deliberately.
    const token = second.ok ? second.tokens.get(question.id)! : "";
    expect(
      await saveAnswers(db, place, author, [{ questionId: question.id, value: "3", comment: null, base: token }], {
        send: false,
      }),
    ).toMatchObject({
      ok: true,
      conflicts: [],
    });
    own = await ownAnswers(db, place, who.userId);
    expect(own.answers.get(question.id)?.value).toBe("3");
  });

  test("two saves of one answer set at once, on different questions: both are kept", async () => {
    const who = await viewer("student07@example.org", ROLE.Student);
    const place = await placeFor(who, "student07@example.org");
    const [a, b] = gradingQuestions(place);
    const author = { userId: who.userId, roleId: ROLE.Student };
    const [x, y] = await Promise.all([
      saveAnswers(db, place, author, [{ questionId: a.id, value: "0", comment: null, base: answerToken(EMPTY) }], {
        send: false,
      }),
      saveAnswers(db, place, author, [{ questionId: b.id, value: "4", comment: null, base: answerToken(EMPTY) }], {
        send: false,
      }),
    ]);
    expect([x.ok, y.ok]).toEqual([true, true]);
    const own = await ownAnswers(db, place, who.userId);
    expect([own.answers.get(a.id)?.value, own.answers.get(b.id)?.value]).toEqual(["0", "4"]);
    expect(
      await db
        .select()
        .from(answerSets)
        .where(and(eq(answerSets.authorUserId, who.userId), eq(answerSets.studentUserId, who.userId))),
    ).toHaveLength(1);
  });

  test("a question of another form, a value not among the labels, or a 2001-character comment saves nothing", async () => {
    const who = await viewer("student08@example.org", ROLE.Student);
    const place = await placeFor(who, "student08@example.org");
    const [question] = gradingQuestions(place);
    const author = { userId: who.userId, roleId: ROLE.Student };
    const base = answerToken(EMPTY);
    const foreign = await db.select({ id: forms.id }).from(forms).where(eq(forms.name, "Legemiddelhåndtering"));
    const foreignPlace = await answeringPlace(db, who, {
      classId: place.header.classId,
      formId: foreign[0].id,
      schemeId: place.schemeId,
      studentUserId: who.userId,
    });
    const foreignQuestion = foreignPlace.form.groups[0].questions[0].id;
    expect(
      await saveAnswers(db, place, author, [{ questionId: foreignQuestion, value: "1", comment: null, base }], {
        send: false,
      }),
    ).toEqual({
      ok: false,
      error: "unknownQuestion",
    });
    const invalid = await saveAnswers(
      db,
      place,
      author,
      [
        { questionId: question.id, value: "6", comment: null, base },
        { questionId: gradingQuestions(place)[1].id, value: "1", comment: "x".repeat(2001), base },
      ],
      { send: false },
    );
    expect(invalid).toMatchObject({ ok: false, error: "invalid" });
    expect(invalid.ok === false && invalid.error === "invalid" && Object.fromEntries(invalid.fieldErrors)).toEqual({
      [question.id]: "invalidValue",
      [gradingQuestions(place)[1].id]: "commentTooLong",
    });
    expect((await ownAnswers(db, place, who.userId)).answers.size).toBe(0);
  });

  test("a locked signing form refuses every save", async () => {
    const who = await viewer("student09@example.org", ROLE.Student);
    const place = await placeFor(who, "student09@example.org");
    await db.insert(signingForms).values({ studentReferenceId: place.student!.referenceId, isLocked: true });
    const locked = await placeFor(who, "student09@example.org");
    expect(locked.locked).toBe(true);
    const [question] = gradingQuestions(place);
    // Also when the page was read before the lock.
    expect(
      await saveAnswers(
        db,
        place,
        { userId: who.userId, roleId: ROLE.Student },
        [{ questionId: question.id, value: "1", comment: null, base: answerToken(EMPTY) }],
        { send: false },
      ),
    ).toEqual({
      ok: false,
      error: "locked",
    });
    expect((await ownAnswers(db, place, who.userId)).answers.size).toBe(0);
  });

  test("the mid/end switch: an answer set belongs to its scheme's half", async () => {
    const who = await viewer("student05@example.org", ROLE.Student);
    const end = await placeFor(who, "student05@example.org", false);
    const [question] = gradingQuestions(end);
    await saveAnswers(
      db,
      end,
      { userId: who.userId, roleId: ROLE.Student },
      [{ questionId: question.id, value: "0", comment: null, base: answerToken(EMPTY) }],
      { send: false },
    );
    const sets = await db
      .select()
      .from(answerSets)
      .where(and(eq(answerSets.authorUserId, who.userId), eq(answerSets.studentUserId, who.userId)));
    expect(sets.map((s) => [s.schemeId, s.isMidSemester]).sort()).toEqual(
      [
        [await schemeOf(end.header.classId, true), true],
        [end.schemeId, false],
      ].sort(),
    );
  });
});

describe("expected levels", () => {
  test("the admin sets, changes and removes expected levels; a missing one is simply none", async () => {
    const admin = await viewer("admin@example.org", ROLE.Admin);
    const place = await placeFor(admin, null, false);
    const [question, other] = gradingQuestions(place);
    const before = await storedExpectations(db, place);
    const posted = (value: string | null, q = question.id) => ({
      questionId: q,
      value,
      comment: null,
      base: answerToken(before.get(q) ?? EMPTY),
    });
    expect(await saveExpectations(db, place, admin.userId, [posted("1")], { now: NOW })).toMatchObject({
      ok: true,
      conflicts: [],
    });
    expect((await storedExpectations(db, place)).get(question.id)?.value).toBe("1");
    const [row] = await db
      .select()
      .from(expectations)
      .where(
        and(
          eq(expectations.questionId, question.id),
          eq(expectations.isMidSemester, false),
          eq(expectations.classId, place.header.classId),
        ),
      );
    expect(row).toMatchObject({ value: "1", setByUserId: admin.userId, formId: place.form.formId });

    const removed = await saveExpectations(db, place, admin.userId, [
      { questionId: question.id, value: null, comment: null, base: answerToken({ value: "1", comment: null }) },
    ]);
    expect(removed).toMatchObject({ ok: true });
    expect((await storedExpectations(db, place)).has(question.id)).toBe(false);
    expect((await storedExpectations(db, place)).get(other.id)?.value).toBe(before.get(other.id)?.value);
  });

  test("a text question has no expected level, and an expected level has no comment", async () => {
    const admin = await viewer("admin@example.org", ROLE.Admin);
    const place = await placeFor(admin, null);
    const textQuestion = place.form.groups.find((g) => g.type === "text")!.questions[0];
    expect(
      await saveExpectations(db, place, admin.userId, [
        { questionId: textQuestion.id, value: "x", comment: null, base: answerToken(EMPTY) },
      ]),
    ).toEqual({
      ok: false,
      error: "unknownQuestion",
    });
    const [question] = gradingQuestions(place);
    expect(
      await saveExpectations(db, place, admin.userId, [
        { questionId: question.id, value: "1", comment: "nei", base: answerToken(EMPTY) },
      ]),
    ).toMatchObject({
      ok: false,
      error: "invalid",
    });
    // "Ikke relevant" is a choice when grading, not a level anyone is expected to reach.
    expect(
      await saveExpectations(db, place, admin.userId, [
        { questionId: question.id, value: "5", comment: null, base: answerToken(EMPTY) },
      ]),
    ).toMatchObject({
      ok: false,
      error: "invalid",
    });
  });
});

describe("who sees whose answers: an author's answers are a private draft until sent", () => {
  const sent = new Date();
  const rules: [
    string,
    { relation: Parameters<typeof maySeeSet>[0]["relation"] },
    { authorRoleId: RoleId; sentAt: Date | null; own?: boolean },
    boolean,
  ][] = [
    ["the student: own draft", { relation: "self" }, { authorRoleId: ROLE.Student, sentAt: null, own: true }, true],
    [
      "the student: the supervisor's sent set",
      { relation: "self" },
      { authorRoleId: ROLE.Supervisor, sentAt: sent },
      true,
    ],
    ["the student: the teacher's sent set", { relation: "self" }, { authorRoleId: ROLE.Teacher, sentAt: sent }, true],
    [
      "the student: the supervisor's draft",
      { relation: "self" },
      { authorRoleId: ROLE.Supervisor, sentAt: null },
      false,
    ],
    [
      "the teacher: the student's sent set",
      { relation: "teacher" },
      { authorRoleId: ROLE.Student, sentAt: sent },
      true,
    ],
    ["the teacher: the student's draft", { relation: "teacher" }, { authorRoleId: ROLE.Student, sentAt: null }, false],
    [
      "the supervisor: the teacher's sent set",
      { relation: "supervisor" },
      { authorRoleId: ROLE.Teacher, sentAt: sent },
      true,
    ],
    [
      "an extra supervisor: the supervisor's draft",
      { relation: "extraSupervisor" },
      { authorRoleId: ROLE.Supervisor, sentAt: null },
      false,
    ],
    ["the admin: any sent set", { relation: "admin" }, { authorRoleId: ROLE.Supervisor, sentAt: sent }, true],
  ];
  test.each(rules)("%s", (_, viewerFacts, set, expected) => {
    expect(
      maySeeSet(
        { userId: 1, relation: viewerFacts.relation },
        { authorUserId: set.own ? 1 : 2, authorRoleId: set.authorRoleId, sentAt: set.sentAt },
      ),
    ).toBe(expected);
  });

  test("expected levels are for the staff, not the student", () => {
    expect(maySeeExpectations("self")).toBe(false);
    for (const relation of ["teacher", "supervisor", "extraSupervisor", "admin"] as const)
      expect(maySeeExpectations(relation)).toBe(true);
  });
});

describe("the results side by side", () => {
  test("the student sees their own, the supervisor's and the teacher's sent answers, without expected levels", async () => {
    const student = await viewer("student01@example.org", ROLE.Student);
    const classId = await classIdOf(db, "SYK2001");
    const results = await formResults(db, student, {
      classId,
      formId: await formIdOf(MAIN),
      studentUserId: student.userId,
    });
    const mid = results.halves.find((h) => h.isMidSemester)!;
    expect(mid.columns.map((c) => [c.kind, c.badge])).toEqual([
      ["student", "S"],
      ["supervisor", "PV"],
      ["teacher", "PL"],
    ]);
    expect(mid.columns[0].own).toBe(true);
    expect(mid.expectationsShown).toBe(false);
    expect(mid.groups.flatMap((g) => g.rows).every((row) => row.expected === null)).toBe(true);
    expect(results.halves.find((h) => !h.isMidSemester)!.columns).toEqual([]);
  });

  test("staff see every sent set and the expected levels; a draft only its author; an extra supervisor is one of the others", async () => {
    const classId = await classIdOf(db, "SYK2001");
    const formId = await formIdOf(MAIN);
    const teacher = await viewer("laerer1@example.org", ROLE.Teacher);
    // student03's supervisor has only a draft.
    const student03 = await userIdOf(db, "student03@example.org");
    const forTeacher = await formResults(db, teacher, { classId, formId, studentUserId: student03 });
    const mid = forTeacher.halves.find((h) => h.isMidSemester)!;
    expect(mid.columns.map((c) => c.kind)).toEqual(["student"]);
    expect(mid.expectationsShown).toBe(true);
    const grading = mid.groups.find((g) => g.type === "grading")!;
    expect(grading.rows.some((row) => row.expected !== null)).toBe(true);

    const [ref] = await db
      .select()
      .from(studentReferences)
      .where(and(eq(studentReferences.classId, classId), eq(studentReferences.studentUserId, student03)));
    const supervisor = await viewer("veileder1@example.org", ROLE.Supervisor);
    expect(ref.supervisorUserId).toBe(supervisor.userId);
    const forSupervisor = await formResults(db, supervisor, { classId, formId, studentUserId: student03 });
    expect(forSupervisor.halves.find((h) => h.isMidSemester)!.columns.map((c) => [c.kind, c.own])).toEqual([
      ["student", false],
      ["supervisor", true],
    ]);

    // student02 is followed by veileder1 as an extra supervisor: a set sent by them is "other", badge PV.
    const student02 = await userIdOf(db, "student02@example.org");
    const extras = await db
      .select()
      .from(studentExtraSupervisors)
      .innerJoin(studentReferences, eq(studentReferences.id, studentExtraSupervisors.studentReferenceId))
      .where(eq(studentReferences.studentUserId, student02));
    expect(extras.map((e) => e.student_extra_supervisors.userId)).toContain(supervisor.userId);
    const place = await answeringPlace(db, supervisor, {
      classId,
      formId,
      schemeId: await schemeOf(classId, true),
      studentUserId: student02,
    });
    const all = gradingQuestions(place).map((q) => ({
      questionId: q.id,
      value: "2",
      comment: null,
      base: answerToken(EMPTY),
    }));
    expect(
      await saveAnswers(db, place, { userId: supervisor.userId, roleId: ROLE.Supervisor }, all, { send: true }),
    ).toMatchObject({ ok: true, justSent: true });
    const withExtra = await formResults(db, teacher, { classId, formId, studentUserId: student02 });
    const columns = withExtra.halves.find((h) => h.isMidSemester)!.columns;
    expect(columns.at(-1)).toMatchObject({ kind: "other", badge: "PV", authorName: "Marte Solberg" });
  });

  test("a form not in any scheme of the class, or a student the viewer may not see: 404", async () => {
    const classId = await classIdOf(db, "SYK2001");
    const teacher = await viewer("laerer1@example.org", ROLE.Teacher);
    await expect(
      formResults(db, teacher, {
        classId,
        formId: await formIdOf("Sårstell og infeksjonsforebygging"),
        studentUserId: await userIdOf(db, "student01@example.org"),
      }),
    ).rejects.toMatchObject({ status: 404 });
    const student = await viewer("student01@example.org", ROLE.Student);
    await expect(
      formResults(db, student, {
        classId,
        formId: await formIdOf(MAIN),
        studentUserId: await userIdOf(db, "student02@example.org"),
      }),
    ).rejects.toMatchObject({
      status: 404,
    });
  });
});

test("assignment_forms links schemes and forms as the seed made them", async () => {
  // Guards the fixtures above: SYK2001's schemes hold the main form and medication, not wound care.
  const classId = await classIdOf(db, "SYK2001");
  const linked = await db
    .select({ formId: schemeForms.formId })
    .from(schemeForms)
    .where(eq(schemeForms.schemeId, await schemeOf(classId, true)));
  expect(linked.map((l) => l.formId).sort()).toEqual(
    [await formIdOf(MAIN), await formIdOf("Legemiddelhåndtering")].sort(),
  );
});
