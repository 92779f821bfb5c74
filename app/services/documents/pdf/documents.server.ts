import type { Language } from "~/locales";
import type { FormForAnswering } from "~/services/answering/index.server";
import { appName, formatOrganisationNumber, type Institution } from "~/services/platform/institution.server";
import type { Placement } from "~/services/placements/index.server";
import { resultsForView, type FormResults, type ResultsView } from "~/services/answering/index.server";
import { formatDay, formatDayTime } from "~/services/platform/semesters";
import { choiceOf, type Choice, type Question } from "~/services/signing";
import { PdfWriter, type PdfColumn } from "./document.server";
import type { FullRecord, GivenWarning, SigningFormRecord } from "./records.server";
import type { KeyOf, MessageKey } from "~/locales/keys";

/**
 * The documents (docs/rules/documents.md; ADR 0010), each written from data that the caller has already
 * fetched within the viewer's rights: an empty form, a form's answers about a student, the given
 * warning, the signing form, and the whole placement record. Texts come from the `documents`
 * namespace in the reader's language, plus the labels the pages use (`answers`), and the
 * institution variant's name, organisation number and signing-form wording.
 */

export type Translate = (key: KeyOf<"documents"> | MessageKey, values?: Record<string, string | number>) => string;

export interface DocumentSettings {
  t: Translate;
  language: Language;
  institution: Institution;
  now?: Date;
}

const LANG_TAG: Record<Language, string> = { nb: "nb-NO", en: "en" };

function openWriter(
  s: DocumentSettings,
  meta: { title: string; subject: string; layout?: "portrait" | "landscape" },
): PdfWriter {
  const { t, language, institution } = s;
  const now = s.now ?? new Date();
  const app = appName(institution, language);
  const institutionName = institution[language].institutionName;
  return new PdfWriter({
    title: meta.title,
    subject: meta.subject,
    author: institutionName,
    creator: app,
    lang: LANG_TAG[language],
    headerLeft: t("frame.header", { institution: institutionName, app }),
    headerRight: t("frame.organisationNumber", { number: formatOrganisationNumber(institution.organisationNumber) }),
    footerLeft: t("frame.made", { at: formatDayTime(now, language) }),
    pageLabel: (page, pages) => t("frame.page", { page, pages }),
    now,
    layout: meta.layout,
  });
}

const day = (iso: string | null, s: DocumentSettings) => (iso ? formatDay(iso, s.language) : null);
const instant = (at: Date | null, s: DocumentSettings) => (at ? formatDayTime(at, s.language) : null);

/** "SYK2002 Praksis i spesialisthelsetjenesten, Høst 2026" */
function placementLine(header: Placement["header"]): string {
  return `${header.subjectCode} ${header.subjectName}, ${header.semesterName}`;
}

// ─── File names ──────────────────────────────────────────────────────────────

export interface DocumentFileName {
  /** The name as people read it, for `filename*`. */
  name: string;
  /** An ASCII stand-in for clients that ignore `filename*`. */
  ascii: string;
}

const TRANSLITERATION: Record<string, string> = { æ: "ae", ø: "oe", å: "aa", Æ: "AE", Ø: "OE", Å: "AA" };

function slug(text: string, keepCase: boolean): string {
  const words = text
    .normalize("NFC")
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return keepCase ? words : words.toLocaleLowerCase("nb");
}

function toAscii(name: string): string {
  return name
    .replace(/[æøåÆØÅ]/g, (c) => TRANSLITERATION[c])
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9.-]/g, "");
}

/**
 * The server's name for a document: its kind, then the subject code as written and the semester
 * and names in lower case, joined by dashes: "signeringsskjema-SYK2001-høst-2026-sofie-nilsen.pdf"
 * (ASCII: "…-hoest-2026-…"). Nothing the user typed reaches the header unfiltered.
 */
