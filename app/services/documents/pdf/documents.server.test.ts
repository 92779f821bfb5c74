import { and, eq } from "drizzle-orm";
import i18next from "i18next";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import resources, { type Language } from "~/locales";
import { userIdOf } from "~/test/app";
import { openTestDatabase } from "~/test/db";
import { readPdf, roleOutline } from "~/test/pdf";
import { formForAnswering, formResults } from "~/services/answering/index.server";
import type { Database } from "~/services/platform/db/client.server";
import { classes, forms, signingForms, studentReferences, subjects, warnings } from "~/services/platform/db/schema";
import { seedDemo } from "~/services/demo/index.server";
import { institutions } from "~/services/platform/institution.server";
import { requireStudentAccess, type Viewer, placementOf } from "~/services/placements/index.server";
import { ROLE } from "~/services/identity";
import {
  answersDocument,
  documentFileName,
  emptyFormDocument,
  fullRecordDocument,
  signingFormDocument,
  type DocumentSettings,
} from "./documents.server";
import { fullRecord, givenWarning, mayReadForm, signingFormRecord } from "./records.server";

const now = new Date("2026-11-22T12:00:00Z");
let database: Database;
const id: Record<string, number> = {};
const formId: Record<string, number> = {};

async function settings(language: Language): Promise<DocumentSettings> {
  const i18n = i18next.createInstance();
  await i18n.init({ resources, lng: language, interpolation: { escapeValue: false } });
  const t = i18n.getFixedT(language, "documents");
  return { t: (key, values) => t(key, values), language, institution: institutions.fjordbyen, now };
}

async function classOf(code: string): Promise<number> {
  const [row] = await database.db
    .select({ id: classes.id })
    .from(classes)
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .where(eq(subjects.subjectCode, code));
  return row.id;
}

async function recordFor(viewer: Viewer, code: string, student: string) {
  const access = await requireStudentAccess(database.db, viewer, await classOf(code), id[student]);
  return (await fullRecord(database.db, viewer, access))!;
}

beforeAll(async () => {
  database = await openTestDatabase();
  await seedDemo(database.db, now);
  for (const name of [
    "admin",
    "laerer1",
    "laerer3",
    "veileder1",
    "veileder3",
    "student01",
    "student03",
    "student04",
    "student13",
  ]) {
    id[name] = await userIdOf(database.db, `${name}@example.org`);
  }
  for (const row of await database.db.select({ id: forms.id, name: forms.name }).from(forms)) formId[row.name] = row.id;
});

afterAll(async () => {
  await database?.close();
});

