import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { acceptPrivacyPolicy, createSession } from "~/services/identity/index.server";
import { auditEvents, classes, forms, studentReferences, subjects, warnings } from "~/services/platform/db/schema";
import { currentInstitution } from "~/services/platform/institution.server";
import { appCookies } from "~/services/platform/request.server";
import { ROLE, type RoleId } from "~/services/identity";
import { cookieActingAs, startTestApp, stopTestApp, userIdOf } from "~/test/app";
import { readPdf } from "~/test/pdf";
import { callLoader, getPage, type RouteModuleLike } from "~/test/route";
import * as answersPdf from "./answers-pdf";
import * as formPdf from "./form-pdf";
import * as fullPdf from "./full-pdf";
import * as signingFormPdf from "./signing-form-pdf";
import * as warningPdf from "./warning-pdf";
import { calendar, encodedSlug, fileSlug } from "~/test/calendar";

let app: Awaited<ReturnType<typeof startTestApp>>;
const db = () => app.database.db;
const user: Record<string, number> = {};
const cookies = new Map<string, string>();
const classId: Record<string, number> = {};
const formId: Record<string, number> = {};

async function as(name: string, role: RoleId): Promise<string> {
  const key = `${name}:${role}`;
  if (!cookies.has(key)) cookies.set(key, await cookieActingAs(db(), `${name}@example.org`, role));
  return cookies.get(key)!;
}

beforeAll(async () => {
  app = await startTestApp();
  for (const name of [
    "admin",
    "laerer1",
    "laerer3",
    "veileder1",
    "veileder2",
    "student01",
    "student02",
    "student03",
    "student05",
    "student13",
  ]) {
    user[name] = await userIdOf(db(), `${name}@example.org`);
  }
  for (const row of await db()
    .select({ id: classes.id, code: subjects.subjectCode })
    .from(classes)
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))) {
    classId[row.code] = row.id;
  }
  for (const row of await db().select({ id: forms.id, name: forms.name }).from(forms)) formId[row.name] = row.id;
});

afterAll(async () => {
  await stopTestApp(app);
});

const studentPath = (code: string, student: string, document: string) =>
  `/api/classes/${classId[code]}/students/${user[student]}/${document}`;

function load(
  mod: RouteModuleLike,
  path: string,
  cookie?: string,
  headers?: Record<string, string>,
): Promise<Response> {
  const match = /^\/api\/(?:classes\/(\w+)\/students\/(\w+)\/(?:forms\/(\w+)\/)?|forms\/(\w+)\/)/.exec(path)!;
  const params = Object.fromEntries(
    Object.entries({ classId: match[1], studentUserId: match[2], formId: match[3] ?? match[4] }).filter(
      ([, v]) => v !== undefined,
    ),
  ) as Record<string, string>;
  return callLoader(mod, getPage(path, { cookie, headers }), params);
}

async function downloads(): Promise<(typeof auditEvents.$inferSelect)[]> {
  return db().select().from(auditEvents).where(eq(auditEvents.action, "document.downloaded"));
}

async function expectPdf(response: Response): Promise<Awaited<ReturnType<typeof readPdf>>> {
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Type")).toBe("application/pdf");
  expect(response.headers.get("Cache-Control")).toBe("no-store");
  expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
  const bytes = new Uint8Array(await response.arrayBuffer());
  expect(response.headers.get("Content-Length")).toBe(String(bytes.byteLength));
  expect(new TextDecoder().decode(bytes.slice(0, 8))).toBe("%PDF-1.7");
  return readPdf(bytes);
}

