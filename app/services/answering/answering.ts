/**
 * The rules of answering a competence form, free of the database and of React (docs/rules/answering.md;
 * ADR 0007): what a valid answer is, which posted answers are written and which conflict with a
 * change made elsewhere, and when a form may be sent.
 */

export const COMMENT_LIMIT = 2000;
/** A text answer (the student's own reflection) may be longer than a comment; beyond this it is refused. */
export const TEXT_ANSWER_LIMIT = 10_000;

export type GroupType = "grading" | "text";

/** Who answers a group (the database's `form_question_groups.audience`). */
export type GroupAudience = "all" | "student" | "staff";
/** Who is answering: the student about themself, or the staff (supervisor, teacher) about the student. */
export type AnswererKind = "student" | "staff";

export interface AnsweringQuestion {
  id: number;
  text: string;
  helpText: string | null;
}

export interface AnsweringGroup {
  id: number;
  name: string;
  type: GroupType;
  /** Grading labels; an answer is a label's index as text ("0"–"5"). Empty for a text group. */
  options: readonly string[];
  /** Who answers it; "all" when not given. */
  audience?: GroupAudience;
  questions: readonly AnsweringQuestion[];
}

/** Whether the group is one the answerer answers: the student's and everyone's for the student, the staff's and everyone's for staff. */
export function answersGroup(group: Pick<AnsweringGroup, "audience">, who: AnswererKind): boolean {
  const audience = group.audience ?? "all";
  return audience === "all" || audience === who;
}

/** The groups the answerer answers: what their posts may carry, and what their "n of m" and sending count. */
export function ownGroups<G extends Pick<AnsweringGroup, "audience">>(groups: readonly G[], who: AnswererKind): G[] {
  return groups.filter((group) => answersGroup(group, who));
}

/** What one person holds for one question: the chosen value (or text) and a comment. */
export interface AnswerContent {
  value: string | null;
  comment: string | null;
}

export const EMPTY: AnswerContent = { value: null, comment: null };

/** The grading labels' index of "Ikke relevant": a choice, not a level of the scale. */
export const NOT_RELEVANT = 5;

/** Length as the database counts it (characters, not UTF-16 units): an emoji is one. */
export function characters(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** One question as posted: what the person has now, and the version of it their page started from. */
export interface PostedAnswer extends AnswerContent {
  questionId: number;
  /** The `answerToken` of the stored answer the page was showing (base of this edit). */
  base: string;
}

export type AnswerError = "invalidValue" | "commentTooLong" | "textTooLong";

/**
 * A short fingerprint of an answer's content. The page carries it for each question, so a save can
 * tell "unchanged here", "changed here only" and "changed elsewhere meanwhile" apart (ADR 0007).
 * Not a secret: FNV-1a is enough to tell versions of one answer apart.
 */
export function answerToken(content: AnswerContent): string {
  const text = `${content.value ?? "\u0001"}\u0000${content.comment ?? "\u0001"}`;
  let hash = 0x811c9dc5;
  let hash2 = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    hash = Math.imul(hash ^ code, 0x01000193) >>> 0;
    hash2 = Math.imul(hash2 ^ code, 0x85ebca6b) >>> 0;
  }
  return `${hash.toString(36)}.${hash2.toString(36)}.${text.length.toString(36)}`;
}

/** Blank text is no answer; text is kept as typed otherwise (line breaks and all). */
export function normaliseContent(value: string | null | undefined, comment: string | null | undefined): AnswerContent {
  const clean = (text: string | null | undefined) =>
    text === null || text === undefined || text.trim() === "" ? null : text.replace(/\r\n/g, "\n");
  return { value: clean(value), comment: clean(comment) };
}

/** Where each question of a form is, for checking posted answers. */
export function questionIndex(groups: readonly AnsweringGroup[]): Map<number, AnsweringGroup> {
  const index = new Map<number, AnsweringGroup>();
  for (const group of groups) for (const question of group.questions) index.set(question.id, group);
  return index;
}

/** The error of one posted answer, or null. A question of another form is the caller's 400, not an error here. */
export function answerError(group: AnsweringGroup, content: AnswerContent): AnswerError | null {
  if (content.value !== null) {
    if (group.type === "grading") {
      // The label's index exactly as the page sends it ("3", never "03" or "3.0").
      if (!/^(0|[1-9]\d?)$/.test(content.value) || Number(content.value) >= group.options.length) return "invalidValue";
    } else if (characters(content.value) > TEXT_ANSWER_LIMIT) {
      return "textTooLong";
    }
  }
  if (content.comment !== null && characters(content.comment) > COMMENT_LIMIT) return "commentTooLong";
  return null;
}

