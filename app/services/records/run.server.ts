// The retention run and its preview: every record past its period deleted (a person anonymised),
// in set-based statements, a few classes per transaction; the preview counts the same selections.
import { desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { AuditAction } from "~/services/platform/audit.server";
import { rowsAffected, type Db } from "~/services/platform/db/client.server";
import { auditEvents, classes, semesters, subjects } from "~/services/platform/db/schema";
import { dueCondition, PARTS, rowsOf, select, type Part } from "./due.server";
import { anonymise } from "./anonymise.server";
import { noCounts, RECORD_KINDS, ruleFor, type RecordKind, type RetentionRule } from "./retention";
import { nextRunAfter } from "./schedule-claim.server";

/** The audit action of a run (one row per run, with its counts; no actor). */
export const RUN_ACTION = "retention.run" as const;

/** Classes per transaction: a class's records go together, and a transaction stays short. */
const CLASSES_PER_BATCH = 25;
/** Rows per statement for the kinds counted from their own creation (audit rows, openings, codes). */
const ROWS_PER_BATCH = 20_000;
/** People anonymised per transaction. */
const PEOPLE_PER_BATCH = 500;

/** The kinds that belong to a class's records: they go class by class. */
const CLASS_RECORDS = new Set<RecordKind>(["answers", "warnings", "signingForms", "resultSubmissions", "invitations"]);

export interface ClassCounts {
  classId: number;
  subjectCode: string;
  subjectName: string;
  semesterName: string;
  counts: Partial<Record<RecordKind, number>>;
}

export interface RetentionPreview {
  rules: RetentionRule[];
  /** What the next run removes (people: anonymises). */
  totals: Record<RecordKind, number>;
  /** The same, per class, for the records that belong to a class (classes that no longer exist left out). */
  byClass: ClassCounts[];
  /** When the daily run may next run (ISO instant), or null when it is not scheduled. */
  nextRunAfter: string | null;
  lastRun: { at: string; totals: Record<RecordKind, number> } | null;
}

const ids = (values: readonly number[]) => sql`${`{${values.join(",")}}`}::int[]`;

/** Counts per kind and per class of what a run at `now` would remove. */
async function countDue(db: Db, rules: readonly RetentionRule[], now: Date) {
  const totals = noCounts();
  const perClass = new Map<number, Partial<Record<RecordKind, number>>>();
  for (const part of PARTS) {
    const rule = ruleFor(rules, part.kind);
    const rows = await select<{ class_id: number | null; n: number }>(
      db,
      sql`select ${sql.raw(part.classId)} as class_id, count(*)::int as n ${rowsOf(part, dueCondition(part, rule, now))} group by 1`,
    );
    for (const row of rows) {
      totals[part.kind] += row.n;
      if (row.class_id === null) continue;
      const counts = perClass.get(row.class_id) ?? {};
      counts[part.kind] = (counts[part.kind] ?? 0) + row.n;
      perClass.set(row.class_id, counts);
    }
  }
  return { totals, perClass };
}

/** The last run, from its audit row. */
export async function lastRetentionRun(db: Db): Promise<RetentionPreview["lastRun"]> {
  const [row] = await db
    .select({ at: auditEvents.at, details: auditEvents.details })
    .from(auditEvents)
    .where(eq(auditEvents.action, RUN_ACTION))
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .limit(1);
  if (!row) return null;
  const totals = noCounts();
  for (const kind of RECORD_KINDS) {
    const value = row.details?.[kind];
    if (typeof value === "number") totals[kind] = value;
  }
  return { at: row.at.toISOString(), totals };
}

/** What the next run would remove at `now`, per kind and per class, with the last run and the next. */
export async function previewRetention(db: Db, rules: RetentionRule[], now: Date): Promise<RetentionPreview> {
  const { totals, perClass } = await countDue(db, rules, now);
  const classIds = [...perClass.keys()];
  const named = classIds.length
    ? await db
        .select({
          classId: classes.id,
          subjectCode: subjects.subjectCode,
          subjectName: subjects.name,
          semesterName: semesters.name,
          start: semesters.startDate,
        })
        .from(classes)
        .innerJoin(subjects, eq(subjects.id, classes.subjectId))
        .innerJoin(semesters, eq(semesters.id, classes.semesterId))
        .where(inArray(classes.id, classIds))
    : [];
  named.sort((a, b) => a.start.localeCompare(b.start) || a.subjectCode.localeCompare(b.subjectCode));
  return {
    rules: rules.map((rule) => ({ ...rule })),
    totals,
    byClass: named.map(({ start: _start, ...rest }) => ({ ...rest, counts: perClass.get(rest.classId)! })),
    nextRunAfter: await nextRunAfter(db, now),
    lastRun: await lastRetentionRun(db),
  };
}

/** Deletes a part's due rows, `filter` narrowing them; how many went. */
async function deleteDue(db: Db, part: Part, due: SQL, limit?: number): Promise<number> {
  const chosen = sql`select ${sql.raw(part.key)} ${rowsOf(part, due)}${limit ? sql` limit ${limit}` : sql``}`;
  const key = part.key.replace(/^t\./, "");
  const statement =
    key === "ctid"
      ? sql`delete from ${sql.raw(part.table)} where ctid = any(array(${chosen}))`
      : sql`delete from ${sql.raw(part.table)} where ${sql.raw(key)} in (${chosen})`;
  return rowsAffected(await db.execute(statement));
}

/** The records that belong to a class, class by class: a batch of classes per transaction. */
async function removeClassRecords(
  db: Db,
  rules: readonly RetentionRule[],
  now: Date,
  counts: Record<RecordKind, number>,
) {
  const parts = PARTS.filter((part) => CLASS_RECORDS.has(part.kind));
  const union = sql.join(
    parts.map(
      (part) =>
        sql`select ${sql.raw(part.classId)} as class_id ${rowsOf(part, dueCondition(part, ruleFor(rules, part.kind), now))}`,
    ),
    sql` union `,
  );
  const rows = await select<{ class_id: number }>(db, sql`select class_id from (${union}) due order by 1`);
  const classIds = rows.map((row) => row.class_id);
  for (let i = 0; i < classIds.length; i += CLASSES_PER_BATCH) {
    const batch = classIds.slice(i, i + CLASSES_PER_BATCH);
    await db.transaction(async (tx) => {
      for (const part of parts) {
        const due = sql`${sql.raw(part.classId)} = any(${ids(batch)}) and ${dueCondition(part, ruleFor(rules, part.kind), now)}`;
        counts[part.kind] += await deleteDue(tx, part, due);
      }
    });
  }
}

/** The kinds counted from their own creation, about no class in particular: in batches of rows. */
async function removeRows(db: Db, rules: readonly RetentionRule[], now: Date, counts: Record<RecordKind, number>) {
  for (const part of PARTS.filter((p) => !CLASS_RECORDS.has(p.kind) && p.kind !== "people")) {
    const due = dueCondition(part, ruleFor(rules, part.kind), now);
    for (;;) {
      const removed = await deleteDue(db, part, due, ROWS_PER_BATCH);
      counts[part.kind] += removed;
      if (removed < ROWS_PER_BATCH) break;
    }
  }
}

/** The people past their period, anonymised a batch per transaction. */
async function anonymisePeople(db: Db, rules: readonly RetentionRule[], now: Date, counts: Record<RecordKind, number>) {
  const part = PARTS.find((p) => p.kind === "people")!;
  const rows = await select<{ id: number }>(
    db,
    sql`select t.id ${rowsOf(part, dueCondition(part, ruleFor(rules, "people"), now))} order by 1`,
  );
  const people = rows.map((row) => row.id);
  for (let i = 0; i < people.length; i += PEOPLE_PER_BATCH) {
    const batch = people.slice(i, i + PEOPLE_PER_BATCH);
    counts.people += await db.transaction((tx) => anonymise(tx, batch, now));
  }
}

/**
 * Deletes every record past its period at `now` and anonymises every person past theirs; one
 * audit row with the counts (no actor). What it removes is what previewRetention counted at the
 * same `now`; a second run at the same `now` removes nothing.
 */
export async function runRetention(db: Db, rules: RetentionRule[], now: Date): Promise<Record<RecordKind, number>> {
  const counts = noCounts();
  await removeClassRecords(db, rules, now, counts);
  await removeRows(db, rules, now, counts);
  await anonymisePeople(db, rules, now, counts);
  // At the run's clock (the same as the database's but in a test), so a second run never finds its own row due.
  await db.insert(auditEvents).values({ at: now, action: RUN_ACTION satisfies AuditAction, details: { ...counts } });
  return counts;
}
