// Every text field with a limit carries `maxlength` equal to the limit its schema checks (so
// input beyond it cannot be typed, with JavaScript or without; the server's check stays). Each page
// is rendered from its real loader's data, as the server renders it for a user of the right role.
import { and, eq, isNotNull } from "drizzle-orm";
import { createInstance } from "i18next";
import type { ComponentType } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { createRoutesStub } from "react-router";
import type { z } from "zod";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import resources from "~/locales";
import {
  DISPLAY_NAME_MAX_LENGTH,
  LIMITS,
  SUBJECT_CODE_MAX,
  SUBJECT_NAME_MAX,
  USER_SEARCH_MAX_LENGTH,
} from "~/services/admin";
import { COMMENT_LIMIT, TEXT_ANSWER_LIMIT } from "~/services/answering";
import { ROLE } from "~/services/identity";
import { INVITED_PHONE_MAX, STUDENT_SEARCH_MAX_LENGTH } from "~/services/placements";
import { schemes, forms, signingForms, studentReferences } from "~/services/platform/db/schema";
import { EMAIL_MAX, PERSON_NAME_MAX } from "~/services/platform/field-limits";
import { TEACHER_COMMENT_LIMIT } from "~/services/signing";
import { WARNING_TEXT_LIMIT } from "~/services/warnings";
import { classIdOf, cookieActingAs, startTestApp, stopTestApp, userIdOf } from "~/test/app";
import { callLoader, getPage, type RouteModuleLike } from "~/test/route";
import * as subjects from "./admin/subjects";
import { schema as subjectsSchema } from "./admin/subjects.schema";
import * as user from "./admin/user";
import { schema as userSchema } from "./admin/user.schema";
import * as users from "./admin/users";
import * as formEditor from "./admin/form-editor";
import AcceptInvitation from "./auth/accept-invitation";
import { newSupervisorSchema } from "./auth/accept-invitation.schema";
import Login from "./auth/login";
import { schema as loginSchema } from "./auth/login.schema";
import * as formPage from "./shared/form-page";
import * as signingForm from "./shared/signing-form";
import Invite from "./student/invite";
import { schema as inviteSchema } from "./student/invite.schema";
import * as addStudents from "./teacher/add-students";
import * as addSupervisor from "./teacher/add-supervisor";
import { schema as addSupervisorSchema } from "./teacher/add-supervisor.schema";
import { SUPERVISOR_EMAIL_MAX, SUPERVISOR_NAME_MAX } from "./teacher/add-supervisor.limits";
import * as warning from "./teacher/warning";
import { schema as warningSchema } from "./teacher/warning.schema";
import { endPartSchema } from "~/services/signing/signing-form.schema";

let app: Awaited<ReturnType<typeof startTestApp>>;
const db = () => app.database.db;
const cookies: Record<string, string> = {};

beforeAll(async () => {
  app = await startTestApp();
  cookies.admin = await cookieActingAs(db(), "admin@example.org", ROLE.Admin);
  cookies.adminTeacher = await cookieActingAs(db(), "admin@example.org", ROLE.Teacher);
  cookies.laerer1 = await cookieActingAs(db(), "laerer1@example.org", ROLE.Teacher);
  cookies.student05 = await cookieActingAs(db(), "student05@example.org", ROLE.Student);
});

afterAll(async () => {
  await stopTestApp(app);
});

async function render(Component: ComponentType<never>, loaderData: unknown, url = "/page"): Promise<string> {
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({ lng: "nb", resources: resources, fallbackLng: false, defaultNS: "common" });
  const Stub = createRoutesStub([
    { id: "page", path: url.split("?")[0], Component: Component as never, loader: () => loaderData },
  ]);
  return renderToString(
    <I18nextProvider i18n={i18n}>
      <Stub initialEntries={[url]} hydrationData={{ loaderData: { page: loaderData } }} />
    </I18nextProvider>,
  );
}

