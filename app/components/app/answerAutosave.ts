import { characters, fieldValue, type AutosaveAdapter, type AutosaveStatus } from "./useAutosave";

export interface AutosaveConflict {
  questionId: number;
  value: string | null;
  comment: string | null;
}

interface AnswersResponse {
  tokens?: Record<string, string>;
  conflicts?: AutosaveConflict[];
  fieldErrors?: Record<string, string>;
}

const FIELD = /^([ac]):(\d+)$/;

/**
 * The form page's autosave: a question is a key. Only the questions changed since the
 * last save are posted, each with the base token of the answer it started from (answering.ts),
 * and the tokens the server answers with become the new bases.
 */
export function answerAutosave(options: {
  /** Fields that say where the answers belong (class, form, scheme, student). */
  place: Record<string, string>;
  limits: { comment: number; text: number };
  onConflicts: (conflicts: AutosaveConflict[]) => void;
  /** Questions whose answer as shown on the page is now the stored one. */
  onSaved: (questionIds: number[]) => void;
}): AutosaveAdapter {
  const snapshot = (form: HTMLFormElement, id: string) =>
    `${fieldValue(form, `a:${id}`)}\u0000${fieldValue(form, `c:${id}`)}`;
  return {
    keyOf: (name) => FIELD.exec(name)?.[2] ?? null,
    snapshot,
    collect(form, ids) {
      const body = new FormData();
      for (const [name, value] of Object.entries(options.place)) body.append(name, value);
      const sent = new Set<string>();
      let held = false;
      for (const id of ids) {
        const value = fieldValue(form, `a:${id}`);
        const comment = fieldValue(form, `c:${id}`);
        if (characters(comment) > options.limits.comment || characters(value) > options.limits.text) {
          held = true;
          continue;
        }
        body.append(`b:${id}`, fieldValue(form, `b:${id}`));
        body.append(`a:${id}`, value);
        body.append(`c:${id}`, comment);
        sent.add(id);
      }
      return { body, sent, held };
    },
    settle(form, answer) {
      const result = answer.body as AnswersResponse;
      if (!answer.ok) {
        // Refused answers are not sent again until they change; the page shows the counters.
        const status: AutosaveStatus = result.fieldErrors
          ? { state: "tooLong" }
          : { state: "failed", status: answer.status };
        return { stored: [], dropped: Object.keys(result.fieldErrors ?? {}), status };
      }
      const conflicts = result.conflicts ?? [];
      const conflicting = new Set(conflicts.map((c) => String(c.questionId)));
      const stored: string[] = [];
      for (const [id, token] of Object.entries(result.tokens ?? {})) {
        const base = form.elements.namedItem(`b:${id}`);
        if (base instanceof HTMLInputElement) base.value = token;
        if (!conflicting.has(id)) stored.push(id);
      }
      if (conflicts.length > 0) options.onConflicts(conflicts);
      return {
        stored,
        dropped: [],
        status:
          conflicts.length > 0 ? { state: "conflict", count: conflicts.length } : { state: "saved", at: new Date() },
      };
    },
    onSaved: (ids) => options.onSaved(ids.map(Number)),
  };
}
