import { eq } from "drizzle-orm";
import i18next from "i18next";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import resources from "~/locales";
import { openTestDatabase } from "~/test/db";
import { listSemesters } from "~/services/admin/index.server";
import type { Database } from "~/services/platform/db/client.server";
import { seedDemo } from "~/services/demo/index.server";
import { semesters, users } from "~/services/platform/db/schema";
import {
  openSemesterReport,
  REPORT_COLUMNS,
  reportFileName,
  reportHeader,
  reportPage,
  sentText,
  signingFormState,
  type Translate,
} from "./semester-report.server";

const today = new Date("2026-11-22T12:00:00Z");

async function translator(lng: "nb" | "en"): Promise<Translate> {
  const i18n = i18next.createInstance();
  await i18n.init({ resources, lng, interpolation: { escapeValue: false } });
  const t = i18n.getFixedT(lng, "adminSemesters");
  return (key, values) => t(key, values);
}

let nb: Translate;
let en: Translate;
beforeAll(async () => {
  nb = await translator("nb");
  en = await translator("en");
});

describe("signingFormState", () => {
  const empty = {
    midSemesterCompletedDate: null,
    signedByTeacherDate: null,
    signedByStudentDate: null,
    signedBySupervisorDate: null,
    signWithoutSupervisorConfirmedDate: null,
  };
  const at = new Date("2026-12-01T10:00:00Z");

  test("none without a form, started when nothing is confirmed, mid-semester confirmed once dated", () => {
    expect(signingFormState(null)).toBe("none");
    expect(signingFormState(empty)).toBe("started");
    expect(signingFormState({ ...empty, midSemesterCompletedDate: "2026-10-01" })).toBe("midConfirmed");
  });

  test("partly signed while someone has not signed", () => {
    expect(signingFormState({ ...empty, signedByStudentDate: at })).toBe("partlySigned");
    expect(signingFormState({ ...empty, signedBySupervisorDate: at })).toBe("partlySigned");
    expect(signingFormState({ ...empty, signedByTeacherDate: at, signedByStudentDate: at })).toBe("partlySigned");
  });

  test("signed by all: teacher, student and supervisor, or the teacher confirmed signing without the supervisor", () => {
    expect(
      signingFormState({ ...empty, signedByTeacherDate: at, signedByStudentDate: at, signedBySupervisorDate: at }),
    ).toBe("signed");
    expect(
      signingFormState({
        ...empty,
        signedByTeacherDate: at,
        signedByStudentDate: at,
        signWithoutSupervisorConfirmedDate: at,
      }),
    ).toBe("signed");
  });
});

describe("texts", () => {
  test("sent: yes when every form is sent, partly with the counts, no when none", () => {
    expect(sentText({ sent: 2, expected: 2 }, nb)).toBe("Ja");
    expect(sentText({ sent: 1, expected: 2 }, nb)).toBe("Delvis (1 av 2)");
    expect(sentText({ sent: 0, expected: 2 }, nb)).toBe("Nei");
    expect(sentText({ sent: 0, expected: 0 }, nb)).toBe("Nei");
    expect(sentText({ sent: 1, expected: 2 }, en)).toBe("Partly (1 of 2)");
  });

  test("the header names every column in the admin's language", () => {
    expect(reportHeader(nb)).toHaveLength(REPORT_COLUMNS.length);
    expect(reportHeader(nb).slice(0, 4)).toEqual(["Student", "E-post", "Emnekode", "Emnenavn"]);
    expect(reportHeader(nb)).toContain("Midtveis sendt av student");
    expect(reportHeader(en)).toContain("Mid-semester sent by student");
    expect(reportHeader(en).every((h) => h.length > 0 && !h.includes("report."))).toBe(true);
  });

  test("the file name is the semester's, with characters no file system takes replaced", () => {
    expect(reportFileName("Høst 2026", nb)).toBe("Semesterrapport Høst 2026.csv");
    expect(reportFileName("Vår 2027", en)).toBe("Semester report Vår 2027.csv");
    expect(reportFileName('A/B: "C"', nb)).toBe("Semesterrapport A-B- -C-.csv");
  });
});