/** The page as its loader makes it for the user of `cookie`. */
async function page(
  mod: RouteModuleLike & { default: ComponentType<never> },
  path: string,
  cookie: string,
  params: Record<string, string> = {},
): Promise<string> {
  const response = await callLoader(mod, getPage(path, { cookie }), params);
  expect(response.status, path).toBe(200);
  return render(mod.default, await response.json(), path);
}

/** The maxlength of every input or textarea named `name` in the page (one entry per field). */
function maxLengthsOf(html: string, name: string): (number | null)[] {
  const tags = html.match(/<(input|textarea)\b[^>]*>/g) ?? [];
  return tags
    .filter((tag) => tag.includes(` name="${name}"`))
    .map((tag) => {
      const found = /\bmaxLength="(\d+)"/i.exec(tag);
      return found ? Number(found[1]) : null;
    });
}

/** The schema accepts a text of exactly `limit` characters in `field` and refuses one more. */
function expectSchemaLimit(
  schema: z.ZodType,
  valid: Record<string, unknown>,
  field: string,
  limit: number,
  filler = "a",
) {
  const at = (n: number) => ({ ...valid, [field]: filler.repeat(n) });
  const ok = schema.safeParse(at(limit));
  const over = schema.safeParse(at(limit + 1));
  expect(ok.success ? [] : ok.error.issues.filter((i) => i.path[0] === field), `${field} at ${limit}`).toEqual([]);
  expect(
    over.success ? [] : over.error.issues.filter((i) => i.path[0] === field).map((i) => i.path[0]),
    `${field} at ${limit + 1}`,
  ).toEqual([field]);
}

describe("log-in and invitations", () => {
  test("the log-in e-mail", async () => {
    // An address of exactly the limit is still an address.
    expect(loginSchema.safeParse({ email: `${"a".repeat(EMAIL_MAX - 12)}@example.org` }).success).toBe(true);
    expect(loginSchema.safeParse({ email: `${"a".repeat(EMAIL_MAX - 11)}@example.org` }).success).toBe(false);
    const html = await render(Login as never, { redirectTo: "", simple: false }, "/login");
    expect(maxLengthsOf(html, "email")).toEqual([EMAIL_MAX]);
  });

  test("the student's invitation of a supervisor", async () => {
    expect(inviteSchema.safeParse({ email: `${"a".repeat(EMAIL_MAX - 12)}@example.org` }).success).toBe(true);
    expect(inviteSchema.safeParse({ email: `${"a".repeat(EMAIL_MAX - 11)}@example.org` }).success).toBe(false);
    const html = await render(Invite as never, {
      subject: "SYK2001 Praksis i sykehjem",
      hasSupervisor: false,
      status: null,
    });
    expect(maxLengthsOf(html, "email")).toEqual([EMAIL_MAX]);
  });

  test("accepting an invitation: name and phone", async () => {
    expectSchemaLimit(
      newSupervisorSchema,
      { fullName: "Ny Veileder", phone: "+4798765432" },
      "fullName",
      PERSON_NAME_MAX,
    );
    // Spaces count: a number of 8 digits spread over exactly the limit, and over it.
    const phone = (length: number) => `+47${" ".repeat(length - 11)}98765432`;
    expect(newSupervisorSchema.safeParse({ fullName: "Ny", phone: phone(INVITED_PHONE_MAX) }).success).toBe(true);
    expect(newSupervisorSchema.safeParse({ fullName: "Ny", phone: phone(INVITED_PHONE_MAX + 1) }).success).toBe(false);
    const html = await render(AcceptInvitation as never, {
      state: "valid",
      secret: "s".repeat(43),
      landing: "/",
      email: "ny@example.org",
      isNew: true,
      studentName: "Emma Hansen",
      subject: "SYK2001 Praksis i sykehjem",
    });
    expect(maxLengthsOf(html, "fullName")).toEqual([PERSON_NAME_MAX]);
    expect(maxLengthsOf(html, "phone")).toEqual([INVITED_PHONE_MAX]);
  });
});

