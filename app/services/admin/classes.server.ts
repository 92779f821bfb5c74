import { and, asc, count, desc, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import { audit } from "~/services/platform/audit.server";
import type { Db } from "~/services/platform/db/client.server";
import {
  answerSets,
  schemeForms,
  schemes,
  classSupervisors,
  classes,
  classTeachers,
  expectations,
  formQuestionGroups,
  formQuestions,
  forms,
  semesters,
  QUESTION_GROUP_TYPE,
  studentExtraSupervisors,
  studentReferences,
  subjects,
  users,
} from "~/services/platform/db/schema";
import { formatDay } from "~/services/platform/semesters";

// The lists are short (one class) and not paged, so sorting in JS gives the same numeric,
// Norwegian order ("Student 2" before "Student 10", Æ Ø Å last) on any PostgreSQL (embedded or of one's own),
// without depending on ICU collations being installed in the database.
const nameCollator = new Intl.Collator("nb", { numeric: true, sensitivity: "base" });

/** By display name, numerically ("Student 2" before "Student 10"); ties by id so the order is stable. */
export function byDisplayName<T extends { displayName: string; userId: number }>(rows: readonly T[]): T[] {
  return rows.toSorted((a, b) => nameCollator.compare(a.displayName, b.displayName) || a.userId - b.userId);
}

/**
 * A typed date as a calendar date "yyyy-mm-dd", or null when it is not a real date. Takes what a
 * date input sends (yyyy-mm-dd) and what a person types where the browser shows a plain text box
 * (d.m.yyyy, with dots, slashes or dashes).
 */
export function parseDayInput(text: string): string | null {
  const value = text.trim();
  let year: number, month: number, day: number;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(value);
  const norwegian = /^(\d{1,2})[./-](\d{1,2})[./-](\d{4})$/.exec(value);
  if (iso) [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (norwegian) [day, month, year] = [Number(norwegian[1]), Number(norwegian[2]), Number(norwegian[3])];
  else return null;
  if (year < 1900 || year > 9999 || month < 1 || month > 12 || day < 1) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

export interface ClassHeader {
  classId: number;
  subjectCode: string;
  subjectName: string;
  semesterId: number;
  semesterName: string;
  semesterStart: string;
  semesterEnd: string;
  midSemesterDate: string | null;
  endSemesterDate: string | null;
}

/** The header with its dates as text in the reader's language, for the class pages (ClassDetails). */
export function classHeaderView(header: ClassHeader, language: "nb" | "en") {
  const day = (iso: string | null) => (iso ? formatDay(iso, language) : null);
  return {
    ...header,
    semesterStartText: day(header.semesterStart),
    semesterEndText: day(header.semesterEnd),
    midSemesterText: day(header.midSemesterDate),
    endSemesterText: day(header.endSemesterDate),
  };
}

export async function classHeader(db: Db, classId: number): Promise<ClassHeader | null> {
  const [row] = await db
    .select({
      classId: classes.id,
      subjectCode: subjects.subjectCode,
      subjectName: subjects.name,
      semesterId: semesters.id,
      semesterName: semesters.name,
      semesterStart: semesters.startDate,
      semesterEnd: semesters.endDate,
      midSemesterDate: classes.midSemesterDate,
      endSemesterDate: classes.endSemesterDate,
    })
    .from(classes)
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .innerJoin(semesters, eq(semesters.id, classes.semesterId))
    .where(eq(classes.id, classId));
  return row ?? null;
}

export interface SchemeForm {
  formId: number;
  name: string;
  isMainForm: boolean;
  deleted: boolean;
}

export interface Scheme {
  schemeId: number;
  isMidSemester: boolean;
  createdAt: Date;
  forms: SchemeForm[];
  /** Answer sets sent (not drafts) by anyone, for any student, on this scheme. */
  sentAnswerSets: number;
  /** Answer sets of any kind (drafts too): a scheme with any cannot be removed. */
  answerSets: number;
}

/** The class's response schemes, mid-semester first, each with its forms (main forms first). */
export async function schemesOfClass(db: Db, classId: number): Promise<Scheme[]> {
  const rows = await db
    .select({
      schemeId: schemes.id,
      isMidSemester: schemes.isMidSemester,
      createdAt: schemes.createdAt,
    })
    .from(schemes)
    .where(eq(schemes.classId, classId))
    .orderBy(sql`${schemes.isMidSemester} desc`, asc(schemes.createdAt), asc(schemes.id));
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.schemeId);
  const formRows = await db
    .select({
      schemeId: schemeForms.schemeId,
      formId: forms.id,
      name: forms.name,
      isMainForm: forms.isMainForm,
      deletedAt: forms.deletedAt,
    })
    .from(schemeForms)
    .innerJoin(forms, eq(forms.id, schemeForms.formId))
    .where(inArray(schemeForms.schemeId, ids));
  const sentRows = await db
    .select({
      schemeId: answerSets.schemeId,
      sent: sql<number>`count(*) filter (where ${answerSets.sentAt} is not null)::int`,
      all: count(),
    })
    .from(answerSets)
    .where(inArray(answerSets.schemeId, ids))
    .groupBy(answerSets.schemeId);
  const sent = new Map(sentRows.map((r) => [r.schemeId, Number(r.sent)]));
  const all = new Map(sentRows.map((r) => [r.schemeId, Number(r.all)]));
  return rows.map((row) => ({
    ...row,
    forms: formRows
      .filter((f) => f.schemeId === row.schemeId)
      .map((f) => ({ formId: f.formId, name: f.name, isMainForm: f.isMainForm, deleted: f.deletedAt !== null }))
      .toSorted((a, b) => Number(b.isMainForm) - Number(a.isMainForm) || nameCollator.compare(a.name, b.name)),
    sentAnswerSets: sent.get(row.schemeId) ?? 0,
    answerSets: all.get(row.schemeId) ?? 0,
  }));
}

export interface FormChoice {
  formId: number;
  name: string;
}

/** The forms a scheme can be made of: every form not deleted, main forms and specific competencies apart. */
export async function formChoices(db: Db): Promise<{ mainForms: FormChoice[]; specificForms: FormChoice[] }> {
  const rows = await db
    .select({ formId: forms.id, name: forms.name, isMainForm: forms.isMainForm })
    .from(forms)
    .where(isNull(forms.deletedAt));
  const sorted = rows.toSorted((a, b) => nameCollator.compare(a.name, b.name) || a.formId - b.formId);
  const choice = ({ formId, name }: FormChoice) => ({ formId, name });
  return {
    mainForms: sorted.filter((f) => f.isMainForm).map(choice),
    specificForms: sorted.filter((f) => !f.isMainForm).map(choice),
  };
}

export interface ClassPerson {
  userId: number;
  displayName: string;
  email: string;
  isActive: boolean;
}

export interface ClassStudent extends ClassPerson {
  teacherName: string | null;
  supervisorName: string | null;
}

export interface ClassStaff extends ClassPerson {
  /** Students in the class this person follows up (as assigned teacher; as supervisor, assigned or extra). */
  studentCount: number;
}

/** The people of a class: teachers, students and supervisors, each list by display name. */
export async function peopleOfClass(
  db: Db,
  classId: number,
): Promise<{ teachers: ClassStaff[]; students: ClassStudent[]; supervisors: ClassStaff[] }> {
  const person = { userId: users.id, displayName: users.displayName, email: users.email, isActive: users.isActive };
  const refs = await db
    .select({
      referenceId: studentReferences.id,
      ...person,
      teacherUserId: studentReferences.teacherUserId,
      supervisorUserId: studentReferences.supervisorUserId,
    })
    .from(studentReferences)
    .innerJoin(users, eq(users.id, studentReferences.studentUserId))
    .where(eq(studentReferences.classId, classId));
  const extras = await db
    .select({ referenceId: studentExtraSupervisors.studentReferenceId, userId: studentExtraSupervisors.userId })
    .from(studentExtraSupervisors)
    .innerJoin(studentReferences, eq(studentReferences.id, studentExtraSupervisors.studentReferenceId))
    .where(eq(studentReferences.classId, classId));
  const teacherRows = await db
    .select(person)
    .from(classTeachers)
    .innerJoin(users, eq(users.id, classTeachers.userId))
    .where(eq(classTeachers.classId, classId));
  // A supervisor of the class: attached to it, or following up one of its students (assigned or
  // extra) — an invited supervisor follows a student without being attached to the class.
  const supervisorIds = new Set<number>();
  for (const ref of refs) if (ref.supervisorUserId !== null) supervisorIds.add(ref.supervisorUserId);
  for (const extra of extras) supervisorIds.add(extra.userId);
  const attached = await db
    .select({ userId: classSupervisors.userId })
    .from(classSupervisors)
    .where(eq(classSupervisors.classId, classId));
  for (const row of attached) supervisorIds.add(row.userId);
  const supervisorRows =
    supervisorIds.size === 0
      ? []
      : await db
          .select(person)
          .from(users)
          .where(inArray(users.id, [...supervisorIds]));

  const names = new Map<number, string>();
  for (const row of [...teacherRows, ...supervisorRows]) names.set(row.userId, row.displayName);
  const missing = [...new Set(refs.flatMap((r) => [r.teacherUserId, r.supervisorUserId]))].filter(
    (id): id is number => id !== null && !names.has(id),
  );
  if (missing.length > 0) {
    const rows = await db
      .select({ userId: users.id, displayName: users.displayName })
      .from(users)
      .where(inArray(users.id, missing));
    for (const row of rows) names.set(row.userId, row.displayName);
  }

  const supervised = new Map<number, Set<number>>();
  const follow = (userId: number, referenceId: number) => {
    const set = supervised.get(userId) ?? new Set<number>();
    set.add(referenceId);
    supervised.set(userId, set);
  };
  for (const ref of refs) if (ref.supervisorUserId !== null) follow(ref.supervisorUserId, ref.referenceId);
  for (const extra of extras) follow(extra.userId, extra.referenceId);

  return {
    teachers: byDisplayName(
      teacherRows.map((t) => ({ ...t, studentCount: refs.filter((r) => r.teacherUserId === t.userId).length })),
    ),
    students: byDisplayName(
      refs.map((r) => ({
        userId: r.userId,
        displayName: r.displayName,
        email: r.email,
        isActive: r.isActive,
        teacherName: r.teacherUserId === null ? null : (names.get(r.teacherUserId) ?? null),
        supervisorName: r.supervisorUserId === null ? null : (names.get(r.supervisorUserId) ?? null),
      })),
    ),
    supervisors: byDisplayName(
      supervisorRows.map((s) => ({ ...s, studentCount: supervised.get(s.userId)?.size ?? 0 })),
    ),
  };
}

/** Everything the admin's class page shows; null for an unknown class. */
export async function adminClassPage(db: Db, classId: number) {
  const header = await classHeader(db, classId);
  if (!header) return null;
  const [schemes, choices, people] = await Promise.all([
    schemesOfClass(db, classId),
    formChoices(db),
    peopleOfClass(db, classId),
  ]);
  return { header, schemes, ...choices, ...people };
}

export type EndDateError = "invalid" | "beforeStart" | "afterEnd" | "beforeMid";

/**
 * The end-semester date must be a real date within the class's semester and not before its
 * mid-semester date. Returns the date as yyyy-mm-dd, or why it cannot be used.
 */
export function checkEndSemesterDate(
  text: string,
  header: Pick<ClassHeader, "semesterStart" | "semesterEnd" | "midSemesterDate">,
): { ok: true; date: string } | { ok: false; error: EndDateError } {
  const date = parseDayInput(text);
  if (!date) return { ok: false, error: "invalid" };
  if (date < header.semesterStart) return { ok: false, error: "beforeStart" };
  if (date > header.semesterEnd) return { ok: false, error: "afterEnd" };
  if (header.midSemesterDate && date < header.midSemesterDate) return { ok: false, error: "beforeMid" };
  return { ok: true, date };
}

/** Sets the class's end-semester date after the checks above; audited with the old and new date. */
export async function updateEndSemesterDate(
  db: Db,
  input: { classId: number; text: string; actorUserId: number; ip?: string | null },
): Promise<{ ok: true; date: string } | { ok: false; error: EndDateError | "notFound" }> {
  const header = await classHeader(db, input.classId);
  if (!header) return { ok: false, error: "notFound" };
  const checked = checkEndSemesterDate(input.text, header);
  if (!checked.ok) return checked;
  await db.transaction(async (tx) => {
    await tx.update(classes).set({ endSemesterDate: checked.date }).where(eq(classes.id, input.classId));
    await audit(tx, {
      action: "class.updated",
      actorUserId: input.actorUserId,
      classId: input.classId,
      details: { endSemesterDate: { from: header.endSemesterDate, to: checked.date } },
      ip: input.ip,
    });
  });
  return { ok: true, date: checked.date };
}

export type SchemeError =
  { kind: "noForms" } | { kind: "unknownForm" } | { kind: "alreadyInScheme"; formName: string; isMidSemester: boolean };

/**
 * A new response scheme: mid- or end-semester, with at least one form that exists and is not
 * deleted. A form may be in at most one scheme per half of a class, so a student never gets the
 * same form twice for the same evaluation.
 */
export async function createScheme(
  db: Db,
  input: { classId: number; isMidSemester: boolean; formIds: number[]; actorUserId: number; ip?: string | null },
): Promise<{ ok: true; schemeId: number } | { ok: false; error: SchemeError | { kind: "notFound" } }> {
  const formIds = [...new Set(input.formIds)];
  if (formIds.length === 0) return { ok: false, error: { kind: "noForms" } };
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({ id: classes.id })
      .from(classes)
      .where(eq(classes.id, input.classId))
      .for("update");
    if (!found) return { ok: false as const, error: { kind: "notFound" as const } };
    const chosen = await tx
      .select({ id: forms.id, name: forms.name })
      .from(forms)
      .where(and(inArray(forms.id, formIds), isNull(forms.deletedAt)));
    if (chosen.length !== formIds.length) return { ok: false as const, error: { kind: "unknownForm" as const } };
    const [taken] = await tx
      .select({ name: forms.name })
      .from(schemeForms)
      .innerJoin(schemes, eq(schemes.id, schemeForms.schemeId))
      .innerJoin(forms, eq(forms.id, schemeForms.formId))
      .where(
        and(
          eq(schemes.classId, input.classId),
          eq(schemes.isMidSemester, input.isMidSemester),
          inArray(schemeForms.formId, formIds),
        ),
      )
      .orderBy(asc(forms.name))
      .limit(1);
    if (taken) {
      return {
        ok: false as const,
        error: { kind: "alreadyInScheme" as const, formName: taken.name, isMidSemester: input.isMidSemester },
      };
    }
    const [scheme] = await tx
      .insert(schemes)
      .values({ classId: input.classId, isMidSemester: input.isMidSemester })
      .returning({ id: schemes.id });
    await tx.insert(schemeForms).values(formIds.map((formId) => ({ schemeId: scheme.id, formId })));
    await audit(tx, {
      action: "scheme.created",
      actorUserId: input.actorUserId,
      classId: input.classId,
      details: {
        assignmentId: scheme.id, // stored name
        isMidSemester: input.isMidSemester,
        formIds: formIds.toSorted((a, b) => a - b),
      },
      ip: input.ip,
    });
    return { ok: true as const, schemeId: scheme.id };
  });
}

