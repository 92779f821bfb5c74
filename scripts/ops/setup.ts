/**
 * Prepares a database for `npm run load` and the fault tests (run with tsx, which reads the `~/`
 * paths of tsconfig.json): opens and migrates it through the app's own client (DATABASE_URL),
 * seeds the demo, and adds load users to the demo's first class: students (placed,
 * each with a teacher and a supervisor of the load set), teachers and supervisors of the class, all
 * of whom have accepted the privacy policy. Writes what the load needs (addresses, ids, paths) as
 * JSON to the file named by the first argument. The users log in by e-mail code during the run.
 *
 *   tsx scripts/ops/setup.ts <out.json> <students> <teachers> <supervisors>
 */
import fs from "node:fs";
import path from "node:path";
import { and, asc, eq, inArray } from "drizzle-orm";
import { answerToken, EMPTY } from "~/services/answering";
import { openDatabase } from "~/services/platform/db/client.server";
import {
  assignmentForms,
  assignments,
  classAdvisors,
  classTeachers,
  formQuestionGroups,
  formQuestions,
  forms,
  privacyAcceptances,
  QUESTION_GROUP_TYPE,
  ROLE,
  studentReferences,
  userRoles,
  users,
} from "~/services/platform/db/schema";
import { seedDemo } from "~/services/demo/index.server";

const [out, studentCount = "160", teacherCount = "24", supervisorCount = "16"] = process.argv.slice(2);
if (!out) throw new Error("usage: tsx scripts/ops/setup.ts <out.json> [students] [teachers] [supervisors]");

const institution = JSON.parse(
  fs.readFileSync(path.resolve(import.meta.dirname, `../../app/institutions/${process.env.INSTITUTION || "fjordbyen"}.json`), "utf8"),
) as { privacyPolicyVersion: string };
const policyVersion = institution.privacyPolicyVersion;

if (!process.env.DATABASE_URL) throw new Error("DATABASE_URL names the database to prepare");
const database = await openDatabase({ url: process.env.DATABASE_URL });
const db = database.db;
try {
  await seedDemo(db);
  // The demo's first class of this semester: student01's.
  const [first] = await db.select({ id: users.id }).from(users).where(eq(users.email, "student01@example.org"));
  const [reference] = await db
    .select({ classId: studentReferences.classId })
    .from(studentReferences)
    .where(eq(studentReferences.studentUserId, first.id))
    .orderBy(asc(studentReferences.classId))
    .limit(1);
  const classId = reference.classId;
  const [mainForm] = await db.select({ id: forms.id }).from(forms).where(eq(forms.isMainForm, true)).orderBy(asc(forms.id)).limit(1);
  const [assignment] = await db
    .select({ id: assignments.id })
    .from(assignments)
    .innerJoin(assignmentForms, eq(assignmentForms.assignmentId, assignments.id))
    .where(and(eq(assignments.classId, classId), eq(assignmentForms.formId, mainForm.id), eq(assignments.isMidSemester, true)));
  const groups = await db
    .select({ id: formQuestionGroups.id, type: formQuestionGroups.type })
    .from(formQuestionGroups)
    .where(eq(formQuestionGroups.formId, mainForm.id))
    .orderBy(asc(formQuestionGroups.order));
  const questions = await db
    .select({ id: formQuestions.id, groupId: formQuestions.groupId })
    .from(formQuestions)
    .where(inArray(formQuestions.groupId, groups.map((g) => g.id)))
    .orderBy(asc(formQuestions.groupId), asc(formQuestions.order));
  const typeOf = new Map(groups.map((g) => [g.id, g.type]));

  const make = async (prefix: string, count: number, roleId: number, name: string) => {
    if (count === 0) return [];
    const rows = await db
      .insert(users)
      .values(Array.from({ length: count }, (_, i) => ({ displayName: `${name} ${i + 1}`, email: `${prefix}${String(i + 1).padStart(3, "0")}@load.example.org` })))
      .returning({ id: users.id, email: users.email });
    await db.insert(userRoles).values(rows.map((r) => ({ userId: r.id, roleId })));
    // As the privacy-consent page records it (auth.server.ts acceptPrivacyPolicy, which this script
    // cannot import: the institution files are bundled by Vite).
    await db.insert(privacyAcceptances).values(rows.map((r) => ({ userId: r.id, policyVersion })));
    return rows;
  };
  const teachers = await make("load.teacher", Number(teacherCount), ROLE.Teacher, "Last Lærer");
  const supervisors = await make("load.supervisor", Number(supervisorCount), ROLE.Advisor, "Last Veileder");
  const students = await make("load.student", Number(studentCount), ROLE.Student, "Last Student");
  if (teachers.length) await db.insert(classTeachers).values(teachers.map((t) => ({ classId, userId: t.id })));
  if (supervisors.length) await db.insert(classAdvisors).values(supervisors.map((s) => ({ classId, userId: s.id })));
  if (students.length) {
    await db.insert(studentReferences).values(
      students.map((s, i) => ({
        classId,
        studentUserId: s.id,
        teacherUserId: teachers.length ? teachers[i % teachers.length].id : null,
        advisorUserId: supervisors.length ? supervisors[i % supervisors.length].id : null,
      })),
    );
  }
  const place = { classId, formId: mainForm.id, assignmentId: assignment.id };
  const plan = {
    ...place,
    emptyToken: answerToken(EMPTY),
    questions: questions.map((q) => ({ id: q.id, type: typeOf.get(q.groupId) === QUESTION_GROUP_TYPE.TextInput ? "text" : "grading" })),
    students: students.map((s) => ({ id: s.id, email: s.email })),
    // Each teacher and supervisor follows some of the load students: the pages of one of them.
    teachers: teachers.map((t, i) => ({ id: t.id, email: t.email, studentId: students[i % Math.max(1, students.length)]?.id ?? null })),
    supervisors: supervisors.map((s, i) => ({ id: s.id, email: s.email, studentId: students[i % Math.max(1, students.length)]?.id ?? null })),
  };
  fs.writeFileSync(out, JSON.stringify(plan));
} finally {
  await database.close();
}