export function documentFileName(kind: string, parts: readonly (string | { code: string })[]): DocumentFileName {
  const name =
    [slug(kind, false), ...parts.map((p) => (typeof p === "string" ? slug(p, false) : slug(p.code, true)))]
      .filter(Boolean)
      .join("-") + ".pdf";
  return { name, ascii: toAscii(name) };
}

// ─── Shared pieces ───────────────────────────────────────────────────────────

function yesNo(choice: Choice, s: DocumentSettings): string {
  return s.t(choice === "yes" ? "answer.yes" : choice === "no" ? "answer.no" : "answer.notRelevant");
}

function placementFacts(w: PdfWriter, placement: Placement, s: DocumentSettings, full: boolean): void {
  const { t } = s;
  const { header } = placement;
  const none = t("facts.none");
  const notSet = t("facts.notSet");
  const semester = t("facts.semesterValue", {
    name: header.semesterName,
    start: day(header.semesterStart, s) ?? "",
    end: day(header.semesterEnd, s) ?? "",
  });
  const rows: [string, string][] = [
    [
      t("facts.student"),
      full ? `${placement.student.displayName} (${placement.student.email})` : placement.student.displayName,
    ],
    [t("facts.subject"), `${header.subjectCode} ${header.subjectName}`],
    [t("facts.semester"), semester],
  ];
  if (full) {
    rows.push(
      [t("facts.midSemesterDate"), day(header.midSemesterDate, s) ?? notSet],
      [t("facts.endSemesterDate"), day(header.endSemesterDate, s) ?? notSet],
    );
  }
  rows.push(
    [t("facts.teacher"), placement.teacher?.displayName ?? none],
    [t("facts.supervisor"), placement.supervisor?.displayName ?? none],
  );
  if (full) {
    rows.push([t("facts.extraSupervisors"), placement.extraSupervisors.map((p) => p.displayName).join(", ") || none]);
  }
  w.facts(rows, [t("facts.field"), t("facts.value")]);
}

type Half = ResultsView["halves"][number];
type Column = Half["columns"][number];

const ROLE_KEY = {
  S: "answers:badges.student",
  PV: "answers:badges.supervisor",
  PL: "answers:badges.teacher",
} as const;

function headingLevel(level: number): 1 | 2 | 3 | 4 {
  return Math.min(4, Math.max(1, level)) as 1 | 2 | 3 | 4;
}

/** One form's answers, both halves: who answered, a table per graded group, the comments and the written answers. */
function writeResults(w: PdfWriter, results: FormResults, s: DocumentSettings, level: number): void {
  const { t } = s;
  const view = resultsForView(results, s.language);
  const role = (column: Column) => t(ROLE_KEY[column.badge]);
  const halves = view.halves.filter((half) => half.schemeId !== null);
  for (const half of halves) {
    w.heading(headingLevel(level), t(half.isMidSemester ? "answers:half.mid" : "answers:half.end"));
    if (half.columns.length === 0) {
      w.paragraph(t("answers:results.none"));
      continue;
    }
    w.paragraph(t("results.authors"), { bold: true });
    w.list(
      half.columns.map((c) =>
        c.sentText
          ? t("results.author", { role: role(c), name: c.authorName, date: c.sentText })
          : t("results.authorDraft", { role: role(c), name: c.authorName }),
      ),
    );
    // Graded questions are numbered through the half, as on the results page.
    const numbers = new Map(
      half.groups
        .filter((g) => g.type === "grading")
        .flatMap((g) => g.rows.map((r) => r.questionId))
        .map((id, i) => [id, i + 1]),
    );
    for (const group of half.groups) {
      w.heading(headingLevel(level + 1), group.name);
      if (group.type === "grading") writeGradingGroup(w, half, group, numbers, s);
      else writeTextGroup(w, half, group, s);
    }
  }
}

