import { sql, type SQL } from "drizzle-orm";
import type { Db } from "~/services/platform/db/client.server";
import { ROLE } from "~/services/identity";
import { deadlineText, formDue, type FormDue } from "./deadline";
import { formatDay, osloDate } from "~/services/platform/semesters";
import type { Placement } from "./placement.server";

/**
 * What waits on someone, for their home page: the student's own to-do (a warning to read, the
 * signing form to sign, each form not sent with its deadline) and a teacher's or supervisor's across
 * their classes (signatures, forms to answer, warnings the student has not confirmed, students
 * without a supervisor). One query per list, whatever the number of students; the forms list is
 * cut at TODO_FORMS_SHOWN rows, with the total.
 */

/** Forms listed on a teacher's or supervisor's home page; the rest are counted, and found on the class pages. */
export const TODO_FORMS_SHOWN = 30;

/** Signing forms of semesters that ended longer ago than this no longer wait on anyone's home page. */
const SIGNING_WINDOW_DAYS = 60;

async function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  const result = await db.execute(query);
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

// ─── The student's ───────────────────────────────────────────────────────────

export interface StudentTodo {
  /** A given warning: to read and confirm, or confirmed (it keeps its card). */
  warning: "given" | "confirmed" | null;
  /** The signing form waits for the student's signature. */
  signingWaits: boolean;
  /** The student's forms not sent that are asked for now, the overdue first. */
  forms: {
    schemeId: number;
    formId: number;
    name: string;
    isMidSemester: boolean;
    due: "open" | "behind";
    deadline: string | null;
    draft: boolean;
  }[];
}

/** The student's to-do in their class this semester, from their placement (placementOf) and one query. */
export async function studentTodo(db: Db, placement: Placement, today: string): Promise<StudentTodo> {
  const [row] = await rowsOf<{
    given: boolean | null;
    confirmed: boolean | null;
    signing_waits: boolean | null;
    mid_confirmed: boolean | null;
  }>(
    db,
    sql`select (w.submitted_at is not null) as given, (w.student_confirmed_warning_at is not null) as confirmed,
               (sf.end_semester_completed_date is not null and sf.general_competence_areas_passed is not null
                 and sf.specific_competence_areas_passed is not null and not sf.is_locked and sf.signed_by_student_date is null) as signing_waits,
               (sf.mid_semester_completed_date is not null) as mid_confirmed
          from student_references sr
          left join warnings w on w.student_reference_id = sr.id
          left join signing_forms sf on sf.student_reference_id = sr.id
         where sr.id = ${placement.referenceId}`,
  );
  const midConfirmed = row?.mid_confirmed === true;
  const dates = placement.header;
  const forms = placement.schemes.flatMap((scheme) =>
    scheme.forms.flatMap((form) => {
      if (form.own.state === "sent") return [];
      const due = formDue(scheme.isMidSemester, dates, midConfirmed, today);
      if (due !== "open" && due !== "behind") return [];
      return [
        {
          schemeId: form.schemeId,
          formId: form.formId,
          name: form.name,
          isMidSemester: scheme.isMidSemester,
          due,
          deadline: scheme.isMidSemester ? dates.midSemesterDate : dates.endSemesterDate,
          draft: form.own.state === "draft",
        },
      ];
    }),
  );
  return {
    warning: row?.given ? (row.confirmed ? "confirmed" : "given") : null,
    signingWaits: row?.signing_waits === true,
    forms: forms.toSorted((a, b) => Number(b.due === "behind") - Number(a.due === "behind")),
  };
}

// ─── A teacher's or a supervisor's ───────────────────────────────────────────

export interface TodoStudent {
  classId: number;
  subjectCode: string;
  subject: string;
  studentUserId: number;
  studentName: string;
}

export interface TodoForm extends TodoStudent {
  schemeId: number;
  formId: number;
  formName: string;
  isMidSemester: boolean;
  deadline: string | null;
  due: FormDue;
  /** The viewer has a saved draft: "Continue" rather than "Start". */
  draft: boolean;
}

