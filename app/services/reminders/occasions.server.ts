import { sql, type SQL } from "drizzle-orm";
import { href } from "react-router";
import type { Db } from "~/services/platform/db/client.server";
import { ROLE } from "~/services/identity";
import type { OccasionContent, Party } from "./mail";
import {
  deadlinePhase,
  DIGEST_WINDOW_DAYS,
  signingRound,
  WARNING_WINDOW_DAYS,
  type ReminderDays,
  type ReminderKind,
} from "./reminders";

/**
 * The occasions due a reminder today, found from the data as it is (no event is recorded when a
 * form is sent or a warning given): each is one mail to one recipient, named by a key that stays
 * the same from run to run for as long as the occasion lasts, so the reminder record's unique key
 * (kind, recipient, occasion key) lets it go once. A deadline whose date is moved is a new occasion.
 */

export interface Occasion {
  kind: ReminderKind;
  recipientUserId: number;
  occasionKey: string;
  content: OccasionContent;
}

async function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  const result = await db.execute(query);
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

const subjectOf = (r: { subject_code: string; subject_name: string }) => `${r.subject_code} ${r.subject_name}`;

interface FormRow {
  class_id: number;
  is_mid: boolean;
  deadline: string;
  days_before: number;
  subject_code: string;
  subject_name: string;
  student_user_id: number;
  student_name: string;
  advisor_user_id: number | null;
  /** The assigned teacher; without one, every teacher of the class. */
  teacher_ids: number[];
  form_name: string;
  student_sent: boolean;
  supervisor_sent: boolean;
  teacher_sent: boolean;
  mid_confirmed: boolean;
}

/**
 * (a) Before a deadline, a student whose part of a form of that half is not sent, and their
 * assigned supervisor whose part is not (any supervisor's sent answers count, as on the teacher's
 * overview); after it, the student's teacher (without an assigned one, every teacher of the class)
 * a digest of their students still missing forms.
 * A mid-semester reminder stops once the teacher has confirmed the mid-semester part (deadline.ts).
 */
