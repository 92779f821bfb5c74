import { relations, sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  varchar,
} from "drizzle-orm/pg-core";

import { ROLE, type RoleId } from "./role-ids";

// The fixed role ids have one home (../roles); the `roles` migration inserts exactly those rows.
export { ROLE, type RoleId, type RoleName } from "./role-ids";

/** `form_question_groups.type`: 1 text input, 2 grading, 0 unused. */
export const QUESTION_GROUP_TYPE = { Unused: 0, TextInput: 1, Grading: 2 } as const;
export type QuestionGroupType = (typeof QUESTION_GROUP_TYPE)[keyof typeof QUESTION_GROUP_TYPE];

/**
 * `form_question_groups.audience`: who answers a group. "student": the student's own (staff read the
 * student's answers there and answer nothing); "staff": the supervisor's and the teacher's (the
 * student does not see it); "all": everyone answers it (what every group was before the column).
 */
export const GROUP_AUDIENCES = ["all", "student", "staff"] as const;
export type GroupAudience = (typeof GROUP_AUDIENCES)[number];

export const COMMENT_MAX_LENGTH = 2000;

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () =>
  timestamp("updated_at", { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());
const instant = (name: string) => timestamp(name, { withTimezone: true });
const calendarDate = (name: string) => date(name, { mode: "string" });
const emptyTextArray = sql`'{}'::text[]`;

// ─── Users and roles ─────────────────────────────────────────────────────────

export const roles = pgTable("roles", {
  id: integer("id").primaryKey(),
  name: text("name").notNull().unique(),
});

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    displayName: text("display_name").notNull(),
    email: text("email").notNull(),
    /** As typed (by a teacher, or on an invitation's page): nobody has proved it, so it alone never logs anyone in. */
    phoneNumber: text("phone_number"),
    feideUserId: text("feide_user_id").unique(),
    /** The Vipps identity (`sub`) bound to this user once they proved the account; Vipps log-ins find them by it. */
    vippsSub: text("vipps_sub").unique(),
    /** The number Vipps vouched for when the identity was bound (digits with country code); one user per number. */
    verifiedPhone: text("verified_phone").unique(),
    isActive: boolean("is_active").notNull().default(true),
    /** Set at every successful log-in (code, Feide, Vipps): the records schedule counts a person's period from it. */
    lastLoginAt: instant("last_login_at"),
    /** When the person was anonymised (the retention run, or erasure on request); their name is then "Slettet bruker". */
    anonymisedAt: instant("anonymised_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("users_email_lower_unique").on(sql`lower(${t.email})`)],
);

export const userRoles = pgTable(
  "user_roles",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    roleId: integer("role_id")
      .notNull()
      .references(() => roles.id),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] }), index("user_roles_role_id_idx").on(t.roleId)],
);

/** Feide course memberships, refreshed at each Feide login; used to match a student to classes. */
export const userAffiliations = pgTable(
  "user_affiliations",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    groupId: text("group_id").notNull(),
    groupType: text("group_type").notNull(),
    subjectCode: text("subject_code"),
    subjectVersion: text("subject_version"),
    displayName: text("display_name").notNull(),
    active: boolean("active").notNull().default(true),
    notBefore: instant("not_before"),
    notAfter: instant("not_after"),
    fsRoles: text("fs_roles").array().notNull().default(emptyTextArray),
    fetchedAt: instant("fetched_at").notNull().defaultNow(),
  },
  (t) => [
    unique("user_affiliations_user_group_unique").on(t.userId, t.groupId),
    index("user_affiliations_subject_code_idx").on(t.subjectCode),
  ],
);

// ─── Semesters, subjects, classes ────────────────────────────────────────────

export const semesters = pgTable(
  "periods",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull().unique(),
    startDate: calendarDate("start_date").notNull(),
    endDate: calendarDate("end_date").notNull(),
  },
  (t) => [check("periods_dates_ordered", sql`${t.startDate} <= ${t.endDate}`)],
);

