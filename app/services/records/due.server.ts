// What each kind of record is in the database, and which of its rows are past their period: one
// SQL selection per part of a kind, used alike by the preview (counted), the run (deleted or
// anonymised) and the erasure plan (of one person), so the three agree by construction.
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "~/services/platform/db/client.server";
import { ROLE } from "~/services/platform/db/schema";
import type { CountedFrom, RecordKind, RetentionRule } from "./retention";

const DAY_MS = 24 * 60 * 60 * 1000;

/** A class's end date: the later of its semester's end and its end-of-semester date. */
const CLASS_END =
  "(select c.id as class_id, greatest(p.end_date, c.end_semester_date) as end_date from classes c join periods p on p.id = c.period_id)";

/** One table of a kind: how its rows are found, which class each belongs to, and the person it is about. */
export interface Part {
  kind: RecordKind;
  table: string;
  /** The row's key in `table` (deleted by it). */
  key: string;
  /** FROM … JOIN …: `t` is the table; `ce` the class's end, where the part has a class. */
  from: string;
  classId: string;
  /** The event's expression per allowed `from`. */
  events: Partial<Record<CountedFrom, string>>;
  /** The person the row is about (erasure), or null where a row is about nobody in particular. */
  person: string | null;
  /** Always true of a row of the kind (people: not yet anonymised, never an admin). */
  where?: string;
}

const viaReference = (table: string) =>
  `${table} t join student_references r on r.id = t.student_reference_id join ${CLASS_END} ce on ce.class_id = r.class_id`;

export const PARTS: readonly Part[] = [
  {
    kind: "answers",
    table: "answer_sets",
    key: "t.id",
    from: `answer_sets t join assignments a on a.id = t.assignment_id join ${CLASS_END} ce on ce.class_id = a.class_id`,
    classId: "a.class_id",
    events: { classEnd: "ce.end_date", created: "t.created_at" },
    person: "t.student_user_id",
  },
  {
    kind: "warnings",
    table: "warnings",
    key: "t.id",
    from: viaReference("warnings"),
    classId: "r.class_id",
    events: { classEnd: "ce.end_date", created: "t.created_at" },
    person: "r.student_user_id",
  },
  {
    kind: "signingForms",
    table: "signing_forms",
    key: "t.id",
    from: viaReference("signing_forms"),
    classId: "r.class_id",
    events: { classEnd: "ce.end_date", created: "t.created_at" },
    person: "r.student_user_id",
  },
  {
    kind: "signingForms",
    table: "signing_form_archive",
    key: "t.id",
    from: viaReference("signing_form_archive"),
    classId: "r.class_id",
    events: { classEnd: "ce.end_date", created: "t.archived_at" },
    person: "r.student_user_id",
  },
  {
    kind: "resultSubmissions",
    table: "result_submissions",
    key: "t.id",
    from: viaReference("result_submissions"),
    classId: "r.class_id",
    events: { classEnd: "ce.end_date", created: "t.submitted_at" },
    person: "r.student_user_id",
  },
  {
    kind: "invitations",
    table: "advisor_invitations",
    key: "t.id",
    from: viaReference("advisor_invitations"),
    classId: "r.class_id",
    events: { classEnd: "ce.end_date", created: "t.created_at" },
    person: "t.invited_by_user_id",
  },
  {
    kind: "recordOpenings",
    table: "record_openings",
    key: "t.ctid",
    from: "record_openings t",
    classId: "t.class_id",
    events: { created: "t.at" },
    person: "t.student_user_id",
  },
  {
    kind: "auditEvents",
    table: "audit_events",
    key: "t.id",
    from: "audit_events t",
    classId: "t.class_id",
    events: { created: "t.at" },
    person: null,
  },
  {
    kind: "codes",
    table: "one_time_codes",
    key: "t.id",
    from: "one_time_codes t",
    classId: "null::int",
    events: { created: "t.created_at" },
    person: "t.user_id",
  },
  {
    kind: "people",
    table: "users",
    key: "t.id",
    from: "users t",
    classId: "null::int",
    events: { lastLogIn: "coalesce(t.last_login_at, t.created_at)" },
    person: "t.id",
    where: `t.anonymised_at is null and not exists (select 1 from user_roles ur where ur.user_id = t.id and ur.role_id = ${ROLE.Admin})`,
  },
];

/** The two cut-offs of a rule at `now`: an instant (created, last log-in) and a calendar day (a class's end). */
export function cutoffs(rule: RetentionRule, now: Date): { instant: Date; day: string } {
  const instant = new Date(now.getTime() - rule.keepDays * DAY_MS);
  return { instant, day: instant.toISOString().slice(0, 10) };
}

/** The event's expression for the rule (a rule the file allowed; the default's event otherwise). */
function eventOf(part: Part, rule: RetentionRule): { expr: string; isDay: boolean } {
  const from = part.events[rule.from] ? rule.from : (Object.keys(part.events)[0] as CountedFrom);
  return { expr: part.events[from]!, isDay: from === "classEnd" };
}

/**
 * The people who still have a class within the people's period: a student, teacher or supervisor
 * of a class that ended on or after `day`. They are not anonymised, whatever their last log-in.
 */
function inRecentClass(day: string): SQL {
  const ce = sql.raw(CLASS_END);
  return sql`exists (
    select 1 from student_references r join ${ce} ce on ce.class_id = r.class_id
     where ce.end_date >= ${day}::date and t.id in (r.student_user_id, r.teacher_user_id, r.advisor_user_id)
    union all
    select 1 from class_teachers x join ${ce} ce on ce.class_id = x.class_id where x.user_id = t.id and ce.end_date >= ${day}::date
    union all
    select 1 from class_advisors x join ${ce} ce on ce.class_id = x.class_id where x.user_id = t.id and ce.end_date >= ${day}::date
    union all
    select 1 from student_extra_supervisors x join student_references r on r.id = x.student_reference_id
      join ${ce} ce on ce.class_id = r.class_id where x.user_id = t.id and ce.end_date >= ${day}::date)`;
}

/** Whether a row's period has ended at `now`. */
export function dueCondition(part: Part, rule: RetentionRule, now: Date): SQL {
  const { instant, day } = cutoffs(rule, now);
  const event = eventOf(part, rule);
  const past = event.isDay
    ? sql`${sql.raw(event.expr)} < ${day}::date`
    : sql`${sql.raw(event.expr)} < ${instant.toISOString()}::timestamptz`;
  return part.kind === "people" ? sql`${past} and not ${inRecentClass(day)}` : past;
}

/** The last day a row is kept (its event + keepDays), as YYYY-MM-DD. */
export function untilExpression(part: Part, rule: RetentionRule): SQL {
  const event = eventOf(part, rule);
  return sql`to_char((${sql.raw(event.expr)})::date + ${rule.keepDays}::int, 'YYYY-MM-DD')`;
}

/** FROM … WHERE …: the part's rows, narrowed by `filter` (the kind's own rule included). */
export function rowsOf(part: Part, filter: SQL): SQL {
  return sql`from ${sql.raw(part.from)} where ${part.where ? sql`${sql.raw(part.where)} and ` : sql``}${filter}`;
}

/** A query's rows (the Db type leaves execute's answer unknown). */
export async function select<T>(db: Db, query: SQL): Promise<T[]> {
  const result = await db.execute(query);
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
