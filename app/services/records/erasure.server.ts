// Erasure on request (GDPR art. 17): what goes at once, what a duty to keep holds until its period
// ends, and the person anonymised at once; refused for oneself; audited with the admin as actor.
import { eq, sql } from "drizzle-orm";
import { isRoleId, ROLE_NAMES } from "~/services/identity";
import type { AuditAction } from "~/services/platform/audit.server";
import type { Db } from "~/services/platform/db/client.server";
import { auditEvents, userRoles, users } from "~/services/platform/db/schema";
import { anonymise } from "./anonymise.server";
import { dueCondition, PARTS, rowsOf, select, untilExpression, type Part } from "./due.server";
import { ruleFor, type RecordKind, type RetentionRule } from "./retention";

export const ERASE_ACTION = "user.erased" as const;

export type ErasedKind = RecordKind | "account" | "sessions";

export interface ErasurePlan {
  person: { id: number; displayName: string; email: string; roles: string[]; erased: boolean };
  /** What goes now (the account: anonymised). Kinds with nothing are left out, the account never. */
  goes: { kind: ErasedKind; count: number }[];
  /** What is kept until its period ends (YYYY-MM-DD, the last of the kind's rows). */
  kept: { kind: RecordKind; count: number; until: string }[];
}

/** The records about a student that a duty to keep may hold: they go now only once past their period. */
const HELD: readonly RecordKind[] = ["answers", "warnings", "signingForms", "resultSubmissions"];

const about = (part: Part, userId: number) => sql`${sql.raw(part.person!)} = ${userId}`;

async function count(db: Db, query: ReturnType<typeof sql>): Promise<number> {
  const rows = await select<{ n: number }>(db, query);
  return rows[0]?.n ?? 0;
}

/** The held records about the person: past their period (they go now) or not (kept, until when). */
async function heldRecords(db: Db, userId: number, rules: readonly RetentionRule[], now: Date) {
  const goes = new Map<RecordKind, number>();
  const kept = new Map<RecordKind, { count: number; until: string }>();
  for (const part of PARTS.filter((p) => HELD.includes(p.kind))) {
    const rule = ruleFor(rules, part.kind);
    const due = dueCondition(part, rule, now);
    const rows = await select<{ due: boolean; n: number; until: string | null }>(
      db,
      sql`select (${due}) as due, count(*)::int as n, max(${untilExpression(part, rule)}) as until
          ${rowsOf(part, about(part, userId))} group by 1`,
    );
    for (const row of rows) {
      if (row.due) goes.set(part.kind, (goes.get(part.kind) ?? 0) + row.n);
      else {
        const before = kept.get(part.kind);
        const until = before && before.until > row.until! ? before.until : row.until!;
        kept.set(part.kind, { count: (before?.count ?? 0) + row.n, until });
      }
    }
  }
  return { goes, kept };
}

/** The rows by or about the person kept for others' sake until their period ends (the audit trail, their openings of others' records). */
async function trailKept(db: Db, userId: number, rules: readonly RetentionRule[]) {
  const kept: ErasurePlan["kept"] = [];
  const audit = ruleFor(rules, "auditEvents");
  const trail = await select<{ n: number; until: string | null }>(
    db,
    sql`select count(*)::int as n, to_char(max(at)::date + ${audit.keepDays}::int, 'YYYY-MM-DD') as until
          from audit_events where actor_user_id = ${userId} or subject_user_id = ${userId}`,
  );
  if (trail[0].n > 0) kept.push({ kind: "auditEvents", count: trail[0].n, until: trail[0].until! });
  const openings = ruleFor(rules, "recordOpenings");
  const viewed = await select<{ n: number; until: string | null }>(
    db,
    sql`select count(*)::int as n, to_char(max(at)::date + ${openings.keepDays}::int, 'YYYY-MM-DD') as until
          from record_openings where viewer_user_id = ${userId} and student_user_id <> ${userId}`,
  );
  if (viewed[0].n > 0) kept.push({ kind: "recordOpenings", count: viewed[0].n, until: viewed[0].until! });
  return kept;
}

