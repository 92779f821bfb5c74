/**
 * The semester report at scale: a semester of 5,000 students in ten classes, with answers,
 * extra supervisors, warnings and signing forms for some, on the run's PostgreSQL. Prints the time
 * to stream the whole CSV and the process's memory while it streams. Not a test: no timed assertions.
 */
import v8 from "node:v8";
import vm from "node:vm";
import { afterAll, beforeAll, expect, test } from "vitest";
import i18next from "i18next";
import resources from "~/locales";
import type { Database } from "~/services/platform/db/client.server";
import {
  answerSets,
  schemeForms,
  schemes,
  classes,
  forms,
  semesters,
  ROLE,
  signingForms,
  studentExtraSupervisors,
  studentReferences,
  subjects,
  users,
  warnings,
} from "~/services/platform/db/schema";
import { openSemesterReport, REPORT_PAGE_SIZE, type Translate } from "~/services/documents/index.server";
import { openTestDatabase } from "~/test/db";

const STUDENTS = 5_000;
const CLASSES = 10;
const TEACHERS = 40;
const SUPERVISORS = 200;
const CHUNK = 1_000;

let database: Database;
let semesterId: number;
let t: Translate;

async function insertChunked<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await insert(rows.slice(i, i + CHUNK));
}

async function insertUsers(prefix: string, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i += CHUNK) {
    const rows = Array.from({ length: Math.min(CHUNK, count - i) }, (_, j) => ({
      displayName: `${prefix} Ødegård-Ås ${i + j + 1}`,
      email: `${prefix.toLowerCase()}${i + j + 1}@bench.example.org`,
    }));
    const inserted = await database.db.insert(users).values(rows).returning({ id: users.id });
    ids.push(...inserted.map((r) => r.id));
  }
  return ids;
}

// A collection before each run, so "before" is what is live rather than what happens not to be collected yet.
v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

beforeAll(async () => {
  const seedStart = performance.now();
  database = await openTestDatabase();
  const db = database.db;
  const i18n = i18next.createInstance();
  await i18n.init({ resources, lng: "nb", interpolation: { escapeValue: false } });
  const fixed = i18n.getFixedT("nb", "adminSemesters");
  t = (key, values) => fixed(key as never, values) as string;

  [{ id: semesterId }] = await db
    .insert(semesters)
    .values({ name: "Høst 2026", startDate: "2026-07-01", endDate: "2026-12-31" })
    .returning({ id: semesters.id });
  const subjectRows = await db
    .insert(subjects)
    .values(
      Array.from({ length: CLASSES }, (_, i) => ({
        subjectCode: `SYK${3000 + i}`,
        name: `Praksis ${i + 1}; sykehjem`,
      })),
    )
    .returning({ id: subjects.id });
  const classRows = await db
    .insert(classes)
    .values(
      subjectRows.map((s) => ({
        subjectId: s.id,
        semesterId,
        midSemesterDate: "2026-09-30",
        endSemesterDate: "2026-12-31",
      })),
    )
    .returning({ id: classes.id });
  const [mainForm, specificForm] = await db
    .insert(forms)
    .values([{ name: "Hovedskjema", isMainForm: true }, { name: "Legemiddelhåndtering" }])
    .returning({ id: forms.id });
  const schemeIdsOfClass = new Map<number, { mid: number; end: number }>();
  for (const c of classRows) {
    const [mid, end] = await db
      .insert(schemes)
      .values([
        { classId: c.id, isMidSemester: true },
        { classId: c.id, isMidSemester: false },
      ])
      .returning({ id: schemes.id });
    await db.insert(schemeForms).values(
      [mid.id, end.id].flatMap((schemeId) => [
        { schemeId, formId: mainForm.id },
        { schemeId, formId: specificForm.id },
      ]),
    );
    schemeIdsOfClass.set(c.id, { mid: mid.id, end: end.id });
  }

  const teacherIds = await insertUsers("Lærer", TEACHERS);
  const supervisorIds = await insertUsers("Veileder", SUPERVISORS);
  const studentIds = await insertUsers("Student", STUDENTS);

  const refRows = studentIds.map((studentUserId, i) => ({
    classId: classRows[i % CLASSES].id,
    studentUserId,
    teacherUserId: i % 17 === 0 ? null : teacherIds[i % TEACHERS],
    supervisorUserId: i % 13 === 0 ? null : supervisorIds[i % SUPERVISORS],
  }));
  const refs: {
    id: number;
    classId: number;
    studentUserId: number;
    teacherUserId: number | null;
    supervisorUserId: number | null;
  }[] = [];
  for (let i = 0; i < refRows.length; i += CHUNK) {
    refs.push(
      ...(await db
        .insert(studentReferences)
        .values(refRows.slice(i, i + CHUNK))
        .returning()),
    );
  }

  // Some students and their supervisors and teachers have sent forms; a few are drafts.
  const sets: (typeof answerSets.$inferInsert)[] = [];
  const sentAt = new Date("2026-10-01T10:00:00Z");
  for (const [i, ref] of refs.entries()) {
    const scheme = schemeIdsOfClass.get(ref.classId)!;
    const add = (
      schemeId: number,
      formId: number,
      authorUserId: number | null,
      authorRoleId: 2 | 3 | 4,
      isMid: boolean,
      sent: boolean,
    ) => {
      if (authorUserId === null) return;
      sets.push({
        formId,
        schemeId,
        studentUserId: ref.studentUserId,
        authorUserId,
        authorRoleId,
        isMidSemester: isMid,
        sentAt: sent ? sentAt : null,
      });
    };
    if (i % 10 < 7) add(scheme.mid, mainForm.id, ref.studentUserId, ROLE.Student, true, i % 10 < 6);
    if (i % 10 < 4) add(scheme.mid, specificForm.id, ref.studentUserId, ROLE.Student, true, true);
    if (i % 10 < 5) add(scheme.mid, mainForm.id, ref.supervisorUserId, ROLE.Supervisor, true, true);
    if (i % 10 < 3) add(scheme.mid, mainForm.id, ref.teacherUserId, ROLE.Teacher, true, true);
    if (i % 10 < 2) add(scheme.end, mainForm.id, ref.studentUserId, ROLE.Student, false, true);
  }
  await insertChunked(sets, (chunk) => db.insert(answerSets).values(chunk));

  await insertChunked(
    refs
      .filter((_, i) => i % 20 === 0)
      .map((ref, i) => ({
        studentReferenceId: ref.id,
        userId: supervisorIds[(i + 7) % SUPERVISORS],
        roleId: ROLE.Supervisor,
      })),
    (chunk) => db.insert(studentExtraSupervisors).values(chunk).onConflictDoNothing(),
  );
  await insertChunked(
    refs
      .filter((ref, i) => i % 33 === 0 && ref.teacherUserId !== null)
      .map((ref, i) => ({
        studentReferenceId: ref.id,
        teacherUserId: ref.teacherUserId!,
        comment: "=Bekymring for legemiddelhåndtering",
        passRequirement: "Må vise selvstendighet",
        passRequirementSummary: "Minst «Delvis selvstendig»",
        submittedAt: i % 3 === 0 ? null : sentAt,
        studentConfirmedWarningAt: i % 2 === 0 ? sentAt : null,
      })),
    (chunk) => db.insert(warnings).values(chunk),
  );
  await insertChunked(
    refs
      .filter((_, i) => i % 10 < 3)
      .map((ref, i) => ({
        studentReferenceId: ref.id,
        midSemesterCompletedDate: i % 4 === 0 ? null : "2026-10-01",
        signedByStudentDate: i % 4 >= 2 ? sentAt : null,
        signedBySupervisorDate: i % 4 === 3 ? sentAt : null,
        signedByTeacherDate: i % 4 === 3 ? sentAt : null,
        overallPassed: i % 4 === 3 ? i % 8 !== 7 : null,
        isLocked: i % 4 === 3,
      })),
    (chunk) => db.insert(signingForms).values(chunk),
  );
  console.log(
    `seeded ${STUDENTS} students in ${CLASSES} classes, ${sets.length} answer sets: ${Math.round(performance.now() - seedStart)} ms`,
  );
});