export interface StaffTodo {
  /** Signing forms waiting for the viewer's signature. */
  signatures: TodoStudent[];
  /** Forms the viewer's role has not sent, asked for now; the first TODO_FORMS_SHOWN, overdue and earliest first. */
  forms: TodoForm[];
  formsTotal: number;
  /** The teacher's: warnings given and not yet confirmed by the student. */
  warnings: (TodoStudent & { givenAt: Date })[];
  /** The teacher's: their students without a supervisor (assigned or extra). */
  withoutSupervisor: TodoStudent[];
}

interface StudentRow {
  class_id: number;
  subject_code: string;
  subject_name: string;
  student_user_id: number;
  student_name: string;
}

const student = (r: StudentRow): TodoStudent => ({
  classId: r.class_id,
  subjectCode: r.subject_code,
  subject: `${r.subject_code} ${r.subject_name}`,
  studentUserId: r.student_user_id,
  studentName: r.student_name,
});

/**
 * What waits on a teacher (their own students: those they are the assigned teacher of) or a
 * supervisor (students they supervise, assigned or extra), in this semester's classes. Four queries.
 */
export async function staffTodo(
  db: Db,
  input: { userId: number; role: "teacher" | "supervisor"; today: string },
): Promise<StaffTodo> {
  const { userId, role, today } = input;
  const roleId = role === "teacher" ? ROLE.Teacher : ROLE.Supervisor;
  const mine =
    role === "teacher"
      ? sql`sr.teacher_user_id = ${userId}`
      : sql`(sr.advisor_user_id = ${userId} or exists (select 1 from student_extra_supervisors e where e.student_reference_id = sr.id and e.user_id = ${userId}))`;
  const base = (semester: SQL) => sql`from student_references sr
      join classes c on c.id = sr.class_id
      join periods p on p.id = c.period_id and ${semester}
      join subjects s on s.id = c.subject_id
      join users st on st.id = sr.student_user_id and st.is_active`;
  const thisSemester = sql`p.start_date <= ${today}::date and p.end_date >= ${today}::date`;
  const studentColumns = sql`sr.class_id, s.subject_code, s.name as subject_name, sr.student_user_id, st.display_name as student_name`;

  // Forms: those asked for now (deadline.ts, formDue: not "closed" nor "later"), not sent by anyone
  // of the viewer's role (as on the class overview).
  const formsQuery = rowsOf<
    StudentRow & {
      assignment_id: number;
      form_id: number;
      form_name: string;
      is_mid: boolean;
      mid_date: string | null;
      end_date: string | null;
      mid_confirmed: boolean;
      draft: boolean;
      total: number;
    }
  >(
    db,
    sql`select ${studentColumns}, a.id as assignment_id, f.id as form_id, f.name as form_name, a.is_mid_semester as is_mid,
               c.mid_semester_date::text as mid_date, c.end_semester_date::text as end_date,
               (sf.mid_semester_completed_date is not null) as mid_confirmed,
               exists (select 1 from answer_sets x where x.assignment_id = a.id and x.form_id = f.id and x.student_user_id = sr.student_user_id
                        and x.author_user_id = ${userId} and x.sent_at is null) as draft,
               (count(*) over ())::int as total
          ${base(thisSemester)}
          join assignments a on a.class_id = sr.class_id
          join assignment_forms af on af.assignment_id = a.id
          join forms f on f.id = af.form_id and f.deleted_at is null
          left join signing_forms sf on sf.student_reference_id = sr.id
         where ${mine}
           and not exists (select 1 from answer_sets x where x.assignment_id = a.id and x.form_id = f.id and x.student_user_id = sr.student_user_id
                            and x.author_role_id = ${roleId} and x.sent_at is not null)
           and case when a.is_mid_semester then sf.mid_semester_completed_date is null
                    else (sf.mid_semester_completed_date is not null or c.mid_semester_date < ${today}::date or c.end_semester_date < ${today}::date) end
         order by (case when a.is_mid_semester then c.mid_semester_date else c.end_semester_date end) nulls last,
                  st.display_name, sr.student_user_id, a.is_mid_semester desc, f.name, f.id
         limit ${TODO_FORMS_SHOWN}`,
  );

  const signer =
    role === "teacher"
      ? sql`sr.teacher_user_id = ${userId} and sf.signed_by_student_date is not null and sf.signed_by_teacher_date is null`
      : sql`sr.advisor_user_id = ${userId} and sf.signed_by_advisor_date is null and sf.sign_without_advisor_confirmed_date is null`;
  const signaturesQuery = rowsOf<StudentRow>(
    db,
    sql`select ${studentColumns}
          ${base(sql`p.start_date <= ${today}::date and p.end_date >= ${today}::date - ${SIGNING_WINDOW_DAYS}::int`)}
          join signing_forms sf on sf.student_reference_id = sr.id
         where ${signer} and not sf.is_locked
           and sf.end_semester_completed_date is not null
           and sf.general_competence_areas_passed is not null and sf.specific_competence_areas_passed is not null
         order by st.display_name, sr.student_user_id`,
  );

  const warningsQuery =
    role === "teacher"
      ? rowsOf<StudentRow & { given_at: Date | string }>(
          db,
          sql`select ${studentColumns}, w.submitted_at as given_at
                ${base(thisSemester)}
                join warnings w on w.student_reference_id = sr.id
               where ${mine} and w.submitted_at is not null and w.student_confirmed_warning_at is null
               order by w.submitted_at, sr.student_user_id`,
        )
      : Promise.resolve([]);

  const unsupervisedQuery =
    role === "teacher"
      ? rowsOf<StudentRow>(
          db,
          sql`select ${studentColumns}
                ${base(thisSemester)}
               where ${mine} and sr.advisor_user_id is null
                 and not exists (select 1 from student_extra_supervisors e where e.student_reference_id = sr.id)
               order by s.subject_code, st.display_name, sr.student_user_id`,
        )
      : Promise.resolve([]);

  const [forms, signatures, warnings, unsupervised] = await Promise.all([
    formsQuery,
    signaturesQuery,
    warningsQuery,
    unsupervisedQuery,
  ]);
  return {
    signatures: signatures.map(student),
    forms: forms.map((r) => {
      const dates = { midSemesterDate: r.mid_date, endSemesterDate: r.end_date };
      return {
        ...student(r),
        schemeId: r.assignment_id,
        formId: r.form_id,
        formName: r.form_name,
        isMidSemester: r.is_mid,
        deadline: r.is_mid ? r.mid_date : r.end_date,
        due: formDue(r.is_mid, dates, r.mid_confirmed, today),
        draft: r.draft,
      };
    }),
    formsTotal: forms[0]?.total ?? 0,
    warnings: warnings.map((r) => ({ ...student(r), givenAt: new Date(r.given_at) })),
    withoutSupervisor: unsupervised.map(student),
  };
}