/**
 * What erasing the person would do at `now`: the account (anonymised), their sessions, log-in codes,
 * the invitations they sent and the openings of their own records go now, with their records already
 * past their period; their answers, warnings, signing forms and result submissions still in their
 * period are kept until it ends, as are the audit rows by or about them and their openings of
 * other students' records (those students' right to know who opened them). Null: no such person.
 */
export async function erasurePlan(
  db: Db,
  userId: number,
  rules: RetentionRule[],
  now: Date,
): Promise<ErasurePlan | null> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) return null;
  const roleRows = await db.select({ roleId: userRoles.roleId }).from(userRoles).where(eq(userRoles.userId, userId));
  const held = await heldRecords(db, userId, rules, now);
  const erased = user.anonymisedAt !== null;
  const goes: ErasurePlan["goes"] = [{ kind: "account", count: erased ? 0 : 1 }];
  const add = (kind: ErasedKind, n: number) => {
    if (n > 0) goes.push({ kind, count: n });
  };
  add("sessions", await count(db, sql`select count(*)::int as n from sessions where user_id = ${userId}`));
  add(
    "codes",
    await count(
      db,
      sql`select count(*)::int as n from one_time_codes where user_id = ${userId} or lower(email) = lower(${user.email})`,
    ),
  );
  add(
    "invitations",
    await count(db, sql`select count(*)::int as n from advisor_invitations where invited_by_user_id = ${userId}`),
  );
  add(
    "recordOpenings",
    await count(db, sql`select count(*)::int as n from record_openings where student_user_id = ${userId}`),
  );
  for (const kind of HELD) add(kind, held.goes.get(kind) ?? 0);
  const kept: ErasurePlan["kept"] = HELD.flatMap((kind) => {
    const entry = held.kept.get(kind);
    return entry ? [{ kind, ...entry }] : [];
  });
  kept.push(...(await trailKept(db, userId, rules)));
  return {
    person: {
      id: user.id,
      displayName: user.displayName,
      email: user.email,
      roles: roleRows
        .map((r) => r.roleId)
        .filter(isRoleId)
        .map((id) => ROLE_NAMES[id]),
      erased,
    },
    goes,
    kept,
  };
}

/**
 * Erases the person now, as erasurePlan said, in one transaction, with one audit row (the admin as
 * actor, the person as subject, the counts of what went). "self": an admin may not erase themself.
 */
export async function erasePerson(
  db: Db,
  userId: number,
  by: { actorUserId: number; ip?: string | null },
  rules: RetentionRule[],
  now: Date,
): Promise<"erased" | "already" | "not-found" | "self"> {
  if (userId === by.actorUserId) return "self";
  return db.transaction(async (tx) => {
    const [user] = await tx
      .select({ anonymisedAt: users.anonymisedAt })
      .from(users)
      .where(eq(users.id, userId))
      .for("update");
    if (!user) return "not-found" as const;
    if (user.anonymisedAt) return "already" as const;
    const plan = (await erasurePlan(tx, userId, rules, now))!;
    for (const part of PARTS.filter((p) => HELD.includes(p.kind))) {
      await tx.execute(
        sql`delete from ${sql.raw(part.table)} where id in (select t.id ${rowsOf(part, sql`${about(part, userId)} and ${dueCondition(part, ruleFor(rules, part.kind), now)}`)})`,
      );
    }
    await tx.execute(sql`delete from advisor_invitations where invited_by_user_id = ${userId}`);
    await tx.execute(sql`delete from record_openings where student_user_id = ${userId}`);
    await anonymise(tx, [userId], now);
    await tx.insert(auditEvents).values({
      at: now,
      action: ERASE_ACTION satisfies AuditAction,
      actorUserId: by.actorUserId,
      subjectUserId: userId,
      details: Object.fromEntries(plan.goes.map((entry) => [entry.kind, entry.count])),
      ip: by.ip ?? null,
    });
    return "erased" as const;
  });
}