describe("the full placement record", () => {
  test("as the teacher: the placement, every form with all authors and expected levels, the warning and the signing form", async () => {
    const record = await recordFor({ userId: id.laerer1, role: ROLE.Teacher }, "SYK1002", "student03");
    const pdf = await readPdf(await fullRecordDocument(record, await settings("nb")));

    expect(pdf.info).toMatchObject({
      Title: "Praksismappe – Nora Hansen",
      Language: "nb-NO",
      Author: "Fjordbyen høgskole",
      Creator: "Praksis Fjordbyen",
    });
    expect(pdf.viewerPreferences).toMatchObject({ DisplayDocTitle: true });
    const text = pdf.text;
    for (const expected of [
      "Praksismappe: Nora Hansen",
      "Nora Hansen (student03@example.org)",
      "SYK1002 Praksis i hjemmesykepleien",
      "Vår 2026 (1.1.2026–30.6.2026)",
      "Ingrid Haugen",
      "Marte Solberg",
      "Vurdering av kliniske kompetanser",
      "Midtveisvurdering",
      "Sluttvurdering",
      // Answers of all three authors and the expected level, in words.
      "Student Nora Hansen",
      "Praksisveileder Marte Solberg",
      "Praksislærer Ingrid Haugen",
      "Forventet nivå",
      "Delvis selvstendig",
      // A text answer and a comment.
      "Student Nora Hansen: Jeg har fått øvd på stell og mobilisering",
      "Kommentarer til",
      // The warning, given and confirmed.
      "Varsel om fare for ikke bestått praksis",
      "Ved midtvurderingen er det bekymring",
      "Legemiddelhåndtering og dokumentasjon må vurderes som minst «Delvis selvstendig»",
      // The signing form in the institution's wording, with all three signatures.
      "Vurderingsskjema for praksisstudier",
      "Underskriftene bekrefter at vurderingen er gjennomgått",
      "Praksisperioden er bestått Ja",
      "Alle har signert, og skjemaet er låst.",
      "Resultatet er ikke sendt til det studieadministrative systemet ennå.",
    ]) {
      expect(text).toContain(expected);
    }
    expect(text.match(/Ikke signert/g)).toBeNull();
    // Column headers are as wide as their longest word.
    expect(text).toContain("Praksisveileder Marte Solberg Praksislærer Ingrid Haugen Forventet nivå");
    // The institution's organisation number and the page count are on every page, as artifacts.
    expect(pdf.pages).toBeGreaterThan(3);
    for (const [i, artifacts] of pdf.artifactTexts.entries()) {
      expect(artifacts).toEqual(
        expect.arrayContaining([
          "Fjordbyen høgskole · Praksis Fjordbyen",
          "Org.nr. 991 258 736",
          `Side ${i + 1} av ${pdf.pages}`,
        ]),
      );
    }
    for (const role of ["Document", "Sect", "H1", "H2", "H3", "H4", "P", "L", "LI", "Table", "TR", "TH", "TD"]) {
      expect(pdf.roles.get(role), role).toBeGreaterThan(0);
    }
    expect(pdf.roles.get("H1")).toBe(1);
    expect(roleOutline(pdf.structure).slice(0, 4)).toEqual(["Document", "  H1", "  P", "  Sect"]);
    expect(pdf.outline).toEqual([
      "Praksismappe: Nora Hansen",
      "Praksisplassering",
      "Vurdering av kliniske kompetanser",
      "Varsel om fare for ikke bestått praksis",
      "Vurderingsskjema for praksisstudier",
    ]);
    for (const font of pdf.fonts)
      expect(font).toEqual({ name: expect.stringMatching(/^[A-Z]{6}\+DejaVuSans(-Bold)?$/), embedded: true });
  });

  test("as the student: the same answers without the expected levels", async () => {
    const record = await recordFor({ userId: id.student03, role: ROLE.Student }, "SYK1002", "student03");
    const text = (await readPdf(await fullRecordDocument(record, await settings("nb")))).text;
    expect(text).toContain("Praksisveileder Marte Solberg");
    expect(text).toContain("Ved midtvurderingen er det bekymring");
    expect(text).not.toContain("Forventet nivå");
  });

  test("in English for a reader who chose English; the people's own words stay as written", async () => {
    const record = await recordFor({ userId: id.laerer1, role: ROLE.Teacher }, "SYK1002", "student03");
    const pdf = await readPdf(await fullRecordDocument(record, await settings("en")));
    expect(pdf.info).toMatchObject({
      Title: "Placement record – Nora Hansen",
      Language: "en",
      Author: "Fjordbyen University College",
    });
    expect(pdf.text).toContain("Mid-semester assessment");
    expect(pdf.text).toContain("Practice supervisor Marte Solberg");
    expect(pdf.text).toContain("Assessment form for clinical placement");
    expect(pdf.text).toContain("Ved midtvurderingen er det bekymring");
    expect(pdf.artifactTexts[0]).toEqual(expect.arrayContaining(["Org. no. 991 258 736", `Page 1 of ${pdf.pages}`]));
  });

  test("a student of this semester: no warning, no signing form, and another author's draft is left out", async () => {
    // Student 04 has only a draft; their teacher sees that nothing has been sent.
    const record = await recordFor({ userId: id.laerer1, role: ROLE.Teacher }, "SYK2001", "student04");
    expect(record.warning).toBeNull();
    expect(record.signingForm).toBeNull();
    expect(record.results.map((r) => r.form.name)).toEqual([
      "Vurdering av kliniske kompetanser",
      "Legemiddelhåndtering",
    ]);
    const text = (await readPdf(await fullRecordDocument(record, await settings("nb")))).text;
    expect(text).toContain("Ingen svar er sendt ennå.");
    expect(text).toContain("Studenten har ikke fått varsel om fare for ikke bestått praksis.");
    expect(text).toContain("Signeringsskjemaet er ikke opprettet ennå.");
    expect(text).not.toContain("Student: Jakob Pedersen");
  });
});