export async function deadlineOccasions(db: Db, days: ReminderDays, today: string): Promise<Occasion[]> {
  const sent = (role: number) =>
    sql`exists (select 1 from answer_sets x where x.assignment_id = a.id and x.form_id = f.id and x.student_user_id = sr.student_user_id and x.author_role_id = ${role} and x.sent_at is not null)`;
  const rows = await rowsOf<FormRow>(
    db,
    sql`with halves as (
        select c.id as class_id, true as is_mid, c.mid_semester_date as deadline, ${days.midDaysBefore}::int as days_before
          from classes c where c.mid_semester_date is not null
        union all
        select c.id, false, c.end_semester_date, ${days.endDaysBefore}::int from classes c where c.end_semester_date is not null
      )
      select h.class_id, h.is_mid, h.deadline::text as deadline, h.days_before,
             s.subject_code, s.name as subject_name,
             sr.student_user_id, st.display_name as student_name, sr.advisor_user_id,
             (case when sr.teacher_user_id is not null then array[sr.teacher_user_id]
                   else coalesce((select array_agg(ct.user_id order by ct.user_id) from class_teachers ct where ct.class_id = sr.class_id), '{}'::int[]) end) as teacher_ids,
             f.name as form_name,
             ${sent(ROLE.Student)} as student_sent, ${sent(ROLE.Supervisor)} as supervisor_sent, ${sent(ROLE.Teacher)} as teacher_sent,
             (sf.mid_semester_completed_date is not null) as mid_confirmed
        from halves h
        join classes c on c.id = h.class_id
        join subjects s on s.id = c.subject_id
        join assignments a on a.class_id = h.class_id and a.is_mid_semester = h.is_mid
        join assignment_forms af on af.assignment_id = a.id
        join forms f on f.id = af.form_id and f.deleted_at is null
        join student_references sr on sr.class_id = h.class_id
        join users st on st.id = sr.student_user_id and st.is_active
        left join signing_forms sf on sf.student_reference_id = sr.id
       where h.deadline between ${today}::date - ${DIGEST_WINDOW_DAYS}::int and ${today}::date + h.days_before
       order by h.class_id, h.is_mid desc, st.display_name, sr.student_user_id, f.name, f.id`,
  );
  const byKey = new Map<string, Occasion>();
  const take = (kind: ReminderKind, recipientUserId: number, occasionKey: string, make: () => OccasionContent) => {
    const id = `${kind}|${recipientUserId}|${occasionKey}`;
    let occasion = byKey.get(id);
    if (!occasion) byKey.set(id, (occasion = { kind, recipientUserId, occasionKey, content: make() }));
    return occasion.content;
  };
  for (const row of rows) {
    const half = row.is_mid ? "mid" : "end";
    const phase = deadlinePhase(row.deadline, row.days_before, today);
    const key = `${half}:${row.class_id}:${row.deadline}`;
    const subject = subjectOf(row);
    if (phase === "remind") {
      if (row.is_mid && row.mid_confirmed) continue;
      if (!row.student_sent) {
        const content = take("deadline", row.student_user_id, key, () => ({
          kind: "deadline",
          half,
          deadline: row.deadline,
          subject,
          items: [{ studentUserId: row.student_user_id, student: null, forms: [] }],
          path: href("/student/forms"),
        }));
        if (content.kind === "deadline") content.items[0].forms.push(row.form_name);
      }
      if (!row.supervisor_sent && row.advisor_user_id !== null) {
        const content = take("deadline", row.advisor_user_id, key, () => ({
          kind: "deadline",
          half,
          deadline: row.deadline,
          subject,
          items: [],
          path: href("/supervisor/class/:classId", { classId: String(row.class_id) }),
        }));
        if (content.kind === "deadline") {
          let item = content.items.find((i) => i.studentUserId === row.student_user_id);
          if (!item)
            content.items.push((item = { studentUserId: row.student_user_id, student: row.student_name, forms: [] }));
          item.forms.push(row.form_name);
        }
      }
    } else if (phase === "digest") {
      const missing: Party[] = [];
      if (!row.student_sent) missing.push("student");
      if (!row.supervisor_sent) missing.push("supervisor");
      if (!row.teacher_sent) missing.push("teacher");
      if (missing.length === 0) continue;
      for (const teacherId of row.teacher_ids) {
        const content = take("digest", teacherId, key, () => ({
          kind: "digest",
          half,
          deadline: row.deadline,
          subject,
          students: [],
          path: href("/teacher/class/:classId", { classId: String(row.class_id) }),
        }));
        if (content.kind === "digest") {
          let entry = content.students.find((s) => s.userId === row.student_user_id);
          if (!entry)
            content.students.push((entry = { userId: row.student_user_id, name: row.student_name, missing: [] }));
          for (const party of missing) if (!entry.missing.includes(party)) entry.missing.push(party);
        }
      }
    }
  }
  return [...byKey.values()];
}

interface WarningRow {
  warning_id: number;
  given_ms: string;
  class_id: number;
  student_user_id: number;
  student_name: string;
  subject_code: string;
  subject_name: string;
  supervisor_ids: number[];
}

/**
 * (b) A warning given in the last days, to the student's supervisors (assigned and extra). The
 * student is told by the warnings domain the moment it is given (warnings.server.ts). A warning
 * given again after being deleted is a new warning (a new id); the key also names the moment.
 */
export async function warningOccasions(db: Db, now: Date): Promise<Occasion[]> {
  const since = new Date(now.getTime() - WARNING_WINDOW_DAYS * 24 * 60 * 60 * 1000);
  const rows = await rowsOf<WarningRow>(
    db,
    sql`select w.id as warning_id, (extract(epoch from w.submitted_at) * 1000)::bigint::text as given_ms,
               sr.class_id, sr.student_user_id, st.display_name as student_name, s.subject_code, s.name as subject_name,
               array_remove(array[sr.advisor_user_id] || coalesce((select array_agg(e.user_id order by e.user_id) from student_extra_supervisors e where e.student_reference_id = sr.id), '{}'::int[]), null) as supervisor_ids
          from warnings w
          join student_references sr on sr.id = w.student_reference_id
          join users st on st.id = sr.student_user_id
          join classes c on c.id = sr.class_id
          join subjects s on s.id = c.subject_id
         where w.submitted_at is not null and w.submitted_at >= ${since.toISOString()}::timestamptz and w.submitted_at <= ${now.toISOString()}::timestamptz`,
  );
  return rows.flatMap((row) =>
    [...new Set(row.supervisor_ids)].map((supervisorId) => ({
      kind: "warning" as const,
      recipientUserId: supervisorId,
      occasionKey: `${row.warning_id}:${row.given_ms}`,
      content: {
        kind: "warning" as const,
        subject: subjectOf(row),
        student: row.student_name,
        path: href("/supervisor/class/:classId/student/:userId", {
          classId: String(row.class_id),
          userId: String(row.student_user_id),
        }),
      },
    })),
  );
}