function writeGradingGroup(
  w: PdfWriter,
  half: Half,
  group: Half["groups"][number],
  numbers: Map<number, number>,
  s: DocumentSettings,
): void {
  const { t } = s;
  const label = (value: string | null) =>
    value === null ? t("results.noAnswer") : (group.options[Number(value)] ?? value);
  const columns: PdfColumn[] = [
    { header: t("answers:results.question"), width: 2.4 },
    ...half.columns.map((c) => ({
      header: t(c.sentText ? "results.column" : "results.columnDraft", {
        role: t(ROLE_KEY[c.badge]),
        name: c.authorName,
      }),
      width: 1,
    })),
    ...(half.expectationsShown ? [{ header: t("answers:results.expected"), width: 1 }] : []),
  ];
  w.table({
    columns,
    rowHeaders: true,
    rows: group.rows.map((row) => [
      t("emptyForm.numbered", { number: numbers.get(row.questionId) ?? "", text: row.text }),
      ...row.values.map(label),
      ...(half.expectationsShown
        ? [row.expected === null ? t("answers:results.noExpected") : label(row.expected)]
        : []),
    ]),
  });
  const commented = group.rows.filter((row) => row.comments.length > 0);
  if (commented.length === 0) return;
  w.paragraph(t("results.comments", { group: group.name }), { bold: true });
  for (const row of commented) {
    w.paragraph(t("emptyForm.numbered", { number: numbers.get(row.questionId) ?? "", text: row.text }), {
      small: true,
      bold: true,
    });
    w.list(
      row.comments.map((c) =>
        c.atText
          ? t("results.comment", { role: t(ROLE_KEY[c.badge]), name: c.authorName, date: c.atText, comment: c.comment })
          : t("results.commentUndated", { role: t(ROLE_KEY[c.badge]), name: c.authorName, comment: c.comment }),
      ),
    );
  }
}

function writeTextGroup(w: PdfWriter, half: Half, group: Half["groups"][number], s: DocumentSettings): void {
  const { t } = s;
  for (const row of group.rows) {
    w.paragraph(row.text, { bold: true });
    const answered = half.columns.flatMap((column, i) => (row.values[i] ? [{ column, text: row.values[i] }] : []));
    if (answered.length === 0) w.paragraph(t("answers:results.noText"), { muted: true });
    for (const { column, text } of answered) {
      w.paragraph(t("results.textAnswer", { role: t(ROLE_KEY[column.badge]), name: column.authorName }), {
        small: true,
        muted: true,
      });
      w.paragraph(text);
    }
  }
}

function writeWarning(w: PdfWriter, warning: GivenWarning, s: DocumentSettings, level: number): void {
  const { t } = s;
  w.facts(
    [
      [t("warning.given"), instant(warning.submittedAt, s) ?? ""],
      [t("warning.givenBy"), warning.teacherName],
      [t("warning.confirmed"), instant(warning.studentConfirmedWarningAt, s) ?? t("warning.notConfirmed")],
    ],
    [t("facts.field"), t("facts.value")],
  );
  w.heading(headingLevel(level), t("warning.comment")).paragraph(warning.comment);
  w.heading(headingLevel(level), t("warning.passRequirement")).paragraph(warning.passRequirement);
  w.heading(headingLevel(level), t("warning.passRequirementSummary")).paragraph(warning.passRequirementSummary);
}

