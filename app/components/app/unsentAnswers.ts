import { storage, storedKeys, UNSENT_PREFIX, userOfKey } from "./unsentStore";
import { fieldValue, type OfflineKeeper } from "./useAutosave";

/**
 * Answers a save could not send for lack of network (ADR 0011), kept in the browser's
 * localStorage until they reach the server. One entry per person and answer set (the person's id,
 * then the class, form, assignment and student the page posts), holding per question the answer
 * and comment as typed and the base token the page started from, so the server's per-question rule
 * (ADR 0007) still decides whether they may be written: a question changed elsewhere meanwhile comes
 * back as a conflict, never as a silent overwrite.
 */
export { UNSENT_PREFIX, userOfKey };

export interface UnsentAnswer {
  /** The base token of the answer the person started from. */
  base: string;
  value: string;
  comment: string;
  /** When it was kept (ms since 1970). */
  at: number;
}

export type UnsentAnswers = Record<string, UnsentAnswer>;

export function unsentKey(userId: string, place: Record<string, string>): string {
  return `${UNSENT_PREFIX}${userId}:${place.classId ?? "-"}:${place.formId ?? "-"}:${place.assignmentId ?? "-"}:${place.studentUserId ?? "-"}`;
}

/** An entry as stored; anything malformed (another version, a hand edit) reads as nothing. */
export function parseUnsent(text: string | null): UnsentAnswers {
  if (!text) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {};
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
  const result: UnsentAnswers = {};
  for (const [id, entry] of Object.entries(parsed as Record<string, unknown>)) {
    if (!/^\d+$/.test(id) || typeof entry !== "object" || entry === null) continue;
    const { base, value, comment, at } = entry as Record<string, unknown>;
    if (typeof base !== "string" || typeof value !== "string" || typeof comment !== "string" || typeof at !== "number") continue;
    result[id] = { base, value, comment, at };
  }
  return result;
}

/** Adds or replaces the given questions' answers (the newest typing wins: it is what the page shows). */
export function keepUnsent(current: UnsentAnswers, answers: Record<string, Omit<UnsentAnswer, "at">>, at: number): UnsentAnswers {
  const next = { ...current };
  for (const [id, answer] of Object.entries(answers)) next[id] = { ...answer, at };
  return next;
}

/** Without the given questions (they reached the server, or the page post carried them). */
export function forgetUnsent(current: UnsentAnswers, ids: Iterable<string>): UnsentAnswers {
  const next = { ...current };
  for (const id of ids) delete next[id];
  return next;
}

/**
 * What to do with kept answers when the page loads, given each question on the page as the server
 * sent it. A kept answer the page already shows (the save did arrive, or the same was saved
 * elsewhere) is dropped; any other is put back into the fields with its own base, and sent: the
 * server writes it if the stored answer is still the one it started from, and reports a conflict
 * (both shown) if someone changed it meanwhile. Questions of other pages stay kept for their page.
 */
export function planRestore(
  kept: UnsentAnswers,
  onPage: Record<string, { value: string; comment: string }>,
): { restore: Array<{ id: string } & UnsentAnswer>; drop: string[] } {
  const restore: Array<{ id: string } & UnsentAnswer> = [];
  const drop: string[] = [];
  for (const [id, answer] of Object.entries(kept)) {
    const shown = onPage[id];
    if (!shown) continue;
    if (shown.value === answer.value && shown.comment === answer.comment) drop.push(id);
    else restore.push({ id, ...answer });
  }
  return { restore, drop };
}

/** The entries of other users (left by someone who did not log out): not to be kept for them here. */
export function foreignKeys(keys: Iterable<string>, userId: string): string[] {
  return [...keys].filter((key) => {
    const user = userOfKey(key);
    return user !== null && user !== userId;
  });
}

// The browser's storage. localStorage can be missing or refuse (private windows, a full quota):
// then nothing is kept, and the page says the save failed as before.

function write(store: Storage, key: string, answers: UnsentAnswers): boolean {
  try {
    if (Object.keys(answers).length === 0) store.removeItem(key);
    else store.setItem(key, JSON.stringify(answers));
    return true;
  } catch {
    return false;
  }
}

/** The form page's keeper (useAutosave's `offline`): a key is a question id. */
export function answerKeeper(options: { userId: string; place: Record<string, string>; now?: () => number }): OfflineKeeper {
  const key = unsentKey(options.userId, options.place);
  const now = options.now ?? Date.now;
  return {
    keep(form, ids) {
      const store = storage();
      if (!store) return false;
      const answers: Record<string, Omit<UnsentAnswer, "at">> = {};
      for (const id of ids) {
        answers[id] = { base: fieldValue(form, `b:${id}`), value: fieldValue(form, `a:${id}`), comment: fieldValue(form, `c:${id}`) };
      }
      return write(store, key, keepUnsent(parseUnsent(store.getItem(key)), answers, now()));
    },
    forget(ids) {
      const store = storage();
      if (!store || ids.length === 0) return;
      const kept = parseUnsent(store.getItem(key));
      if (ids.some((id) => id in kept)) write(store, key, forgetUnsent(kept, ids));
    },
    restore(form) {
      const store = storage();
      if (!store) return [];
      for (const foreign of foreignKeys(storedKeys(store), options.userId)) store.removeItem(foreign);
      const kept = parseUnsent(store.getItem(key));
      if (Object.keys(kept).length === 0) return [];
      const onPage: Record<string, { value: string; comment: string }> = {};
      for (const id of Object.keys(kept)) {
        if (form.elements.namedItem(`b:${id}`) instanceof HTMLInputElement) {
          onPage[id] = { value: fieldValue(form, `a:${id}`), comment: fieldValue(form, `c:${id}`) };
        }
      }
      const { restore, drop } = planRestore(kept, onPage);
      if (drop.length > 0) write(store, key, forgetUnsent(kept, drop));
      for (const answer of restore) putBack(form, answer);
      return restore.map((answer) => answer.id);
    },
  };
}

/** Puts a kept answer into the page's fields, the way typing does, with the base it started from. */
function putBack(form: HTMLFormElement, answer: { id: string } & UnsentAnswer) {
  const base = form.elements.namedItem(`b:${answer.id}`);
  if (base instanceof HTMLInputElement) base.value = answer.base;
  const field = form.elements.namedItem(`a:${answer.id}`);
  if (field instanceof RadioNodeList) {
    for (const radio of Array.from(field)) {
      if (radio instanceof HTMLInputElement) radio.checked = radio.value === answer.value;
    }
    const chosen = Array.from(field).find((radio) => radio instanceof HTMLInputElement && radio.checked);
    chosen?.dispatchEvent(new Event("change", { bubbles: true }));
  } else if (field instanceof HTMLTextAreaElement) {
    typeInto(field, answer.value);
  }
  const comment = form.elements.namedItem(`c:${answer.id}`);
  if (comment instanceof HTMLTextAreaElement) {
    typeInto(comment, answer.comment);
    const details = comment.closest("details");
    if (details && answer.comment) details.open = true;
  }
}

function typeInto(field: HTMLTextAreaElement, value: string) {
  if (field.value === value) return;
  Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")?.set?.call(field, value);
  field.dispatchEvent(new Event("input", { bubbles: true }));
}
