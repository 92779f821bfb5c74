import { sql, type SQL } from "drizzle-orm";
import { AUDIT_ACTIONS, type AuditAction } from "~/services/platform/audit.server";
import type { Db } from "~/services/platform/db/client.server";
import { auditEvents, recordOpenings, users } from "~/services/platform/db/schema";
import { OPENING_KINDS, type OpeningKind } from "~/services/platform/record-openings.server";
import { escapeLike, USER_SEARCH_MAX_LENGTH } from "./users.server";

/**
 * The administrator's search of the audit trail (docs/rules/admin.md): by person (name or e-mail, as the one
 * who acted, the one it was about, or either), action and dates. The openings of students' records
 * (record_openings) are part of the trail here as the action `record.opened`, so "who saw this
 * student" is one search. Newest first, a page at a time; no total is counted (a count of the
 * whole trail would read all of it), one row more than the page says whether there is a next.
 */

export const OPENED_ACTION = "record.opened";
/**
 * A semester report's download is one entry ("report.downloaded", with its count and its students),
 * so the per-student openings it also records (for each student's own list) are left out here.
 */
const REPORT_OPENING: OpeningKind = "semesterReport";
export const SEARCHABLE_ACTIONS = [...AUDIT_ACTIONS, OPENED_ACTION] as const;
export type SearchableAction = AuditAction | typeof OPENED_ACTION;

export const AUDIT_PAGE_SIZE = 50;
/** The CSV export's limit: beyond it the admin narrows the search. */
export const AUDIT_EXPORT_LIMIT = 50_000;
const MAX_PAGE = 1000;

export type PersonRole = "either" | "actor" | "subject";

export interface AuditQuery {
  person: string;
  as: PersonRole;
  action: SearchableAction | null;
  /** Calendar days in Oslo, inclusive. */
  from: string | null;
  to: string | null;
  page: number;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function day(value: string | null): string | null {
  if (!value || !DAY.test(value)) return null;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value) ? value : null;
}

/** The search from the URL; what is malformed is left out (as on the users list), never an error. */
export function readAuditQuery(params: URLSearchParams): AuditQuery {
  const as = params.get("as");
  const action = params.get("action");
  const page = Number(params.get("page"));
  return {
    person: (params.get("person") ?? "").trim().slice(0, USER_SEARCH_MAX_LENGTH),
    as: as === "actor" || as === "subject" ? as : "either",
    action: (SEARCHABLE_ACTIONS as readonly string[]).includes(action ?? "") ? (action as SearchableAction) : null,
    from: day(params.get("from")),
    to: day(params.get("to")),
    page: Number.isInteger(page) && page >= 1 ? Math.min(page, MAX_PAGE) : 1,
  };
}

/** The URL parameters of a search (for links to its pages and its CSV); only what is set. */
export function auditQueryParams(query: AuditQuery, page = query.page): URLSearchParams {
  const params = new URLSearchParams();
  if (query.person) params.set("person", query.person);
  if (query.person && query.as !== "either") params.set("as", query.as);
  if (query.action) params.set("action", query.action);
  if (query.from) params.set("from", query.from);
  if (query.to) params.set("to", query.to);
  if (page > 1) params.set("page", String(page));
  return params;
}

export function isFiltered(query: AuditQuery): boolean {
  return Boolean(query.person || query.action || query.from || query.to);
}

export interface AuditEntry {
  at: Date;
  action: SearchableAction;
  actorUserId: number | null;
  actorName: string | null;
  actorEmail: string | null;
  subjectUserId: number | null;
  subjectName: string | null;
  subjectEmail: string | null;
  classId: number | null;
  details: Record<string, unknown> | null;
  ip: string | null;
}

/**
 * The conditions of one side of the union: its time, actor and subject columns. `alsoAbout` is a
 * jsonb list of students the row is about besides its subject (a report download's students).
 */
function conditions(query: AuditQuery, at: SQL, actor: SQL, subject: SQL, alsoAbout?: SQL): SQL {
  const parts: SQL[] = [sql`true`];
  if (query.from) parts.push(sql`${at} >= (${query.from}::date::timestamp at time zone 'Europe/Oslo')`);
  if (query.to) parts.push(sql`${at} < ((${query.to}::date + 1)::timestamp at time zone 'Europe/Oslo')`);
  if (query.person) {
    const pattern = `%${escapeLike(query.person)}%`;
    const people = sql`(select ${users.id} from ${users} where ${users.displayName} ilike ${pattern} or ${users.email} ilike ${pattern})`;
    const about = alsoAbout
      ? sql`(${subject} in ${people} or exists (select 1 from ${users} p where (p.display_name ilike ${pattern} or p.email ilike ${pattern}) and ${alsoAbout} @> to_jsonb(p.id)))`
      : sql`${subject} in ${people}`;
    if (query.as === "actor") parts.push(sql`${actor} in ${people}`);
    else if (query.as === "subject") parts.push(about);
    else parts.push(sql`(${actor} in ${people} or ${about})`);
  }
  return sql.join(parts, sql` and `);
}