interface SigningRow {
  reference_id: number;
  class_id: number;
  student_user_id: number;
  student_name: string;
  advisor_user_id: number | null;
  /** The assigned teacher; without one, every teacher of the class (any of them may sign). */
  teacher_ids: number[];
  subject_code: string;
  subject_name: string;
  end_date: string;
  student_signed_on: string | null;
  supervisor_signed: boolean;
  teacher_signed: boolean;
  without_supervisor: boolean;
  cycle: number;
}

/** Signing forms of semesters that ended longer ago than this are left alone. */
const SIGNING_WINDOW_DAYS = 60;

/**
 * (c) A signing form the teacher has saved with its results is waiting for the student and the
 * assigned supervisor (unless the teacher signed without them) from the end-semester date on, and
 * for the teacher once the student has signed. Each is reminded at once, then again every N days
 * (signingRound). A cancelled form starts a new cycle (its archived copies are counted).
 */
export async function signingOccasions(db: Db, days: ReminderDays, today: string): Promise<Occasion[]> {
  const rows = await rowsOf<SigningRow>(
    db,
    sql`select sr.id as reference_id, sr.class_id, sr.student_user_id, st.display_name as student_name,
               sr.advisor_user_id, (case when sr.teacher_user_id is not null then array[sr.teacher_user_id]
                   else coalesce((select array_agg(ct.user_id order by ct.user_id) from class_teachers ct where ct.class_id = sr.class_id), '{}'::int[]) end) as teacher_ids, s.subject_code, s.name as subject_name,
               sf.end_semester_completed_date::text as end_date,
               (sf.signed_by_student_date at time zone 'Europe/Oslo')::date::text as student_signed_on,
               sf.signed_by_advisor_date is not null as supervisor_signed,
               sf.signed_by_teacher_date is not null as teacher_signed,
               sf.sign_without_advisor_confirmed_date is not null as without_supervisor,
               (select count(*) from signing_form_archive ar where ar.student_reference_id = sr.id)::int as cycle
          from signing_forms sf
          join student_references sr on sr.id = sf.student_reference_id
          join users st on st.id = sr.student_user_id
          join classes c on c.id = sr.class_id
          join periods p on p.id = c.period_id
          join subjects s on s.id = c.subject_id
         where not sf.is_locked
           and sf.end_semester_completed_date is not null
           and sf.general_competence_areas_passed is not null
           and sf.specific_competence_areas_passed is not null
           and sf.end_semester_completed_date <= ${today}::date
           and p.end_date >= ${today}::date - ${SIGNING_WINDOW_DAYS}::int`,
  );
  const out: Occasion[] = [];
  for (const row of rows) {
    const subject = subjectOf(row);
    const ids = { classId: String(row.class_id), studentUserId: String(row.student_user_id) };
    const paths = {
      student: href("/student/class/:classId/student/:studentUserId/signingform", ids),
      supervisor: href("/supervisor/class/:classId/student/:studentUserId/signingform", ids),
      teacher: href("/teacher/class/:classId/student/:studentUserId/signingform", ids),
    };
    const add = (
      signer: "student" | "supervisor" | "teacher",
      recipientUserId: number,
      since: string,
      area: keyof typeof paths,
    ) => {
      const round = signingRound(since, today, days.signingRepeatDays);
      out.push({
        kind: "signing",
        recipientUserId,
        // The key is stored; the supervisor's signing reminders keep their earlier name in it.
        occasionKey: `${row.reference_id}:c${row.cycle}:${signer === "supervisor" ? "advisor" : signer}:r${round}`, // stored name
        content: {
          kind: "signing",
          subject,
          student: row.student_name,
          self: signer === "student",
          round,
          path: paths[area],
        },
      });
    };
    const studentSigned = row.student_signed_on !== null;
    if (!studentSigned) add("student", row.student_user_id, row.end_date, "student");
    if (!row.supervisor_signed && !row.without_supervisor && row.advisor_user_id !== null)
      add("supervisor", row.advisor_user_id, row.end_date, "supervisor");
    if (studentSigned && !row.teacher_signed)
      for (const teacherId of row.teacher_ids) add("teacher", teacherId, row.student_signed_on!, "teacher");
  }
  return out;
}