function writeSigningForm(w: PdfWriter, form: SigningFormRecord, s: DocumentSettings, level: number): void {
  const { t } = s;
  // The signing form's own rule for what a null means: "Ikke relevant" once its part is saved
  // where the question allows it, otherwise not answered yet.
  const answer = (key: Question, partSaved: boolean) => {
    const choice = choiceOf(key, form[key], partSaved);
    return [t(`signingForm.${key}`), choice ? yesNo(choice, s) : t("answer.notAnswered")] as [string, string];
  };
  const midSaved = form.midSemesterCompletedDate !== null;
  const endSaved = form.endSemesterCompletedDate !== null;
  const headers: [string, string] = [t("facts.field"), t("facts.value")];
  const notDone = t("signingForm.notDone");

  w.heading(headingLevel(level), t("signingForm.mid"));
  w.facts(
    [
      [t("signingForm.midSemesterCompletedDate"), day(form.midSemesterCompletedDate, s) ?? notDone],
      answer("midSemesterSpecificCompetenceAreasBegun", midSaved),
      answer("midSemesterStudentHasGivenFeedback", midSaved),
    ],
    headers,
  );
  w.heading(headingLevel(level), t("signingForm.end"));
  w.facts(
    [
      [t("signingForm.endSemesterCompletedDate"), day(form.endSemesterCompletedDate, s) ?? notDone],
      answer("attendancePassed", endSaved),
      answer("workRequirementsPassed", endSaved),
      answer("specificCompetenceAreasPassed", endSaved),
      answer("generalCompetenceAreasPassed", endSaved),
      [
        t("signingForm.overallPassed"),
        form.overallPassed === null ? t("answer.notAnswered") : yesNo(form.overallPassed ? "yes" : "no", s),
      ],
    ],
    headers,
  );
  w.paragraph(t("signingForm.teacherComment"), { bold: true });
  w.paragraph(form.teacherComment?.trim() ? form.teacherComment : t("signingForm.noComment"));

  w.heading(headingLevel(level), t("signingForm.signatures"));
  w.paragraph(s.institution[s.language].signingForm.declaration);
  const signature = (roleKey: KeyOf<"documents">, signer: SigningFormRecord["student"]): string[] => [
    t(roleKey),
    signer.name ?? t("results.noAnswer"),
    instant(signer.at, s) ?? t("signingForm.notSigned"),
  ];
  w.table({
    columns: [
      { header: t("signingForm.role"), width: 1 },
      { header: t("signingForm.name"), width: 1.3 },
      { header: t("signingForm.signedAt"), width: 1.2 },
    ],
    rowHeaders: true,
    rows: [
      signature("facts.student", form.student),
      signature("facts.supervisor", form.supervisor),
      signature("facts.teacher", form.teacher),
    ],
  });
  if (form.signWithoutSupervisorConfirmedAt) {
    w.paragraph(t("signingForm.withoutSupervisor", { date: instant(form.signWithoutSupervisorConfirmedAt, s) ?? "" }));
  }
  if (form.isLocked) w.paragraph(t("signingForm.locked"));

  w.heading(headingLevel(level), t("signingForm.result"));
  w.paragraph(
    form.resultSubmittedAt
      ? t("signingForm.submitted", { date: instant(form.resultSubmittedAt, s) ?? "" })
      : t("signingForm.notSubmitted"),
  );
}

// ─── The documents ───────────────────────────────────────────────────────────

/** Lets the event loop serve what waits (other requests) before the next part of a long document. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A form without answers, for printing or preparing: its groups, questions, answer boxes and help texts. */
export async function emptyFormDocument(form: FormForAnswering, s: DocumentSettings): Promise<Buffer<ArrayBuffer>> {
  const { t } = s;
  const w = openWriter(s, { title: form.name, subject: t("emptyForm.subject"), layout: "landscape" });
  w.heading(1, form.name);
  w.paragraph(t(form.isMainForm ? "emptyForm.mainForm" : "emptyForm.specificForm"));
  if (form.groups.length === 0) {
    w.paragraph(t("emptyForm.noQuestions"));
    return w.finish();
  }
  w.paragraph(t("emptyForm.intro"));
  let number = 0;
  for (const group of form.groups) {
    w.heading(2, group.name);
    const numbered = group.questions.map((q) => ({ ...q, number: ++number }));
    if (group.type === "grading") {
      w.table({
        columns: [
          { header: t("emptyForm.question"), width: 3.2 },
          ...group.options.map((label) => ({ header: label, width: 1 })),
        ],
        rowHeaders: true,
        rows: numbered.map((q) => [
          t("emptyForm.numbered", { number: q.number, text: q.text }),
          ...group.options.map(() => t("emptyForm.box")),
        ]),
      });
      const helped = numbered.filter((q) => q.helpText);
      if (helped.length > 0) {
        w.heading(3, t("emptyForm.helpTexts", { group: group.name }));
        w.list(helped.map((q) => t("emptyForm.numbered", { number: q.number, text: q.helpText ?? "" })));
      }
    } else {
      for (const q of numbered) {
        // The question, its help text and the box to write in stay on one page.
        w.keepSpace(150);
        w.paragraph(t("emptyForm.numbered", { number: q.number, text: q.text }), { bold: true });
        if (q.helpText) w.paragraph(t("emptyForm.helpText", { text: q.helpText }), { small: true, muted: true });
        w.writingSpace(84);
      }
    }
  }
  return w.finish();
}