export interface SupervisorStudent extends ClassPerson {
  /** Assigned supervisor of the student, or an extra supervisor following them as well. */
  relation: "assigned" | "extra";
  teacherName: string | null;
}

/**
 * A supervisor's students in a class (assigned, or followed as an extra supervisor); null when the
 * class or user is unknown, or the user is not a supervisor of that class.
 */
export async function supervisorStudentsPage(db: Db, classId: number, userId: number) {
  const header = await classHeader(db, classId);
  if (!header) return null;
  const [supervisor] = await db
    .select({ userId: users.id, displayName: users.displayName, email: users.email, isActive: users.isActive })
    .from(users)
    .where(eq(users.id, userId));
  if (!supervisor) return null;
  const [attached] = await db
    .select({ userId: classSupervisors.userId })
    .from(classSupervisors)
    .where(and(eq(classSupervisors.classId, classId), eq(classSupervisors.userId, userId)));
  const teacher = sql<
    string | null
  >`(select ${users.displayName} from ${users} where ${users.id} = ${studentReferences.teacherUserId})`;
  const extraOf = sql`exists (select 1 from ${studentExtraSupervisors} where ${studentExtraSupervisors.studentReferenceId} = ${studentReferences.id} and ${studentExtraSupervisors.userId} = ${userId})`;
  const rows = await db
    .select({
      userId: users.id,
      displayName: users.displayName,
      email: users.email,
      isActive: users.isActive,
      supervisorUserId: studentReferences.supervisorUserId,
      teacherName: teacher,
    })
    .from(studentReferences)
    .innerJoin(users, eq(users.id, studentReferences.studentUserId))
    .where(and(eq(studentReferences.classId, classId), or(eq(studentReferences.supervisorUserId, userId), extraOf)));
  if (!attached && rows.length === 0) return null;
  const students: SupervisorStudent[] = byDisplayName(
    rows.map(({ supervisorUserId, ...row }) => ({
      ...row,
      relation: supervisorUserId === userId ? "assigned" : "extra",
    })),
  );
  return { header, supervisor, students };
}

