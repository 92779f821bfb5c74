ALTER TABLE "users" ADD COLUMN "last_login_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "anonymised_at" timestamp with time zone;--> statement-breakpoint
-- Backfill: the newest log-in on record (the audit trail's "login" rows, or a session still held),
-- else left empty: someone who never logged in has no last log-in, and the records schedule counts
-- their period from the account's creation instead.
UPDATE "users" AS u SET "last_login_at" = greatest(
  (SELECT max(a."at") FROM "audit_events" AS a WHERE a."action" = 'login' AND a."actor_user_id" = u."id"),
  (SELECT max(s."created_at") FROM "sessions" AS s WHERE s."user_id" = u."id")
);
