/**
 * Answering forms under load, against the production server (`build/`) on PostgreSQL, over loopback:
 * 1. autosave: 50 students answering their own 60-question form at once, each posting its next
 *    changed answer to /api/answers as soon as the previous save is answered (no pauses: the most
 *    a server sees from 50 authors) — latency per save, saves per second, errors and conflicts;
 * 2. the results page of a 60-question form with the student's, the supervisor's and the teacher's
 *    answers and the expected levels, as the teacher opens it.
 * Not a test: no timed assertions (only that the answers are right).
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { answerToken, EMPTY } from "~/services/answering";
import { DEFAULT_GRADING_LABELS } from "~/services/admin";
import {
  answers,
  answerSets,
  schemeForms,
  schemes,
  classSupervisors,
  classes,
  classTeachers,
  expectations,
  formQuestionGroups,
  formQuestions,
  forms,
  semesters,
  QUESTION_GROUP_TYPE,
  ROLE,
  studentReferences,
  subjects,
  userRoles,
  users,
} from "~/services/platform/db/schema";
import { cookieActingAs, startTestApp, stopTestApp, userIdOf } from "~/test/app";
import { BENCH_SESSION_SECRET, startBenchServer, summary } from "./support";

const AUTHORS = 50;
const SAVES_PER_AUTHOR = 40;
const GROUPS = 6;
const QUESTIONS_PER_GROUP = 10;
const RESULT_RUNS = 30;

let app: Awaited<ReturnType<typeof startTestApp>>;
let classId: number;
let formId: number;
let schemeId: number;
let questionIds: number[];
let authors: { userId: number; cookie: string }[];
let teacherCookie: string;
let resultsStudent: number;

beforeAll(async () => {
  const began = performance.now();
  app = await startTestApp({ SESSION_SECRET: BENCH_SESSION_SECRET });
  const db = app.database.db;
  const [semester] = await db.select({ id: semesters.id }).from(semesters).where(eq(semesters.name, "Høst 2026"));
  const [subject] = await db.insert(subjects).values({ subjectCode: "SYK9600", name: "Praksis, last" }).returning();
  [{ id: classId }] = await db
    .insert(classes)
    .values({
      subjectId: subject.id,
      semesterId: semester.id,
      midSemesterDate: "2026-09-30",
      endSemesterDate: "2026-12-17",
    })
    .returning();
  [{ id: formId }] = await db
    .insert(forms)
    .values({ name: "Stort skjema (60 spørsmål)", isMainForm: true })
    .returning();
  questionIds = [];
  for (let g = 0; g < GROUPS; g++) {
    const [group] = await db
      .insert(formQuestionGroups)
      .values({
        formId,
        name: `Kompetanseområde ${g + 1}`,
        order: g + 1,
        type: QUESTION_GROUP_TYPE.Grading,
        options: [...DEFAULT_GRADING_LABELS],
      })
      .returning();
    const rows = await db
      .insert(formQuestions)
      .values(
        Array.from({ length: QUESTIONS_PER_GROUP }, (_, i) => ({
          groupId: group.id,
          text: `Utfører oppgave ${g * QUESTIONS_PER_GROUP + i + 1} selvstendig og faglig forsvarlig i samarbeid med pasienten`,
          order: i + 1,
          helpText: i % 3 === 0 ? "Se etter om studenten begrunner valgene sine." : null,
        })),
      )
      .returning({ id: formQuestions.id });
    questionIds.push(...rows.map((r) => r.id));
  }
  [{ id: schemeId }] = await db.insert(schemes).values({ classId, isMidSemester: true }).returning();
  await db.insert(schemeForms).values({ schemeId, formId });

  const teacher = await userIdOf(db, "laerer1@example.org");
  const supervisor = await userIdOf(db, "veileder1@example.org");
  await db.insert(classTeachers).values({ classId, userId: teacher });
  await db.insert(classSupervisors).values({ classId, userId: supervisor });
  const students = await db
    .insert(users)
    // The authors, and one more: the student whose results page is read.
    .values(
      Array.from({ length: AUTHORS + 1 }, (_, i) => ({
        displayName: `Last Student ${i + 1}`,
        email: `last.student${i + 1}@example.org`,
      })),
    )
    .returning({ id: users.id, email: users.email });
  await db.insert(userRoles).values(students.map((s) => ({ userId: s.id, roleId: ROLE.Student })));
  await db
    .insert(studentReferences)
    .values(
      students.map((s) => ({ classId, studentUserId: s.id, teacherUserId: teacher, supervisorUserId: supervisor })),
    );
  authors = [];
  for (const s of students.slice(0, AUTHORS))
    authors.push({ userId: s.id, cookie: await cookieActingAs(db, s.email, ROLE.Student) });
  teacherCookie = await cookieActingAs(db, "laerer1@example.org", ROLE.Teacher);

  // The results page's student: everyone has sent, with a comment on every fourth question, and the expected levels are set.
  resultsStudent = students[AUTHORS].id;
  const subjectStudent = resultsStudent;
  const sentAt = new Date("2026-09-25T10:00:00Z");
  for (const [authorUserId, authorRoleId, seed] of [
    [subjectStudent, ROLE.Student, 1],
    [supervisor, ROLE.Supervisor, 2],
    [teacher, ROLE.Teacher, 3],
  ] as const) {
    const [set] = await db
      .insert(answerSets)
      .values({
        formId,
        schemeId,
        studentUserId: subjectStudent,
        authorUserId,
        authorRoleId,
        isMidSemester: true,
        sentAt,
      })
      .returning();
    await db.insert(answers).values(
      questionIds.map((questionId, i) => ({
        answerSetId: set.id,
        questionId,
        value: String((i * seed) % 6),
        comment: i % 4 === 0 ? `Kommentar ${i + 1}: observert i praksis over flere vakter, med god begrunnelse.` : null,
        commentedAt: i % 4 === 0 ? sentAt : null,
      })),
    );
  }
  await db.insert(expectations).values(
    questionIds.map((questionId, i) => ({
      classId,
      formId,
      questionId,
      isMidSemester: true,
      value: String(1 + (i % 2)),
    })),
  );
  console.log(
    `seeded ${AUTHORS} authors and a ${questionIds.length}-question form: ${Math.round(performance.now() - began)} ms`,
  );
});

afterAll(async () => {
  await stopTestApp(app);
});

test(`autosave: ${AUTHORS} students saving at once, and the results page of a ${GROUPS * QUESTIONS_PER_GROUP}-question form`, async () => {
  const server = await startBenchServer(app.url, app.dir, 3902);
  const { base } = server;
  try {
    const latencies: number[] = [];
    let errors = 0;
    let conflicts = 0;
    // Each author's page keeps the tokens the server answered with, as the browser does.
    const pages = new Map(authors.map((a) => [a.userId, new Map<number, string>()]));
    const author = async (
      { userId, cookie }: { userId: number; cookie: string },
      index: number,
      saves = SAVES_PER_AUTHOR,
    ) => {
      const tokens = pages.get(userId)!;
      for (let n = 0; n < saves; n++) {
        const questionId = questionIds[(index * 7 + n) % questionIds.length];
        const value = String((index + n) % 6);
        const body = new URLSearchParams({
          classId: String(classId),
          formId: String(formId),
          schemeId: String(schemeId),
          studentUserId: String(userId),
          [`b:${questionId}`]: tokens.get(questionId) ?? answerToken(EMPTY),
          [`a:${questionId}`]: value,
          [`c:${questionId}`]: n % 5 === 0 ? `Autolagret kommentar ${n}` : "",
        });
        const started = performance.now();
        const response = await fetch(`${base}/api/answers`, {
          method: "POST",
          body,
          headers: { cookie, Origin: base, Accept: "application/json" },
        });
        const result = (await response.json()) as { tokens?: Record<string, string>; conflicts?: unknown[] };
        latencies.push(performance.now() - started);
        if (!response.ok) errors++;
        conflicts += result.conflicts?.length ?? 0;
        for (const [id, token] of Object.entries(result.tokens ?? {})) tokens.set(Number(id), token);
      }
    };
    // Warm-up: a few saves, not counted.
    await Promise.all(authors.slice(0, 5).map((a, i) => author(a, i + 1000, 2)));
    latencies.length = 0;
    errors = 0;
    conflicts = 0;
    const began = performance.now();
    await Promise.all(authors.map((a, i) => author(a, i)));
    const seconds = (performance.now() - began) / 1000;
    const total = AUTHORS * SAVES_PER_AUTHOR;
    console.log(
      `autosave, ${AUTHORS} concurrent authors × ${SAVES_PER_AUTHOR} saves: ${summary(latencies)}; ` +
        `${(total / seconds).toFixed(0)} saves/s over ${seconds.toFixed(1)} s; ${errors} errors, ${conflicts} conflicts`,
    );
    expect(errors).toBe(0);
    expect(conflicts).toBe(0);

    const resultsPath = `/teacher/class/${classId}/student/${resultsStudent}/form/${formId}/results`;
    const times: number[] = [];
    let html = "";
    for (let i = 0; i < RESULT_RUNS + 3; i++) {
      const started = performance.now();
      const response = await fetch(base + resultsPath, { headers: { cookie: teacherCookie } });
      html = await response.text();
      if (i >= 3) times.push(performance.now() - started);
      expect(response.status).toBe(200);
    }
    expect(html).toContain("Forventet nivå");
    expect(html.match(/data-series=/g)?.length ?? 0).toBeGreaterThanOrEqual(3 * questionIds.length);
    console.log(
      `results page, ${questionIds.length} questions × 3 authors + expected levels: ${summary(times)}; ${(Buffer.byteLength(html) / 1024).toFixed(0)} KiB of HTML`,
    );
  } finally {
    await server.stop();
  }
});