// ─── Undoing set-up mistakes: a scheme, the mid-semester date, expected levels ──────────────

export type RemoveSchemeResult =
  | { ok: true; isMidSemester: boolean }
  | { ok: false; error: "notFound" }
  | { ok: false; error: "hasAnswers"; answerSets: number };

/**
 * Removes a response scheme added by mistake. Refused once anyone has answered a form of it (a draft
 * counts: it is someone's work): answers are never lost to an undo. The expected levels set for its
 * forms stay (they belong to the class, form and half), so adding the form again brings them back.
 * Audited with the scheme's half and forms.
 */
export async function removeScheme(
  db: Db,
  input: { classId: number; schemeId: number; actorUserId: number; ip?: string | null },
): Promise<RemoveSchemeResult> {
  return db.transaction(async (tx) => {
    const [scheme] = await tx
      .select({ id: schemes.id, isMidSemester: schemes.isMidSemester })
      .from(schemes)
      .where(and(eq(schemes.id, input.schemeId), eq(schemes.classId, input.classId)))
      .for("update");
    if (!scheme) return { ok: false as const, error: "notFound" as const };
    const [answered] = await tx.select({ n: count() }).from(answerSets).where(eq(answerSets.schemeId, scheme.id));
    const answerSetCount = Number(answered?.n ?? 0);
    if (answerSetCount > 0) return { ok: false as const, error: "hasAnswers" as const, answerSets: answerSetCount };
    const formRows = await tx
      .select({ formId: schemeForms.formId })
      .from(schemeForms)
      .where(eq(schemeForms.schemeId, scheme.id));
    await tx.delete(schemes).where(eq(schemes.id, scheme.id));
    await audit(tx, {
      action: "scheme.removed",
      actorUserId: input.actorUserId,
      classId: input.classId,
      details: {
        assignmentId: scheme.id, // stored name
        isMidSemester: scheme.isMidSemester,
        formIds: formRows.map((f) => f.formId).toSorted((a, b) => a - b),
      },
      ip: input.ip,
    });
    return { ok: true as const, isMidSemester: scheme.isMidSemester };
  });
}

