import { index, layout, route, type RouteConfig } from "@react-router/dev/routes";

/** Every URL of the app, in one place. Area layouts guard everything below them. */
export default [
  // Resource routes
  route("healthz", "routes/api/healthz.ts"),
  route("dev/outbox", "routes/dev/outbox.tsx"),
  route("api/periods/:semesterId/students-csv", "routes/api/students-csv.ts"),
  // Documents (PDF): guarded like the pages that link to them; every download of a student's document is audited.
  route("api/forms/:formId/pdf", "routes/api/form-pdf.ts"),
  route("api/classes/:classId/students/:studentUserId/forms/:formId/pdf", "routes/api/answers-pdf.ts"),
  route("api/classes/:classId/students/:studentUserId/warning/pdf", "routes/api/warning-pdf.ts"),
  route("api/classes/:classId/students/:studentUserId/signingform/pdf", "routes/api/signing-form-pdf.ts"),
  route("api/classes/:classId/students/:studentUserId/full/pdf", "routes/api/full-pdf.ts"),
  // A student's copy of their data (JSON) and the admin's audit search as CSV; both audited (docs/rules/documents.md).
  route("api/my-data", "routes/api/my-data.ts"),
  route("api/audit-csv", "routes/api/audit-csv.ts"),
  // The form page's autosave (fetch with JavaScript); the page's own action handles plain posts.
  route("api/answers", "routes/api/answers.ts"),
  // The warning page's autosave (fetch with JavaScript); the page's own action handles plain posts.
  route("api/classes/:classId/students/:studentUserId/warning", "routes/api/warning.ts"),

  // Log-in area
  index("routes/auth/home.tsx"),
  route("login", "routes/auth/login.tsx", { id: "login" }),
  route("login-simple", "routes/auth/login.tsx", { id: "login-simple" }),
  route("otp", "routes/auth/otp.tsx", { id: "otp" }),
  route("otp-simple", "routes/auth/otp.tsx", { id: "otp-simple" }),
  route("logout", "routes/auth/logout.tsx"),
  route("role", "routes/auth/role.tsx"),
  route("auth/:provider", "routes/auth/provider-start.tsx"),
  route("feide-success", "routes/auth/provider-callback.tsx", { id: "feide-success" }),
  route("vipps-success", "routes/auth/provider-callback.tsx", { id: "vipps-success" }),
  // A Vipps number nobody has proved yet: the account's e-mail code, once, before Vipps is bound to it.
  route("vipps-confirm", "routes/auth/vipps-confirm.tsx"),
  route("debug/fs", "routes/debug/fs.tsx"),
  // Reached from the invitation mail before the supervisor has an account, so outside the guarded area.
  route("supervisor/accept-invitation", "routes/auth/accept-invitation.tsx"),

  // Shared pages
  route("privacy-policy", "routes/shared/privacy-policy.tsx"),
  route("privacy-consent", "routes/shared/privacy-consent.tsx"),
  route("settings", "routes/shared/settings.tsx"),
  // Reference for everyone who grades (opened in a new tab from the form page); no personal data.
  route("independence-scale", "routes/shared/independence-scale.tsx"),
  // What Praksis meets of universal design, and whom to contact; linked from every page's footer. No personal data.
  route("accessibility", "routes/shared/accessibility.tsx"),

  // Role areas: each area's layout (routes/<area>/area.tsx) lets in only a session acting in its role, and gives
  // that role to the pages below it; a page shared by several areas (routes/shared/) reads its role from there.
  route("admin", "routes/admin/area.tsx", { id: "admin-area" }, [
    index("routes/admin/home.tsx"),
    route("semesters", "routes/admin/semesters.tsx"),
    route("semesters/:semesterId", "routes/admin/semester.tsx"),
    route("subjects", "routes/admin/subjects.tsx"),
    route("forms", "routes/admin/forms.tsx"),
    route("forms/create", "routes/admin/form-editor.tsx", { id: "admin-form-create" }),
    route("forms/edit/:formId", "routes/admin/form-editor.tsx", { id: "admin-form-edit" }),
    route("class/:classId", "routes/admin/class.tsx"),
    route("class/:classId/supervisor/:userId", "routes/admin/class-supervisor.tsx"),
    // The admin answers a form to set the expected levels (one implementation for the four roles).
    route("class/:classId/form/:formId/assignment/:schemeId", "routes/shared/form-page.tsx", { id: "admin-form" }),
    route("users", "routes/admin/users.tsx"),
    route("users/:userId", "routes/admin/user.tsx"),
    // Erasing one person on request: what goes and what is kept, then a confirmation (docs/rules/records.md).
    route("users/:userId/erase", "routes/admin/erase-user.tsx"),
    route("audit", "routes/admin/audit.tsx"),
    route("reminders", "routes/admin/reminders.tsx"),
    // What the next daily retention run will delete or anonymise, before it happens; read-only.
    route("retention", "routes/admin/retention.tsx"),
    route("*", "routes/shared/area-fallback.tsx", { id: "admin-fallback" }),
  ]),
  route("student", "routes/student/area.tsx", { id: "student-area" }, [
    index("routes/student/home.tsx"),
    route("join-class", "routes/student/join-class.tsx"),
    // Who opened the student's record, and a copy of their data (docs/rules/documents.md): with or without a class.
    route("my-data", "routes/student/my-data.tsx"),
    // Every other student page needs a class this semester (docs/rules/placements.md); the layout sends others to /student.
    layout("routes/student/class-layout.tsx", [
      route("forms", "routes/student/forms.tsx"),
      route("supervisor/invite", "routes/student/invite.tsx"),
      route(":studentUserId/form/:formId/class/:classId/assignment/:schemeId", "routes/shared/form-page.tsx", {
        id: "student-form",
      }),
      route(":studentUserId/form/:formId/class/:classId/results", "routes/shared/form-results.tsx", {
        id: "student-results",
      }),
      // The signing form: one implementation for the student, the teacher and the supervisor.
      route("class/:classId/student/:studentUserId/signingform", "routes/shared/signing-form.tsx", {
        id: "student-signing-form",
      }),
      route("warning", "routes/student/warning.tsx"),
    ]),
    route("*", "routes/shared/area-fallback.tsx", { id: "student-fallback" }),
  ]),
  route("teacher", "routes/teacher/area.tsx", { id: "teacher-area" }, [
    index("routes/teacher/home.tsx"),
    route("class/:classId", "routes/teacher/class.tsx"),
    route("class/:classId/students/add", "routes/teacher/add-students.tsx"),
    route("class/:classId/supervisors/add", "routes/teacher/add-supervisor.tsx"),
    route("class/:classId/student/:userId", "routes/teacher/student.tsx"),
    route("class/:classId/supervisor/:userId", "routes/teacher/supervisor.tsx"),
    route("class/:classId/student/:studentUserId/form/:formId/assignment/:schemeId", "routes/shared/form-page.tsx", {
      id: "teacher-form",
    }),
    route("class/:classId/student/:studentUserId/form/:formId/results", "routes/shared/form-results.tsx", {
      id: "teacher-results",
    }),
    route("class/:classId/student/:studentUserId/signingform", "routes/shared/signing-form.tsx", {
      id: "teacher-signing-form",
    }),
    route("class/:classId/student/:studentUserId/warning", "routes/teacher/warning.tsx"),
    route("class/:classId/student/:studentUserId/warning/delete", "routes/teacher/warning-delete.tsx"),
    // Giving a warning and leaving a class ask first, each on a page of its own (JS on and off).
    route("class/:classId/student/:studentUserId/warning/give", "routes/teacher/warning-give.tsx"),
    route("class/:classId/leave", "routes/teacher/leave-class.tsx"),
    // A form to read, what the student will be asked (docs/rules/documents.md): one implementation for the teacher and the supervisor.
    route("form/:formId", "routes/shared/form-read.tsx", { id: "teacher-form-read" }),
    route("*", "routes/shared/area-fallback.tsx", { id: "teacher-fallback" }),
  ]),
  route("supervisor", "routes/supervisor/area.tsx", { id: "supervisor-area" }, [
    index("routes/supervisor/home.tsx"),
    route("class/:classId", "routes/supervisor/class.tsx"),
    route("class/:classId/student/:userId", "routes/supervisor/student.tsx"),
    route("class/:classId/student/:studentUserId/form/:formId/assignment/:schemeId", "routes/shared/form-page.tsx", {
      id: "supervisor-form",
    }),
    route("class/:classId/student/:studentUserId/form/:formId/results", "routes/shared/form-results.tsx", {
      id: "supervisor-results",
    }),
    route("class/:classId/student/:studentUserId/signingform", "routes/shared/signing-form.tsx", {
      id: "supervisor-signing-form",
    }),
    route("form/:formId", "routes/shared/form-read.tsx", { id: "supervisor-form-read" }),
    route("*", "routes/shared/area-fallback.tsx", { id: "supervisor-fallback" }),
  ]),
  // The Advisor role's area is /supervisor, the interface's word (docs/glossary.md); /advisor redirects there.
  route("advisor/*", "routes/shared/advisor-redirect.ts"),

  route("*", "routes/shared/not-found.tsx"),
] satisfies RouteConfig;
