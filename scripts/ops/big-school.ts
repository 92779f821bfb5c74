/**
 * A big school's data, for `npm run load` and the benchmarks (never the demo): on top of the seeded
 * demo (its forms, its admin), `students` students (3,000 by default), a teacher per 50 and a
 * supervisor per 8 of them, 20 subjects × 6 semesters = 120 classes, each with a mid- and an
 * end-semester scheme of the demo's main form. Every student is placed in one class of the current
 * semester, and a sixth of them also in one class of each earlier semester. Earlier semesters are
 * finished: every form answered and sent by student, supervisor and teacher, signing forms signed
 * and locked. In the current semester the mid-semester forms are answered (the supervisor's and the
 * teacher's sent, the student's a draft that the load goes on writing), a third of the signing
 * forms are ready for the supervisor's signature, and one student in 30 has a warning. Everything
 * is made by set-based SQL (generate_series and joins), so 3,000 students take seconds.
 *
 *   DATABASE_URL=… tsx scripts/ops/big-school.ts [students]
 */
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "~/services/platform/db/client.server";
import { QUESTION_GROUP_TYPE, ROLE } from "~/services/platform/db/schema";
import { previousSemester, semesterFor, type Semester } from "~/services/platform/semesters";

export interface School {
  students: number;
  teachers: number;
  supervisors: number;
  classes: number;
  currentSemesterId: number;
  mainFormId: number;
  /** Rows made, by table. */
  rows: Record<string, number>;
}

const SUBJECTS = 20;
const SEMESTERS = 6;

type Runner = { execute: Db["execute"] };