export type MidDateError = "invalid" | "beforeStart" | "afterEnd" | "notBeforeEnd";

/**
 * The mid-semester date must be a real date within the class's semester and before its
 * end-semester date (the end evaluation comes after the mid-semester one).
 */
export function checkMidSemesterDate(
  text: string,
  header: Pick<ClassHeader, "semesterStart" | "semesterEnd" | "endSemesterDate">,
): { ok: true; date: string } | { ok: false; error: MidDateError } {
  const date = parseDayInput(text);
  if (!date) return { ok: false, error: "invalid" };
  if (date < header.semesterStart) return { ok: false, error: "beforeStart" };
  if (date > header.semesterEnd) return { ok: false, error: "afterEnd" };
  if (header.endSemesterDate && date >= header.endSemesterDate) return { ok: false, error: "notBeforeEnd" };
  return { ok: true, date };
}

/**
 * Moves the class's mid-semester date after the checks above; audited with the old and new date.
 * Reminders already sent for the old date stay sent; a reminder is kept per deadline date, so the
 * new date is a new occasion and is reminded of in its own days before (reminders/occasions.server.ts).
 */
export async function updateMidSemesterDate(
  db: Db,
  input: { classId: number; text: string; actorUserId: number; ip?: string | null },
): Promise<{ ok: true; date: string } | { ok: false; error: MidDateError | "notFound" }> {
  const header = await classHeader(db, input.classId);
  if (!header) return { ok: false, error: "notFound" };
  const checked = checkMidSemesterDate(input.text, header);
  if (!checked.ok) return checked;
  await db.transaction(async (tx) => {
    await tx.update(classes).set({ midSemesterDate: checked.date }).where(eq(classes.id, input.classId));
    await audit(tx, {
      action: "class.updated",
      actorUserId: input.actorUserId,
      classId: input.classId,
      details: { midSemesterDate: { from: header.midSemesterDate, to: checked.date } },
      ip: input.ip,
    });
  });
  return { ok: true, date: checked.date };
}

