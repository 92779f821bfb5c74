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
CREATE INDEX "record_openings_viewer_idx" ON "record_openings" USING btree ("viewer_user_id","at");--> statement-breakpoint
CREATE INDEX "record_openings_at_idx" ON "record_openings" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_events_subject_idx" ON "audit_events" USING btree ("subject_user_id","at");