interface AdminRow {
  period_id: number;
  period_name: string;
  end_date: string;
  subject_code: string;
  subject_name: string;
  no_schemes: boolean;
  no_end_date: boolean;
}

/**
 * (d) In the semester's last weeks, every active administrator hears once of the semester's classes
 * that have no response scheme or no end-semester date.
 */
export async function adminOccasions(db: Db, days: ReminderDays, today: string): Promise<Occasion[]> {
  const rows = await rowsOf<AdminRow>(
    db,
    sql`select p.id as period_id, p.name as period_name, p.end_date::text as end_date, s.subject_code, s.name as subject_name,
               not exists (select 1 from assignments a where a.class_id = c.id) as no_schemes,
               c.end_semester_date is null as no_end_date
          from periods p
          join classes c on c.period_id = p.id
          join subjects s on s.id = c.subject_id
         where ${today}::date between p.end_date - ${days.adminWeeksBefore * 7}::int and p.end_date
           and (c.end_semester_date is null or not exists (select 1 from assignments a where a.class_id = c.id))
         order by p.id, s.subject_code`,
  );
  if (rows.length === 0) return [];
  const admins = await rowsOf<{ id: number }>(
    db,
    sql`select u.id from users u join user_roles ur on ur.user_id = u.id and ur.role_id = ${ROLE.Admin} where u.is_active order by u.id`,
  );
  const semesters = new Map<number, AdminRow[]>();
  for (const row of rows) semesters.set(row.period_id, [...(semesters.get(row.period_id) ?? []), row]);
  return [...semesters.entries()].flatMap(([semesterId, classRows]) =>
    admins.map((admin) => ({
      kind: "admin" as const,
      recipientUserId: admin.id,
      occasionKey: `${semesterId}`,
      content: {
        kind: "admin" as const,
        semester: classRows[0].period_name,
        end: classRows[0].end_date,
        classes: classRows.map((r) => ({ name: subjectOf(r), noSchemes: r.no_schemes, noEndDate: r.no_end_date })),
        path: href("/admin/semesters/:semesterId", { semesterId: String(semesterId) }),
      },
    })),
  );
}

export interface Recipient {
  userId: number;
  email: string;
  name: string;
  language: string | null;
  optOuts: string[];
}

/** The active recipients among these users, with their language and the kinds they switched off. */
export async function recipientsOf(db: Db, userIds: number[]): Promise<Map<number, Recipient>> {
  if (userIds.length === 0) return new Map();
  const rows = await rowsOf<{
    id: number;
    email: string;
    display_name: string;
    language: string | null;
    opt_outs: string[] | null;
  }>(
    db,
    sql`select u.id, u.email, u.display_name, p.language, p.reminder_opt_outs as opt_outs
          from users u left join user_preferences p on p.user_id = u.id
         where u.is_active and u.id = any(${`{${[...new Set(userIds)].join(",")}}`}::int[])`,
  );
  return new Map(
    rows.map((r) => [
      r.id,
      { userId: r.id, email: r.email, name: r.display_name, language: r.language, optOuts: r.opt_outs ?? [] },
    ]),
  );
}

/** Every occasion due today, of every kind. */
export async function dueOccasions(db: Db, days: ReminderDays, now: Date, today: string): Promise<Occasion[]> {
  const found = await Promise.all([
    deadlineOccasions(db, days, today),
    warningOccasions(db, now),
    signingOccasions(db, days, today),
    adminOccasions(db, days, today),
  ]);
  return found.flat();
}
