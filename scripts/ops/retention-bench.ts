/**
 * The records schedule's run on the big school (scripts/ops/big-school.ts: 3,000 students, 120
 * classes over 6 semesters, every earlier form answered and signed), with rules that make the
 * classes that ended more than 180 days ago due: the preview, the first run (seconds, what it
 * removed), the second run (seconds; it must remove nothing) and the preview after it.
 *
 * On top of the school, what years of use leave that the school does not make: an audit row for
 * each answer set sent (at its class's end), a record opening by the teacher of each earlier
 * placement, a result hand-over for each result submitted, a warning in one earlier placement in 30,
 * a supervisor invitation in one in 10, and 500 former students (in a class of the oldest semester only, last logged
 * in two years ago) whom the run anonymises.
 *
 *   node scripts/with-postgres.mjs npx tsx scripts/ops/retention-bench.ts [students]
 *
 * DATABASE_URL names the database (with-postgres.mjs gives a throwaway one). Not a test: it prints
 * the figures, and exits non-zero only when the second run removes something.
 */
import { sql } from "drizzle-orm";
import { openDatabase } from "~/services/platform/db/client.server";
import { ROLE } from "~/services/platform/db/schema";
import { seedDemo } from "~/services/demo/index.server";
import {
  previewRetention,
  RECORD_KINDS,
  runRetention,
  type RecordKind,
  type RetentionRule,
} from "~/services/records/index.server";
import { generateSchool } from "./big-school";

const RULES: RetentionRule[] = [
  { kind: "answers", keepDays: 180, from: "classEnd", action: "delete" },
  { kind: "warnings", keepDays: 180, from: "classEnd", action: "delete" },
  { kind: "signingForms", keepDays: 180, from: "classEnd", action: "delete" },
  { kind: "resultSubmissions", keepDays: 180, from: "classEnd", action: "delete" },
  { kind: "recordOpenings", keepDays: 365, from: "created", action: "delete" },
  { kind: "auditEvents", keepDays: 365, from: "created", action: "delete" },
  { kind: "invitations", keepDays: 90, from: "created", action: "delete" },
  { kind: "codes", keepDays: 7, from: "created", action: "delete" },
  { kind: "people", keepDays: 365, from: "lastLogIn", action: "anonymise" },
];

if (!process.env.DATABASE_URL) throw new Error("DATABASE_URL names the database to fill");
const database = await openDatabase({ url: process.env.DATABASE_URL });
const db = database.db;
const count = async (query: ReturnType<typeof sql>) =>
  ((await db.execute(query)) as unknown as { rows: { n: number }[] }).rows[0].n;
const seconds = (began: number) => ((performance.now() - began) / 1000).toFixed(2);
const line = (counts: Record<RecordKind, number>) => RECORD_KINDS.map((kind) => `${kind} ${counts[kind]}`).join(", ");