export const subjects = pgTable("subjects", {
  id: serial("id").primaryKey(),
  subjectCode: text("subject_code").notNull().unique(),
  name: text("name").notNull(),
});

export const classes = pgTable(
  "classes",
  {
    id: serial("id").primaryKey(),
    subjectId: integer("subject_id")
      .notNull()
      .references(() => subjects.id),
    semesterId: integer("period_id")
      .notNull()
      .references(() => semesters.id),
    midSemesterDate: calendarDate("mid_semester_date"),
    endSemesterDate: calendarDate("end_semester_date"),
  },
  (t) => [
    unique("classes_subject_period_unique").on(t.subjectId, t.semesterId),
    index("classes_period_id_idx").on(t.semesterId),
  ],
);

export const classTeachers = pgTable(
  "class_teachers",
  {
    classId: integer("class_id")
      .notNull()
      .references(() => classes.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.classId, t.userId] }), index("class_teachers_user_id_idx").on(t.userId)],
);

export const classSupervisors = pgTable(
  "class_advisors",
  {
    classId: integer("class_id")
      .notNull()
      .references(() => classes.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /**
     * Attached by accepting a student's invitation rather than by a teacher or an admin: such a
     * supervisor follows the student who invited them but may not take other students of the
     * class (ADR 0006), since a student chooses whom to invite.
     */
    viaInvitation: boolean("via_invitation").notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.classId, t.userId] }), index("class_advisors_user_id_idx").on(t.userId)],
);

