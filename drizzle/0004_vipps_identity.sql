-- A Vipps identity is bound to a user only once they have proved the account; the numbers stored so far were typed, not proved, so none is marked verified here.
ALTER TABLE "users" ADD COLUMN "vipps_sub" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "verified_phone" text;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_vipps_sub_unique" UNIQUE("vipps_sub");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_verified_phone_unique" UNIQUE("verified_phone");