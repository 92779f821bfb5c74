/**
 * Prepares a database for `npm run load` and the fault tests (run with tsx, which reads the `~/`
 * paths of tsconfig.json): opens and migrates it through the app's own client (DATABASE_URL), seeds
 * the demo, adds a big school (scripts/ops/big-school.ts, `school` students) and an administrator
 * of its own, and writes what the load needs as JSON to the file named by the first argument: the
 * people who will log in (students of the current semester with their open mid-semester form,
 * teachers and supervisors with one of their students, and whether a signing form waits for that
 * supervisor's signature), the current semester and the main form. They log in by e-mail code.
 *
 *   tsx scripts/ops/setup.ts <out.json> <students> <teachers> <supervisors> [school]
 */
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { answerToken, EMPTY } from "~/services/answering";
import { openDatabase } from "~/services/platform/db/client.server";
import { QUESTION_GROUP_TYPE, ROLE } from "~/services/platform/db/schema";
import { seedDemo } from "~/services/demo/index.server";
import { generateSchool } from "./big-school";

const [out, studentCount = "160", teacherCount = "12", supervisorCount = "28", schoolSize = "3000"] =
  process.argv.slice(2);
if (!out) throw new Error("usage: tsx scripts/ops/setup.ts <out.json> [students] [teachers] [supervisors] [school]");
if (!process.env.DATABASE_URL) throw new Error("DATABASE_URL names the database to prepare");

const institution = JSON.parse(
  fs.readFileSync(
    path.resolve(import.meta.dirname, `../../app/institutions/${process.env.INSTITUTION || "fjordbyen"}.json`),
    "utf8",
  ),
) as { privacyPolicyVersion: string };
const policyVersion = institution.privacyPolicyVersion;

const database = await openDatabase({ url: process.env.DATABASE_URL });
const db = database.db;
const rows = async <T>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
try {
  await seedDemo(db);
  const began = performance.now();
  const school = await generateSchool(db, {
    students: Math.max(Number(schoolSize), Number(studentCount)),
    policyVersion,
  });
  const schoolSeconds = (performance.now() - began) / 1000;
  // An administrator with no other role (the demo's has several), for the semester CSV.
  const [admin] = await rows<{ id: number; email: string }>(
    sql`insert into users (display_name, email) values ('Last Administrator', 'load.admin@school.example.org') returning id, email`,
  );
  await db.execute(sql`insert into user_roles (user_id, role_id) values (${admin.id}, ${ROLE.Admin})`);
  await db.execute(
    sql`insert into privacy_acceptances (user_id, policy_version) values (${admin.id}, ${policyVersion})`,
  );

  const students = await rows<{ id: number; email: string; classId: number; schemeId: number }>(sql`
    select u.id, u.email, r.class_id as "classId", a.id as "schemeId"
    from users u
    join student_references r on r.student_user_id = u.id
    join classes c on c.id = r.class_id and c.period_id = ${school.currentSemesterId}
    join assignments a on a.class_id = c.id and a.is_mid_semester
    where u.email like 'school.student%'
    order by u.email limit ${Number(studentCount)}`);
  // Each teacher and supervisor follows one of the school's students (the first by number).
  const followers = (column: string, kind: string, count: number) =>
    rows<{ id: number; email: string; classId: number; studentId: number; signable: boolean }>(sql`
      select distinct on (u.email) u.id, u.email, r.class_id as "classId", r.student_user_id as "studentId",
             (s.id is not null and s.signed_by_advisor_user_id is null and not s.is_locked) as signable
      from users u
      join student_references r on r.${sql.raw(column)} = u.id
      join classes c on c.id = r.class_id and c.period_id = ${school.currentSemesterId}
      left join signing_forms s on s.student_reference_id = r.id
      where u.email like ${`school.${kind}%`}
      order by u.email, signable desc, r.id
      limit ${count}`);
  const teachers = await followers("teacher_user_id", "teacher", Number(teacherCount));
  const supervisors = await followers("advisor_user_id", "supervisor", Number(supervisorCount));
  const questions = await rows<{ id: number; type: number }>(sql`
    select q.id, g.type from form_questions q join form_question_groups g on g.id = q.group_id
    where g.form_id = ${school.mainFormId} and g.type <> ${QUESTION_GROUP_TYPE.Unused} order by g."order", q."order"`);
  const plan = {
    school: { ...school, seconds: schoolSeconds },
    formId: school.mainFormId,
    semesterId: school.currentSemesterId,
    emptyToken: answerToken(EMPTY),
    questions: questions.map((q) => ({
      id: q.id,
      type: q.type === QUESTION_GROUP_TYPE.TextInput ? "text" : "grading",
    })),
    admin,
    students,
    teachers,
    supervisors,
  };
  fs.writeFileSync(out, JSON.stringify(plan));
  // The school is hundreds of thousands of rows: written out now, so that PostgreSQL's checkpoint
  // of them does not fall into the measured load (a superuser's right; a server of one's own may refuse).
  await db
    .execute(sql`checkpoint`)
    .catch(() =>
      console.warn("[setup] no CHECKPOINT (not a superuser): the first minutes may include writing the school out"),
    );
} finally {
  await database.close();
}
