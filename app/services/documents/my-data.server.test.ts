import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { openTestDatabase } from "~/test/db";
import { seedDemo } from "~/services/demo/index.server";
import type { Database } from "~/services/platform/db/client.server";
import {
  answers,
  answerSets,
  schemes,
  auditEvents,
  formQuestionGroups,
  formQuestions,
  forms,
  QUESTION_GROUP_TYPE,
  recordOpenings,
  ROLE,
  studentReferences,
  users,
  warnings,
} from "~/services/platform/db/schema";
import { MY_DATA_FORMAT, openMyDataExport } from "./my-data.server";

let database: Database;
let student: number;
let teacher: number;
let reference: { id: number; classId: number };
let draftSet: number;

const userId = async (email: string) =>
  (await database.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0].id;

beforeAll(async () => {
  database = await openTestDatabase();
  await seedDemo(database.db, new Date("2026-11-22T12:00:00Z"));
  const db = database.db;
  student = await userId("student01@example.org");
  teacher = await userId("laerer1@example.org");
  [reference] = await db
    .select({ id: studentReferences.id, classId: studentReferences.classId })
    .from(studentReferences)
    .where(eq(studentReferences.studentUserId, student))
    .orderBy(studentReferences.id);

  // The teacher's answers about her, not yet sent: a private draft until sent.
  const [mainForm] = await db.select({ id: forms.id }).from(forms).where(eq(forms.isMainForm, true));
  const [end] = await db
    .select({ id: schemes.id })
    .from(schemes)
    .where(and(eq(schemes.classId, reference.classId), eq(schemes.isMidSemester, false)));
  [{ id: draftSet }] = await db
    .insert(answerSets)
    .values({
      formId: mainForm.id,
      schemeId: end.id,
      studentUserId: student,
      authorUserId: teacher,
      authorRoleId: ROLE.Teacher,
      isMidSemester: false,
    })
    .onConflictDoUpdate({
      target: [answerSets.formId, answerSets.schemeId, answerSets.studentUserId, answerSets.authorUserId],
      set: { sentAt: null },
    })
    .returning({ id: answerSets.id });
  const [question] = await db
    .select({ id: formQuestions.id })
    .from(formQuestions)
    .innerJoin(formQuestionGroups, eq(formQuestionGroups.id, formQuestions.groupId))
    .where(and(eq(formQuestionGroups.formId, mainForm.id), eq(formQuestionGroups.type, QUESTION_GROUP_TYPE.Grading)))
    .orderBy(formQuestionGroups.order, formQuestions.order)
    .limit(1);
  await db
    .insert(answers)
    .values({ answerSetId: draftSet, questionId: question.id, value: "2", comment: "PRIVATE-DRAFT" })
    .onConflictDoUpdate({
      target: [answers.answerSetId, answers.questionId],
      set: { value: "2", comment: "PRIVATE-DRAFT" },
    });

  // A warning still in draft.
  await db
    .insert(warnings)
    .values({ studentReferenceId: reference.id, teacherUserId: teacher, comment: "DRAFT-WARNING" });

  await db.insert(recordOpenings).values({
    studentUserId: student,
    viewerUserId: teacher,
    viewerRole: ROLE.Teacher,
    kind: "studentPage",
    classId: reference.classId,
  });
  await db.insert(auditEvents).values([
    { action: "document.downloaded", actorUserId: teacher, subjectUserId: student, ip: "10.9.9.9" },
    { action: "login", actorUserId: student, ip: "10.1.1.1" },
  ]);
});

afterAll(async () => {
  await database?.close();
});

async function read(): Promise<{ text: string; chunks: number; json: Record<string, unknown> }> {
  const copy = await openMyDataExport(database.db, student, new Date("2026-11-25T10:00:00Z"));
  if (!copy) throw new Error("no copy");
  expect(copy.fileName).toBe(`praksis-my-data-${student}-2026-11-25.json`);
  const reader = copy.stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let chunks = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks++;
    text += decoder.decode(value, { stream: true });
  }
  return { text, chunks, json: JSON.parse(text) as Record<string, unknown> };
}

test("the copy is one JSON document, written section by section, with everything about her", async () => {
  const { json, chunks, text } = await read();
  expect(chunks).toBeGreaterThan(10);
  expect(json).toMatchObject({ format: MY_DATA_FORMAT, version: 1, generatedAt: "2026-11-25T10:00:00.000Z" });
  expect(json.profile).toMatchObject({
    id: student,
    email: "student01@example.org",
    displayName: "Emma Andersen",
    roles: ["Student"],
  });
  expect(Object.keys(json)).toEqual([
    "format",
    "version",
    "generatedAt",
    "profile",
    "courseMemberships",
    "privacyAcceptances",
    "classes",
    "answerSets",
    "warnings",
    "signingForms",
    "cancelledSigningForms",
    "resultSubmissions",
    "supervisorInvitations",
    "accessList",
    "auditTrail",
  ]);
  const classes = json.classes as { classId: number; subjectCode: string; teacher: string | null }[];
  expect(classes.map((c) => c.classId)).toContain(reference.classId);
  const sets = json.answerSets as {
    author: string;
    authorRole: string;
    sentAt: string | null;
    answers: { question: string; value: string; label: string | null }[];
  }[];
  expect(sets.length).toBeGreaterThan(0);
  expect(sets.some((s) => s.authorRole === "Student")).toBe(true);
  const graded = sets.flatMap((s) => s.answers).find((a) => /^[0-4]$/.test(a.value ?? ""));
  expect(graded?.label).toBeTruthy();
  expect(json.accessList).toEqual([
    expect.objectContaining({
      viewer: expect.any(String),
      viewerRole: "Teacher",
      kind: "studentPage",
      classId: reference.classId,
    }),
  ]);
  // Nobody else's record.
  expect(text).not.toContain("student02@example.org");
});

test("what others have not yet shared stays out: a teacher's unsent answers, a warning not given, others' addresses", async () => {
  const before = await read();
  expect(before.text).not.toContain("PRIVATE-DRAFT");
  expect(before.text).not.toContain("DRAFT-WARNING");
  expect(before.text).not.toContain("10.9.9.9");
  const trail = before.json.auditTrail as { action: string; ip: string | null; by: string | null }[];
  expect(trail).toContainEqual(expect.objectContaining({ action: "login", ip: "10.1.1.1" }));
  expect(trail).toContainEqual(expect.objectContaining({ action: "document.downloaded", ip: null }));

  await database.db.update(answerSets).set({ sentAt: new Date() }).where(eq(answerSets.id, draftSet));
  await database.db
    .update(warnings)
    .set({ submittedAt: new Date() })
    .where(eq(warnings.studentReferenceId, reference.id));
  const after = await read();
  expect(after.text).toContain("PRIVATE-DRAFT");
  expect(after.json.warnings).toEqual([
    expect.objectContaining({ comment: "DRAFT-WARNING", classId: reference.classId }),
  ]);
});

test("no copy for a user who does not exist", async () => {
  expect(await openMyDataExport(database.db, 999_999)).toBeNull();
});
