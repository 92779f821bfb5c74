import { and, asc, eq } from "drizzle-orm";
import { classHeader, type ClassHeader } from "~/services/admin/index.server";
import type { AnsweringGroup } from "./answering";
import {
  formForAnswering,
  maySeeExpectations,
  visibleSets,
  type FormForAnswering,
  type VisibleSet,
} from "./answers.server";
import type { Db } from "~/services/platform/db/client.server";
import { schemeForms, schemes, expectations, studentReferences, users } from "~/services/platform/db/schema";
import { notFound } from "~/services/platform/ids";
import { requireStudentAccess, type StudentRelation, type Viewer } from "~/services/placements/index.server";
import { formatDay, osloDate } from "~/services/platform/semesters";

/**
 * The grades of a student on a form side by side (the results page, and `/api/classes/:c/students/:s/forms/:f/full`): for
 * mid- and end-semester, the student's, the supervisor's, the teacher's and others' answers and the
 * expected level per question, with comments — as far as the viewer may see them (answers.server.ts).
 */

export type ColumnKind = "student" | "supervisor" | "teacher" | "other";
export type Badge = "S" | "PV" | "PL";

export interface ResultColumn {
  key: string;
  kind: ColumnKind;
  badge: Badge;
  authorName: string;
  /** The viewer's own answers (shown even as a draft). */
  own: boolean;
  sentAt: Date | null;
}

export interface ResultComment {
  columnKey: string;
  badge: Badge;
  authorName: string;
  comment: string;
  commentedAt: Date | null;
}

export interface ResultRow {
  questionId: number;
  text: string;
  /** Per column: the chosen label's index (grading) or the text (a text question), or null. */
  values: (string | null)[];
  /** The expected level's index; null when none is set or the viewer may not see it. */
  expected: string | null;
  comments: ResultComment[];
}

export interface ResultGroup {
  id: number;
  name: string;
  type: AnsweringGroup["type"];
  options: readonly string[];
  rows: ResultRow[];
}

export interface ResultsHalf {
  isMidSemester: boolean;
  /** The class's scheme for this half that holds the form; null when the form is not in one. */
  schemeId: number | null;
  columns: ResultColumn[];
  groups: ResultGroup[];
  expectationsShown: boolean;
}

export interface FormResults {
  header: ClassHeader;
  form: FormForAnswering;
  student: { userId: number; displayName: string };
  relation: StudentRelation;
  halves: ResultsHalf[];
}

const BADGE: Record<VisibleSet["kind"], Badge> = { student: "S", supervisor: "PV", teacher: "PL" };

/** Columns in the order people read them: the student, the assigned supervisor, the assigned teacher, then others. */
export function orderColumns(
  sets: readonly VisibleSet[],
  people: { studentUserId: number; supervisorUserId: number | null; teacherUserId: number | null },
  viewerUserId: number,
): { column: ResultColumn; set: VisibleSet }[] {
  const kindOf = (set: VisibleSet): ColumnKind => {
    if (set.kind === "student" && set.authorUserId === people.studentUserId) return "student";
    if (set.kind === "supervisor" && set.authorUserId === people.supervisorUserId) return "supervisor";
    if (set.kind === "teacher" && set.authorUserId === people.teacherUserId) return "teacher";
    return "other";
  };
  const rank: Record<ColumnKind, number> = { student: 0, supervisor: 1, teacher: 2, other: 3 };
  return sets
    .map((set) => ({
      set,
      column: {
        key: `set-${set.setId}`,
        kind: kindOf(set),
        badge: BADGE[set.kind],
        authorName: set.authorName,
        own: set.authorUserId === viewerUserId,
        sentAt: set.sentAt,
      },
    }))
    .sort((a, b) => rank[a.column.kind] - rank[b.column.kind] || a.set.setId - b.set.setId);
}

