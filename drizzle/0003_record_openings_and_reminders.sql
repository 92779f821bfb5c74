CREATE TABLE "record_openings" (
	"student_user_id" integer NOT NULL,
	"hour" timestamp with time zone DEFAULT date_trunc('hour', now()) NOT NULL,
	"viewer_user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"viewer_role" smallint NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"class_id" integer,
	CONSTRAINT "record_openings_student_user_id_hour_viewer_user_id_kind_pk" PRIMARY KEY("student_user_id","hour","viewer_user_id","kind")
);
--> statement-breakpoint
CREATE TABLE "reminder_settings" (
	"institution_id" text PRIMARY KEY NOT NULL,
	"mid_days_before" integer NOT NULL,
	"end_days_before" integer NOT NULL,
	"signing_repeat_days" integer NOT NULL,
	"admin_weeks_before" integer NOT NULL,
	"updated_by_user_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reminders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"recipient_user_id" integer NOT NULL,
	"occasion_key" text NOT NULL,
	"status" text NOT NULL,
	"email" text NOT NULL,
	"subject" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"claimed_at" timestamp with time zone,
	"next_attempt_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reminders_kind_recipient_occasion_unique" UNIQUE("kind","recipient_user_id","occasion_key")
);
--> statement-breakpoint
CREATE TABLE "user_preferences" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"language" text,
	"reminder_opt_outs" text[] DEFAULT '{}'::text[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reminder_settings" ADD CONSTRAINT "reminder_settings_updated_by_user_id_users_id_fk" FOREIGN KEY ("updated_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminders" ADD CONSTRAINT "reminders_recipient_user_id_users_id_fk" FOREIGN KEY ("recipient_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_preferences" ADD CONSTRAINT "user_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "record_openings_viewer_idx" ON "record_openings" USING btree ("viewer_user_id","at");--> statement-breakpoint
CREATE INDEX "record_openings_at_idx" ON "record_openings" USING btree ("at");--> statement-breakpoint
CREATE INDEX "reminders_status_next_attempt_idx" ON "reminders" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "reminders_created_at_idx" ON "reminders" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "audit_events_subject_idx" ON "audit_events" USING btree ("subject_user_id","at");