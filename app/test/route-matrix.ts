import path from "node:path";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { and, eq } from "drizzle-orm";
import routes from "~/routes";
import type { Db } from "~/services/platform/db/client.server";
import {
  schemes,
  classes,
  forms,
  semesters,
  signingForms,
  studentReferences,
  subjects,
  warnings,
} from "~/services/platform/db/schema";
import { userIdOf } from "~/test/app";
import type { Principal } from "~/test/principals";
import type { RouteModuleLike } from "~/test/route";

/**
 * The permission matrix: for every route of app/routes.ts, who may use its loader and its
 * action. app/routes/permission-matrix.test.ts asks every principal (principals.ts) for every route
 * and holds the answers to this; a route without an entry here fails that test, so a new route
 * cannot be added without deciding who may use it. app/routes/bad-input.test.ts posts malformed
 * forms to every action here as its first allowed principal.
 */

/** A route of the table, its full URL pattern and its module file (relative to app/). */
export interface RouteRow {
  id: string;
  file: string;
  /** "admin/class/:classId" ("" for the root index). */
  pattern: string;
}

/** The route table flattened, children after their parent, with React Router's default ids. */
export function routeRows(entries: RouteConfigEntry[] = routes, parent = ""): RouteRow[] {
  return entries.flatMap((entry) => {
    const pattern = [parent, entry.path ?? ""].filter(Boolean).join("/");
    const id = entry.id ?? entry.file.replace(/\.[jt]sx?$/, "");
    return [{ id, file: entry.file, pattern }, ...routeRows(entry.children ?? [], pattern)];
  });
}

export async function importRoute(row: RouteRow): Promise<RouteModuleLike> {
  return (await import(/* @vite-ignore */ path.resolve("app", row.file))) as RouteModuleLike;
}

/** The URL of a route with its params filled in ("*" for a splat). */
export function urlOf(row: RouteRow, params: Record<string, string>): string {
  const filled = row.pattern
    .split("/")
    .filter(Boolean)
    .map((segment) => {
      const name = segment === "*" ? "*" : segment.startsWith(":") ? segment.slice(1).replace(/\?$/, "") : null;
      if (name === null) return segment;
      const value = params[name];
      if (value === undefined) throw new Error(`route "${row.id}": no value for the param "${name}" in the matrix`);
      return value;
    });
  return `/${filled.join("/")}`;
}

/**
 * Who may use a loader or an action. `public`: everyone, logged in or not (any answer below 500,
 * or exactly `status`). `allow`: these principals succeed; every other one is refused (401, 403,
 * 404, or sent to the log-in page, the role chooser or the privacy gate) and sees nothing of
 * student01.
 */
export type Rule = { public: true; status?: number } | { allow: readonly Principal[] };

export interface MatrixEntry {
  /** The loader's rule; for a layout with middleware only, the rule of its middleware. */
  loader?: Rule;
  action?: Rule;
  /** Params beyond the standard ones (standardParams). */
  params?: Record<string, string>;
  /** A plausible post that passes the guard and changes nothing the other rows depend on. */
  body?: Record<string, string>;
  /** The action ends or changes the session: each post gets a new one. */
  freshSession?: boolean;
  /** Who posts in the bad-input sweep, when not the first allowed principal. */
  poster?: Principal;
}

/** The demo data's ids the matrix needs (seed.server.ts). */
export interface SeedIds {
  classA: number;
  mainForm: number;
  /** A specific-competency form that only class A answers (the medication form). */
  formOfA: number;
  midA: number;
  semester: number;
  student01: number;
  veileder1: number;
}

export async function seedIds(db: Db): Promise<SeedIds> {
  const [classA] = await db
    .select({ id: classes.id, semesterId: classes.semesterId })
    .from(classes)
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .innerJoin(semesters, eq(semesters.id, classes.semesterId))
    .where(eq(subjects.subjectCode, "SYK2001"))
    .orderBy(semesters.startDate);
  const [mainForm] = await db.select({ id: forms.id }).from(forms).where(eq(forms.isMainForm, true));
  const [formOfA] = await db.select({ id: forms.id }).from(forms).where(eq(forms.name, "Legemiddelhåndtering"));
  const [midA] = await db
    .select({ id: schemes.id })
    .from(schemes)
    .where(and(eq(schemes.classId, classA.id), eq(schemes.isMidSemester, true)));
  return {
    classA: classA.id,
    mainForm: mainForm.id,
    formOfA: formOfA.id,
    midA: midA.id,
    semester: classA.semesterId,
    student01: await userIdOf(db, "student01@example.org"),
    veileder1: await userIdOf(db, "veileder1@example.org"),
  };
}

/**
 * Gives student01 what her documents need: a given warning and a signing form (the demo data gives
 * them to class B's students), so her warning and signing-form PDFs exist for those entitled.
 */