/** Reads a whole stream, chunk by chunk, as text. */
async function readChunks(stream: ReadableStream<Uint8Array>): Promise<string[]> {
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  const chunks: string[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    chunks.push(decoder.decode(value));
  }
}

describe("on the demo data", () => {
  let database: Database;
  let autumn: number;
  let spring: number;
  beforeAll(async () => {
    database = await openTestDatabase();
    await seedDemo(database.db, today);
    const lists = await listSemesters(database.db, today);
    autumn = lists.current[0].id;
    spring = lists.past[0].id;
  });
  afterAll(() => database.close());

  test("one row per student of the semester, with teacher, supervisors and what each has sent", async () => {
    const { rows, lastId } = await reportPage(database.db, autumn, 0, 500);
    expect(rows).toHaveLength(24);
    expect(lastId).toEqual(expect.any(Number));
    expect(new Set(rows.map((r) => r.studentEmail)).size).toBe(24);

    const [first, second] = rows;
    expect(first).toEqual({
      studentName: "Emma Andersen",
      studentEmail: "student01@example.org",
      subjectCode: "SYK2001",
      subjectName: "Praksis i sykehjem",
      teacherName: "Ingrid Haugen",
      supervisorNames: ["Marte Solberg"],
      // The class's mid-semester scheme has two forms; the student, supervisor and teacher sent the main one.
      mid: {
        student: { sent: 1, expected: 2 },
        supervisor: { sent: 1, expected: 2 },
        teacher: { sent: 1, expected: 2 },
      },
      end: {
        student: { sent: 0, expected: 2 },
        supervisor: { sent: 0, expected: 2 },
        teacher: { sent: 0, expected: 2 },
      },
      warningGiven: false,
      warningConfirmed: false,
      signingForm: "none",
      overallPassed: null,
    });
    // The assigned supervisor first, then the extra one.
    expect(second.supervisorNames).toEqual(["Ole Kristiansen", "Marte Solberg"]);
    expect(second.mid.teacher.sent).toBe(0);

    const byEmail = new Map(rows.map((r) => [r.studentEmail, r]));
    // A draft is not sent.
    expect(byEmail.get("student03@example.org")?.mid.supervisor.sent).toBe(0);
    expect(byEmail.get("student04@example.org")?.mid.student.sent).toBe(0);
    expect(byEmail.get("student10@example.org")).toMatchObject({ teacherName: "Lars Bakken", supervisorNames: [] });
    expect(byEmail.get("student11@example.org")).toMatchObject({ teacherName: null, supervisorNames: [] });
    expect(byEmail.get("student13@example.org")?.subjectCode).toBe("SYK2002");
  });

  test("the finished semester: everything sent, signed by all, passed, and the one warning given and confirmed", async () => {
    const { rows } = await reportPage(database.db, spring, 0, 500);
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      expect(row.mid).toEqual({
        student: { sent: 1, expected: 1 },
        supervisor: { sent: 1, expected: 1 },
        teacher: { sent: 1, expected: 1 },
      });
      expect(row.end.teacher).toEqual({ sent: 1, expected: 1 });
      expect(row.signingForm).toBe("signed");
      expect(row.overallPassed).toBe(true);
    }
    expect(rows.map((r) => [r.warningGiven, r.warningConfirmed])).toEqual([
      [false, false],
      [false, false],
      [true, true],
      [false, false],
    ]);
  });

  test("keyset pages neither skip nor repeat a student", async () => {
    const seen: string[] = [];
    let after = 0;
    for (;;) {
      const page = await reportPage(database.db, autumn, after, 5);
      if (page.lastId === null) break;
      expect(page.rows.length).toBeLessThanOrEqual(5);
      seen.push(...page.rows.map((r) => r.studentEmail));
      after = page.lastId;
    }
    const all = (await reportPage(database.db, autumn, 0, 500)).rows.map((r) => r.studentEmail);
    expect(seen).toEqual(all);
  });

  test("the CSV: BOM, a header row, one CRLF-ended row per student, semicolons, Norwegian values", async () => {
    const report = await openSemesterReport(database.db, autumn, { t: nb });
    expect(report?.fileName).toBe("Semesterrapport Høst 2026.csv");
    const text = (await readChunks(report!.stream)).join("");
    expect(text.startsWith("\uFEFFStudent;E-post;Emnekode;Emnenavn;Praksislærer;Praksisveileder(e);")).toBe(true);
    expect(text.endsWith("\r\n")).toBe(true);
    const lines = text.slice(1).split("\r\n").slice(0, -1);
    expect(lines).toHaveLength(25);
    expect(text.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    expect(lines.every((l) => l.split(";").length === REPORT_COLUMNS.length)).toBe(true);
    expect(lines[1]).toBe(
      "Emma Andersen;student01@example.org;SYK2001;Praksis i sykehjem;Ingrid Haugen;Marte Solberg;" +
        "Delvis (1 av 2);Delvis (1 av 2);Delvis (1 av 2);Nei;Nei;Nei;Nei;Nei;Ikke opprettet;Ikke avgjort",
    );
    expect(lines[2]).toContain(";Ole Kristiansen, Marte Solberg;");
  });

  test("the CSV in English", async () => {
    const report = await openSemesterReport(database.db, spring, { t: en });
    expect(report?.fileName).toBe("Semester report Vår 2026.csv");
    const lines = (await readChunks(report!.stream)).join("").slice(1).split("\r\n");
    expect(lines[0]).toMatch(/^Student;E-mail;Subject code;Subject name;Practice teacher;Supervisor\(s\);/);
    expect(lines[3]).toMatch(/;Yes;Yes;Yes;Yes;Yes;Yes;Yes;Yes;Signed by all;Passed$/);
    expect(lines[1]).toMatch(/;Yes;Yes;Yes;Yes;Yes;Yes;No;No;Signed by all;Passed$/);
  });

  test("the stream reads page by page as it is consumed, and the pages add up to the whole file", async () => {
    const report = await openSemesterReport(database.db, autumn, { t: nb, pageSize: 5 });
    const chunks = await readChunks(report!.stream);
    const rowsPerChunk = chunks.map((c) => c.split("\r\n").length - 1);
    // Header and the first page, then four pages of five, then the last four.
    expect(rowsPerChunk).toEqual([6, 5, 5, 5, 4]);
    const whole = await openSemesterReport(database.db, autumn, { t: nb });
    expect(chunks.join("")).toBe((await readChunks(whole!.stream)).join(""));
  });

  test("a semester without students gives the header alone; an unknown one gives nothing", async () => {
    const empty = await database.db
      .insert(semesters)
      .values({ name: "Høst 2030", startDate: "2030-07-01", endDate: "2030-12-31" })
      .returning();
    const report = await openSemesterReport(database.db, empty[0].id, { t: nb });
    const text = (await readChunks(report!.stream)).join("");
    expect(text.split("\r\n")).toHaveLength(2);
    expect(await openSemesterReport(database.db, 999_999, { t: nb })).toBeNull();
  });

  test("a name that a spreadsheet would run as a formula is neutralised; æøå come through as UTF-8", async () => {
    await database.db
      .update(users)
      .set({ displayName: '=HYPERLINK("http://evil.example";"Åse")' })
      .where(eq(users.email, "student24@example.org"));
    const report = await openSemesterReport(database.db, autumn, { t: nb });
    const bytes = new Uint8Array(await new Response(report!.stream).arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
    const line = text.split("\r\n").find((l) => l.includes("student24@example.org"));
    expect(line?.startsWith(`"'=HYPERLINK(""http://evil.example"";""Åse"")";student24@example.org;`)).toBe(true);
    expect(text).toContain("Ida Ødegård;student23@example.org;SYK2002;Praksis i spesialisthelsetjenesten;");
  });
});
