import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ROLE } from "~/services/identity";
import { auditEvents, recordOpenings } from "~/services/platform/db/schema";
import { cookieActingAs, startTestApp, stopTestApp, userIdOf } from "~/test/app";
import { callLoader, getPage } from "~/test/route";
import { giveStudent01Documents, seedIds, type SeedIds } from "~/test/route-matrix";
import * as fullPdf from "../api/full-pdf";
import * as myDataJson from "../api/my-data";
import * as studentsCsv from "../api/students-csv";
import * as adminUser from "../admin/user";
import * as formPage from "../shared/form-page";
import * as formResults from "../shared/form-results";
import * as signingForm from "../shared/signing-form";
import * as supervisorStudent from "../supervisor/student";
import * as teacherStudent from "../teacher/student";
import * as teacherWarning from "../teacher/warning";
import * as myData from "./my-data";

let app: Awaited<ReturnType<typeof startTestApp>>;
let ids: SeedIds;
let emma: string;
let otherStudent: string;
let laerer1: string;
let veileder1: string;
let admin: string;
let laerer1Id: number;

const db = () => app.database.db;

beforeAll(async () => {
  app = await startTestApp();
  ids = await seedIds(db());
  await giveStudent01Documents(db(), ids);
  emma = await cookieActingAs(db(), "student01@example.org", ROLE.Student);
  otherStudent = await cookieActingAs(db(), "student02@example.org", ROLE.Student);
  laerer1 = await cookieActingAs(db(), "laerer1@example.org", ROLE.Teacher);
  veileder1 = await cookieActingAs(db(), "veileder1@example.org", ROLE.Supervisor);
  admin = await cookieActingAs(db(), "admin@example.org", ROLE.Admin);
  laerer1Id = await userIdOf(db(), "laerer1@example.org");
});

afterAll(async () => {
  await stopTestApp(app);
});

interface Page {
  openings: { who: string | null; role: string | null; kind: string; subjectCode: string | null }[];
  classes: { classId: number; fullPdf: string }[];
  page: { total: number; from: number; to: number; newer: string | null; older: string | null };
}

async function myPage(cookie: string, query = ""): Promise<Page> {
  const response = await callLoader(myData, getPage(`/student/my-data${query}`, { cookie }));
  expect(response.status).toBe(200);
  return (await response.json()) as Page;
}

async function kindsOpenedOfEmma(): Promise<string[]> {
  const rows = await db()
    .select({ kind: recordOpenings.kind })
    .from(recordOpenings)
    .where(eq(recordOpenings.studentUserId, ids.student01));
  return rows.map((r) => r.kind).sort();
}

const base = () => `/api/classes/${ids.classA}/students/${ids.student01}`;
const docParams = () => ({ classId: String(ids.classA), studentUserId: String(ids.student01) });

describe("every opening of her record by someone else is recorded, once per person, page and hour", () => {
  test("her teacher's and supervisor's pages, results, form, warning, signing form, PDF; reloads add nothing", async () => {
    const open = async (
      mod: Parameters<typeof callLoader>[0],
      path: string,
      params: Record<string, string>,
      cookie: string,
    ) => {
      const response = await callLoader(mod, getPage(path, { cookie }), params);
      expect(response.status, path).toBe(200);
      await response.arrayBuffer();
    };
    const teacherBase = `/teacher/class/${ids.classA}/student/${ids.student01}`;
    for (let i = 0; i < 2; i++) {
      await open(teacherStudent, teacherBase, { classId: String(ids.classA), userId: String(ids.student01) }, laerer1);
    }
    await open(
      formResults,
      `${teacherBase}/form/${ids.mainForm}/results`,
      { ...docParams(), formId: String(ids.mainForm) },
      laerer1,
    );
    await open(
      formPage,
      `${teacherBase}/form/${ids.mainForm}/assignment/${ids.midA}`,
      { ...docParams(), formId: String(ids.mainForm), schemeId: String(ids.midA) },
      laerer1,
    );
    await open(teacherWarning, `${teacherBase}/warning`, docParams(), laerer1);
    await open(signingForm, `${teacherBase}/signingform`, docParams(), laerer1);
    await open(fullPdf, `${base()}/full/pdf`, docParams(), laerer1);
    await open(
      supervisorStudent,
      `/supervisor/class/${ids.classA}/student/${ids.student01}`,
      { classId: String(ids.classA), userId: String(ids.student01) },
      veileder1,
    );

    expect(await kindsOpenedOfEmma()).toEqual([
      "formAnswers",
      "fullPdf",
      "results",
      "signingForm",
      "studentPage",
      "studentPage",
      "warning",
    ]);
    const rows = await db()
      .select()
      .from(recordOpenings)
      .where(and(eq(recordOpenings.studentUserId, ids.student01), eq(recordOpenings.viewerUserId, laerer1Id)));
    expect(rows.every((r) => r.classId === ids.classA && r.viewerRole === ROLE.Teacher)).toBe(true);
  });

  test("her own pages are not someone else's opening", async () => {
    const before = await kindsOpenedOfEmma();
    const response = await callLoader(
      formResults,
      getPage(`/student/${ids.student01}/form/${ids.mainForm}/class/${ids.classA}/results`, { cookie: emma }),
      { ...docParams(), formId: String(ids.mainForm) },
    );
    expect(response.status).toBe(200);
    expect(await kindsOpenedOfEmma()).toEqual(before);
  });

  test("a teacher of another class is refused and leaves no trace", async () => {
    const before = await kindsOpenedOfEmma();
    const laerer3 = await cookieActingAs(db(), "laerer3@example.org", ROLE.Teacher);
    const response = await callLoader(
      teacherStudent,
      getPage(`/teacher/class/${ids.classA}/student/${ids.student01}`, { cookie: laerer3 }),
      {
        classId: String(ids.classA),
        userId: String(ids.student01),
      },
    );
    expect(response.status).toBe(404);
    expect(await kindsOpenedOfEmma()).toEqual(before);
  });

  test("the admin's semester report opens every student's row; the user page opens her profile", async () => {
    const report = await callLoader(
      studentsCsv,
      getPage(`/api/periods/${ids.semester}/students-csv`, { cookie: admin }),
      { semesterId: String(ids.semester) },
    );
    expect(report.status).toBe(200);
    await report.arrayBuffer();
    const profile = await callLoader(adminUser, getPage(`/admin/users/${ids.student01}`, { cookie: admin }), {
      userId: String(ids.student01),
    });
    expect(profile.status).toBe(200);
    expect(await kindsOpenedOfEmma()).toEqual(expect.arrayContaining(["semesterReport", "userProfile"]));
    const adminId = await userIdOf(db(), "admin@example.org");
    const reportRows = await db()
      .select()
      .from(recordOpenings)
      .where(and(eq(recordOpenings.viewerUserId, adminId), eq(recordOpenings.kind, "semesterReport")));
    // Every student of the semester (the demo's 24 in two classes).
    expect(reportRows).toHaveLength(24);
  });
});