test("a form's answers: the viewer's own draft is shown as a draft", async () => {
  const viewer: Viewer = { userId: id.student04, role: ROLE.Student };
  const results = await formResults(database.db, viewer, {
    classId: await classOf("SYK2001"),
    formId: formId["Vurdering av kliniske kompetanser"],
    studentUserId: id.student04,
  });
  const pdf = await readPdf(await answersDocument(results, await settings("nb")));
  expect(pdf.info).toMatchObject({ Title: "Vurdering av kliniske kompetanser – Jakob Pedersen" });
  expect(pdf.text).toContain("Student: Jakob Pedersen, utkast (bare synlig for deg)");
  expect(pdf.text).toContain("Student Jakob Pedersen (utkast)");
  expect(roleOutline(pdf.structure).slice(0, 4)).toEqual(["Document", "  H1", "  P", "  H2"]);
});

test("the signing form reads its answers by the form's own rule: 'Ikke relevant' only where allowed and once the part is saved", async () => {
  const db = database.db;
  const access = await requireStudentAccess(
    db,
    { userId: id.admin, role: ROLE.Admin },
    await classOf("SYK2002"),
    await userIdOf(db, "student19@example.org"),
  );
  const placement = (await placementOf(db, access.referenceId, id.admin))!;
  const s = await settings("nb");
  // The demo's student 19: the mid part confirmed (the feedback talk not relevant), the end part not yet saved.
  await db
    .update(signingForms)
    .set({ midSemesterStudentHasGivenFeedback: null })
    .where(eq(signingForms.studentReferenceId, access.referenceId));
  let text = (
    await readPdf(await signingFormDocument(placement, (await signingFormRecord(db, access.referenceId))!, s))
  ).text;
  expect(text).toContain("Ikke relevant");
  expect(text).not.toContain("Ja Ikke relevant");
  expect(text.match(/Ikke besvart/g)?.length).toBe(5);

  // The end part saved: work requirements may be not relevant; nothing is unanswered any more.
  await db
    .update(signingForms)
    .set({
      endSemesterCompletedDate: "2026-11-20",
      attendancePassed: true,
      workRequirementsPassed: null,
      specificCompetenceAreasPassed: true,
      generalCompetenceAreasPassed: false,
      overallPassed: false,
    })
    .where(eq(signingForms.studentReferenceId, access.referenceId));
  text = (await readPdf(await signingFormDocument(placement, (await signingFormRecord(db, access.referenceId))!, s)))
    .text;
  expect(text.match(/Ikke relevant/g)?.length).toBe(2);
  expect(text).not.toContain("Ikke besvart");
});

test("an empty form: every group and question, the labels as boxes to tick, the help texts", async () => {
  const form = (await formForAnswering(database.db, formId["Vurdering av kliniske kompetanser"]))!;
  const pdf = await readPdf(await emptyFormDocument(form, await settings("nb")));
  expect(pdf.info).toMatchObject({
    Title: "Vurdering av kliniske kompetanser",
    Subject: "Tomt skjema",
    Language: "nb-NO",
  });
  const text = pdf.text;
  expect(text).toContain("Studentens egenvurdering");
  expect(text).toContain("1. Hva har du lært så langt i praksisperioden?");
  expect(text).toContain("Hjelpetekst: Tenk på både den daglige veiledningen og veiledningssamtalene.");
  expect(text).toContain("Spørsmål Selvstendig Delvis selvstendig Veiledet Assistert Uselvstendig Ikke relevant");
  expect(text).toContain("4. Observerer og vurderer pasientens behov ☐ ☐ ☐ ☐ ☐ ☐");
  expect(text).toContain("Hjelpetekster til Pasientobservasjon og vurdering");
  expect(text).toContain("6. Gjelder dokumentasjon i pasientjournal etter helsepersonelloven.");
  // Four graded groups of three questions, each a table with a header row.
  expect(pdf.roles.get("Table")).toBe(4);
  expect(pdf.roles.get("TR")).toBe(4 * 4);
  expect(pdf.roles.get("TH")).toBe(4 * (7 + 3));
  expect(pdf.roles.get("TD")).toBe(4 * 3 * 6);
});