function entries(query: AuditQuery, limit: number, offset: number): SQL {
  const events = sql`select e.at, e.action, e.actor_user_id, e.subject_user_id, e.class_id, e.details, e.ip
    from ${auditEvents} e
    where ${query.action ? sql`e.action = ${query.action}` : sql`true`} and ${conditions(query, sql`e.at`, sql`e.actor_user_id`, sql`e.subject_user_id`, sql`(case when e.action = 'report.downloaded' then e.details->'studentUserIds' end)`)}
    order by e.at desc limit ${limit + offset}`;
  const openings = sql`select o.at, ${OPENED_ACTION}::text, o.viewer_user_id, o.student_user_id, o.class_id,
      jsonb_build_object('page', o.kind, 'role', o.viewer_role), null::text
    from ${recordOpenings} o
    where o.kind <> ${REPORT_OPENING} and ${conditions(query, sql`o.at`, sql`o.viewer_user_id`, sql`o.student_user_id`)}
    order by o.at desc limit ${limit + offset}`;
  const sides = query.action === OPENED_ACTION ? [openings] : query.action ? [events] : [events, openings];
  // Each side is cut to what the page can need before they are merged, so an unfiltered look at a
  // long trail reads its newest rows by the `at` indexes instead of sorting everything.
  const union = sql.join(
    sides.map((side) => sql`(${side})`),
    sql` union all `,
  );
  return sql`select (extract(epoch from t.at) * 1000)::float8 as at_ms, t.action, t.actor_user_id, a.display_name as actor_name, a.email as actor_email,
      t.subject_user_id, s.display_name as subject_name, s.email as subject_email, t.class_id, t.details, t.ip
    from (${union}) as t (at, action, actor_user_id, subject_user_id, class_id, details, ip)
    left join ${users} a on a.id = t.actor_user_id
    left join ${users} s on s.id = t.subject_user_id
    order by t.at desc, t.action, t.actor_user_id
    limit ${limit} offset ${offset}`;
}

interface Row extends Record<string, unknown> {
  at_ms: number | string;
  action: string;
  actor_user_id: number | null;
  actor_name: string | null;
  actor_email: string | null;
  subject_user_id: number | null;
  subject_name: string | null;
  subject_email: string | null;
  class_id: number | null;
  details: Record<string, unknown> | string | null;
  ip: string | null;
}

/** The rows of a raw statement (node-postgres answers with a result object). */
function rowsOf(result: unknown): Row[] {
  return Array.isArray(result) ? (result as Row[]) : (result as { rows: Row[] }).rows;
}

function entryOf(row: Row): AuditEntry {
  return {
    at: new Date(Number(row.at_ms)),
    action: row.action as SearchableAction,
    actorUserId: row.actor_user_id,
    actorName: row.actor_name,
    actorEmail: row.actor_email,
    subjectUserId: row.subject_user_id,
    subjectName: row.subject_name,
    subjectEmail: row.subject_email,
    classId: row.class_id,
    details: typeof row.details === "string" ? (JSON.parse(row.details) as Record<string, unknown>) : row.details,
    ip: row.ip,
  };
}

/** One page of the search, and whether there is a next. */
export async function searchAuditLog(
  db: Db,
  query: AuditQuery,
  pageSize = AUDIT_PAGE_SIZE,
): Promise<{ entries: AuditEntry[]; hasNext: boolean }> {
  const rows = rowsOf(await db.execute(entries(query, pageSize + 1, (query.page - 1) * pageSize))).map(entryOf);
  return { entries: rows.slice(0, pageSize), hasNext: rows.length > pageSize };
}

/** Every entry of the search (up to the export limit), a page at a time, for the CSV. */
export async function* allAuditEntries(db: Db, query: AuditQuery, pageSize = 1000): AsyncGenerator<AuditEntry[]> {
  for (let offset = 0; offset < AUDIT_EXPORT_LIMIT; offset += pageSize) {
    const limit = Math.min(pageSize, AUDIT_EXPORT_LIMIT - offset);
    const rows = rowsOf(await db.execute(entries(query, limit, offset)));
    if (rows.length > 0) yield rows.map(entryOf);
    if (rows.length < limit) return;
  }
}

export function isOpeningKind(value: unknown): value is OpeningKind {
  return (OPENING_KINDS as readonly unknown[]).includes(value);
}