export async function giveStudent01Documents(db: Db, ids: SeedIds): Promise<void> {
  const [reference] = await db
    .select({ id: studentReferences.id })
    .from(studentReferences)
    .where(and(eq(studentReferences.classId, ids.classA), eq(studentReferences.studentUserId, ids.student01)));
  const now = new Date();
  await db.insert(warnings).values({
    studentReferenceId: reference.id,
    teacherUserId: await userIdOf(db, "laerer1@example.org"),
    comment: "Kommer for sent til vakt.",
    passRequirement: "Møte presis.",
    passRequirementSummary: "Presis oppmøte.",
    createdAt: now,
    updatedAt: now,
    submittedAt: now,
  });
  await db.insert(signingForms).values({ studentReferenceId: reference.id, createdAt: now, updatedAt: now });
}

/** Every URL names student01 in class A, her main form and its mid-semester scheme. */
export function standardParams(ids: SeedIds): Record<string, string> {
  return {
    classId: String(ids.classA),
    studentUserId: String(ids.student01),
    userId: String(ids.student01),
    formId: String(ids.mainForm),
    schemeId: String(ids.midA),
    semesterId: String(ids.semester),
    provider: "feide",
    "*": "no-such-page",
  };
}

const PUBLIC: Rule = { public: true };
const nobody: Rule = { allow: [] };
const admin: Rule = { allow: ["admin"] };
const loggedIn: Rule = {
  allow: ["admin", "student", "teacher", "supervisor", "otherStudent", "otherTeacher", "otherSupervisor"],
};
/** Everyone entitled to student01: she, her teacher, her supervisor, the admin. */
const hers: Rule = { allow: ["admin", "student", "teacher", "supervisor"] };
const students: Rule = { allow: ["student", "otherStudent"] };
const student: Rule = { allow: ["student"] };
const teachers: Rule = { allow: ["teacher", "otherTeacher"] };
const teacher: Rule = { allow: ["teacher"] };
const supervisors: Rule = { allow: ["supervisor", "otherSupervisor"] };
const supervisor: Rule = { allow: ["supervisor"] };
const methodNotAllowed: Rule = { public: true, status: 405 };