// ─── As the home pages show it ───────────────────────────────────────────────

/**
 * The to-do of a teacher or supervisor as their home page shows it: each item with its link in the
 * viewer's area, dates as text.
 */
export function staffTodoView(todo: StaffTodo, area: "teacher" | "supervisor", language: "nb" | "en") {
  const studentPath = (s: TodoStudent) => `/${area}/class/${s.classId}/student/${s.studentUserId}`;
  const who = (s: TodoStudent) => ({
    key: `${s.classId}-${s.studentUserId}`,
    studentName: s.studentName,
    subjectCode: s.subjectCode,
    subject: s.subject,
    studentHref: studentPath(s),
  });
  return {
    signatures: todo.signatures.map((s) => ({ ...who(s), href: `${studentPath(s)}/signingform` })),
    forms: todo.forms.map((f) => ({
      ...who(f),
      key: `${f.classId}-${f.studentUserId}-${f.schemeId}-${f.formId}`,
      formName: f.formName,
      isMidSemester: f.isMidSemester,
      deadline: f.deadline ? deadlineText(f.deadline) : null,
      behind: f.due === "behind",
      draft: f.draft,
      href: `${studentPath(f)}/form/${f.formId}/assignment/${f.schemeId}`,
    })),
    formsTotal: todo.formsTotal,
    warnings: todo.warnings.map((w) => ({
      ...who(w),
      given: formatDay(osloDate(w.givenAt), language),
      href: `${studentPath(w)}/warning`,
    })),
    withoutSupervisor: todo.withoutSupervisor.map((s) => ({ ...who(s), href: studentPath(s) })),
  };
}

export type StaffTodoView = ReturnType<typeof staffTodoView>;