describe("the teacher's pages", () => {
  test("adding a supervisor: name and e-mail", async () => {
    expect([SUPERVISOR_NAME_MAX, SUPERVISOR_EMAIL_MAX]).toEqual([PERSON_NAME_MAX, EMAIL_MAX]);
    expectSchemaLimit(addSupervisorSchema, { name: "x", email: "a@example.org" }, "name", SUPERVISOR_NAME_MAX);
    const classId = await classIdOf(db(), "SYK2001");
    const html = await page(addSupervisor, `/teacher/class/${classId}/supervisors/add`, cookies.laerer1, {
      classId: String(classId),
    });
    expect(maxLengthsOf(html, "name")).toEqual([SUPERVISOR_NAME_MAX]);
    expect(maxLengthsOf(html, "email")).toEqual([SUPERVISOR_EMAIL_MAX]);
  });

  test("the student picker's search", async () => {
    const classId = await classIdOf(db(), "SYK2001");
    const html = await page(addStudents, `/teacher/class/${classId}/students/add`, cookies.laerer1, {
      classId: String(classId),
    });
    expect(maxLengthsOf(html, "q")).toEqual([STUDENT_SEARCH_MAX_LENGTH]);
  });

  test("the warning's three texts", async () => {
    const valid = { intent: "save", warningId: "", comment: "a", passRequirement: "b", passRequirementSummary: "c" };
    for (const field of ["comment", "passRequirement", "passRequirementSummary"]) {
      expectSchemaLimit(warningSchema, valid, field, WARNING_TEXT_LIMIT);
    }
    const classId = await classIdOf(db(), "SYK2002");
    const student = await userIdOf(db(), "student15@example.org");
    const html = await page(warning, `/teacher/class/${classId}/student/${student}/warning`, cookies.adminTeacher, {
      classId: String(classId),
      studentUserId: String(student),
    });
    for (const field of ["comment", "passRequirement", "passRequirementSummary"]) {
      expect(maxLengthsOf(html, field), field).toEqual([WARNING_TEXT_LIMIT]);
    }
  });

  test("the signing form's teacher comment", async () => {
    expectSchemaLimit(endPartSchema, { intent: "saveEnd" }, "teacherComment", TEACHER_COMMENT_LIMIT);
    // A student whose signing form has its mid-semester part confirmed: the end part is open.
    const [row] = await db()
      .select({ classId: studentReferences.classId, studentUserId: studentReferences.studentUserId })
      .from(signingForms)
      .innerJoin(studentReferences, eq(studentReferences.id, signingForms.studentReferenceId))
      .where(isNotNull(signingForms.midSemesterCompletedDate))
      .limit(1);
    const html = await page(
      signingForm,
      `/teacher/class/${row.classId}/student/${row.studentUserId}/signingform`,
      cookies.adminTeacher,
      {
        classId: String(row.classId),
        studentUserId: String(row.studentUserId),
      },
    );
    expect(maxLengthsOf(html, "teacherComment")).toEqual([TEACHER_COMMENT_LIMIT]);
  });
});

