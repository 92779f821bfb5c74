import {
  answersGroup,
  answerToken,
  ownGroups,
  pageOf,
  readPosted,
  resumePage,
  type AnswerContent,
  type AnswerError,
  type AnsweringGroup,
  type PostedAnswer,
} from "./answering";
import {
  answererKind,
  answeringPlace,
  ownAnswers,
  saveAnswers,
  saveExpectations,
  storedExpectations,
  visibleSets,
  type AnsweringPlace,
  type StoredAnswer,
} from "./answers.server";
import type { Db } from "~/services/platform/db/client.server";
import type { Viewer } from "~/services/placements/index.server";
import { ROLE } from "~/services/identity";
import { formatDay, formatDayTime, osloDate } from "~/services/platform/semesters";

/**
 * The form-answering page's data and posts (ADR 0007; one page serving the student, the supervisor,
 * the teacher and the admin), kept out of the route module: what one page of the form shows, and
 * what a post (a page change, sending, or an autosave) does.
 */

type Language = "nb" | "en";

export interface FormPageIds {
  classId: number;
  formId: number;
  schemeId: number;
  studentUserId: number | null;
}

export interface OtherComment {
  badge: "S" | "PV" | "PL";
  authorName: string;
  comment: string;
  atText: string | null;
}

export interface PageQuestion {
  id: number;
  text: string;
  helpText: string | null;
  value: string | null;
  comment: string | null;
  /** The stored answer's token: the base of the next save (answering.ts). */
  token: string;
  /** Sent comments of others on this question, as far as the viewer may see them. */
  others: OtherComment[];
}

export interface FormPageView {
  mode: "answers" | "expectations";
  classId: number;
  subject: string;
  semesterName: string;
  isMidSemester: boolean;
  formName: string;
  student: { userId: number; displayName: string } | null;
  /** The student answers about themself (their own name is not repeated). */
  self: boolean;
  locked: boolean;
  page: number;
  pageCount: number;
  group: {
    id: number;
    name: string;
    type: "grading" | "text";
    options: readonly string[];
    /** The student's own group seen by staff: the student's answers are shown, nothing is answered. */
    readOnly: boolean;
    questions: PageQuestion[];
  } | null;
  /** How many of the form's grading questions have a grade (the author's own, or the expected levels). */
  graded: { done: number; total: number };
  sentText: string | null;
  /** Where each question is, for links from messages about other pages (send with grades missing). */
  pageOfQuestion: Record<number, number>;
  questionText: Record<number, string>;
}

const BADGES = { student: "S", supervisor: "PV", teacher: "PL" } as const;

export async function formPageView(
  db: Db,
  viewer: Viewer,
  ids: FormPageIds,
  pageParam: string | null,
  language: Language,
): Promise<FormPageView> {
  const place = await answeringPlace(db, viewer, ids);
  const expectationsMode = viewer.role === ROLE.Admin;
  const who = answererKind(viewer.role);
  const own = expectationsMode ? null : await ownAnswers(db, place, viewer.userId);
  const stored: Map<number, StoredAnswer> = own ? own.answers : await storedExpectations(db, place);
  const others =
    expectationsMode || !place.student
      ? []
      : (
          await visibleSets(
            db,
            { userId: viewer.userId, relation: place.relation },
            { formId: place.form.formId, studentUserId: place.student.userId, schemeIds: [place.schemeId] },
          )
        ).filter((set) => set.authorUserId !== viewer.userId);
  // The pages: the viewer's own groups and, for staff, the student's own groups the student has
  // answered (shown as text); a group of the other side is left out. The admin sets expected levels
  // on every grading group.
  const studentHasAnswered = (group: AnsweringGroup) =>
    others.some(
      (set) =>
        set.kind === "student" &&
        group.questions.some((q) => set.answers.get(q.id)?.value || set.answers.get(q.id)?.comment),
    );
  const groups = expectationsMode
    ? place.form.groups.filter((g) => g.type === "grading")
    : place.form.groups.filter(
        (g) => answersGroup(g, who) || (who === "staff" && g.audience === "student" && studentHasAnswered(g)),
      );
  // Without `?group=` (the lists' "Start" and "Fortsett"): the first page with a question still to answer.
  const page =
    pageParam === null
      ? resumePage(
          groups,
          (g) => expectationsMode || answersGroup(g, who),
          (id) => (stored.get(id)?.value ?? null) !== null,
        )
      : pageOf(pageParam, groups.length);
  const group = groups[page - 1] ?? null;
  const readOnly = group !== null && !expectationsMode && !answersGroup(group, who);
  // "n of m": the grades that are the viewer's own to give.
  const gradingIds = (expectationsMode ? groups : ownGroups(groups, who))
    .filter((g) => g.type === "grading")
    .flatMap((g) => g.questions.map((q) => q.id));
  const pageOfQuestion: Record<number, number> = {};
  const questionText: Record<number, string> = {};
  groups.forEach((g, i) => g.questions.forEach((q) => ((pageOfQuestion[q.id] = i + 1), (questionText[q.id] = q.text))));

  return {
    mode: expectationsMode ? "expectations" : "answers",
    classId: place.header.classId,
    subject: `${place.header.subjectCode} ${place.header.subjectName}`,
    semesterName: place.header.semesterName,
    isMidSemester: place.isMidSemester,
    formName: place.form.name,
    student: place.student ? { userId: place.student.userId, displayName: place.student.displayName } : null,
    self: place.relation === "self",
    locked: place.locked,
    page,
    pageCount: groups.length,
    group: group && {
      id: group.id,
      name: group.name,
      type: group.type,
      options: group.options,
      readOnly,
      questions: group.questions.map((question) => {
        const answer = stored.get(question.id);
        const content = { value: answer?.value ?? null, comment: answer?.comment ?? null };
        return {
          ...question,
          ...content,
          token: answerToken(content),
          // Others' sent words on the question: their comments on a grade, their answers to a text question.
          others: others.flatMap((set) => {
            const theirs = set.answers.get(question.id);
            // On a group the viewer only reads, a grade is shown by its label, with the comment after it.
            const grade =
              readOnly && group.type === "grading" && theirs?.value
                ? (group.options[Number(theirs.value)] ?? null)
                : null;
            const text =
              group.type === "text"
                ? theirs?.value
                : grade
                  ? [grade, theirs?.comment].filter(Boolean).join(" — ")
                  : theirs?.comment;
            if (!theirs || !text) return [];
            const at = group.type === "text" ? set.sentAt : theirs.commentedAt;
            return [
              {
                badge: BADGES[set.kind],
                authorName: set.authorName,
                comment: text,
                atText: at ? formatDay(osloDate(at), language) : null,
              },
            ];
          }),
        };
      }),
    },
    graded: {
      done: gradingIds.filter((id) => (stored.get(id)?.value ?? null) !== null).length,
      total: gradingIds.length,
    },
    sentText: own?.sentAt ? formatDayTime(own.sentAt, language) : null,
    pageOfQuestion,
    questionText,
  };
}