describe("her My data page", () => {
  test("who opened what, in which role, newest first; her classes' full-record PDFs", async () => {
    const page = await myPage(emma);
    expect(page.openings.length).toBeGreaterThanOrEqual(9);
    expect(page.openings).toContainEqual(
      expect.objectContaining({ role: "Teacher", kind: "warning", subjectCode: "SYK2001" }),
    );
    expect(page.openings).toContainEqual(expect.objectContaining({ role: "Advisor", kind: "studentPage" }));
    expect(page.openings).toContainEqual(expect.objectContaining({ role: "Admin", kind: "semesterReport" }));
    expect(page.openings.every((o) => o.who)).toBe(true);
    expect(page.classes).toContainEqual({
      classId: ids.classA,
      fullPdf: `${base()}/full/pdf?download=1`,
      subjectCode: "SYK2001",
      subjectName: expect.any(String),
      semesterName: expect.any(String),
    });
    expect(page.page).toMatchObject({ from: 1, newer: null, older: null });
  });

  test("another student sees only their own list, never hers", async () => {
    const page = await myPage(otherStudent);
    expect(page.openings.filter((o) => o.kind !== "semesterReport")).toEqual([]);
    expect(page.page.total).toBe(1);
  });

  test("a long list comes a page at a time, with links to the older and newer", async () => {
    const hours = Array.from({ length: 30 }, (_, i) => new Date(Date.UTC(2026, 9, 1, i)));
    await db()
      .insert(recordOpenings)
      .values(
        hours.map((hour) => ({
          studentUserId: ids.student01,
          viewerUserId: laerer1Id,
          viewerRole: ROLE.Teacher,
          kind: "studentPage",
          hour,
          at: hour,
        })),
      );
    const first = await myPage(emma);
    expect(first.openings).toHaveLength(25);
    expect(first.page.older).toBe("/student/my-data?page=2#access-heading");
    const second = await myPage(emma, "?page=2");
    expect(second.page.from).toBe(26);
    expect(second.page.to).toBe(second.page.total);
    expect(second.page.newer).toBe("/student/my-data#access-heading");
    expect(second.page.older).toBeNull();
    // Nonsense in the URL is the first page, not an error.
    expect((await myPage(emma, "?page=abc")).page.from).toBe(1);
  });

  test("staff are sent to choose a role, logged-out visitors to log in", async () => {
    const teacher = await callLoader(myData, getPage("/student/my-data", { cookie: laerer1 }));
    expect(teacher.status).toBe(302);
    expect(teacher.headers.get("Location")).toMatch(/^\/role\?/);
    const anon = await callLoader(myData, getPage("/student/my-data"));
    expect(anon.status).toBe(302);
  });
});

describe("her copy of her data", () => {
  test("a JSON attachment, not cached, with her record and access list; the download is audited", async () => {
    const response = await callLoader(myDataJson, getPage("/api/my-data", { cookie: emma }));
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="praksis-my-data-\d+-\d{4}-\d{2}-\d{2}\.json"; filename\*=UTF-8''/,
    );
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    const json = (await response.json()) as {
      profile: { email: string };
      accessList: { kind: string }[];
      auditTrail: { action: string }[];
    };
    expect(json.profile.email).toBe("student01@example.org");
    expect(json.accessList.map((o) => o.kind)).toEqual(expect.arrayContaining(["fullPdf", "warning", "signingForm"]));
    expect(json.auditTrail.map((e) => e.action)).toContain("my_data.downloaded");
    const events = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "my_data.downloaded"), eq(auditEvents.subjectUserId, ids.student01)));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorUserId: ids.student01, details: { format: "json" } });
  });

  test("another student's copy holds nothing of hers", async () => {
    const response = await callLoader(myDataJson, getPage("/api/my-data", { cookie: otherStudent }));
    const text = await response.text();
    expect(text).not.toContain("student01@example.org");
    expect(text).not.toContain("Emma Andersen");
    expect(text).toContain("student02@example.org");
  });

  test("a teacher gets no copy", async () => {
    const response = await callLoader(myDataJson, getPage("/api/my-data", { cookie: laerer1 }));
    expect(response.status).toBe(302);
  });
});