/** A form's answers about a student, mid- and end-semester side by side, as far as the viewer may see them. */
export async function answersDocument(results: FormResults, s: DocumentSettings): Promise<Buffer<ArrayBuffer>> {
  const { t } = s;
  const w = openWriter(s, {
    title: `${results.form.name} – ${results.student.displayName}`,
    subject: `${t("results.subject")}: ${placementLine(results.header)}`,
  });
  w.heading(1, results.form.name);
  w.paragraph(`${results.student.displayName} · ${placementLine(results.header)}`);
  writeResults(w, results, s, 2);
  return w.finish();
}

export async function warningDocument(
  placement: Placement,
  warning: GivenWarning,
  s: DocumentSettings,
): Promise<Buffer<ArrayBuffer>> {
  const { t } = s;
  const w = openWriter(s, {
    title: `${t("warning.title")} – ${placement.student.displayName}`,
    subject: placementLine(placement.header),
  });
  w.heading(1, t("warning.title"));
  placementFacts(w, placement, s, false);
  writeWarning(w, warning, s, 2);
  return w.finish();
}

export async function signingFormDocument(
  placement: Placement,
  form: SigningFormRecord,
  s: DocumentSettings,
): Promise<Buffer<ArrayBuffer>> {
  const title = s.institution[s.language].signingForm.title;
  const w = openWriter(s, {
    title: `${title} – ${placement.student.displayName}`,
    subject: placementLine(placement.header),
  });
  w.heading(1, title);
  placementFacts(w, placement, s, false);
  writeSigningForm(w, form, s, 2);
  return w.finish();
}

/** Everything about the student's placement in one class: the people, every form's answers, the warning and the signing form. */
export async function fullRecordDocument(record: FullRecord, s: DocumentSettings): Promise<Buffer<ArrayBuffer>> {
  const { t } = s;
  const { placement } = record;
  const w = openWriter(s, {
    title: `${t("full.title")} – ${placement.student.displayName}`,
    subject: `${t("full.subject", { student: placement.student.displayName })}: ${placementLine(placement.header)}`,
  });
  w.heading(1, `${t("full.title")}: ${placement.student.displayName}`);
  w.paragraph(placementLine(placement.header));
  w.section(() => {
    w.heading(2, t("full.placement"));
    placementFacts(w, placement, s, true);
  });
  if (record.results.length === 0) w.paragraph(t("full.noForms"));
  for (const results of record.results) {
    // A full record is many pages of tables: written a form at a time, letting the requests that
    // wait on this process in between, so one download does not hold up everyone's pages.
    await nextTurn();
    w.section(() => {
      w.heading(2, results.form.name);
      writeResults(w, results, s, 3);
    });
  }
  w.section(() => {
    w.heading(2, t("full.warning"));
    if (record.warning) writeWarning(w, record.warning, s, 3);
    else w.paragraph(t("full.noWarning"));
  });
  w.section(() => {
    w.heading(2, s.institution[s.language].signingForm.title);
    if (record.signingForm) writeSigningForm(w, record.signingForm, s, 3);
    else w.paragraph(t("full.noSigningForm"));
  });
  await nextTurn();
  return w.finish();
}
