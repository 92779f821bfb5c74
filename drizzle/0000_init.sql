CREATE TABLE "advisor_invitations" (
	"id" serial PRIMARY KEY NOT NULL,
	"student_reference_id" integer NOT NULL,
	"invited_by_user_id" integer NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "advisor_invitations_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "answer_sets" (
	"id" serial PRIMARY KEY NOT NULL,
	"form_id" integer NOT NULL,
	"assignment_id" integer NOT NULL,
	"student_user_id" integer NOT NULL,
	"author_user_id" integer NOT NULL,
	"author_role_id" integer NOT NULL,
	"is_mid_semester" boolean NOT NULL,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "answer_sets_form_assignment_student_author_unique" UNIQUE("form_id","assignment_id","student_user_id","author_user_id")
);
--> statement-breakpoint
CREATE TABLE "answers" (
	"id" serial PRIMARY KEY NOT NULL,
	"answer_set_id" integer NOT NULL,
	"question_id" integer NOT NULL,
	"value" text,
	"comment" varchar(2000),
	"commented_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "answers_set_question_unique" UNIQUE("answer_set_id","question_id")
);
--> statement-breakpoint
CREATE TABLE "assignment_forms" (
	"assignment_id" integer NOT NULL,
	"form_id" integer NOT NULL,
	CONSTRAINT "assignment_forms_assignment_id_form_id_pk" PRIMARY KEY("assignment_id","form_id")
);
--> statement-breakpoint
CREATE TABLE "assignments" (
	"id" serial PRIMARY KEY NOT NULL,
	"class_id" integer NOT NULL,
	"is_mid_semester" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_user_id" integer,
	"action" text NOT NULL,
	"subject_user_id" integer,
	"class_id" integer,
	"details" jsonb,
	"ip" text
);
--> statement-breakpoint
CREATE TABLE "class_advisors" (
	"class_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "class_advisors_class_id_user_id_pk" PRIMARY KEY("class_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "class_teachers" (
	"class_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "class_teachers_class_id_user_id_pk" PRIMARY KEY("class_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "classes" (
	"id" serial PRIMARY KEY NOT NULL,
	"subject_id" integer NOT NULL,
	"period_id" integer NOT NULL,
	"mid_semester_date" date,
	"end_semester_date" date,
	CONSTRAINT "classes_subject_period_unique" UNIQUE("subject_id","period_id")
);
--> statement-breakpoint
CREATE TABLE "expectations" (
	"id" serial PRIMARY KEY NOT NULL,
	"class_id" integer NOT NULL,
	"form_id" integer NOT NULL,
	"question_id" integer NOT NULL,
	"is_mid_semester" boolean NOT NULL,
	"value" text NOT NULL,
	"set_by_user_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "expectations_class_form_question_half_unique" UNIQUE("class_id","form_id","question_id","is_mid_semester")
);
--> statement-breakpoint
CREATE TABLE "form_question_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"form_id" integer NOT NULL,
	"name" text NOT NULL,
	"order" integer NOT NULL,
	"type" smallint NOT NULL,
	"options" text[] DEFAULT '{}'::text[] NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "form_questions" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"text" text NOT NULL,
	"order" integer NOT NULL,
	"help_text" text,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "forms" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"is_main_form" boolean DEFAULT false NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "one_time_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"user_id" integer,
	"code_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"failed_attempts" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "periods" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	CONSTRAINT "periods_name_unique" UNIQUE("name"),
	CONSTRAINT "periods_dates_ordered" CHECK ("periods"."start_date" <= "periods"."end_date")
);
--> statement-breakpoint
CREATE TABLE "privacy_acceptances" (
	"user_id" integer NOT NULL,
	"policy_version" text NOT NULL,
	"accepted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "privacy_acceptances_user_id_policy_version_pk" PRIMARY KEY("user_id","policy_version")
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "rate_limits_key_window_start_pk" PRIMARY KEY("key","window_start")
);
--> statement-breakpoint
CREATE TABLE "result_submissions" (
	"id" serial PRIMARY KEY NOT NULL,
	"student_reference_id" integer NOT NULL,
	"exporter" text NOT NULL,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"submitted_by_user_id" integer,
	"payload" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"id" integer PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "roles_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"active_role_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"absolute_expires_at" timestamp with time zone NOT NULL,
	"ip" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "signing_form_archive" (
	"id" serial PRIMARY KEY NOT NULL,
	"student_reference_id" integer NOT NULL,
	"data" jsonb NOT NULL,
	"archived_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_by_user_id" integer,
	"reason" text
);
--> statement-breakpoint
CREATE TABLE "signing_forms" (
	"id" serial PRIMARY KEY NOT NULL,
	"student_reference_id" integer NOT NULL,
	"attendance_passed" boolean,
	"work_requirements_passed" boolean,
	"specific_competence_areas_passed" boolean,
	"general_competence_areas_passed" boolean,
	"teacher_comment" text,
	"overall_passed" boolean,
	"is_locked" boolean DEFAULT false NOT NULL,
	"mid_semester_completed_date" date,
	"end_semester_completed_date" date,
	"mid_semester_specific_competence_areas_begun" boolean,
	"mid_semester_student_has_given_feedback" boolean,
	"signed_by_teacher_user_id" integer,
	"signed_by_teacher_date" timestamp with time zone,
	"signed_by_student_user_id" integer,
	"signed_by_student_date" timestamp with time zone,
	"signed_by_advisor_user_id" integer,
	"signed_by_advisor_date" timestamp with time zone,
	"sign_without_advisor_confirmed_date" timestamp with time zone,
	"result_submitted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "signing_forms_student_reference_id_unique" UNIQUE("student_reference_id")
);
--> statement-breakpoint
CREATE TABLE "student_extra_supervisors" (
	"student_reference_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"role_id" integer DEFAULT 4 NOT NULL,
	CONSTRAINT "student_extra_supervisors_student_reference_id_user_id_pk" PRIMARY KEY("student_reference_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "student_references" (
	"id" serial PRIMARY KEY NOT NULL,
	"class_id" integer NOT NULL,
	"student_user_id" integer NOT NULL,
	"teacher_user_id" integer,
	"advisor_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "student_references_student_class_unique" UNIQUE("student_user_id","class_id")
);
--> statement-breakpoint
CREATE TABLE "subjects" (
	"id" serial PRIMARY KEY NOT NULL,
	"subject_code" text NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "subjects_subject_code_unique" UNIQUE("subject_code")
);
--> statement-breakpoint
CREATE TABLE "user_affiliations" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"group_id" text NOT NULL,
	"group_type" text NOT NULL,
	"subject_code" text,
	"subject_version" text,
	"display_name" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"not_before" timestamp with time zone,
	"not_after" timestamp with time zone,
	"fs_roles" text[] DEFAULT '{}'::text[] NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_affiliations_user_group_unique" UNIQUE("user_id","group_id")
);
--> statement-breakpoint
CREATE TABLE "user_roles" (
	"user_id" integer NOT NULL,
	"role_id" integer NOT NULL,
	CONSTRAINT "user_roles_user_id_role_id_pk" PRIMARY KEY("user_id","role_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"display_name" text NOT NULL,
	"email" text NOT NULL,
	"phone_number" text,
	"feide_user_id" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_feide_user_id_unique" UNIQUE("feide_user_id")
);
--> statement-breakpoint
CREATE TABLE "warnings" (
	"id" serial PRIMARY KEY NOT NULL,
	"student_reference_id" integer NOT NULL,
	"teacher_user_id" integer NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"pass_requirement" text DEFAULT '' NOT NULL,
	"pass_requirement_summary" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"submitted_at" timestamp with time zone,
	"student_confirmed_warning_at" timestamp with time zone,
	CONSTRAINT "warnings_student_reference_id_unique" UNIQUE("student_reference_id")
);
--> statement-breakpoint
ALTER TABLE "advisor_invitations" ADD CONSTRAINT "advisor_invitations_student_reference_id_student_references_id_fk" FOREIGN KEY ("student_reference_id") REFERENCES "public"."student_references"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "advisor_invitations" ADD CONSTRAINT "advisor_invitations_invited_by_user_id_users_id_fk" FOREIGN KEY ("invited_by_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "advisor_invitations" ADD CONSTRAINT "advisor_invitations_accepted_user_id_users_id_fk" FOREIGN KEY ("accepted_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answer_sets" ADD CONSTRAINT "answer_sets_form_id_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."forms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answer_sets" ADD CONSTRAINT "answer_sets_assignment_id_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answer_sets" ADD CONSTRAINT "answer_sets_student_user_id_users_id_fk" FOREIGN KEY ("student_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answer_sets" ADD CONSTRAINT "answer_sets_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answer_sets" ADD CONSTRAINT "answer_sets_author_role_id_roles_id_fk" FOREIGN KEY ("author_role_id") REFERENCES "public"."roles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answers" ADD CONSTRAINT "answers_answer_set_id_answer_sets_id_fk" FOREIGN KEY ("answer_set_id") REFERENCES "public"."answer_sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answers" ADD CONSTRAINT "answers_question_id_form_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."form_questions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignment_forms" ADD CONSTRAINT "assignment_forms_assignment_id_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignment_forms" ADD CONSTRAINT "assignment_forms_form_id_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."forms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignments" ADD CONSTRAINT "assignments_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_advisors" ADD CONSTRAINT "class_advisors_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_advisors" ADD CONSTRAINT "class_advisors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_teachers" ADD CONSTRAINT "class_teachers_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_teachers" ADD CONSTRAINT "class_teachers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "classes" ADD CONSTRAINT "classes_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."subjects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "classes" ADD CONSTRAINT "classes_period_id_periods_id_fk" FOREIGN KEY ("period_id") REFERENCES "public"."periods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expectations" ADD CONSTRAINT "expectations_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expectations" ADD CONSTRAINT "expectations_form_id_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."forms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expectations" ADD CONSTRAINT "expectations_question_id_form_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."form_questions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expectations" ADD CONSTRAINT "expectations_set_by_user_id_users_id_fk" FOREIGN KEY ("set_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_question_groups" ADD CONSTRAINT "form_question_groups_form_id_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_questions" ADD CONSTRAINT "form_questions_group_id_form_question_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."form_question_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "one_time_codes" ADD CONSTRAINT "one_time_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "privacy_acceptances" ADD CONSTRAINT "privacy_acceptances_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "result_submissions" ADD CONSTRAINT "result_submissions_student_reference_id_student_references_id_fk" FOREIGN KEY ("student_reference_id") REFERENCES "public"."student_references"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "result_submissions" ADD CONSTRAINT "result_submissions_submitted_by_user_id_users_id_fk" FOREIGN KEY ("submitted_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_active_role_id_roles_id_fk" FOREIGN KEY ("active_role_id") REFERENCES "public"."roles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signing_form_archive" ADD CONSTRAINT "signing_form_archive_student_reference_id_student_references_id_fk" FOREIGN KEY ("student_reference_id") REFERENCES "public"."student_references"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signing_form_archive" ADD CONSTRAINT "signing_form_archive_archived_by_user_id_users_id_fk" FOREIGN KEY ("archived_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signing_forms" ADD CONSTRAINT "signing_forms_student_reference_id_student_references_id_fk" FOREIGN KEY ("student_reference_id") REFERENCES "public"."student_references"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signing_forms" ADD CONSTRAINT "signing_forms_signed_by_teacher_user_id_users_id_fk" FOREIGN KEY ("signed_by_teacher_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signing_forms" ADD CONSTRAINT "signing_forms_signed_by_student_user_id_users_id_fk" FOREIGN KEY ("signed_by_student_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signing_forms" ADD CONSTRAINT "signing_forms_signed_by_advisor_user_id_users_id_fk" FOREIGN KEY ("signed_by_advisor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_extra_supervisors" ADD CONSTRAINT "student_extra_supervisors_student_reference_id_student_references_id_fk" FOREIGN KEY ("student_reference_id") REFERENCES "public"."student_references"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_extra_supervisors" ADD CONSTRAINT "student_extra_supervisors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_extra_supervisors" ADD CONSTRAINT "student_extra_supervisors_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_references" ADD CONSTRAINT "student_references_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_references" ADD CONSTRAINT "student_references_student_user_id_users_id_fk" FOREIGN KEY ("student_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_references" ADD CONSTRAINT "student_references_teacher_user_id_users_id_fk" FOREIGN KEY ("teacher_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_references" ADD CONSTRAINT "student_references_advisor_user_id_users_id_fk" FOREIGN KEY ("advisor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_affiliations" ADD CONSTRAINT "user_affiliations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warnings" ADD CONSTRAINT "warnings_student_reference_id_student_references_id_fk" FOREIGN KEY ("student_reference_id") REFERENCES "public"."student_references"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warnings" ADD CONSTRAINT "warnings_teacher_user_id_users_id_fk" FOREIGN KEY ("teacher_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "advisor_invitations_student_reference_idx" ON "advisor_invitations" USING btree ("student_reference_id");--> statement-breakpoint
CREATE INDEX "answer_sets_assignment_student_idx" ON "answer_sets" USING btree ("assignment_id","student_user_id");--> statement-breakpoint
CREATE INDEX "answer_sets_student_idx" ON "answer_sets" USING btree ("student_user_id");--> statement-breakpoint
CREATE INDEX "answers_question_id_idx" ON "answers" USING btree ("question_id");--> statement-breakpoint
CREATE INDEX "assignment_forms_form_id_idx" ON "assignment_forms" USING btree ("form_id");--> statement-breakpoint
CREATE INDEX "assignments_class_id_idx" ON "assignments" USING btree ("class_id");--> statement-breakpoint
CREATE INDEX "audit_events_at_idx" ON "audit_events" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_events_actor_idx" ON "audit_events" USING btree ("actor_user_id");--> statement-breakpoint
CREATE INDEX "class_advisors_user_id_idx" ON "class_advisors" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "class_teachers_user_id_idx" ON "class_teachers" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "classes_period_id_idx" ON "classes" USING btree ("period_id");--> statement-breakpoint
CREATE INDEX "form_question_groups_form_order_idx" ON "form_question_groups" USING btree ("form_id","order");--> statement-breakpoint
CREATE INDEX "form_questions_group_order_idx" ON "form_questions" USING btree ("group_id","order");--> statement-breakpoint
CREATE INDEX "one_time_codes_email_created_idx" ON "one_time_codes" USING btree ("email","created_at");--> statement-breakpoint
CREATE INDEX "result_submissions_student_reference_idx" ON "result_submissions" USING btree ("student_reference_id");--> statement-breakpoint
CREATE INDEX "sessions_user_id_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "signing_form_archive_student_reference_idx" ON "signing_form_archive" USING btree ("student_reference_id");--> statement-breakpoint
CREATE INDEX "student_extra_supervisors_user_id_idx" ON "student_extra_supervisors" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "student_references_class_id_idx" ON "student_references" USING btree ("class_id");--> statement-breakpoint
CREATE INDEX "student_references_teacher_idx" ON "student_references" USING btree ("teacher_user_id");--> statement-breakpoint
CREATE INDEX "student_references_advisor_idx" ON "student_references" USING btree ("advisor_user_id");--> statement-breakpoint
CREATE INDEX "user_affiliations_subject_code_idx" ON "user_affiliations" USING btree ("subject_code");--> statement-breakpoint
CREATE INDEX "user_roles_role_id_idx" ON "user_roles" USING btree ("role_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_unique" ON "users" USING btree (lower("email"));