/** The page's buttons (the autosave posts to /api/answers instead). */
export type PostIntent = "previous" | "next" | "send" | "exit" | "save";
export const POST_INTENTS: readonly PostIntent[] = ["previous", "next", "send", "exit", "save"];

/** What a post did, for the page (a redirect or the page again with messages) or for the autosave's JSON. */
export type PostResult =
  | { kind: "malformed" }
  | { kind: "locked" }
  | {
      kind: "refused";
      status: 400 | 409;
      /** What was posted, to show again as typed. */
      values: Record<number, AnswerContent>;
      tokens: Record<number, string>;
      fieldErrors: Record<number, AnswerError>;
      conflicts: Record<number, AnswerContent>;
      formError: "unknownQuestion" | null;
      /** Sending was asked for, and these grading questions have no grade. */
      missing: number[];
    }
  | { kind: "saved"; tokens: Record<number, string>; justSent: boolean; sentAt: Date | null };

function contentsOf(posted: readonly PostedAnswer[]): Record<number, AnswerContent> {
  return Object.fromEntries(posted.map((p) => [p.questionId, { value: p.value, comment: p.comment }]));
}

/**
 * Saves a post of the form page or of the autosave: the answers (or, for the admin, the expected
 * levels) it carries, by the rules of answers.server.ts; with `send`, sends the form. Access is
 * checked as for the page (a 404 is thrown for a place the viewer may not answer).
 */
export async function submitFormPage(
  db: Db,
  viewer: Viewer,
  ids: FormPageIds,
  form: FormData,
  options: { send: boolean; ip?: string | null; now?: Date },
): Promise<PostResult> {
  const posted = readPosted(form);
  if (posted === null) return { kind: "malformed" };
  const place: AnsweringPlace = await answeringPlace(db, viewer, ids);
  if (place.locked) return { kind: "locked" };
  const outcome =
    viewer.role === ROLE.Admin
      ? await saveExpectations(db, place, viewer.userId, posted, options)
      : await saveAnswers(db, place, { userId: viewer.userId, roleId: viewer.role }, posted, options);
  const values = contentsOf(posted);
  const baseTokens = Object.fromEntries(posted.map((p) => [p.questionId, p.base]));
  if (!outcome.ok) {
    if (outcome.error === "locked") return { kind: "locked" };
    return {
      kind: "refused",
      status: 400,
      values,
      tokens: baseTokens,
      fieldErrors: outcome.error === "invalid" ? Object.fromEntries(outcome.fieldErrors) : {},
      conflicts: {},
      formError: outcome.error === "unknownQuestion" ? "unknownQuestion" : null,
      missing: [],
    };
  }
  const tokens = Object.fromEntries(outcome.tokens);
  if (outcome.conflicts.length > 0 || outcome.missing.length > 0) {
    // The page continues from what is stored now — except where it conflicts, which shows what this page posted —
    // so that a question this page did not touch does not carry old content on a new base.
    const conflicting = new Set(outcome.conflicts.map((c) => c.questionId));
    return {
      kind: "refused",
      status: outcome.conflicts.length > 0 ? 409 : 400,
      values: Object.fromEntries(
        [...outcome.current].map(([id, content]) => [id, conflicting.has(id) ? values[id] : content]),
      ),
      tokens,
      fieldErrors: {},
      conflicts: Object.fromEntries(outcome.conflicts.map((c) => [c.questionId, c.stored])),
      formError: null,
      missing: outcome.missing,
    };
  }
  return { kind: "saved", tokens, justSent: outcome.justSent, sentAt: outcome.sentAt };
}