export interface ExpectationSource {
  classId: number;
  semesterName: string;
  /** Expected levels set in that class, all forms and halves. */
  levels: number;
}

/** Classes of the same subject in earlier semesters (latest first), that have expected levels to copy. */
export async function expectationSources(db: Db, classId: number): Promise<ExpectationSource[]> {
  const [target] = await db
    .select({ subjectId: classes.subjectId, start: semesters.startDate })
    .from(classes)
    .innerJoin(semesters, eq(semesters.id, classes.semesterId))
    .where(eq(classes.id, classId));
  if (!target) return [];
  const levels = sql<number>`(select count(*)::int from ${expectations} where ${expectations.classId} = ${classes.id})`;
  const rows = await db
    .select({ classId: classes.id, semesterName: semesters.name, levels })
    .from(classes)
    .innerJoin(semesters, eq(semesters.id, classes.semesterId))
    .where(and(eq(classes.subjectId, target.subjectId), lt(semesters.startDate, target.start)))
    .orderBy(desc(semesters.startDate));
  return rows.filter((r) => r.levels > 0);
}

export interface CopiedForm {
  formId: number;
  name: string;
  isMidSemester: boolean;
  /** Questions whose expected level was copied. */
  questions: number;
}

export type CopyExpectationsResult =
  | { ok: true; copied: CopiedForm[]; notMatched: Omit<CopiedForm, "questions">[]; sourceSemesterName: string }
  | { ok: false; error: "notFound" | "unknownSource" | "noSchemes" };