describe("the full placement record", () => {
  test("the student views their own record of an earlier class in the browser; the download is audited", async () => {
    const before = (await downloads()).length;
    const response = await load(
      fullPdf,
      studentPath("SYK1002", "student03", "full/pdf"),
      await as("student03", ROLE.Student),
    );
    expect(response.headers.get("Content-Disposition")).toBe(
      `inline; filename="praksismappe-SYK1002-${fileSlug(calendar.previous.name)}-nora-hansen.pdf"; filename*=UTF-8''praksismappe-SYK1002-${encodedSlug(calendar.previous.name)}-nora-hansen.pdf`,
    );
    const pdf = await expectPdf(response);
    expect(pdf.info).toMatchObject({ Title: "Praksismappe – Nora Hansen", Language: "nb-NO" });
    expect(pdf.text).toContain("Ved midtvurderingen er det bekymring");
    expect(pdf.text).not.toContain("Forventet nivå");

    const rows = await downloads();
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toMatchObject({
      actorUserId: user.student03,
      subjectUserId: user.student03,
      classId: classId.SYK1002,
      details: { document: "full", relation: "self", disposition: "inline" },
    });
  });

  test("?download=1 asks the browser to save it; English readers get an English name", async () => {
    const response = await load(
      fullPdf,
      `${studentPath("SYK1002", "student03", "full/pdf")}?download=1`,
      await as("student03", ROLE.Student),
      {
        "Accept-Language": "en",
      },
    );
    expect(response.headers.get("Content-Disposition")).toBe(
      `attachment; filename="placement-record-SYK1002-${fileSlug(calendar.previous.name)}-nora-hansen.pdf"; filename*=UTF-8''placement-record-SYK1002-${encodedSlug(calendar.previous.name)}-nora-hansen.pdf`,
    );
    expect((await expectPdf(response)).info).toMatchObject({ Language: "en" });
    expect((await downloads()).at(-1)?.details).toMatchObject({ disposition: "attachment" });
  });

  test.each([
    ["laerer1", ROLE.Teacher, "teacher"],
    ["veileder1", ROLE.Supervisor, "supervisor"],
    ["admin", ROLE.Admin, "admin"],
  ] as const)(
    "%s, who follows the student or administers, gets it with the expected levels",
    async (name, role, relation) => {
      const pdf = await expectPdf(
        await load(fullPdf, studentPath("SYK1002", "student03", "full/pdf"), await as(name, role)),
      );
      expect(pdf.text).toContain("Forventet nivå");
      expect((await downloads()).at(-1)).toMatchObject({
        actorUserId: user[name],
        details: { document: "full", relation },
      });
    },
  );

  test.each([
    ["another student", "student02", ROLE.Student],
    ["a teacher of other classes", "laerer3", ROLE.Teacher],
    ["a supervisor who does not follow the student", "veileder2", ROLE.Supervisor],
    ["the admin acting as a teacher of another class", "admin", ROLE.Teacher],
  ] as const)("%s gets a 404 like for an unknown student, and nothing is audited", async (_, name, role) => {
    const before = (await downloads()).length;
    const response = await load(fullPdf, studentPath("SYK1002", "student03", "full/pdf"), await as(name, role));
    expect(response.status).toBe(404);
    expect(response.headers.get("Content-Disposition")).toBeNull();
    expect(await downloads()).toHaveLength(before);
  });

  test("logged out: to the log-in page and back; signed in without a role: to the role chooser and back", async () => {
    const path = studentPath("SYK1002", "student03", "full/pdf");
    const anonymous = await load(fullPdf, path);
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toBe(`/?redirectTo=${encodeURIComponent(path)}`);

    await acceptPrivacyPolicy(db(), user.admin, currentInstitution().privacyPolicyVersion, "192.0.2.1");
    const { token } = await createSession(db(), { userId: user.admin });
    const noRole = (await appCookies().session.serialize(token)).split(";")[0];
    const chooser = await load(fullPdf, path, noRole);
    expect(chooser.status).toBe(302);
    expect(chooser.headers.get("Location")).toBe(`/role?redirectTo=${encodeURIComponent(path)}`);
  });

  test.each(["0", "abc", "999999"])("an unknown or malformed id (%s) is a 404", async (bad) => {
    const cookie = await as("admin", ROLE.Admin);
    expect(
      (
        await callLoader(fullPdf, getPage(`/api/classes/${bad}/students/1/full/pdf`, { cookie }), {
          classId: bad,
          studentUserId: "1",
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await callLoader(fullPdf, getPage(`/api/classes/1/students/${bad}/full/pdf`, { cookie }), {
          classId: "1",
          studentUserId: bad,
        })
      ).status,
    ).toBe(404);
  });
});

describe("the warning", () => {
  test("the given warning, for the student and those who follow them", async () => {
    for (const [name, role] of [
      ["student03", ROLE.Student],
      ["laerer1", ROLE.Teacher],
      ["veileder1", ROLE.Supervisor],
    ] as const) {
      const response = await load(warningPdf, studentPath("SYK1002", "student03", "warning/pdf"), await as(name, role));
      expect(response.headers.get("Content-Disposition")).toContain(
        `filename="varsel-SYK1002-${fileSlug(calendar.previous.name)}-nora-hansen.pdf"`,
      );
      const pdf = await expectPdf(response);
      expect(pdf.text).toContain("Varsel om fare for ikke bestått praksis");
      expect(pdf.text).toContain("Du må vise at du selvstendig kan beregne doser");
      expect((await downloads()).at(-1)).toMatchObject({
        actorUserId: user[name],
        subjectUserId: user.student03,
        details: { document: "warning" },
      });
    }
  });

  test("a teacher's draft is nobody's document, the teacher's neither, until it is given", async () => {
    const [reference] = await db()
      .select({ id: studentReferences.id })
      .from(studentReferences)
      .where(and(eq(studentReferences.classId, classId.SYK2001), eq(studentReferences.studentUserId, user.student05)));
    await db().insert(warnings).values({
      studentReferenceId: reference.id,
      teacherUserId: user.laerer1,
      comment: "Bekymring for dokumentasjonen",
      passRequirement: "Dokumentere presist",
      passRequirementSummary: "Dokumentasjon",
    });
    const path = studentPath("SYK2001", "student05", "warning/pdf");
    const before = (await downloads()).length;
    for (const [name, role] of [
      ["laerer1", ROLE.Teacher],
      ["student05", ROLE.Student],
      ["veileder1", ROLE.Supervisor],
      ["admin", ROLE.Admin],
    ] as const) {
      expect((await load(warningPdf, path, await as(name, role))).status).toBe(404);
    }
    expect(await downloads()).toHaveLength(before);

    await db().update(warnings).set({ submittedAt: new Date() }).where(eq(warnings.studentReferenceId, reference.id));
    const pdf = await expectPdf(await load(warningPdf, path, await as("student05", ROLE.Student)));
    expect(pdf.text).toContain("Bekymring for dokumentasjonen");
    expect(pdf.text).toContain("Ikke bekreftet ennå");
  });

  test("no warning at all is a 404", async () => {
    expect(
      (await load(warningPdf, studentPath("SYK1002", "student01", "warning/pdf"), await as("laerer1", ROLE.Teacher)))
        .status,
    ).toBe(404);
  });
});

describe("the signing form", () => {
  test("the signed form of an earlier class, in the institution's wording", async () => {
    const response = await load(
      signingFormPdf,
      studentPath("SYK1002", "student01", "signingform/pdf"),
      await as("student01", ROLE.Student),
    );
    expect(response.headers.get("Content-Disposition")).toBe(
      `inline; filename="signeringsskjema-SYK1002-${fileSlug(calendar.previous.name)}-emma-andersen.pdf"; filename*=UTF-8''signeringsskjema-SYK1002-${encodedSlug(calendar.previous.name)}-emma-andersen.pdf`,
    );
    const pdf = await expectPdf(response);
    expect(pdf.info).toMatchObject({ Title: "Vurderingsskjema for praksisstudier – Emma Andersen" });
    expect(pdf.text).toContain("Praksislærer Ingrid Haugen");
    expect(pdf.text).toContain("Alle har signert, og skjemaet er låst.");
    expect((await downloads()).at(-1)).toMatchObject({ details: { document: "signingForm", relation: "self" } });
  });

  test("none saved yet is a 404; someone else's is a 404", async () => {
    expect(
      (
        await load(
          signingFormPdf,
          studentPath("SYK2001", "student01", "signingform/pdf"),
          await as("student01", ROLE.Student),
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await load(
          signingFormPdf,
          studentPath("SYK1002", "student01", "signingform/pdf"),
          await as("veileder2", ROLE.Supervisor),
        )
      ).status,
    ).toBe(404);
  });
});

describe("a form's answers about a student", () => {
  test("the student's teacher: all authors and the expected levels; the form is named in the audit", async () => {
    const path = studentPath("SYK2001", "student01", `forms/${formId["Vurdering av kliniske kompetanser"]}/pdf`);
    const response = await load(answersPdf, path, await as("laerer1", ROLE.Teacher));
    expect(response.headers.get("Content-Disposition")).toContain(
      `filename="vurdering-vurdering-av-kliniske-kompetanser-SYK2001-${fileSlug(calendar.current.name)}-emma-andersen.pdf"`,
    );
    const pdf = await expectPdf(response);
    expect(pdf.text).toContain("Student: Emma Andersen, sendt");
    expect(pdf.text).toContain("Praksisveileder: Marte Solberg, sendt");
    expect(pdf.text).toContain("Forventet nivå");
    expect((await downloads()).at(-1)).toMatchObject({
      subjectUserId: user.student01,
      details: { document: "answers", formId: formId["Vurdering av kliniske kompetanser"], relation: "teacher" },
    });
  });

  test("a form not in the class's schemes, or another student's answers, is a 404", async () => {
    const wounds = formId["Sårstell og infeksjonsforebygging"];
    expect(
      (
        await load(
          answersPdf,
          studentPath("SYK2001", "student01", `forms/${wounds}/pdf`),
          await as("laerer1", ROLE.Teacher),
        )
      ).status,
    ).toBe(404);
    const main = formId["Vurdering av kliniske kompetanser"];
    expect(
      (
        await load(
          answersPdf,
          studentPath("SYK2001", "student01", `forms/${main}/pdf`),
          await as("student02", ROLE.Student),
        )
      ).status,
    ).toBe(404);
  });
});

describe("an empty form", () => {
  test("for the admin, and for those whose class answers it; not audited, since it is nobody's data", async () => {
    const before = (await downloads()).length;
    const medication = formId["Legemiddelhåndtering"];
    const response = await load(formPdf, `/api/forms/${medication}/pdf`, await as("admin", ROLE.Admin));
    expect(response.headers.get("Content-Disposition")).toBe(
      `inline; filename="skjema-legemiddelhaandtering.pdf"; filename*=UTF-8''skjema-legemiddelh%C3%A5ndtering.pdf`,
    );
    const pdf = await expectPdf(response);
    expect(pdf.text).toContain("Beregner doser korrekt");
    expect(pdf.text).toContain("Hjelpetekst");
    expect(pdf.artifactTexts[0]).toContain("Org.nr. 991 258 736");
    expect((await load(formPdf, `/api/forms/${medication}/pdf`, await as("student01", ROLE.Student))).status).toBe(200);
    expect((await load(formPdf, `/api/forms/${medication}/pdf`, await as("veileder1", ROLE.Supervisor))).status).toBe(
      200,
    );
    expect(await downloads()).toHaveLength(before);
  });

  test("a form of other classes, a deleted or unknown form is a 404; logged out goes to the log-in page", async () => {
    const medication = formId["Legemiddelhåndtering"];
    expect((await load(formPdf, `/api/forms/${medication}/pdf`, await as("student13", ROLE.Student))).status).toBe(404);
    expect((await load(formPdf, `/api/forms/${medication}/pdf`, await as("laerer3", ROLE.Teacher))).status).toBe(404);
    expect((await load(formPdf, `/api/forms/999999/pdf`, await as("admin", ROLE.Admin))).status).toBe(404);
    expect((await load(formPdf, `/api/forms/${medication}/pdf`)).status).toBe(302);
  });
});