/** A student's membership of a class, with the teacher and supervisor assigned to follow them up. */
export const studentReferences = pgTable(
  "student_references",
  {
    id: serial("id").primaryKey(),
    classId: integer("class_id")
      .notNull()
      .references(() => classes.id, { onDelete: "cascade" }),
    studentUserId: integer("student_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    teacherUserId: integer("teacher_user_id").references(() => users.id, { onDelete: "set null" }),
    supervisorUserId: integer("advisor_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    unique("student_references_student_class_unique").on(t.studentUserId, t.classId),
    index("student_references_class_id_idx").on(t.classId),
    index("student_references_teacher_idx").on(t.teacherUserId),
    index("student_references_advisor_idx").on(t.supervisorUserId),
  ],
);

export const studentExtraSupervisors = pgTable(
  "student_extra_supervisors",
  {
    studentReferenceId: integer("student_reference_id")
      .notNull()
      .references(() => studentReferences.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    roleId: integer("role_id")
      .notNull()
      .default(ROLE.Supervisor)
      .references(() => roles.id),
  },
  (t) => [
    primaryKey({ columns: [t.studentReferenceId, t.userId] }),
    index("student_extra_supervisors_user_id_idx").on(t.userId),
  ],
);

// ─── Forms ───────────────────────────────────────────────────────────────────
// Forms, groups and questions are soft-deleted so that editing a form never orphans answers.

export const forms = pgTable("forms", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  isMainForm: boolean("is_main_form").notNull().default(false),
  deletedAt: instant("deleted_at"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const formQuestionGroups = pgTable(
  "form_question_groups",
  {
    id: serial("id").primaryKey(),
    formId: integer("form_id")
      .notNull()
      .references(() => forms.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    order: integer("order").notNull(),
    type: smallint("type").$type<QuestionGroupType>().notNull(),
    /** Grading labels; index 5, when present, is "not relevant". */
    options: text("options").array().notNull().default(emptyTextArray),
    audience: text("audience").$type<GroupAudience>().notNull().default("all"),
    deletedAt: instant("deleted_at"),
  },
  (t) => [
    index("form_question_groups_form_order_idx").on(t.formId, t.order),
    check("form_question_groups_audience_check", sql`${t.audience} in ('all', 'student', 'staff')`),
  ],
);

export const formQuestions = pgTable(
  "form_questions",
  {
    id: serial("id").primaryKey(),
    groupId: integer("group_id")
      .notNull()
      .references(() => formQuestionGroups.id, { onDelete: "cascade" }),
    text: text("text").notNull(),
    order: integer("order").notNull(),
    helpText: text("help_text"),
    deletedAt: instant("deleted_at"),
  },
  (t) => [index("form_questions_group_order_idx").on(t.groupId, t.order)],
);

/** A response scheme: the forms a class answers at mid-semester or at the end of the semester. */
export const schemes = pgTable(
  "assignments",
  {
    id: serial("id").primaryKey(),
    classId: integer("class_id")
      .notNull()
      .references(() => classes.id, { onDelete: "cascade" }),
    isMidSemester: boolean("is_mid_semester").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("assignments_class_id_idx").on(t.classId)],
);

export const schemeForms = pgTable(
  "assignment_forms",
  {
    schemeId: integer("assignment_id")
      .notNull()
      .references(() => schemes.id, { onDelete: "cascade" }),
    formId: integer("form_id")
      .notNull()
      .references(() => forms.id),
  },
  (t) => [primaryKey({ columns: [t.schemeId, t.formId] }), index("assignment_forms_form_id_idx").on(t.formId)],
);

// ─── Answers and expectations ────────────────────────────────────────────────

/** One author's answers to one form of one scheme about one student; private until `sentAt`. */
export const answerSets = pgTable(
  "answer_sets",
  {
    id: serial("id").primaryKey(),
    formId: integer("form_id")
      .notNull()
      .references(() => forms.id),
    // No cascade: removing a scheme that already holds answers must be refused, not silently lose them.
    schemeId: integer("assignment_id")
      .notNull()
      .references(() => schemes.id),
    studentUserId: integer("student_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    authorUserId: integer("author_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    authorRoleId: integer("author_role_id")
      .$type<RoleId>()
      .notNull()
      .references(() => roles.id),
    isMidSemester: boolean("is_mid_semester").notNull(),
    sentAt: instant("sent_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique("answer_sets_form_assignment_student_author_unique").on(
      t.formId,
      t.schemeId,
      t.studentUserId,
      t.authorUserId,
    ),
    index("answer_sets_assignment_student_idx").on(t.schemeId, t.studentUserId),
    index("answer_sets_student_idx").on(t.studentUserId),
  ],
);

/**
 * `value` is text as in the API: the chosen option's index ("0"–"5") for a grading question,
 * the typed text for a text-input question.
 */
export const answers = pgTable(
  "answers",
  {
    id: serial("id").primaryKey(),
    answerSetId: integer("answer_set_id")
      .notNull()
      .references(() => answerSets.id, { onDelete: "cascade" }),
    questionId: integer("question_id")
      .notNull()
      .references(() => formQuestions.id),
    value: text("value"),
    comment: varchar("comment", { length: COMMENT_MAX_LENGTH }),
    commentedAt: instant("commented_at"),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique("answers_set_question_unique").on(t.answerSetId, t.questionId),
    index("answers_question_id_idx").on(t.questionId),
  ],
);

/** The admin's expected level per class × form × question × semester half (value as in `answers`). */
export const expectations = pgTable(
  "expectations",
  {
    id: serial("id").primaryKey(),
    classId: integer("class_id")
      .notNull()
      .references(() => classes.id, { onDelete: "cascade" }),
    formId: integer("form_id")
      .notNull()
      .references(() => forms.id),
    questionId: integer("question_id")
      .notNull()
      .references(() => formQuestions.id),
    isMidSemester: boolean("is_mid_semester").notNull(),
    value: text("value").notNull(),
    setByUserId: integer("set_by_user_id").references(() => users.id, { onDelete: "set null" }),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique("expectations_class_form_question_half_unique").on(t.classId, t.formId, t.questionId, t.isMidSemester),
  ],
);

// ─── Warnings and the signing form ───────────────────────────────────────────

/** Draft until `submittedAt`, then given; confirmed by the student at `studentConfirmedWarningAt`. */
export const warnings = pgTable("warnings", {
  id: serial("id").primaryKey(),
  // Unique: at most one live warning per student in a class (docs/rules/warnings.md).
  studentReferenceId: integer("student_reference_id")
    .notNull()
    .unique()
    .references(() => studentReferences.id, { onDelete: "cascade" }),
  teacherUserId: integer("teacher_user_id")
    .notNull()
    .references(() => users.id),
  // Drafts autosave while the teacher types, so a field may still be empty.
  comment: text("comment").notNull().default(""),
  passRequirement: text("pass_requirement").notNull().default(""),
  passRequirementSummary: text("pass_requirement_summary").notNull().default(""),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  submittedAt: instant("submitted_at"),
  studentConfirmedWarningAt: instant("student_confirmed_warning_at"),
});

export const signingForms = pgTable("signing_forms", {
  id: serial("id").primaryKey(),
  studentReferenceId: integer("student_reference_id")
    .notNull()
    .unique()
    .references(() => studentReferences.id, { onDelete: "cascade" }),
  // null means "not relevant" where the form allows it, otherwise "not yet answered".
  attendancePassed: boolean("attendance_passed"),
  workRequirementsPassed: boolean("work_requirements_passed"),
  specificCompetenceAreasPassed: boolean("specific_competence_areas_passed"),
  generalCompetenceAreasPassed: boolean("general_competence_areas_passed"),
  teacherComment: text("teacher_comment"),
  overallPassed: boolean("overall_passed"),
  isLocked: boolean("is_locked").notNull().default(false),
  midSemesterCompletedDate: calendarDate("mid_semester_completed_date"),
  endSemesterCompletedDate: calendarDate("end_semester_completed_date"),
  midSemesterSpecificCompetenceAreasBegun: boolean("mid_semester_specific_competence_areas_begun"),
  midSemesterStudentHasGivenFeedback: boolean("mid_semester_student_has_given_feedback"),
  signedByTeacherUserId: integer("signed_by_teacher_user_id").references(() => users.id, {
    onDelete: "set null",
  }),
  signedByTeacherDate: instant("signed_by_teacher_date"),
  signedByStudentUserId: integer("signed_by_student_user_id").references(() => users.id, {
    onDelete: "set null",
  }),
  signedByStudentDate: instant("signed_by_student_date"),
  signedBySupervisorUserId: integer("signed_by_advisor_user_id").references(() => users.id, {
    onDelete: "set null",
  }),
  signedBySupervisorDate: instant("signed_by_advisor_date"),
  signWithoutSupervisorConfirmedDate: instant("sign_without_advisor_confirmed_date"),
  resultSubmittedAt: instant("result_submitted_at"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** A cancelled signing form, kept as it was; cancelling resets the live form to empty. */
export const signingFormArchive = pgTable(
  "signing_form_archive",
  {
    id: serial("id").primaryKey(),
    studentReferenceId: integer("student_reference_id")
      .notNull()
      .references(() => studentReferences.id, { onDelete: "cascade" }),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    archivedAt: instant("archived_at").notNull().defaultNow(),
    archivedByUserId: integer("archived_by_user_id").references(() => users.id, { onDelete: "set null" }),
    reason: text("reason"),
  },
  (t) => [index("signing_form_archive_student_reference_idx").on(t.studentReferenceId)],
);

/** Each hand-over of a result to a student administration system (see `ResultExporter`). */
export const resultSubmissions = pgTable(
  "result_submissions",
  {
    id: serial("id").primaryKey(),
    studentReferenceId: integer("student_reference_id")
      .notNull()
      .references(() => studentReferences.id, { onDelete: "cascade" }),
    exporter: text("exporter").notNull(),
    submittedAt: instant("submitted_at").notNull().defaultNow(),
    submittedByUserId: integer("submitted_by_user_id").references(() => users.id, { onDelete: "set null" }),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
  },
  (t) => [index("result_submissions_student_reference_idx").on(t.studentReferenceId)],
);

// ─── Invitations ─────────────────────────────────────────────────────────────

/** A student's e-mail invitation to a supervisor; only the token's hash is stored. */
export const supervisorInvitations = pgTable(
  "advisor_invitations",
  {
    id: serial("id").primaryKey(),
    studentReferenceId: integer("student_reference_id")
      .notNull()
      .references(() => studentReferences.id, { onDelete: "cascade" }),
    invitedByUserId: integer("invited_by_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    expiresAt: instant("expires_at").notNull(),
    acceptedAt: instant("accepted_at"),
    acceptedUserId: integer("accepted_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("advisor_invitations_student_reference_idx").on(t.studentReferenceId)],
);

// ─── Sessions, login, security ───────────────────────────────────────────────

export const sessions = pgTable(
  "sessions",
  {
    /** Hex SHA-256 of the cookie token, so a leaked table does not yield usable cookies. */
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    activeRoleId: integer("active_role_id")
      .$type<RoleId>()
      .references(() => roles.id),
    createdAt: createdAt(),
    lastSeenAt: instant("last_seen_at").notNull().defaultNow(),
    expiresAt: instant("expires_at").notNull(),
    absoluteExpiresAt: instant("absolute_expires_at").notNull(),
    ip: text("ip"),
    userAgent: text("user_agent"),
  },
  (t) => [index("sessions_user_id_idx").on(t.userId)],
);

export const oneTimeCodes = pgTable(
  "one_time_codes",
  {
    id: serial("id").primaryKey(),
    email: text("email").notNull(),
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    createdAt: createdAt(),
    expiresAt: instant("expires_at").notNull(),
    usedAt: instant("used_at"),
    failedAttempts: integer("failed_attempts").notNull().default(0),
  },
  (t) => [index("one_time_codes_email_created_idx").on(t.email, t.createdAt)],
);

export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text("key").notNull(),
    windowStart: instant("window_start").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);

export const privacyAcceptances = pgTable(
  "privacy_acceptances",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    policyVersion: text("policy_version").notNull(),
    acceptedAt: instant("accepted_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.policyVersion] })],
);

/** No foreign keys on the subject and class: the trail must outlive what it mentions. */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: instant("at").notNull().defaultNow(),
    actorUserId: integer("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    subjectUserId: integer("subject_user_id"),
    classId: integer("class_id"),
    details: jsonb("details").$type<Record<string, unknown>>(),
    ip: text("ip"),
  },
  (t) => [
    index("audit_events_at_idx").on(t.at),
    index("audit_events_actor_idx").on(t.actorUserId),
    // A person's trail as the one it is about (the student's copy of their data, the admin's search).
    index("audit_events_subject_idx").on(t.subjectUserId, t.at),
  ],
);

/**
 * Who opened a page or document about a student (GDPR art. 15): one row per viewer, student, kind
 * of page and clock hour, written with ON CONFLICT DO NOTHING, so a teacher reloading a page adds
 * nothing and the hot pages pay one cheap statement. Apart from audit_events because it is read by
 * the student and deduplicated by its key; the primary key leads with the student, so the
 * student's list (newest first) reads one index. No foreign keys, as for the audit trail.
 */
export const recordOpenings = pgTable(
  "record_openings",
  {
    studentUserId: integer("student_user_id").notNull(),
    hour: instant("hour")
      .notNull()
      .default(sql`date_trunc('hour', now())`),
    viewerUserId: integer("viewer_user_id").notNull(),
    kind: text("kind").notNull(),
    /** The role the viewer opened it in (an admin may also teach). */
    viewerRole: smallint("viewer_role").$type<RoleId>().notNull(),
    /** The first opening in the hour. */
    at: instant("at").notNull().defaultNow(),
    classId: integer("class_id"),
  },
  (t) => [
    primaryKey({ columns: [t.studentUserId, t.hour, t.viewerUserId, t.kind] }),
    index("record_openings_viewer_idx").on(t.viewerUserId, t.at),
    index("record_openings_at_idx").on(t.at),
  ],
);

// ─── Reminders ───────────────────────────────────────────────────────────────

/** What a user chose for themself: the language of their mails, and the reminder kinds they switched off. */
export const userPreferences = pgTable("user_preferences", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** "nb" or "en"; null until chosen in Settings (mails then go in Norwegian). */
  language: text("language"),
  reminderOptOuts: text("reminder_opt_outs").array().notNull().default(emptyTextArray),
  updatedAt: updatedAt(),
});

/** The day counts of the reminders, set by an admin, one row per institution variant. */
export const reminderSettings = pgTable("reminder_settings", {
  institutionId: text("institution_id").primaryKey(),
  midDaysBefore: integer("mid_days_before").notNull(),
  endDaysBefore: integer("end_days_before").notNull(),
  signingRepeatDays: integer("signing_repeat_days").notNull(),
  adminWeeksBefore: integer("admin_weeks_before").notNull(),
  updatedByUserId: integer("updated_by_user_id").references(() => users.id, { onDelete: "set null" }),
  updatedAt: updatedAt(),
});

/**
 * One reminder to one recipient for one occasion. The unique key is what makes it go once: the
 * process whose insert takes the row sends it; every other process (or a later run) finds it taken.
 * `status`: sending (taken, being sent), sent (accepted by SMTP), failed (to be tried again at
 * `nextAttemptAt`, or given up when that is null), dropped (no longer due when its retry came).
 */
export const reminders = pgTable(
  "reminders",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    kind: text("kind").notNull(),
    recipientUserId: integer("recipient_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    occasionKey: text("occasion_key").notNull(),
    status: text("status").notNull(),
    email: text("email").notNull(),
    subject: text("subject").notNull(),
    attempts: integer("attempts").notNull().default(0),
    claimedAt: instant("claimed_at"),
    nextAttemptAt: instant("next_attempt_at"),
    sentAt: instant("sent_at"),
    lastError: text("last_error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique("reminders_kind_recipient_occasion_unique").on(t.kind, t.recipientUserId, t.occasionKey),
    index("reminders_status_next_attempt_idx").on(t.status, t.nextAttemptAt),
    index("reminders_created_at_idx").on(t.createdAt),
  ],
);

// ─── Relations (for the relational query API) ────────────────────────────────

export const rolesRelations = relations(roles, ({ many }) => ({
  userRoles: many(userRoles),
}));

export const usersRelations = relations(users, ({ many }) => ({
  roles: many(userRoles),
  affiliations: many(userAffiliations),
  teacherClasses: many(classTeachers),
  supervisorClasses: many(classSupervisors),
  studentReferences: many(studentReferences, { relationName: "studentReferenceStudent" }),
  teacherStudentReferences: many(studentReferences, { relationName: "studentReferenceTeacher" }),
  supervisorStudentReferences: many(studentReferences, { relationName: "studentReferenceSupervisor" }),
  extraSupervisions: many(studentExtraSupervisors),
  answerSetsAbout: many(answerSets, { relationName: "answerSetStudent" }),
  authoredAnswerSets: many(answerSets, { relationName: "answerSetAuthor" }),
  sessions: many(sessions),
  privacyAcceptances: many(privacyAcceptances),
}));

export const userRolesRelations = relations(userRoles, ({ one }) => ({
  user: one(users, { fields: [userRoles.userId], references: [users.id] }),
  role: one(roles, { fields: [userRoles.roleId], references: [roles.id] }),
}));

export const userAffiliationsRelations = relations(userAffiliations, ({ one }) => ({
  user: one(users, { fields: [userAffiliations.userId], references: [users.id] }),
}));

export const semestersRelations = relations(semesters, ({ many }) => ({
  classes: many(classes),
}));

export const subjectsRelations = relations(subjects, ({ many }) => ({
  classes: many(classes),
}));

export const classesRelations = relations(classes, ({ one, many }) => ({
  subject: one(subjects, { fields: [classes.subjectId], references: [subjects.id] }),
  semester: one(semesters, { fields: [classes.semesterId], references: [semesters.id] }),
  teachers: many(classTeachers),
  supervisors: many(classSupervisors),
  studentReferences: many(studentReferences),
  schemes: many(schemes),
  expectations: many(expectations),
}));

export const classTeachersRelations = relations(classTeachers, ({ one }) => ({
  class: one(classes, { fields: [classTeachers.classId], references: [classes.id] }),
  user: one(users, { fields: [classTeachers.userId], references: [users.id] }),
}));

export const classSupervisorsRelations = relations(classSupervisors, ({ one }) => ({
  class: one(classes, { fields: [classSupervisors.classId], references: [classes.id] }),
  user: one(users, { fields: [classSupervisors.userId], references: [users.id] }),
}));

export const studentReferencesRelations = relations(studentReferences, ({ one, many }) => ({
  class: one(classes, { fields: [studentReferences.classId], references: [classes.id] }),
  student: one(users, {
    fields: [studentReferences.studentUserId],
    references: [users.id],
    relationName: "studentReferenceStudent",
  }),
  teacher: one(users, {
    fields: [studentReferences.teacherUserId],
    references: [users.id],
    relationName: "studentReferenceTeacher",
  }),
  supervisor: one(users, {
    fields: [studentReferences.supervisorUserId],
    references: [users.id],
    relationName: "studentReferenceSupervisor",
  }),
  extraSupervisors: many(studentExtraSupervisors),
  warning: one(warnings),
  signingForm: one(signingForms),
  signingFormArchive: many(signingFormArchive),
  resultSubmissions: many(resultSubmissions),
  supervisorInvitations: many(supervisorInvitations),
}));

export const studentExtraSupervisorsRelations = relations(studentExtraSupervisors, ({ one }) => ({
  studentReference: one(studentReferences, {
    fields: [studentExtraSupervisors.studentReferenceId],
    references: [studentReferences.id],
  }),
  user: one(users, { fields: [studentExtraSupervisors.userId], references: [users.id] }),
  role: one(roles, { fields: [studentExtraSupervisors.roleId], references: [roles.id] }),
}));

export const formsRelations = relations(forms, ({ many }) => ({
  groups: many(formQuestionGroups),
  schemeForms: many(schemeForms),
}));

export const formQuestionGroupsRelations = relations(formQuestionGroups, ({ one, many }) => ({
  form: one(forms, { fields: [formQuestionGroups.formId], references: [forms.id] }),
  questions: many(formQuestions),
}));

export const formQuestionsRelations = relations(formQuestions, ({ one, many }) => ({
  group: one(formQuestionGroups, { fields: [formQuestions.groupId], references: [formQuestionGroups.id] }),
  answers: many(answers),
}));

export const schemesRelations = relations(schemes, ({ one, many }) => ({
  class: one(classes, { fields: [schemes.classId], references: [classes.id] }),
  forms: many(schemeForms),
  answerSets: many(answerSets),
}));

export const schemeFormsRelations = relations(schemeForms, ({ one }) => ({
  scheme: one(schemes, { fields: [schemeForms.schemeId], references: [schemes.id] }),
  form: one(forms, { fields: [schemeForms.formId], references: [forms.id] }),
}));

export const answerSetsRelations = relations(answerSets, ({ one, many }) => ({
  form: one(forms, { fields: [answerSets.formId], references: [forms.id] }),
  scheme: one(schemes, { fields: [answerSets.schemeId], references: [schemes.id] }),
  student: one(users, {
    fields: [answerSets.studentUserId],
    references: [users.id],
    relationName: "answerSetStudent",
  }),
  author: one(users, {
    fields: [answerSets.authorUserId],
    references: [users.id],
    relationName: "answerSetAuthor",
  }),
  answers: many(answers),
}));

export const answersRelations = relations(answers, ({ one }) => ({
  answerSet: one(answerSets, { fields: [answers.answerSetId], references: [answerSets.id] }),
  question: one(formQuestions, { fields: [answers.questionId], references: [formQuestions.id] }),
}));

export const expectationsRelations = relations(expectations, ({ one }) => ({
  class: one(classes, { fields: [expectations.classId], references: [classes.id] }),
  form: one(forms, { fields: [expectations.formId], references: [forms.id] }),
  question: one(formQuestions, { fields: [expectations.questionId], references: [formQuestions.id] }),
}));

export const warningsRelations = relations(warnings, ({ one }) => ({
  studentReference: one(studentReferences, {
    fields: [warnings.studentReferenceId],
    references: [studentReferences.id],
  }),
  teacher: one(users, { fields: [warnings.teacherUserId], references: [users.id] }),
}));

export const signingFormsRelations = relations(signingForms, ({ one }) => ({
  studentReference: one(studentReferences, {
    fields: [signingForms.studentReferenceId],
    references: [studentReferences.id],
  }),
}));

export const signingFormArchiveRelations = relations(signingFormArchive, ({ one }) => ({
  studentReference: one(studentReferences, {
    fields: [signingFormArchive.studentReferenceId],
    references: [studentReferences.id],
  }),
}));

export const resultSubmissionsRelations = relations(resultSubmissions, ({ one }) => ({
  studentReference: one(studentReferences, {
    fields: [resultSubmissions.studentReferenceId],
    references: [studentReferences.id],
  }),
}));

export const supervisorInvitationsRelations = relations(supervisorInvitations, ({ one }) => ({
  studentReference: one(studentReferences, {
    fields: [supervisorInvitations.studentReferenceId],
    references: [studentReferences.id],
  }),
  invitedBy: one(users, { fields: [supervisorInvitations.invitedByUserId], references: [users.id] }),
}));

export const sessionsRelations = relations(sessions, ({ one }) => ({
  user: one(users, { fields: [sessions.userId], references: [users.id] }),
  activeRole: one(roles, { fields: [sessions.activeRoleId], references: [roles.id] }),
}));

export const privacyAcceptancesRelations = relations(privacyAcceptances, ({ one }) => ({
  user: one(users, { fields: [privacyAcceptances.userId], references: [users.id] }),
}));

// ─── Row types ───────────────────────────────────────────────────────────────

export type Role = typeof roles.$inferSelect;
export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type UserAffiliation = typeof userAffiliations.$inferSelect;
export type NewUserAffiliation = typeof userAffiliations.$inferInsert;
export type Subject = typeof subjects.$inferSelect;
export type Class = typeof classes.$inferSelect;
export type StudentReference = typeof studentReferences.$inferSelect;
export type Form = typeof forms.$inferSelect;
export type FormQuestionGroup = typeof formQuestionGroups.$inferSelect;
export type FormQuestion = typeof formQuestions.$inferSelect;
export type AnswerSet = typeof answerSets.$inferSelect;
export type Answer = typeof answers.$inferSelect;
export type Expectation = typeof expectations.$inferSelect;
export type Warning = typeof warnings.$inferSelect;
export type SigningForm = typeof signingForms.$inferSelect;
export type NewSigningForm = typeof signingForms.$inferInsert;
export type SigningFormArchiveEntry = typeof signingFormArchive.$inferSelect;
export type ResultSubmission = typeof resultSubmissions.$inferSelect;
export type SupervisorInvitation = typeof supervisorInvitations.$inferSelect;
export type Session = typeof sessions.$inferSelect;
export type OneTimeCode = typeof oneTimeCodes.$inferSelect;
export type AuditEvent = typeof auditEvents.$inferSelect;
export type RecordOpening = typeof recordOpenings.$inferSelect;
export type UserPreferences = typeof userPreferences.$inferSelect;
export type ReminderSettingsRow = typeof reminderSettings.$inferSelect;
export type Reminder = typeof reminders.$inferSelect;
