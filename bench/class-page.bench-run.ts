/**
 * The teacher's class page with 500 students, on PostgreSQL with the demo data plus one big class where
 * most students, supervisors and teachers have sent forms:
 * 1. the whole loader (session, access check, header, schemes, progress overview, supervisors)
 *    through the route module with a teacher's cookie: time per call and number of queries;
 * 2. the whole response of the production server (`build/`, as `npm start` runs it) on the same
 *    database over loopback: server rendering, compression and all, as a browser gets it.
 * Not a test: no timed assertions.
 */
import zlib from "node:zlib";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import {
  answerSets,
  schemeForms,
  schemes,
  classSupervisors,
  classes,
  classTeachers,
  forms,
  semesters,
  ROLE,
  studentExtraSupervisors,
  studentReferences,
  subjects,
  users,
} from "~/services/platform/db/schema";
import * as classPage from "~/routes/teacher/class";
import { cookieActingAs, startTestApp, stopTestApp, userIdOf } from "~/test/app";
import { callLoader, getPage } from "~/test/route";
import { BENCH_SESSION_SECRET, startBenchServer, summary } from "./support";

const STUDENTS = 500;
const SUPERVISORS = 40;
const RUNS = 30;

let app: Awaited<ReturnType<typeof startTestApp>>;
let queries = 0;
let cookie: string;
let classId: number;

beforeAll(async () => {
  const seedStart = performance.now();
  app = await startTestApp({ SESSION_SECRET: BENCH_SESSION_SECRET }, { logger: { logQuery: () => queries++ } });
  const db = app.database.db;
  const teacherId = await userIdOf(db, "laerer1@example.org");
  const otherTeacherId = await userIdOf(db, "laerer2@example.org");
  cookie = await cookieActingAs(db, "laerer1@example.org", ROLE.Teacher);

  const [semester] = await db.select({ id: semesters.id }).from(semesters).where(eq(semesters.name, "Høst 2026"));
  const [subject] = await db
    .insert(subjects)
    .values({ subjectCode: "SYK9500", name: "Praksis, stor klasse" })
    .returning();
  const [big] = await db
    .insert(classes)
    .values({
      subjectId: subject.id,
      semesterId: semester.id,
      midSemesterDate: "2026-09-30",
      endSemesterDate: "2026-12-17",
    })
    .returning();
  classId = big.id;
  await db.insert(classTeachers).values([
    { classId, userId: teacherId },
    { classId, userId: otherTeacherId },
  ]);
  const formRows = await db.select({ id: forms.id }).from(forms);
  const [mid, end] = await db
    .insert(schemes)
    .values([
      { classId, isMidSemester: true },
      { classId, isMidSemester: false },
    ])
    .returning();
  const used = formRows.slice(0, 2).map((f) => f.id);
  await db
    .insert(schemeForms)
    .values([mid.id, end.id].flatMap((schemeId) => used.map((formId) => ({ schemeId, formId }))));

  const supervisorIds = (
    await db
      .insert(users)
      .values(
        Array.from({ length: SUPERVISORS }, (_, i) => ({
          displayName: `Veileder ${i + 1}`,
          email: `bench.pv${i + 1}@example.org`,
        })),
      )
      .returning({ id: users.id })
  ).map((u) => u.id);
  await db.insert(classSupervisors).values(supervisorIds.map((userId) => ({ classId, userId })));
  const studentIds = (
    await db
      .insert(users)
      .values(
        Array.from({ length: STUDENTS }, (_, i) => ({
          displayName: `Student Ødegård ${i + 1}`,
          email: `bench.s${i + 1}@example.org`,
        })),
      )
      .returning({ id: users.id })
  ).map((u) => u.id);
  const refs = await db
    .insert(studentReferences)
    .values(
      studentIds.map((studentUserId, i) => ({
        classId,
        studentUserId,
        teacherUserId: i % 11 === 0 ? null : i % 2 === 0 ? teacherId : otherTeacherId,
        supervisorUserId: i % 13 === 0 ? null : supervisorIds[i % SUPERVISORS],
      })),
    )
    .returning();
  await db
    .insert(studentExtraSupervisors)
    .values(
      refs
        .filter((_, i) => i % 25 === 0)
        .map((ref, i) => ({ studentReferenceId: ref.id, userId: supervisorIds[(i + 3) % SUPERVISORS] })),
    )
    .onConflictDoNothing();

  const sentAt = new Date("2026-09-25T10:00:00Z");
  const sets: (typeof answerSets.$inferInsert)[] = [];
  for (const [i, ref] of refs.entries()) {
    const add = (
      schemeId: number,
      formId: number,
      authorUserId: number | null,
      authorRoleId: 2 | 3 | 4,
      isMid: boolean,
      sent: boolean,
    ) => {
      if (authorUserId !== null) {
        sets.push({
          formId,
          schemeId,
          studentUserId: ref.studentUserId,
          authorUserId,
          authorRoleId,
          isMidSemester: isMid,
          sentAt: sent ? sentAt : null,
        });
      }
    };
    if (i % 10 < 8) add(mid.id, used[0], ref.studentUserId, ROLE.Student, true, i % 10 < 7);
    if (i % 10 < 6) add(mid.id, used[1], ref.studentUserId, ROLE.Student, true, true);
    if (i % 10 < 6) add(mid.id, used[0], ref.supervisorUserId, ROLE.Supervisor, true, true);
    if (i % 10 < 4) add(mid.id, used[0], ref.teacherUserId, ROLE.Teacher, true, true);
    if (i % 10 < 2) add(end.id, used[0], ref.studentUserId, ROLE.Student, false, true);
  }
  await db.insert(answerSets).values(sets);
  console.log(
    `seeded a class of ${STUDENTS} students with ${sets.length} answer sets: ${Math.round(performance.now() - seedStart)} ms`,
  );
});