/**
 * Copies the expected levels of an earlier semester's class of the same subject, all at once: for
 * each form and half of this class's schemes that the other class has levels for, every level of a
 * question still in the form (replacing this class's level for it). The forms and halves the other
 * class has no levels for are named (notMatched), to be set by hand. Audited with what was copied.
 */
export async function copyExpectations(
  db: Db,
  input: { classId: number; sourceClassId: number; actorUserId: number; ip?: string | null },
): Promise<CopyExpectationsResult> {
  const header = await classHeader(db, input.classId);
  if (!header) return { ok: false, error: "notFound" };
  const sources = await expectationSources(db, input.classId);
  const source = sources.find((s) => s.classId === input.sourceClassId);
  if (!source) return { ok: false, error: "unknownSource" };
  const targets = (await schemesOfClass(db, input.classId)).flatMap((scheme) =>
    scheme.forms
      .filter((f) => !f.deleted)
      .map((f) => ({ formId: f.formId, name: f.name, isMidSemester: scheme.isMidSemester })),
  );
  if (targets.length === 0) return { ok: false, error: "noSchemes" };
  return db.transaction(async (tx) => {
    // Only a question still in the form and still a level (a grading group) is copied.
    const levels = await tx
      .select({
        formId: expectations.formId,
        questionId: expectations.questionId,
        isMidSemester: expectations.isMidSemester,
        value: expectations.value,
      })
      .from(expectations)
      .innerJoin(formQuestions, eq(formQuestions.id, expectations.questionId))
      .innerJoin(formQuestionGroups, eq(formQuestionGroups.id, formQuestions.groupId))
      .where(
        and(
          eq(expectations.classId, input.sourceClassId),
          eq(formQuestionGroups.formId, expectations.formId),
          isNull(formQuestions.deletedAt),
          isNull(formQuestionGroups.deletedAt),
          eq(formQuestionGroups.type, QUESTION_GROUP_TYPE.Grading),
        ),
      );
    const copied: CopiedForm[] = [];
    const notMatched: Omit<CopiedForm, "questions">[] = [];
    for (const target of targets) {
      const rows = levels.filter((l) => l.formId === target.formId && l.isMidSemester === target.isMidSemester);
      if (rows.length === 0) {
        notMatched.push(target);
        continue;
      }
      await tx
        .insert(expectations)
        .values(
          rows.map((r) => ({
            classId: input.classId,
            formId: r.formId,
            questionId: r.questionId,
            isMidSemester: r.isMidSemester,
            value: r.value,
            setByUserId: input.actorUserId,
          })),
        )
        .onConflictDoUpdate({
          target: [expectations.classId, expectations.formId, expectations.questionId, expectations.isMidSemester],
          set: { value: sql`excluded.value`, setByUserId: input.actorUserId, updatedAt: new Date() },
        });
      copied.push({ ...target, questions: rows.length });
    }
    if (copied.length > 0) {
      await audit(tx, {
        action: "expectations.copied",
        actorUserId: input.actorUserId,
        classId: input.classId,
        details: {
          fromClassId: input.sourceClassId,
          forms: copied.map((c) => ({ formId: c.formId, isMidSemester: c.isMidSemester, questions: c.questions })),
        },
        ip: input.ip,
      });
    }
    return { ok: true as const, copied, notMatched, sourceSemesterName: source.semesterName };
  });
}
