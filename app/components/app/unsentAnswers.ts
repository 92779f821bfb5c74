import { dropExpired, openVault, ownKeys, storage, UnsentQueue, type UnsentKey } from "./unsentStore";
import { fieldValue, type OfflineKeeper } from "./useAutosave";

/**
 * Answers the server has not stored yet (ADR 0011), kept in the browser's localStorage, sealed
 * with the person's own key (unsentStore.ts), one entry per question, until they reach the server.
 * Each holds the answer and comment as typed and the base token the page started from, so the
 * server's per-question rule (ADR 0007) still decides whether they may be written: a question
 * changed elsewhere meanwhile comes back as a conflict, never as a silent overwrite.
 */
export interface UnsentAnswer {
  /** The base token of the answer the person started from. */
  base: string;
  value: string;
  comment: string;
  /** When it was kept (ms since 1970). */
  at: number;
}

export type UnsentAnswers = Record<string, UnsentAnswer>;

/** The answer set a page posts to: class, form, scheme and student (none for the admin's expected levels). */
export function placeOf(place: Record<string, string>): string {
  return `${place.classId ?? "-"}:${place.formId ?? "-"}:${place.schemeId ?? "-"}:${place.studentUserId ?? "-"}`;
}

/** What an entry holds: one question's answer, and the answer set it belongs to. */
interface AnswerEntry {
  kind: "answer";
  place: string;
  id: string;
  base: string;
  value: string;
  comment: string;
}

function isAnswerEntry(content: unknown, place: string): content is AnswerEntry {
  const entry = content as Partial<AnswerEntry> | null;
  return (
    !!entry &&
    entry.kind === "answer" &&
    entry.place === place &&
    typeof entry.id === "string" &&
    /^\d+$/.test(entry.id) &&
    typeof entry.base === "string" &&
    typeof entry.value === "string" &&
    typeof entry.comment === "string"
  );
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
    if (typeof base !== "string" || typeof value !== "string" || typeof comment !== "string" || typeof at !== "number")
      continue;
    result[id] = { base, value, comment, at };
  }
  return result;
}

/** Adds or replaces the given questions' answers (the newest typing wins: it is what the page shows). */
export function keepUnsent(
  current: UnsentAnswers,
  answers: Record<string, Omit<UnsentAnswer, "at">>,
  at: number,
): UnsentAnswers {
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

/**
 * The form page's keeper (useAutosave's `offline`): a key is a question id. Keeping reads the
 * fields at once and seals in the background, in order (UnsentQueue); `keep` says whether the
 * browser has a store at all.
 */
export function answerKeeper(options: {
  key: UnsentKey;
  place: Record<string, string>;
  now?: () => number;
}): OfflineKeeper {
  const place = placeOf(options.place);
  const now = options.now ?? Date.now;
  const queue = new UnsentQueue(openVault(options.key));
  const slotOf = (vault: { slot(name: string): Promise<string> }, id: string) => vault.slot(`answer:${place}:${id}`);
  return {
    keep(form, ids) {
      const store = storage();
      if (!store || typeof crypto === "undefined" || !crypto.subtle) return false;
      const at = now();
      const entries: AnswerEntry[] = [...ids].map((id) => ({
        kind: "answer",
        place,
        id,
        base: fieldValue(form, `b:${id}`),
        value: fieldValue(form, `a:${id}`),
        comment: fieldValue(form, `c:${id}`),
      }));
      void queue
        .run(async (vault) => {
          for (const entry of entries) await vault.seal(store, await slotOf(vault, entry.id), entry, at);
        })
        .catch(() => undefined);
      return true;
    },
    forget(ids) {
      const store = storage();
      if (!store || ids.length === 0) return;
      void queue
        .run(async (vault) => {
          for (const id of ids) store.removeItem(await slotOf(vault, id));
        })
        .catch(() => undefined);
    },
    restore(form) {
      const store = storage();
      if (!store) return [];
      return queue.run(async (vault) => {
        dropExpired(store, now());
        const kept: UnsentAnswers = {};
        const slots = new Map<string, string>();
        for (const slot of ownKeys(store, vault.keyId)) {
          const opened = await vault.open(store, slot);
          if (!opened || !isAnswerEntry(opened.content, place)) continue;
          const { id, base, value, comment } = opened.content;
          kept[id] = { base, value, comment, at: opened.at };
          slots.set(id, slot);
        }
        const onPage: Record<string, { value: string; comment: string }> = {};
        for (const id of Object.keys(kept)) {
          if (form.elements.namedItem(`b:${id}`) instanceof HTMLInputElement) {
            onPage[id] = { value: fieldValue(form, `a:${id}`), comment: fieldValue(form, `c:${id}`) };
          }
        }
        const { restore, drop } = planRestore(kept, onPage);
        for (const id of drop) store.removeItem(slots.get(id)!);
        for (const answer of restore) putBack(form, answer);
        return restore.map((answer) => answer.id);
      });
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