export interface Conflict {
  questionId: number;
  /** What is stored now, written elsewhere since the page was loaded. */
  stored: AnswerContent;
  /** What this page posted, not written. */
  posted: AnswerContent;
}

export interface WritePlan {
  writes: { questionId: number; content: AnswerContent }[];
  conflicts: Conflict[];
  /** The token of every posted question after the save: the stored one where nothing was written. */
  tokens: Map<number, string>;
}

/**
 * Per question (ADR 0007): a question this page did not change is left alone; one it changed is
 * written when nobody else changed it meanwhile (or changed it to the same); otherwise it is a
 * conflict — nothing is written for it and the person is shown both, so no answer is lost silently.
 * Their page then continues from the stored version, so saving their answer again overwrites it.
 */
export function planWrites(posted: readonly PostedAnswer[], stored: ReadonlyMap<number, AnswerContent>): WritePlan {
  const plan: WritePlan = { writes: [], conflicts: [], tokens: new Map() };
  for (const answer of posted) {
    const content = { value: answer.value, comment: answer.comment };
    const current = stored.get(answer.questionId) ?? EMPTY;
    const mine = answerToken(content);
    const theirs = answerToken(current);
    if (mine === answer.base || mine === theirs) {
      plan.tokens.set(answer.questionId, theirs);
    } else if (theirs === answer.base) {
      plan.writes.push({ questionId: answer.questionId, content });
      plan.tokens.set(answer.questionId, mine);
    } else {
      plan.conflicts.push({ questionId: answer.questionId, stored: current, posted: content });
      plan.tokens.set(answer.questionId, theirs);
    }
  }
  return plan;
}

/** The grading questions still without a value: a form is sent only with every grade given ("Ikke relevant" counts). */
export function missingGrades(groups: readonly AnsweringGroup[], stored: ReadonlyMap<number, AnswerContent>): number[] {
  return groups
    .filter((group) => group.type === "grading")
    .flatMap((group) => group.questions)
    .filter((question) => (stored.get(question.id)?.value ?? null) === null)
    .map((question) => question.id);
}

/** The page (1-based) a `?group=` asks for, within the form's groups; anything else is the first. */
export function pageOf(param: string | null, groupCount: number): number {
  const page = param && /^\d{1,4}$/.test(param) ? Number(param) : 1;
  return page >= 1 && page <= groupCount ? page : 1;
}

/**
 * The page a link to the form without `?group=` opens (the lists' "Start" and "Fortsett"): the first
 * page the viewer answers (`toAnswer`) with a question still unanswered, else the first page.
 */
export function resumePage<G extends { questions: readonly { id: number }[] }>(
  groups: readonly G[],
  toAnswer: (group: G) => boolean,
  answered: (questionId: number) => boolean,
): number {
  return (
    groups.findIndex((group) => toAnswer(group) && group.questions.some((question) => !answered(question.id))) + 1 || 1
  );
}

/** The most answers one post may carry (a page of a form has far fewer). */
const MAX_POSTED = 500;

/**
 * The answers in a form post: for each question the page carries its base token as `b:<id>`, the
 * answer as `a:<id>` and the comment as `c:<id>`. A field given twice, a file, or an answer without
 * its question's base is a malformed post (null), never guessed at.
 */
export function readPosted(form: FormData): PostedAnswer[] | null {
  const posted: PostedAnswer[] = [];
  const seen = new Set<string>();
  for (const [name, value] of form.entries()) {
    const match = /^([abc]):(.*)$/.exec(name);
    if (!match) continue;
    if (typeof value !== "string" || seen.has(name)) return null;
    seen.add(name);
    if (match[1] !== "b") continue;
    if (!/^\d{1,10}$/.test(match[2]) || posted.length >= MAX_POSTED) return null;
    const questionId = Number(match[2]);
    const text = (key: string) => {
      const field = form.get(`${key}:${match[2]}`);
      return typeof field === "string" ? field : null;
    };
    posted.push({ questionId, base: value, ...normaliseContent(text("a"), text("c")) });
  }
  for (const name of seen) {
    if (!seen.has(`b:${name.slice(2)}`)) return null;
  }
  return posted;
}