/** The matrix, by route id. */
export function permissionMatrix(ids: SeedIds): Record<string, MatrixEntry> {
  const formPost = { intent: "save" };
  return {
    // Resource routes
    "routes/api/healthz": { loader: PUBLIC },
    // A development tool (the local mail outbox, off with SMTP); the matrix's posts mail nobody real.
    "routes/dev/outbox": { loader: PUBLIC },
    "routes/api/students-csv": { loader: admin },
    // The empty form: no personal data, for everyone with a role.
    "routes/api/form-pdf": { loader: loggedIn },
    "routes/api/answers-pdf": { loader: hers },
    "routes/api/warning-pdf": { loader: hers },
    "routes/api/signing-form-pdf": { loader: hers },
    "routes/api/full-pdf": { loader: hers },
    // A student's copy of their own data: the session decides whose, so another student gets theirs, never hers.
    "routes/api/my-data": { loader: students },
    "routes/api/audit-csv": { loader: admin },
    "routes/api/answers": {
      loader: methodNotAllowed,
      action: hers,
      poster: "student",
      body: {
        classId: String(ids.classA),
        formId: String(ids.mainForm),
        schemeId: String(ids.midA),
        studentUserId: String(ids.student01),
      },
    },
    // The body lacks warningId (400): the guard is what is tested, no draft is made.
    "routes/api/warning": { loader: methodNotAllowed, action: teacher },

    // Log-in area
    "routes/auth/home": { loader: PUBLIC },
    login: { loader: PUBLIC, action: PUBLIC, body: { email: "nobody@example.org" } },
    "login-simple": { loader: PUBLIC, action: PUBLIC, body: { email: "nobody@example.org" } },
    otp: { loader: PUBLIC, action: PUBLIC, body: { code: "000000" } },
    "otp-simple": { loader: PUBLIC, action: PUBLIC, body: { code: "000000" } },
    "routes/auth/logout": { loader: PUBLIC, action: PUBLIC, freshSession: true },
    "routes/auth/role": { loader: loggedIn, action: loggedIn, body: { roleId: "1" }, freshSession: true },
    "routes/auth/provider-start": { loader: PUBLIC, action: PUBLIC },
    "feide-success": { loader: PUBLIC },
    "vipps-success": { loader: PUBLIC },
    // Without the signed cookie of a Vipps log-in that is waiting for its e-mail code, both go to the log-in page.
    "routes/auth/vipps-confirm": { loader: PUBLIC, action: PUBLIC, body: { code: "000000" } },
    // Off unless DEBUG_FS is set: 404 for everyone.
    "routes/debug/fs": { loader: nobody },
    "routes/auth/accept-invitation": { loader: PUBLIC, action: PUBLIC, body: { intent: "accept" }, freshSession: true },

    // Shared pages
    "routes/shared/privacy-policy": { loader: PUBLIC },
    "routes/shared/privacy-consent": {
      loader: loggedIn,
      action: loggedIn,
      body: { intent: "accept" },
      freshSession: true,
    },
    // Public (the language); its reminders form needs a log-in (401 without one, tested in settings.test.ts).
    "routes/shared/settings": { loader: PUBLIC, action: PUBLIC, body: { language: "nb" } },
    "routes/shared/independence-scale": { loader: PUBLIC },
    "routes/shared/accessibility": { loader: PUBLIC },

    // Admin area
    "admin-area": { loader: admin },
    "routes/admin/home": { loader: admin },
    "routes/admin/semesters": { loader: admin, action: admin },
    "routes/admin/semester": { loader: admin, action: admin },
    "routes/admin/subjects": { loader: admin, action: admin },
    "routes/admin/forms": { loader: admin },
    "admin-form-create": { loader: admin, action: admin, body: { intent: "edit" } },
    "admin-form-edit": { loader: admin, action: admin, body: { intent: "edit" } },
    "routes/admin/class": { loader: admin, action: admin },
    "routes/admin/class-supervisor": { loader: admin, params: { userId: String(ids.veileder1) } },
    "admin-form": { loader: admin, action: admin, body: formPost },
    "routes/admin/users": { loader: admin },
    "routes/admin/audit": { loader: admin },
    "routes/admin/user": { loader: admin, action: admin, body: { intent: "save" } },
    // The box "Jeg forstår at dette ikke kan angres" is not ticked (400): the guard is what is tested, nobody is erased.
    "routes/admin/erase-user": { loader: admin, action: admin, body: { intent: "erase" } },
    // The body is incomplete (400): the guard is what is tested, the day counts stay as they are.
    "routes/admin/reminders": { loader: admin, action: admin },
    "routes/admin/retention": { loader: admin },
    "admin-fallback": { loader: admin, action: admin },

    // Student area
    "student-area": { loader: students },
    "routes/student/home": { loader: students },
    "routes/student/join-class": { loader: students, action: students },
    // Her own access list only (no URL names a student); teachers, supervisors and admins are refused.
    "routes/student/my-data": { loader: students },
    "routes/student/class-layout": { loader: students },
    "routes/student/forms": { loader: students },
    "routes/student/invite": { loader: students, action: students },
    "student-form": { loader: student, action: student, body: formPost },
    "student-results": { loader: student },
    "student-signing-form": { loader: student, action: student, body: { intent: "sign" } },
    "routes/student/warning": { loader: students, action: students },
    "student-fallback": { loader: students, action: students },

    // Teacher area
    "teacher-area": { loader: teachers },
    "routes/teacher/home": { loader: teachers },
    // A teacher of another class sees the class's header (to join it), none of its students.
    "routes/teacher/class": { loader: teachers, action: teachers },
    "routes/teacher/add-students": { loader: teacher, action: teacher },
    "routes/teacher/add-supervisor": { loader: teacher, action: teacher },
    "routes/teacher/student": { loader: teacher, action: teacher },
    "routes/teacher/supervisor": { loader: teacher, params: { userId: String(ids.veileder1) } },
    "teacher-form": { loader: teacher, action: teacher, body: formPost },
    "teacher-results": { loader: teacher },
    "teacher-signing-form": { loader: teacher, action: teacher, body: { intent: "sign" } },
    "routes/teacher/warning": { loader: teacher, action: teacher, body: { intent: "none-such" } },
    "routes/teacher/warning-delete": { loader: teacher, action: teacher },
    // Her warning is given (giveStudent01Documents): the page leads back to it; the empty post is a 400, nothing given.
    "routes/teacher/warning-give": { loader: teacher, action: teacher },
    // The class's teachers only; the empty post is a 400 (no confirmation): nobody leaves.
    "routes/teacher/leave-class": { loader: teacher, action: teacher },
    // A form that only class A answers: its teachers; not a teacher whose classes do not use it.
    "teacher-form-read": { loader: teacher, params: { formId: String(ids.formOfA) } },
    "teacher-fallback": { loader: teachers, action: teachers },

    // Supervisor area
    "supervisor-area": { loader: supervisors },
    "routes/supervisor/home": { loader: supervisors },
    // A supervisor of the class sees it, and only the students they follow.
    "routes/supervisor/class": { loader: supervisors, action: supervisors },
    "routes/supervisor/student": { loader: supervisor },
    "supervisor-form": { loader: supervisor, action: supervisor, body: formPost },
    "supervisor-results": { loader: supervisor },
    "supervisor-signing-form": { loader: supervisor, action: supervisor, body: { intent: "sign" } },
    // Both supervisors are attached to class A, which answers the form.
    "supervisor-form-read": { loader: supervisors, params: { formId: String(ids.formOfA) } },
    "supervisor-fallback": { loader: supervisors, action: supervisors },

    "routes/shared/advisor-redirect": { loader: PUBLIC, action: PUBLIC },
    "routes/shared/not-found": { loader: { public: true, status: 404 }, action: { public: true, status: 404 } },
  };
}