afterAll(async () => {
  await database?.close();
});

async function streamReport(pageSize: number) {
  gc();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const sample = () => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  };
  const timer = setInterval(sample, 5);
  const started = performance.now();
  const report = await openSemesterReport(database.db, semesterId, { t, pageSize });
  const firstByteMs = performance.now() - started;
  const reader = report!.stream.getReader();
  let bytes = 0;
  let lines = 0;
  let chunks = 0;
  let largestChunk = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks++;
    largestChunk = Math.max(largestChunk, value.byteLength);
    bytes += value.byteLength;
    for (const b of value) if (b === 0x0a) lines++;
    sample();
  }
  const totalMs = performance.now() - started;
  clearInterval(timer);
  sample();
  gc();
  const after = process.memoryUsage();
  return { firstByteMs, totalMs, bytes, lines, chunks, largestChunk, before, after, peakRss, peakHeap };
}

test(`semester report: CSV of ${STUDENTS} students, streamed`, async () => {
  // A warm-up run, so the figures are of the report and not of query planning and JIT.
  await streamReport(REPORT_PAGE_SIZE);
  for (const pageSize of [REPORT_PAGE_SIZE, 100, 2_000]) {
    const r = await streamReport(pageSize);
    expect(r.lines).toBe(STUDENTS + 1);
    console.log(
      [
        `semester report, ${STUDENTS} students, page size ${pageSize}:`,
        `  first bytes after ${r.firstByteMs.toFixed(0)} ms, whole file ${r.totalMs.toFixed(0)} ms (${(r.totalMs / STUDENTS).toFixed(3)} ms/student)`,
        `  ${r.lines} lines, ${(r.bytes / 1024).toFixed(0)} KiB in ${r.chunks} chunks, the largest ${(r.largestChunk / 1024).toFixed(0)} KiB`,
        `  rss ${mib(r.before.rss)} before, peak ${mib(r.peakRss)} (+${mib(r.peakRss - r.before.rss)})`,
        `  heapUsed ${mib(r.before.heapUsed)} before, peak ${mib(r.peakHeap)} (+${mib(r.peakHeap - r.before.heapUsed)}), ${mib(r.after.heapUsed)} after`,
      ].join("\n"),
    );
  }
});
