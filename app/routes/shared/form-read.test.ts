import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { forms } from "~/services/platform/db/schema";
import { ROLE } from "~/services/identity";
import { cookieActingAs, startTestApp, stopTestApp } from "~/test/app";
import { callLoader, getPage } from "~/test/route";
import * as formRead from "./form-read";
import * as formPdf from "../api/form-pdf";

let app: Awaited<ReturnType<typeof startTestApp>>;
const cookie: Record<string, string> = {};
const formId: Record<string, number> = {};
const MAIN = "Vurdering av kliniske kompetanser";
const MEDICATION = "Legemiddelhåndtering";

const db = () => app.database.db;

beforeAll(async () => {
  app = await startTestApp();
  cookie.laerer1 = await cookieActingAs(db(), "laerer1@example.org", ROLE.Teacher);
  cookie.laerer3 = await cookieActingAs(db(), "laerer3@example.org", ROLE.Teacher);
  cookie.veileder1 = await cookieActingAs(db(), "veileder1@example.org", ROLE.Supervisor);
  cookie.veileder3 = await cookieActingAs(db(), "veileder3@example.org", ROLE.Supervisor);
  cookie.student = await cookieActingAs(db(), "student01@example.org", ROLE.Student);
  for (const row of await db().select({ id: forms.id, name: forms.name }).from(forms)) formId[row.name] = row.id;
});

afterAll(async () => {
  await stopTestApp(app);
});

const open = (area: "teacher" | "supervisor", form: number | string, who: string, query = "") =>
  callLoader(formRead, getPage(`/${area}/form/${form}${query}`, { cookie: who }), { formId: String(form) });

describe("a form to read", () => {
  test("a teacher of a class that answers it sees its groups, questions, help texts, labels, classes and the PDF link", async () => {
    const response = await open("teacher", formId[MAIN], cookie.laerer1);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.pageTitle).toBe(MAIN);
    expect(body.pdfHref).toBe(`/api/forms/${formId[MAIN]}/pdf`);
    expect(body.back).toBe("/teacher");
    const grading = body.form.groups.find((g: { name: string }) => g.name === "Pasientobservasjon og vurdering");
    expect(grading.type).toBe("grading");
    expect(grading.options[0]).toBe("Selvstendig");
    expect(grading.questions[0].helpText).toContain("NEWS2");
    expect(
      body.classes.map((c: { subjectCode: string; href: string }) => [c.subjectCode, c.href.replace(/\d+$/, "N")]),
    ).toEqual([
      ["SYK2001", "/teacher/class/N"],
      ["SYK1002", "/teacher/class/N"],
    ]);
  });

  test("a supervisor of such a class too, with links into the supervisor's area; `from` leads back (same site only)", async () => {
    const response = await open("supervisor", formId[MEDICATION], cookie.veileder1, "?from=%2Fsupervisor%2Fclass%2F1");
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.back).toBe("/supervisor/class/1");
    expect(body.classes.every((c: { href: string }) => c.href.startsWith("/supervisor/class/"))).toBe(true);
    const foreign = await open("supervisor", formId[MEDICATION], cookie.veileder1, "?from=https%3A%2F%2Fevil.example");
    expect((await foreign.json()).back).toBe("/supervisor");
  });

  test("a teacher or supervisor whose classes do not answer the form, an unknown or malformed id: 404", async () => {
    expect((await open("teacher", formId[MEDICATION], cookie.laerer3)).status).toBe(404);
    expect((await open("supervisor", formId[MEDICATION], cookie.veileder3)).status).toBe(404);
    expect((await open("teacher", 999_999, cookie.laerer1)).status).toBe(404);
    expect((await open("teacher", "x", cookie.laerer1)).status).toBe(404);
  });

  test("the page's PDF link is open to those who see the page, and closed to the others alike", async () => {
    const pdf = (who: string) =>
      callLoader(formPdf, getPage(`/api/forms/${formId[MEDICATION]}/pdf`, { cookie: who }), {
        formId: String(formId[MEDICATION]),
      });
    expect((await pdf(cookie.laerer1)).headers.get("Content-Type")).toBe("application/pdf");
    expect((await pdf(cookie.veileder1)).headers.get("Content-Type")).toBe("application/pdf");
    expect((await pdf(cookie.laerer3)).status).toBe(404);
    expect((await pdf(cookie.veileder3)).status).toBe(404);
  });

  test("another role is sent to the role chooser; nobody logged in to the log-in page", async () => {
    const student = await open("teacher", formId[MAIN], cookie.student);
    expect(student.status).toBe(302);
    expect(student.headers.get("Location")).toMatch(/^\/role\?/);
    const teacherInSupervisorArea = await open("supervisor", formId[MAIN], cookie.laerer1);
    expect(teacherInSupervisorArea.headers.get("Location")).toMatch(/^\/role\?/);
    const anonymous = await open("teacher", formId[MAIN], "");
    expect(anonymous.headers.get("Location")).toMatch(/^\/\?redirectTo=/);
  });
});