async function rowsOf<T>(db: Runner, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

// eslint-disable-next-line max-lines-per-function -- one transaction of bulk inserts, table after table, each reading the ids of the one before: read top to bottom, it is the school's data model
export async function generateSchool(
  db: Db,
  options: { students?: number; today?: Date; policyVersion: string; prefix?: string },
): Promise<School> {
  const students = options.students ?? 3_000;
  const teachers = Math.max(3, Math.ceil(students / 50));
  const supervisors = Math.max(SUBJECTS, Math.ceil(students / 8));
  const prefix = options.prefix ?? "school";
  const code = prefix.toUpperCase();
  const today = options.today ?? new Date();
  const [mainForm] = await rowsOf<{ id: number }>(db, sql`select id from forms where is_main_form order by id limit 1`);
  if (!mainForm) throw new Error("the big school goes on top of the demo (its main form): seed the demo first");

  const semesters: Semester[] = [semesterFor(today)];
  while (semesters.length < SEMESTERS) semesters.push(previousSemester(semesters.at(-1)!)!);
  const rows: Record<string, number> = {};
  let currentSemesterId = 0;

  // eslint-disable-next-line max-lines-per-function -- the transaction of the function above
  await db.transaction(async (tx) => {
    const run = async (table: string, query: SQL) => {
      const result = (await tx.execute(query)) as unknown as { rowCount: number | null };
      rows[table] = (rows[table] ?? 0) + (result.rowCount ?? 0);
    };
    // The semesters (index 0 = current), made where the demo has not.
    await tx.execute(sql`create temporary table school_periods (id int, n int) on commit drop`);
    for (const [n, s] of semesters.entries()) {
      const [semester] = await rowsOf<{ id: number }>(
        tx,
        sql`insert into periods (name, start_date, end_date) values (${s.name}, ${s.startDate}, ${s.endDate})
            on conflict (name) do update set name = excluded.name returning id`,
      );
      if (n === 0) currentSemesterId = semester.id;
      await tx.execute(sql`insert into school_periods values (${semester.id}, ${n})`);
    }

    // People, numbered from 0, with their role and the privacy policy accepted (they log in during the load).
    const people = async (kind: string, count: number, roleId: number, name: string) => {
      await run(
        "users",
        sql`
        insert into users (display_name, email)
        select ${name} || ' ' || i, ${`${prefix}.${kind}`} || lpad(i::text, 5, '0') || '@school.example.org'
        from generate_series(1, ${count}) i`,
      );
      await tx.execute(sql.raw(`create temporary table school_${kind}s (id int, n int) on commit drop`));
      await tx.execute(sql`
        insert into ${sql.raw(`school_${kind}s`)}
        select id, (row_number() over (order by email))::int - 1 from users where email like ${`${prefix}.${kind}%@school.example.org`}`);
      await run(
        "user_roles",
        sql`insert into user_roles (user_id, role_id) select id, ${roleId} from ${sql.raw(`school_${kind}s`)}`,
      );
      await run(
        "privacy_acceptances",
        sql`insert into privacy_acceptances (user_id, policy_version) select id, ${options.policyVersion} from ${sql.raw(`school_${kind}s`)}`,
      );
    };
    await people("student", students, ROLE.Student, "Skole Student");
    await people("teacher", teachers, ROLE.Teacher, "Skole Lærer");
    await people("supervisor", supervisors, ROLE.Supervisor, "Skole Veileder");

    // 20 subjects in every semester: 120 classes; mid-semester halfway, the end two weeks before the semester ends.
    await run(
      "subjects",
      sql`insert into subjects (subject_code, name) select ${code} || (100 + i), 'Praksis ' || i || ', stor skole' from generate_series(1, ${SUBJECTS}) i`,
    );
    await tx.execute(sql`create temporary table school_classes (id int, period_n int, subject_n int) on commit drop`);
    await tx.execute(sql`
      with made as (
        insert into classes (subject_id, period_id, mid_semester_date, end_semester_date)
        select s.id, p.id, p.start_date + ((p.end_date - p.start_date) / 2), p.end_date - 14
        from subjects s cross join periods p
        where s.subject_code like ${`${code}%`} and p.id in (select id from school_periods)
        returning id, subject_id, period_id)
      insert into school_classes
      select made.id, sp.n, (substring(s.subject_code from ${sql.raw(String(code.length + 1))})::int - 101)
      from made join subjects s on s.id = made.subject_id join school_periods sp on sp.id = made.period_id`);
    rows.classes = SUBJECTS * SEMESTERS;
    await run(
      "assignments",
      sql`insert into assignments (class_id, is_mid_semester) select c.id, h.mid from school_classes c cross join (values (true), (false)) h(mid)`,
    );
    await run(
      "assignment_forms",
      sql`insert into assignment_forms (assignment_id, form_id) select a.id, ${mainForm.id} from assignments a join school_classes c on c.id = a.class_id`,
    );
    // Three teachers and a share of the supervisors per class.
    await run(
      "class_teachers",
      sql`
      insert into class_teachers (class_id, user_id)
      select distinct c.id, t.id from school_classes c cross join generate_series(0, 2) k
      join school_teachers t on t.n = (c.subject_n * 3 + k) % ${teachers}`,
    );
    await run(
      "class_advisors",
      sql`
      insert into class_advisors (class_id, user_id)
      select c.id, v.id from school_classes c join school_supervisors v on v.n % ${SUBJECTS} = c.subject_n`,
    );

    // Placements: everyone in the current semester; a sixth (by number) in each earlier one.
    await tx.execute(
      sql`create temporary table school_refs (id int, class_id int, student_id int, teacher_id int, supervisor_id int, period_n int, n int) on commit drop`,
    );
    await tx.execute(sql`
      with placed as (
        select c.id as class_id, c.period_n, s.id as student_id, s.n,
               (select t.id from school_teachers t where t.n = (c.subject_n * 3 + s.n % 3) % ${teachers}) as teacher_id,
               (select v.id from school_supervisors v where v.n % ${SUBJECTS} = c.subject_n order by v.n offset (s.n / ${SUBJECTS}) % greatest(1, ${Math.floor(supervisors / SUBJECTS)}) limit 1) as supervisor_id
        from school_students s
        join school_classes c on c.subject_n = s.n % ${SUBJECTS} and (c.period_n = 0 or c.period_n = s.n % ${SEMESTERS})),
      made as (
        insert into student_references (class_id, student_user_id, teacher_user_id, advisor_user_id)
        select class_id, student_id, teacher_id, supervisor_id from placed
        returning id, class_id, student_user_id)
      insert into school_refs
      select made.id, made.class_id, made.student_user_id, p.teacher_id, p.supervisor_id, p.period_n, p.n
      from made join placed p on p.class_id = made.class_id and p.student_id = made.student_user_id`);
    rows.student_references = Number(
      (await rowsOf<{ n: number }>(tx, sql`select count(*)::int as n from school_refs`))[0].n,
    );

    // Answer sets: earlier semesters both halves by all three, sent; the current one the mid half,
    // the student's a draft.
    await run(
      "answer_sets",
      sql`
      insert into answer_sets (form_id, assignment_id, student_user_id, author_user_id, author_role_id, is_mid_semester, sent_at, created_at, updated_at)
      select ${mainForm.id}, a.id, r.student_id, author.id, author.role, a.is_mid_semester,
             case when r.period_n = 0 and author.role = ${ROLE.Student} then null else c.end_semester_date - 1 + time '12:00' end,
             p.start_date + 30 + time '09:00', p.start_date + 30 + time '09:00'
      from school_refs r
      join assignments a on a.class_id = r.class_id
      join classes c on c.id = r.class_id
      join periods p on p.id = c.period_id
      cross join lateral (values (r.student_id, ${sql.raw(String(ROLE.Student))}), (r.supervisor_id, ${sql.raw(String(ROLE.Supervisor))}), (r.teacher_id, ${sql.raw(String(ROLE.Teacher))})) author(id, role)
      where (r.period_n > 0 or a.is_mid_semester) and author.id is not null`,
    );
    // Every question answered: a level for the grading questions, a sentence for the text ones.
    await run(
      "answers",
      sql`
      insert into answers (answer_set_id, question_id, value, comment, commented_at)
      select s.id, q.id,
             case when g.type = ${QUESTION_GROUP_TYPE.TextInput} then 'Refleksjon fra praksis: god progresjon, trenger mer trening i dokumentasjon.'
                  else ((s.id + q.id) % 5)::text end,
             case when (s.id + q.id) % 7 = 0 then 'Observert over flere vakter.' end,
             case when (s.id + q.id) % 7 = 0 then s.created_at end
      from answer_sets s
      join school_refs r on r.student_id = s.student_user_id
      join assignments a on a.id = s.assignment_id and a.class_id = r.class_id
      join form_question_groups g on g.form_id = s.form_id
      join form_questions q on q.group_id = g.id
      where g.type <> ${QUESTION_GROUP_TYPE.Unused}`,
    );

    // Signing forms: earlier semesters signed by all and locked; a third of the current ones filled
    // in by the teacher (both parts) and waiting for the supervisor's and the student's signatures.
    await run(
      "signing_forms",
      sql`
      insert into signing_forms (student_reference_id, attendance_passed, work_requirements_passed, specific_competence_areas_passed,
        general_competence_areas_passed, teacher_comment, overall_passed, is_locked, mid_semester_completed_date, end_semester_completed_date,
        mid_semester_specific_competence_areas_begun, mid_semester_student_has_given_feedback,
        signed_by_teacher_user_id, signed_by_teacher_date, signed_by_student_user_id, signed_by_student_date,
        signed_by_advisor_user_id, signed_by_advisor_date, result_submitted_at)
      select r.id, true, true, true, true, 'Bestått praksis.', true, r.period_n > 0, c.mid_semester_date, c.end_semester_date, true, true,
             case when r.period_n > 0 then r.teacher_id end, case when r.period_n > 0 then c.end_semester_date + time '10:00' end,
             case when r.period_n > 0 then r.student_id end, case when r.period_n > 0 then c.end_semester_date + time '11:00' end,
             case when r.period_n > 0 then r.supervisor_id end, case when r.period_n > 0 then c.end_semester_date + time '12:00' end,
             case when r.period_n > 0 then c.end_semester_date + time '13:00' end
      from school_refs r join classes c on c.id = r.class_id
      where r.period_n > 0 or r.n % 3 = 0`,
    );
    await run(
      "warnings",
      sql`
      insert into warnings (student_reference_id, teacher_user_id, comment, pass_requirement, pass_requirement_summary, created_at, updated_at, submitted_at)
      select r.id, r.teacher_id, 'Fare for ikke bestått: dokumentasjon og oppmøte må bedres.', 'Presis oppmøte og daglig dokumentasjon.',
             'Oppmøte og dokumentasjon.', now() - interval '10 days', now() - interval '9 days', now() - interval '9 days'
      from school_refs r where r.period_n = 0 and r.n % 30 = 7`,
    );
  });
  return {
    students,
    teachers,
    supervisors,
    classes: SUBJECTS * SEMESTERS,
    currentSemesterId,
    mainFormId: mainForm.id,
    rows,
  };
}

if (process.argv[1]?.endsWith("big-school.ts")) {
  const { openDatabase } = await import("~/services/platform/db/client.server");
  const { seedDemo } = await import("~/services/demo/index.server");
  if (!process.env.DATABASE_URL) throw new Error("DATABASE_URL names the database to fill");
  const database = await openDatabase({ url: process.env.DATABASE_URL });
  try {
    await seedDemo(database.db);
    const began = performance.now();
    const school = await generateSchool(database.db, {
      students: Number(process.argv[2] ?? 3000),
      policyVersion: process.env.POLICY_VERSION ?? "1",
    });
    console.log(
      `[big school] ${school.students} students, ${school.teachers} teachers, ${school.supervisors} supervisors, ${school.classes} classes in ${Math.round(performance.now() - began)} ms:`,
      school.rows,
    );
  } finally {
    await database.close();
  }
}