test("file names: kind, subject code as written, the rest in lower case; an ASCII stand-in spells æøå out", () => {
  expect(documentFileName("signeringsskjema", [{ code: "SYK2001" }, "Høst 2026", "Sofie Nilsen"])).toEqual({
    name: "signeringsskjema-SYK2001-høst-2026-sofie-nilsen.pdf",
    ascii: "signeringsskjema-SYK2001-hoest-2026-sofie-nilsen.pdf",
  });
  expect(documentFileName("praksismappe", [{ code: "SYK2002" }, "Vår 2026", "Ida Ødegård"]).ascii).toBe(
    "praksismappe-SYK2002-vaar-2026-ida-oedegaard.pdf",
  );
  // Nothing typed by a person can break out of the header or the download folder.
  const odd = documentFileName("skjema", ['../"Søknad"; ', "\r\nX: y", "Zoë"]);
  expect(odd).toEqual({ name: "skjema-søknad-x-y-zoë.pdf", ascii: "skjema-soeknad-x-y-zoe.pdf" });
});

describe("what the documents read", () => {
  test("a warning counts once given; the teacher's draft is nobody's document", async () => {
    const db = database.db;
    const classId = await classOf("SYK2001");
    const [reference] = await db
      .select({ id: studentReferences.id })
      .from(studentReferences)
      .where(and(eq(studentReferences.classId, classId), eq(studentReferences.studentUserId, id.student01)));
    await db
      .insert(warnings)
      .values({ studentReferenceId: reference.id, teacherUserId: id.laerer1, comment: "Utkast" });
    expect(await givenWarning(db, reference.id)).toBeNull();
    await db.update(warnings).set({ submittedAt: now }).where(eq(warnings.studentReferenceId, reference.id));
    expect(await givenWarning(db, reference.id)).toMatchObject({
      comment: "Utkast",
      teacherName: "Ingrid Haugen",
      submittedAt: now,
    });
    await db.delete(warnings).where(eq(warnings.studentReferenceId, reference.id));
    expect(await signingFormRecord(db, reference.id)).toBeNull();
  });

  test("the empty form: the admin any live form; others a form that a class of theirs answers", async () => {
    const main = formId["Vurdering av kliniske kompetanser"];
    const medication = formId["Legemiddelhåndtering"];
    const wounds = formId["Sårstell og infeksjonsforebygging"];
    const may = (name: string, role: Viewer["role"], form: number) =>
      mayReadForm(database.db, { userId: id[name], role }, form);
    expect(await may("admin", ROLE.Admin, medication)).toBe(true);
    expect(await may("admin", ROLE.Admin, 999_999)).toBe(false);
    // The admin also teaches SYK2002, which answers the wound-care form, not the medication form.
    expect(await may("admin", ROLE.Teacher, wounds)).toBe(true);
    expect(await may("admin", ROLE.Teacher, medication)).toBe(false);
    expect(await may("laerer1", ROLE.Teacher, medication)).toBe(true);
    expect(await may("laerer3", ROLE.Teacher, medication)).toBe(false);
    expect(await may("laerer3", ROLE.Teacher, wounds)).toBe(true);
    expect(await may("veileder3", ROLE.Supervisor, wounds)).toBe(true);
    expect(await may("veileder3", ROLE.Supervisor, medication)).toBe(false);
    expect(await may("student01", ROLE.Student, medication)).toBe(true);
    expect(await may("student01", ROLE.Student, wounds)).toBe(false);
    expect(await may("student13", ROLE.Student, wounds)).toBe(true);
    // A student of an earlier class keeps the forms of that class.
    expect(await may("student03", ROLE.Student, main)).toBe(true);
    // Acting in a role the question does not fit (a student id acting as teacher) gives nothing.
    expect(await may("student01", ROLE.Teacher, main)).toBe(false);

    await database.db.update(forms).set({ deletedAt: now }).where(eq(forms.id, medication));
    expect(await may("admin", ROLE.Admin, medication)).toBe(false);
    expect(await may("laerer1", ROLE.Teacher, medication)).toBe(false);
    await database.db.update(forms).set({ deletedAt: null }).where(eq(forms.id, medication));
  });
});
