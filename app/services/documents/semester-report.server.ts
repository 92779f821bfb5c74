import { and, asc, eq, gt, inArray, isNotNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { CSV_BOM, csvRow } from "./csv";
import type { Db } from "~/services/platform/db/client.server";
import { recordOpeningsOf } from "~/services/platform/record-openings.server";
import {
  answerSets,
  schemeForms,
  schemes,
  classes,
  semesters,
  ROLE,
  signingForms,
  studentExtraSupervisors,
  studentReferences,
  subjects,
  users,
  warnings,
  type RoleId,
  type SigningForm,
} from "~/services/platform/db/schema";
import type { KeyOf, MessageKey, Namespace } from "~/locales/keys";

/**
 * Texts of a CSV file in the admin's language: keys of one namespace (the report's are adminSemesters',
 * the audit export's privacyData's), or any key with its namespace.
 */
export type Translate<NS extends Namespace = "adminSemesters"> = (
  key: KeyOf<NS> | MessageKey,
  values?: Record<string, string | number>,
) => string;

export const REPORT_PAGE_SIZE = 500;

export const REPORT_COLUMNS = [
  "student",
  "email",
  "subjectCode",
  "subjectName",
  "teacher",
  "supervisors",
  "midByStudent",
  "midBySupervisor",
  "midByTeacher",
  "endByStudent",
  "endBySupervisor",
  "endByTeacher",
  "warningGiven",
  "warningConfirmed",
  "signingForm",
  "result",
] as const;

/** How many of the forms a scheme half asks for one author role has sent. */
export interface SentCount {
  sent: number;
  expected: number;
}

export type SigningFormState = "none" | "started" | "midConfirmed" | "partlySigned" | "signed";

/** The facts of one student in one class of the semester: one line of the report. */
export interface ReportRow {
  studentName: string;
  studentEmail: string;
  subjectCode: string;
  subjectName: string;
  teacherName: string | null;
  supervisorNames: string[];
  mid: { student: SentCount; supervisor: SentCount; teacher: SentCount };
  end: { student: SentCount; supervisor: SentCount; teacher: SentCount };
  warningGiven: boolean;
  warningConfirmed: boolean;
  signingForm: SigningFormState;
  overallPassed: boolean | null;
}

type SigningFacts = Pick<
  SigningForm,
  | "midSemesterCompletedDate"
  | "signedByTeacherDate"
  | "signedByStudentDate"
  | "signedBySupervisorDate"
  | "signWithoutSupervisorConfirmedDate"
>;

/**
 * Where a signing form stands: signed by all once teacher, student and supervisor have signed
 * (or the teacher confirmed signing without the supervisor); otherwise partly signed, mid-semester
 * confirmed, or just started.
 */
export function signingFormState(form: SigningFacts | null): SigningFormState {
  if (!form) return "none";
  const teacher = form.signedByTeacherDate !== null;
  const student = form.signedByStudentDate !== null;
  const supervisor = form.signedBySupervisorDate !== null || form.signWithoutSupervisorConfirmedDate !== null;
  if (teacher && student && supervisor) return "signed";
  if (teacher || student || form.signedBySupervisorDate !== null) return "partlySigned";
  if (form.midSemesterCompletedDate !== null) return "midConfirmed";
  return "started";
}

/** "Ja" when every form of the half is sent, "Delvis (1 av 2)" when some are, "Nei" otherwise. */
export function sentText(count: SentCount, t: Translate): string {
  if (count.sent === 0) return t("report.no");
  if (count.sent >= count.expected) return t("report.yes");
  return t("report.partly", { sent: count.sent, expected: count.expected });
}

export function reportHeader(t: Translate): string[] {
  return REPORT_COLUMNS.map((c) => t(`report.columns.${c}`));
}

export function reportCells(row: ReportRow, t: Translate): string[] {
  const yesNo = (value: boolean) => t(value ? "report.yes" : "report.no");
  return [
    row.studentName,
    row.studentEmail,
    row.subjectCode,
    row.subjectName,
    row.teacherName ?? "",
    row.supervisorNames.join(", "),
    sentText(row.mid.student, t),
    sentText(row.mid.supervisor, t),
    sentText(row.mid.teacher, t),
    sentText(row.end.student, t),
    sentText(row.end.supervisor, t),
    sentText(row.end.teacher, t),
    yesNo(row.warningGiven),
    yesNo(row.warningConfirmed),
    t(`report.signing.${row.signingForm}`),
    t(
      row.overallPassed === null
        ? "report.result.undecided"
        : row.overallPassed
          ? "report.result.passed"
          : "report.result.failed",
    ),
  ];
}

/** The server's name for the download; characters no file system takes become "-". */
export function reportFileName(semesterName: string, t: Translate): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  return `${t("report.fileName", { name: semesterName })}.csv`.replace(/[\\/:*?"<>|\u0000-\u001f]/g, "-");
}

const student = alias(users, "report_student");
const teacher = alias(users, "report_teacher");
const supervisor = alias(users, "report_supervisor");

/**
 * One page of the report: the next `limit` student references of the semester after `afterId`,
 * in id order (keyset pagination, so each page costs the same however far into the semester).
 */
export async function reportPage(
  db: Db,
  semesterId: number,
  afterId: number,
  limit: number,
): Promise<{ rows: ReportRow[]; lastId: number | null }> {
  const refs = await pageReferences(db, semesterId, afterId, limit);
  if (refs.length === 0) return { rows: [], lastId: null };
  const facts = await factsOf(db, refs);
  return { rows: refs.map((ref) => reportRow(ref, facts)), lastId: refs[refs.length - 1].id };
}

type PageReference = Awaited<ReturnType<typeof pageReferences>>[number];

/** The page's student references, with the names of the student, the subject, the teacher and the supervisor. */
function pageReferences(db: Db, semesterId: number, afterId: number, limit: number) {
  return db
    .select({
      id: studentReferences.id,
      classId: studentReferences.classId,
      studentName: student.displayName,
      studentEmail: student.email,
      subjectCode: subjects.subjectCode,
      subjectName: subjects.name,
      teacherName: teacher.displayName,
      supervisorUserId: studentReferences.supervisorUserId,
      supervisorName: supervisor.displayName,
    })
    .from(studentReferences)
    .innerJoin(classes, eq(classes.id, studentReferences.classId))
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .innerJoin(student, eq(student.id, studentReferences.studentUserId))
    .leftJoin(teacher, eq(teacher.id, studentReferences.teacherUserId))
    .leftJoin(supervisor, eq(supervisor.id, studentReferences.supervisorUserId))
    .where(and(eq(classes.semesterId, semesterId), gt(studentReferences.id, afterId)))
    .orderBy(asc(studentReferences.id))
    .limit(limit);
}

type PageFacts = Awaited<ReturnType<typeof factsOf>>;

/** What the page's rows say beyond the names, read at once for all of them and kept by reference (or class). */
async function factsOf(db: Db, refs: PageReference[]) {
  const refIds = refs.map((r) => r.id);
  const classIds = [...new Set(refs.map((r) => r.classId))];
  const [extras, expected, sent, warningRows, signingRows] = await Promise.all([
    db
      .select({ refId: studentExtraSupervisors.studentReferenceId, userId: users.id, name: users.displayName })
      .from(studentExtraSupervisors)
      .innerJoin(users, eq(users.id, studentExtraSupervisors.userId))
      .where(inArray(studentExtraSupervisors.studentReferenceId, refIds))
      .orderBy(asc(users.displayName)),
    db
      .select({
        classId: schemes.classId,
        isMidSemester: schemes.isMidSemester,
        forms: sql<number>`count(*)::int`,
      })
      .from(schemes)
      .innerJoin(schemeForms, eq(schemeForms.schemeId, schemes.id))
      .where(inArray(schemes.classId, classIds))
      .groupBy(schemes.classId, schemes.isMidSemester),
    sentCounts(db, refIds),
    db
      .select({
        refId: warnings.studentReferenceId,
        submittedAt: warnings.submittedAt,
        confirmedAt: warnings.studentConfirmedWarningAt,
      })
      .from(warnings)
      .where(inArray(warnings.studentReferenceId, refIds)),
    db
      .select({
        refId: signingForms.studentReferenceId,
        midSemesterCompletedDate: signingForms.midSemesterCompletedDate,
        signedByTeacherDate: signingForms.signedByTeacherDate,
        signedByStudentDate: signingForms.signedByStudentDate,
        signedBySupervisorDate: signingForms.signedBySupervisorDate,
        signWithoutSupervisorConfirmedDate: signingForms.signWithoutSupervisorConfirmedDate,
        overallPassed: signingForms.overallPassed,
      })
      .from(signingForms)
      .where(inArray(signingForms.studentReferenceId, refIds)),
  ]);
  return {
    extrasOf: groupBy(extras, (e) => e.refId),
    expectedOf: new Map(expected.map((e) => [`${e.classId}:${e.isMidSemester}`, e.forms])),
    sentOf: new Map(sent.map((s) => [`${s.refId}:${s.isMidSemester}:${s.authorRoleId}`, s.forms])),
    warningOf: new Map(warningRows.map((w) => [w.refId, w])),
    signingOf: new Map(signingRows.map((s) => [s.refId, s])),
  };
}

/** How many forms each reference's student, supervisor and teacher have sent per half. */
function sentCounts(db: Db, refIds: number[]) {
  // Only sent answers count, and only to forms the class's schemes still ask for.
  return db
    .select({
      refId: studentReferences.id,
      isMidSemester: schemes.isMidSemester,
      authorRoleId: answerSets.authorRoleId,
      forms: sql<number>`count(distinct (${answerSets.schemeId}, ${answerSets.formId}))::int`,
    })
    .from(answerSets)
    .innerJoin(
      schemeForms,
      and(eq(schemeForms.schemeId, answerSets.schemeId), eq(schemeForms.formId, answerSets.formId)),
    )
    .innerJoin(schemes, eq(schemes.id, answerSets.schemeId))
    .innerJoin(
      studentReferences,
      and(
        eq(studentReferences.classId, schemes.classId),
        eq(studentReferences.studentUserId, answerSets.studentUserId),
      ),
    )
    .where(and(inArray(studentReferences.id, refIds), isNotNull(answerSets.sentAt)))
    .groupBy(studentReferences.id, schemes.isMidSemester, answerSets.authorRoleId);
}

function reportRow(ref: PageReference, { extrasOf, expectedOf, sentOf, warningOf, signingOf }: PageFacts): ReportRow {
  const half = (isMidSemester: boolean) => {
    const count = (roleId: number): SentCount => ({
      sent: sentOf.get(`${ref.id}:${isMidSemester}:${roleId}`) ?? 0,
      expected: expectedOf.get(`${ref.classId}:${isMidSemester}`) ?? 0,
    });
    return { student: count(ROLE.Student), supervisor: count(ROLE.Supervisor), teacher: count(ROLE.Teacher) };
  };
  const warning = warningOf.get(ref.id);
  const signing = signingOf.get(ref.id) ?? null;
  const others = (extrasOf.get(ref.id) ?? []).filter((e) => e.userId !== ref.supervisorUserId).map((e) => e.name);
  return {
    studentName: ref.studentName,
    studentEmail: ref.studentEmail,
    subjectCode: ref.subjectCode,
    subjectName: ref.subjectName,
    teacherName: ref.teacherName,
    supervisorNames: [...(ref.supervisorName ? [ref.supervisorName] : []), ...others],
    mid: half(true),
    end: half(false),
    // A draft is the teacher's own until it is submitted.
    warningGiven: warning?.submittedAt != null,
    warningConfirmed: warning?.confirmedAt != null,
    signingForm: signingFormState(signing),
    overallPassed: signing?.overallPassed ?? null,
  };
}

function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

export interface SemesterReport {
  semester: { id: number; name: string };
  fileName: string;
  /** UTF-8 CSV with BOM; produced page by page as it is read, so memory stays flat. */
  stream: ReadableStream<Uint8Array>;
}

/** Every student the semester report names has had their row opened by the admin who downloads it. */
export async function recordReportOpenings(
  db: Db,
  viewer: { userId: number; role: RoleId },
  semesterId: number,
): Promise<void> {
  await recordOpeningsOf(
    db,
    viewer,
    "semesterReport",
    sql`select ${studentReferences.studentUserId}, ${studentReferences.classId} from ${studentReferences} join ${classes} on ${classes.id} = ${studentReferences.classId} where ${classes.semesterId} = ${semesterId}`,
  );
}

/**
 * The students a semester's report is about, by id: the download's one audit entry names them (and
 * their count), while each student's own list of openings keeps a row per student (record_openings).
 */
export async function reportStudentIds(db: Db, semesterId: number): Promise<number[]> {
  const rows = await db
    .selectDistinct({ id: studentReferences.studentUserId })
    .from(studentReferences)
    .innerJoin(classes, eq(classes.id, studentReferences.classId))
    .where(eq(classes.semesterId, semesterId));
  return rows.map((r) => r.id).toSorted((a, b) => a - b);
}

/**
 * Opens the semester report, or null when the semester does not exist. The semester and the first
 * page are read before this returns, so a failing database fails here, while the caller can still
 * answer with an error page; the rest is read as the stream is consumed.
 */
export async function openSemesterReport(
  db: Db,
  semesterId: number,
  options: { t: Translate; pageSize?: number },
): Promise<SemesterReport | null> {
  const { t } = options;
  const pageSize = options.pageSize ?? REPORT_PAGE_SIZE;
  const [semester] = await db
    .select({ id: semesters.id, name: semesters.name })
    .from(semesters)
    .where(eq(semesters.id, semesterId));
  if (!semester) return null;

  const encoder = new TextEncoder();
  const toText = (rows: ReportRow[]) => rows.map((row) => csvRow(reportCells(row, t))).join("");
  const first = await reportPage(db, semester.id, 0, pageSize);
  let pending: string | null = CSV_BOM + csvRow(reportHeader(t)) + toText(first.rows);
  let afterId = first.lastId;
  let done = first.rows.length < pageSize;

  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (pending !== null) {
          controller.enqueue(encoder.encode(pending));
          pending = null;
          if (done) controller.close();
          return;
        }
        const page = await reportPage(db, semester.id, afterId ?? 0, pageSize);
        if (page.rows.length > 0) controller.enqueue(encoder.encode(toText(page.rows)));
        afterId = page.lastId ?? afterId;
        done = page.rows.length < pageSize;
        if (done) controller.close();
      },
    },
    // One page in hand at a time: the next is read only when the reader has taken this one.
    { highWaterMark: 0 },
  );
  return { semester, fileName: reportFileName(semester.name, t), stream };
}
