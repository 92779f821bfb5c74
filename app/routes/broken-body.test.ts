import { afterAll, beforeAll, expect, test } from "vitest";
import { ROLE, type RoleId } from "~/services/identity";
import { cookieActingAs, startTestApp, stopTestApp } from "~/test/app";
import { callAction, TEST_ORIGIN, type RouteModuleLike } from "~/test/route";
import * as classPage from "./admin/class";
import * as formEditor from "./admin/form-editor";
import * as semesterPage from "./admin/semester";
import * as semestersPage from "./admin/semesters";
import * as subjectsPage from "./admin/subjects";
import * as userPage from "./admin/user";
import * as login from "./auth/login";
import * as providerStart from "./auth/provider-start";
import * as role from "./auth/role";
import * as privacyConsent from "./shared/privacy-consent";
import * as acceptInvitation from "./auth/accept-invitation";
import * as answersApi from "./api/answers";
import * as formPage from "./shared/form-page";
import * as settings from "./shared/settings";
import * as joinClass from "./student/join-class";
import * as invite from "./student/invite";
import * as supervisorClass from "./supervisor/class";
import * as addStudents from "./teacher/add-students";
import * as addSupervisor from "./teacher/add-supervisor";
import * as teacherClass from "./teacher/class";
import * as teacherStudent from "./teacher/student";
import * as teacherWarning from "./teacher/warning";
import * as teacherWarningDelete from "./teacher/warning-delete";
import * as studentWarning from "./student/warning";
import * as warningApi from "./api/warning";
import * as signingForm from "./shared/signing-form";

let app: Awaited<ReturnType<typeof startTestApp>>;
beforeAll(async () => {
  app = await startTestApp({ FEIDE_CLIENT_ID: "id", FEIDE_CLIENT_SECRET: "secret" });
});
afterAll(() => stopTestApp(app));

// Every action that reads a form: who posts (e-mail and role), and the route params.
type Poster = [string, RoleId] | null;
const admin = (role: RoleId): Poster => ["admin@example.org", role];
const actions: [string, RouteModuleLike, Record<string, string>, Poster][] = [
  ["/login", login, {}, null],
  ["/auth/feide", providerStart, { provider: "feide" }, null],
  ["/role", role, {}, admin(ROLE.Admin)],
  ["/settings", settings, {}, admin(ROLE.Admin)],
  ["/privacy-consent", privacyConsent, {}, admin(ROLE.Admin)],
  ["/admin/class/1", classPage, { classId: "1" }, admin(ROLE.Admin)],
  ["/admin/forms/edit/1", formEditor, { formId: "1" }, admin(ROLE.Admin)],
  ["/admin/semesters/1", semesterPage, { semesterId: "1" }, admin(ROLE.Admin)],
  ["/admin/semesters", semestersPage, {}, admin(ROLE.Admin)],
  ["/admin/subjects", subjectsPage, {}, admin(ROLE.Admin)],
  ["/admin/users/2", userPage, { userId: "2" }, admin(ROLE.Admin)],
  ["/supervisor/accept-invitation", acceptInvitation, {}, null],
  ["/student/join-class", joinClass, {}, ["student25@example.org", ROLE.Student]],
  ["/student/supervisor/invite", invite, {}, ["student11@example.org", ROLE.Student]],
  ["/teacher/class/1", teacherClass, { classId: "1" }, ["laerer1@example.org", ROLE.Teacher]],
  ["/teacher/class/1/students/add", addStudents, { classId: "1" }, ["laerer1@example.org", ROLE.Teacher]],
  ["/teacher/class/1/supervisors/add", addSupervisor, { classId: "1" }, ["laerer1@example.org", ROLE.Teacher]],
  ["/teacher/class/1/student/9", teacherStudent, { classId: "1", userId: "9" }, ["laerer1@example.org", ROLE.Teacher]],
  ["/supervisor/class/1", supervisorClass, { classId: "1" }, ["veileder1@example.org", ROLE.Supervisor]],
  [
    "/student/9/form/1/class/1/assignment/1",
    formPage,
    { studentUserId: "9", formId: "1", classId: "1", schemeId: "1" },
    ["student01@example.org", ROLE.Student],
  ],
  ["/admin/class/1/form/1/assignment/1", formPage, { formId: "1", classId: "1", schemeId: "1" }, admin(ROLE.Admin)],
  ["/api/answers", answersApi, {}, ["student01@example.org", ROLE.Student]],
  [
    "/teacher/class/1/student/9/warning",
    teacherWarning,
    { classId: "1", studentUserId: "9" },
    ["laerer1@example.org", ROLE.Teacher],
  ],
  [
    "/teacher/class/1/student/9/warning/delete",
    teacherWarningDelete,
    { classId: "1", studentUserId: "9" },
    ["laerer1@example.org", ROLE.Teacher],
  ],
  [
    "/api/classes/1/students/9/warning",
    warningApi,
    { classId: "1", studentUserId: "9" },
    ["laerer1@example.org", ROLE.Teacher],
  ],
  ["/student/warning", studentWarning, {}, ["student01@example.org", ROLE.Student]],
  [
    "/teacher/class/1/student/9/signingform",
    signingForm,
    { classId: "1", studentUserId: "9" },
    ["laerer1@example.org", ROLE.Teacher],
  ],
  [
    "/supervisor/class/1/student/9/signingform",
    signingForm,
    { classId: "1", studentUserId: "9" },
    ["veileder1@example.org", ROLE.Supervisor],
  ],
  [
    "/student/class/1/student/9/signingform",
    signingForm,
    { classId: "1", studentUserId: "9" },
    ["student01@example.org", ROLE.Student],
  ],
];

test.each(actions)(
  "%s: a body that is not a form is the client's mistake (400), not a server error",
  async (path, mod, params, actAs) => {
    const cookie = actAs ? await cookieActingAs(app.database.db, actAs[0], actAs[1]) : "";
    for (const type of ["multipart/form-data; boundary=zz", "multipart/form-data"]) {
      const request = new Request(new URL(path, TEST_ORIGIN), {
        method: "POST",
        headers: { Origin: TEST_ORIGIN, Cookie: cookie, "Content-Type": type, "x-test-client-address": "192.0.2.1" },
        body: "--zz\r\nnot a part\u0000",
      });
      const response = await callAction(mod, request, params);
      expect(response.status, type).toBe(400);
    }
  },
);