afterAll(async () => {
  await stopTestApp(app);
});

async function load(query = ""): Promise<{ ms: number; rows: number; queries: number }> {
  queries = 0;
  const started = performance.now();
  const response = await callLoader(classPage, getPage(`/teacher/class/${classId}${query}`, { cookie }), {
    classId: String(classId),
  });
  const ms = performance.now() - started;
  const count = queries;
  const body = await response.json();
  expect(response.status).toBe(200);
  return { ms, rows: body.members.progress.page.total, queries: count };
}

test(`teacher class page: ${STUDENTS} students, loader per call`, async () => {
  // Warm-up: query planning and JIT.
  for (let i = 0; i < 3; i++) await load();
  for (const query of ["", "?sort=mid&dir=asc", "?sort=supervisor&dir=desc"]) {
    const times: number[] = [];
    let last = { ms: 0, rows: 0, queries: 0 };
    for (let i = 0; i < RUNS; i++) {
      last = await load(query);
      times.push(last.ms);
    }
    expect(last.rows).toBe(STUDENTS);
    console.log(
      `class page loader, ${STUDENTS} students${query ? ` (${query})` : ""}: ${summary(times)}; ${last.queries} queries per call`,
    );
  }
});

test(`teacher class page: ${STUDENTS} students, whole HTTP response from the production build`, async () => {
  // The server opens the same database as the loader above, on the test run's PostgreSQL.
  const server = await startBenchServer(app.url, app.dir, 3901);
  const { base } = server;
  try {
    const get = async (query: string) => {
      const started = performance.now();
      const response = await fetch(`${base}/teacher/class/${classId}${query}`, {
        headers: { cookie, "accept-encoding": "gzip" },
      });
      const body = await response.text();
      const ms = performance.now() - started;
      expect(response.status).toBe(200);
      return { ms, body };
    };
    for (let i = 0; i < 3; i++) await get("");
    for (const query of ["", "?sort=mid&dir=asc"]) {
      const times: number[] = [];
      let body = "";
      for (let i = 0; i < RUNS; i++) {
        const result = await get(query);
        times.push(result.ms);
        body = result.body;
      }
      // The first page of the progress overview (50 rows) and the teacher's own students.
      expect(body).toContain(`av ${STUDENTS} studenter`);
      expect(body.match(/\/teacher\/class\/\d+\/student\/\d+/g)?.length ?? 0).toBeGreaterThanOrEqual(50);
      const kib = (Buffer.byteLength(body) / 1024).toFixed(0);
      const gzipKib = (zlib.gzipSync(body).length / 1024).toFixed(0);
      console.log(
        `class page over HTTP, ${STUDENTS} students${query ? ` (${query})` : ""}: ${summary(times)}; ${kib} KiB of HTML (${gzipKib} KiB gzipped)`,
      );
    }
  } finally {
    await server.stop();
  }
});