export async function formResults(
  db: Db,
  viewer: Viewer,
  ids: { classId: number; formId: number; studentUserId: number },
): Promise<FormResults> {
  const access = await requireStudentAccess(db, viewer, ids.classId, ids.studentUserId);
  const classSchemes = await db
    .select({ schemeId: schemes.id, isMidSemester: schemes.isMidSemester })
    .from(schemes)
    .innerJoin(schemeForms, and(eq(schemeForms.schemeId, schemes.id), eq(schemeForms.formId, ids.formId)))
    .where(eq(schemes.classId, ids.classId))
    .orderBy(asc(schemes.id));
  if (classSchemes.length === 0) notFound();
  const [header, form, [student]] = await Promise.all([
    classHeader(db, ids.classId),
    formForAnswering(db, ids.formId),
    db
      .select({ displayName: users.displayName })
      .from(studentReferences)
      .innerJoin(users, eq(users.id, studentReferences.studentUserId))
      .where(eq(studentReferences.id, access.referenceId)),
  ]);
  if (!header || !form) notFound();

  const showExpected = maySeeExpectations(access.relation);
  const [sets, expectationRows] = await Promise.all([
    visibleSets(
      db,
      { userId: viewer.userId, relation: access.relation },
      {
        formId: ids.formId,
        studentUserId: ids.studentUserId,
        schemeIds: classSchemes.map((s) => s.schemeId),
      },
    ),
    showExpected
      ? db
          .select({
            questionId: expectations.questionId,
            isMidSemester: expectations.isMidSemester,
            value: expectations.value,
          })
          .from(expectations)
          .where(and(eq(expectations.classId, ids.classId), eq(expectations.formId, ids.formId)))
      : Promise.resolve([]),
  ]);

  const halves = [true, false].map((isMidSemester): ResultsHalf => {
    const scheme = classSchemes.find((s) => s.isMidSemester === isMidSemester) ?? null;
    const ordered = orderColumns(
      sets.filter((s) => scheme !== null && s.schemeId === scheme.schemeId),
      {
        studentUserId: ids.studentUserId,
        supervisorUserId: access.supervisorUserId,
        teacherUserId: access.teacherUserId,
      },
      viewer.userId,
    );
    const expectedOf = (questionId: number) =>
      expectationRows.find((e) => e.isMidSemester === isMidSemester && e.questionId === questionId)?.value ?? null;
    return {
      isMidSemester,
      schemeId: scheme?.schemeId ?? null,
      columns: ordered.map((o) => o.column),
      expectationsShown: showExpected,
      groups: form.groups.map((group) => ({
        id: group.id,
        name: group.name,
        type: group.type,
        options: group.options,
        rows: group.questions.map((question) => ({
          questionId: question.id,
          text: question.text,
          values: ordered.map((o) => o.set.answers.get(question.id)?.value ?? null),
          expected: group.type === "grading" ? expectedOf(question.id) : null,
          comments: ordered.flatMap(({ column, set }) => {
            const answer = set.answers.get(question.id);
            return answer?.comment
              ? [
                  {
                    columnKey: column.key,
                    badge: column.badge,
                    authorName: column.authorName,
                    comment: answer.comment,
                    commentedAt: answer.commentedAt,
                  },
                ]
              : [];
          }),
        })),
      })),
    };
  });
  return {
    header,
    form,
    student: { userId: ids.studentUserId, displayName: student.displayName },
    relation: access.relation,
    halves,
  };
}

/** The results with their instants as text in the reader's language, for the page. */
export function resultsForView(results: FormResults, language: "nb" | "en") {
  const day = (at: Date | null) => (at ? formatDay(osloDate(at), language) : null);
  return {
    classId: results.header.classId,
    subject: `${results.header.subjectCode} ${results.header.subjectName}`,
    semesterName: results.header.semesterName,
    formId: results.form.formId,
    formName: results.form.name,
    student: results.student,
    relation: results.relation,
    halves: results.halves.map((half) => ({
      ...half,
      columns: half.columns.map(({ sentAt, ...column }) => ({ ...column, sentText: day(sentAt) })),
      groups: half.groups.map((group) => ({
        ...group,
        rows: group.rows.map((row) => ({
          ...row,
          comments: row.comments.map(({ commentedAt, ...comment }) => ({ ...comment, atText: day(commentedAt) })),
        })),
      })),
    })),
  };
}

export type ResultsView = ReturnType<typeof resultsForView>;
