/**
 * The benchmarks on a big school (scripts/ops/big-school.ts: 3,000 students, 120 classes over
 * 6 semesters, every form answered), against the production server (`build/`, one app process):
 * 1. the teacher's class page with 10, 50, 160 and 500 students: time of the whole response over
 *    loopback and the number of queries of its loader (flat, whatever the class size);
 * 2. the full-record PDF: one at a time, then 50 students' at once, with the server's memory.
 * Not a test: no timed assertions.
 */
import fs from "node:fs";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ROLE } from "~/services/platform/db/schema";
import * as classPage from "~/routes/teacher/class";
import { cookieActingAs, startTestApp, stopTestApp } from "~/test/app";
import { callLoader, getPage } from "~/test/route";
import { generateSchool } from "../scripts/ops/big-school";
import { BENCH_SESSION_SECRET, startBenchServer, summary } from "./support";

const SIZES = [10, 50, 160, 500];
const RUNS = 30;

let app: Awaited<ReturnType<typeof startTestApp>>;
let queries = 0;
let teacherCookie: string;
const classOfSize = new Map<number, number>();
let pdfStudents: { classId: number; studentId: number }[] = [];

const rows = async <T>(query: ReturnType<typeof sql>) =>
  ((await app.database.db.execute(query)) as unknown as { rows: T[] }).rows;

beforeAll(async () => {
  app = await startTestApp({ SESSION_SECRET: BENCH_SESSION_SECRET }, { logger: { logQuery: () => queries++ } });
  const began = performance.now();
  const school = await generateSchool(app.database.db, { students: 3_000, policyVersion: "1" });
  console.log(
    `big school: ${school.students} students, ${school.classes} classes, ${school.rows.answers} answers in ${Math.round(performance.now() - began)} ms`,
  );
  const [teacher] = await rows<{ id: number; email: string }>(
    sql`select id, email from users where email = 'school.teacher00001@school.example.org'`,
  );
  teacherCookie = await cookieActingAs(app.database.db, teacher.email, ROLE.Teacher);
  // Classes of each size in the current semester, copied from the school's placements (with their
  // answer sets' counts), the first teacher teaching all of them.
  for (const size of SIZES) {
    const [made] = await rows<{ id: number }>(sql`
      insert into subjects (subject_code, name) values (${`BENCH${size}`}, ${`Benk ${size}`}) returning id`);
    const [cls] = await rows<{ id: number }>(sql`
      insert into classes (subject_id, period_id, mid_semester_date, end_semester_date)
      select ${made.id}, period_id, mid_semester_date, end_semester_date from classes c
      where c.period_id = ${school.currentSemesterId} limit 1 returning id`);
    await app.database.db.execute(
      sql`insert into class_teachers (class_id, user_id) values (${cls.id}, ${teacher.id})`,
    );
    await app.database.db.execute(sql`
      insert into assignments (class_id, is_mid_semester) values (${cls.id}, true), (${cls.id}, false)`);
    await app.database.db.execute(sql`
      insert into assignment_forms (assignment_id, form_id) select id, ${school.mainFormId} from assignments where class_id = ${cls.id}`);
    await app.database.db.execute(sql`
      insert into student_references (class_id, student_user_id, teacher_user_id, advisor_user_id)
      select ${cls.id}, r.student_user_id, case when r.id % 3 = 0 then ${teacher.id} else r.teacher_user_id end, r.advisor_user_id
      from student_references r join classes c on c.id = r.class_id
      where c.period_id = ${school.currentSemesterId} and c.subject_id in (select id from subjects where subject_code like 'SCHOOL%')
      order by r.id limit ${size}`);
    classOfSize.set(size, cls.id);
  }
  // Students whose full record the teacher may read: theirs in the school, with every form answered.
  pdfStudents = await rows<{ classId: number; studentId: number }>(sql`
      select r.class_id as "classId", r.student_user_id as "studentId" from student_references r
      join classes c on c.id = r.class_id
      where r.teacher_user_id = ${teacher.id} and c.period_id = ${school.currentSemesterId} and c.subject_id in (select id from subjects where subject_code like 'SCHOOL%')
      order by r.id limit 50`);
});

afterAll(async () => {
  await stopTestApp(app);
});

test("teacher class page: 10 → 500 students, loader queries and whole responses", async () => {
  for (const size of SIZES) {
    const classId = classOfSize.get(size)!;
    queries = 0;
    const response = await callLoader(classPage, getPage(`/teacher/class/${classId}`, { cookie: teacherCookie }), {
      classId: String(classId),
    });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.members.progress.page.total).toBe(size);
    console.log(`class page loader, ${String(size).padStart(3)} students: ${queries} queries`);
  }
  const server = await startBenchServer(app.url, app.dir, 3903);
  try {
    for (const size of SIZES) {
      const url = `${server.base}/teacher/class/${classOfSize.get(size)}`;
      const get = async () => {
        const began = performance.now();
        const response = await fetch(url, { headers: { cookie: teacherCookie, "accept-encoding": "gzip" } });
        const body = await response.text();
        expect(response.status).toBe(200);
        return { ms: performance.now() - began, bytes: body.length };
      };
      for (let i = 0; i < 5; i++) await get();
      const times: number[] = [];
      let bytes = 0;
      for (let i = 0; i < RUNS; i++) {
        const r = await get();
        times.push(r.ms);
        bytes = r.bytes;
      }
      console.log(
        `class page over HTTP, ${String(size).padStart(3)} students: ${summary(times)}; ${Math.round(bytes / 1024)} KiB of HTML`,
      );
    }
  } finally {
    await server.stop();
  }
});

/** The resident memory of the server's processes (the primary and its app process), in MiB. */
function rssOf(pid: number): number {
  let kib = 0;
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = fs.readFileSync(`/proc/${entry}/status`, "utf8");
      const ppid = Number(/PPid:\s+(\d+)/.exec(status)?.[1]);
      if (Number(entry) !== pid && ppid !== pid) continue;
      kib = Math.max(kib, Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0));
    } catch {
      // gone
    }
  }
  return kib / 1024;
}

test("full-record PDF: one at a time, then 50 students' at once", async () => {
  expect(pdfStudents.length).toBe(50);
  const server = await startBenchServer(app.url, app.dir, 3904);
  try {
    const download = async ({ classId, studentId }: { classId: number; studentId: number }) => {
      const began = performance.now();
      const response = await fetch(`${server.base}/api/classes/${classId}/students/${studentId}/full/pdf`, {
        headers: { cookie: teacherCookie },
      });
      const bytes = (await response.arrayBuffer()).byteLength;
      expect(response.status).toBe(200);
      return { ms: performance.now() - began, bytes };
    };
    for (let i = 0; i < 3; i++) await download(pdfStudents[i]);
    const alone: number[] = [];
    let size = 0;
    for (const student of pdfStudents.slice(0, 20)) {
      const r = await download(student);
      alone.push(r.ms);
      size = r.bytes;
    }
    console.log(`full-record PDF, one at a time: ${summary(alone)}; ${Math.round(size / 1024)} KiB`);
    const pid = server.pid;
    let peak = rssOf(pid);
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 50);
    const began = performance.now();
    const together = await Promise.all(pdfStudents.map(download));
    clearInterval(sampler);
    console.log(
      `full-record PDF, 50 at once: all in ${Math.round(performance.now() - began)} ms; per request ${summary(together.map((r) => r.ms))}; ` +
        `largest app process RSS ${peak.toFixed(0)} MiB`,
    );
  } finally {
    await server.stop();
  }
});
