// A person anonymised: what names or reaches them goes, their id stays (the reports' counts, the
// records and the audit trail that are still kept point to it, and now show "Slettet bruker").
import { sql } from "drizzle-orm";
import { rowsAffected, type Db } from "~/services/platform/db/client.server";
import { select } from "./due.server";
import { ERASED_NAME } from "./retention";

/**
 * The address an anonymised person is given: the column is NOT NULL and unique, and `.invalid` is a
 * top-level domain reserved never to resolve (RFC 2606), so no mail can reach it.
 */
export const anonymisedEmail = (userId: number) => `slettet-${userId}@anonymisert.invalid`;
const ANONYMOUS_ADDRESS = "slettet@anonymisert.invalid";

/**
 * Anonymises the people `userIds` (those not already so) in the caller's transaction: name "Slettet
 * bruker", no e-mail (a placeholder under .invalid), phone, Feide id, Vipps identity or verified
 * number; inactive; their sessions, Feide affiliations, preferences and log-in codes gone; their
 * address taken out of invitations, reminders and the audit trail's details, and their name out of
 * the audit trail's name changes. Returns how many were anonymised.
 */
export async function anonymise(tx: Db, userIds: readonly number[], now: Date): Promise<number> {
  if (userIds.length === 0) return 0;
  const people = sql`${`{${userIds.join(",")}}`}::int[]`;
  const rows = await select<{ id: number; email: string }>(
    tx,
    sql`select id, lower(email) as email from users where id = any(${people}) and anonymised_at is null for update`,
  );
  if (rows.length === 0) return 0;
  const chosen = sql`${`{${rows.map((row) => row.id).join(",")}}`}::int[]`;
  const emails = sql`(select jsonb_array_elements_text(${JSON.stringify(rows.map((row) => row.email))}::jsonb))`;
  await tx.execute(sql`delete from one_time_codes where user_id = any(${chosen}) or lower(email) in ${emails}`);
  await tx.execute(sql`delete from sessions where user_id = any(${chosen})`);
  await tx.execute(sql`delete from user_affiliations where user_id = any(${chosen})`);
  await tx.execute(sql`delete from user_preferences where user_id = any(${chosen})`);
  await tx.execute(sql`update advisor_invitations set email = ${ANONYMOUS_ADDRESS} where lower(email) in ${emails}`);
  await tx.execute(sql`update reminders set email = ${ANONYMOUS_ADDRESS} where recipient_user_id = any(${chosen})`);
  await tx.execute(
    sql`update audit_events set details = details - 'email' - 'displayName'
         where (details ? 'email' or details ? 'displayName')
           and (actor_user_id = any(${chosen}) or subject_user_id = any(${chosen}) or lower(details->>'email') in ${emails})`,
  );
  return rowsAffected(
    await tx.execute(
      sql`update users set display_name = ${ERASED_NAME}, email = 'slettet-' || id || '@anonymisert.invalid',
            phone_number = null, feide_user_id = null, vipps_sub = null, verified_phone = null,
            is_active = false, anonymised_at = ${now.toISOString()}::timestamptz, updated_at = ${now.toISOString()}::timestamptz
          where id = any(${chosen})`,
    ),
  );
}