try {
  await seedDemo(db);
  let began = performance.now();
  const school = await generateSchool(db, { students: Number(process.argv[2] ?? 3000), policyVersion: "1" });
  // What use leaves behind: the audit trail of the sent forms, the teachers' openings, former students.
  await db.execute(sql`
    insert into audit_events (at, actor_user_id, action, subject_user_id, class_id, details)
    select greatest(p.end_date, c.end_semester_date) + time '12:00', s.author_user_id, 'answers.sent', s.student_user_id, c.id,
           jsonb_build_object('formId', s.form_id, 'isMidSemester', s.is_mid_semester)
    from answer_sets s join assignments a on a.id = s.assignment_id join classes c on c.id = a.class_id
    join periods p on p.id = c.period_id where s.sent_at is not null`);
  await db.execute(sql`
    insert into record_openings (student_user_id, hour, viewer_user_id, kind, viewer_role, at, class_id)
    select r.student_user_id, c.end_semester_date + time '10:00', r.teacher_user_id, 'student', ${ROLE.Teacher},
           c.end_semester_date + time '10:00', c.id
    from student_references r join classes c on c.id = r.class_id
    where r.teacher_user_id is not null and c.end_semester_date < current_date - 30
    on conflict do nothing`);
  await db.execute(sql`
    insert into result_submissions (student_reference_id, exporter, submitted_at, payload)
    select f.student_reference_id, 'fs', f.result_submitted_at, jsonb_build_object('passed', f.overall_passed)
    from signing_forms f where f.result_submitted_at is not null`);
  await db.execute(sql`
    insert into warnings (student_reference_id, teacher_user_id, comment, pass_requirement, pass_requirement_summary, created_at, submitted_at)
    select r.id, r.teacher_user_id, 'Fare for ikke bestått.', 'Oppmøte.', 'Oppmøte.', p.start_date + 40 + time '09:00', p.start_date + 40 + time '10:00'
    from student_references r join classes c on c.id = r.class_id join periods p on p.id = c.period_id
    where r.teacher_user_id is not null and p.end_date < current_date and r.id % 30 = 7
    on conflict do nothing`);
  await db.execute(sql`
    insert into advisor_invitations (student_reference_id, invited_by_user_id, email, token_hash, expires_at, created_at)
    select r.id, r.student_user_id, 'veileder' || r.id || '@school.example.org', md5('bench' || r.id),
           p.start_date + 10 + time '09:00', p.start_date + 7 + time '09:00'
    from student_references r join classes c on c.id = r.class_id join periods p on p.id = c.period_id
    where p.end_date < current_date and r.id % 10 = 3`);
  await db.execute(sql`
    with alumni as (
      insert into users (display_name, email, phone_number, last_login_at, created_at)
      select 'Tidligere Student ' || i, 'school.alumnus' || lpad(i::text, 5, '0') || '@school.example.org',
             '+479' || lpad(i::text, 7, '0'), now() - interval '730 days', now() - interval '1200 days'
      from generate_series(1, 500) i returning id),
    oldest as (select c.id from classes c join periods p on p.id = c.period_id order by p.start_date, c.id limit 1),
    placed as (insert into student_references (class_id, student_user_id) select (select id from oldest), id from alumni)
    insert into user_roles (user_id, role_id) select id, ${ROLE.Student} from alumni`);
  await db.execute(sql`analyze`);
  const sizes = {
    answerSets: await count(sql`select count(*)::int as n from answer_sets`),
    answers: await count(sql`select count(*)::int as n from answers`),
    auditEvents: await count(sql`select count(*)::int as n from audit_events`),
    recordOpenings: await count(sql`select count(*)::int as n from record_openings`),
    users: await count(sql`select count(*)::int as n from users`),
  };
  console.log(`[retention bench] the school in ${seconds(began)} s: ${school.classes} classes;`, sizes);

  const now = new Date();
  began = performance.now();
  const preview = await previewRetention(db, RULES, now);
  console.log(
    `[retention bench] preview: ${seconds(began)} s; due: ${line(preview.totals)}; ${preview.byClass.length} classes`,
  );
  began = performance.now();
  const first = await runRetention(db, RULES, now);
  const firstSeconds = seconds(began);
  const answersLeft = await count(sql`select count(*)::int as n from answers`);
  console.log(
    `[retention bench] first run: ${firstSeconds} s; removed: ${line(first)} (answers rows left ${answersLeft} of ${sizes.answers})`,
  );
  began = performance.now();
  const second = await runRetention(db, RULES, now);
  console.log(`[retention bench] second run: ${seconds(began)} s; removed: ${line(second)}`);
  const after = await previewRetention(db, RULES, now);
  const same = RECORD_KINDS.every((kind) => preview.totals[kind] === first[kind]);
  const nothing = RECORD_KINDS.every((kind) => second[kind] === 0 && after.totals[kind] === 0);
  console.log(`[retention bench] preview == first run: ${same}; second run and preview after it empty: ${nothing}`);
  if (!same || !nothing) process.exitCode = 1;
} finally {
  await database.close();
}