describe("answering a form", () => {
  test("every comment and every text answer", async () => {
    const classId = await classIdOf(db(), "SYK2001");
    const [{ id: formId }] = await db()
      .select({ id: forms.id })
      .from(forms)
      .where(eq(forms.name, "Vurdering av kliniske kompetanser"));
    const [{ id: schemeId }] = await db()
      .select({ id: schemes.id })
      .from(schemes)
      .where(and(eq(schemes.classId, classId), eq(schemes.isMidSemester, true)));
    const student = await userIdOf(db(), "student05@example.org");
    const path = `/student/${student}/form/${formId}/class/${classId}/assignment/${schemeId}`;
    const params = {
      classId: String(classId),
      formId: String(formId),
      schemeId: String(schemeId),
      studentUserId: String(student),
    };
    let comments = 0;
    let answers = 0;
    // Every page of the form, as the student opens them in turn.
    for (let n = 1; n <= 30; n++) {
      const response = await callLoader(formPage, getPage(`${path}?group=${n}`, { cookie: cookies.student05 }), params);
      const data = (await response.json()) as { view: { page: number; pageCount: number } };
      if (data.view.page !== n) break;
      const html = await render(formPage.default as never, data, `${path}?group=${n}`);
      for (const [, name] of html.matchAll(/<textarea\b[^>]* name="(c:\d+)"/g)) {
        comments++;
        expect(maxLengthsOf(html, name), name).toEqual([COMMENT_LIMIT]);
      }
      for (const [, name] of html.matchAll(/<textarea\b[^>]* name="(a:\d+)"/g)) {
        answers++;
        expect(maxLengthsOf(html, name), name).toEqual([TEXT_ANSWER_LIMIT]);
      }
      if (n === data.view.pageCount) break;
    }
    // The demo's main form: a page of text questions (the student's own assessment), then graded ones.
    expect(comments).toBeGreaterThan(0);
    expect(answers).toBeGreaterThan(0);
  });
});

describe("the admin's pages", () => {
  test("subjects: code and name", async () => {
    expectSchemaLimit(
      subjectsSchema,
      { intent: "create", subjectCode: "X", name: "Y" },
      "subjectCode",
      SUBJECT_CODE_MAX,
    );
    expectSchemaLimit(subjectsSchema, { intent: "create", subjectCode: "X", name: "Y" }, "name", SUBJECT_NAME_MAX);
    const html = await page(subjects, "/admin/subjects", cookies.admin);
    expect(maxLengthsOf(html, "subjectCode")).toEqual([SUBJECT_CODE_MAX]);
    expect(maxLengthsOf(html, "name")).toEqual([SUBJECT_NAME_MAX]);
  });

  test("a user's name, and the users list's search", async () => {
    expectSchemaLimit(
      userSchema,
      { intent: "save", displayName: "x", roles: ["2"] },
      "displayName",
      DISPLAY_NAME_MAX_LENGTH,
    );
    const id = await userIdOf(db(), "laerer2@example.org");
    const html = await page(user, `/admin/users/${id}`, cookies.admin, { userId: String(id) });
    expect(maxLengthsOf(html, "displayName")).toEqual([DISPLAY_NAME_MAX_LENGTH]);
    expect(maxLengthsOf(await page(users, "/admin/users", cookies.admin), "search")).toEqual([USER_SEARCH_MAX_LENGTH]);
  });

  test("the form editor: the form's name, and each group's name, question and help text", async () => {
    const [{ id: formId }] = await db()
      .select({ id: forms.id })
      .from(forms)
      .where(eq(forms.name, "Vurdering av kliniske kompetanser"));
    const html = await page(formEditor, `/admin/forms/edit/${formId}`, cookies.admin, { formId: String(formId) });
    const named = (pattern: RegExp) => [...new Set([...html.matchAll(pattern)].map((m) => m[1]))];
    const visible = (name: string) => maxLengthsOf(html, name).filter((n) => n !== null);
    expect(visible("name")).toEqual([LIMITS.formName]);
    for (const [field, limit, pattern] of [
      ["group names", LIMITS.groupName, /<input\b(?![^>]*type="hidden")[^>]* name="([^"]*\.name)"/g],
      ["questions", LIMITS.questionText, /<input\b(?![^>]*type="hidden")[^>]* name="([^"]*\.text)"/g],
      ["help texts", LIMITS.helpText, /<textarea\b[^>]* name="([^"]*\.helpText)"/g],
    ] as const) {
      const names = named(pattern);
      expect(names.length, field).toBeGreaterThan(0);
      for (const name of names) expect(visible(name), `${field}: ${name}`).toEqual([limit]);
    }
  });
});
