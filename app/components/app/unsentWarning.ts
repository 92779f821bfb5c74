import { WARNING_FIELDS } from "~/services/warnings";
import { dropExpired, openVault, ownKeys, storage, UnsentQueue, type UnsentKey } from "./unsentStore";
import { fieldValue, type OfflineKeeper } from "./useAutosave";

/**
 * The warning page's draft, kept in the browser from the first change until the server has stored
 * it (ADR 0011): one entry per teacher and student, sealed with the teacher's own key
 * (unsentStore.ts), holding the three texts as typed and the id of the warning they continued, so
 * the server's rule still decides (a warning given or deleted meanwhile is refused with a message,
 * never overwritten). Sent when the teacher opens the page again (after logging in, say).
 */
export interface UnsentWarning {
  warningId: string;
  texts: Record<string, string>;
  at: number;
}

const KEY = "draft";

/** What stands in the entry's name (sealed: nobody else can tell whose draft or which student). */
export function unsentWarningName(classId: string, studentUserId: string): string {
  return `warning:${classId}:${studentUserId}`;
}

/** An entry's content; anything malformed reads as nothing. */
export function parseUnsentWarning(text: string | null): UnsentWarning | null {
  try {
    return checkUnsentWarning(JSON.parse(text ?? ""));
  } catch {
    return null;
  }
}

function checkUnsentWarning(content: unknown): UnsentWarning | null {
  const entry = content as UnsentWarning | null;
  const valid =
    !!entry &&
    typeof entry.warningId === "string" &&
    typeof entry.at === "number" &&
    typeof entry.texts === "object" &&
    entry.texts !== null &&
    WARNING_FIELDS.every((field) => typeof entry.texts[field] === "string");
  return valid ? entry : null;
}

export function warningKeeper(options: {
  key: UnsentKey;
  classId: string;
  studentUserId: string;
  now?: () => number;
}): OfflineKeeper {
  const name = unsentWarningName(options.classId, options.studentUserId);
  const now = options.now ?? Date.now;
  const queue = new UnsentQueue(openVault(options.key));
  return {
    keep(form) {
      const store = storage();
      if (!store || typeof crypto === "undefined" || !crypto.subtle) return false;
      const entry: UnsentWarning & { name: string } = {
        name,
        warningId: fieldValue(form, "warningId"),
        texts: Object.fromEntries(WARNING_FIELDS.map((field) => [field, fieldValue(form, field)])),
        at: now(),
      };
      void queue
        .run(async (vault) => vault.seal(store, await vault.slot(name), entry, entry.at))
        .catch(() => undefined);
      return true;
    },
    forget(keys) {
      const store = storage();
      if (!store || !keys.includes(KEY)) return;
      void queue.run(async (vault) => store.removeItem(await vault.slot(name))).catch(() => undefined);
    },
    restore(form) {
      const store = storage();
      if (!store) return [];
      return queue.run(async (vault) => {
        dropExpired(store, now());
        const slot = await vault.slot(name);
        if (!ownKeys(store, vault.keyId).includes(slot)) return [];
        const opened = await vault.open(store, slot);
        const kept = checkUnsentWarning(opened?.content ?? null);
        if (!kept || (opened?.content as { name?: unknown }).name !== name) return [];
        if (WARNING_FIELDS.every((field) => fieldValue(form, field) === kept.texts[field])) {
          store.removeItem(slot);
          return [];
        }
        // Continued from the warning it was typed on: if that one is gone or given, the server says so.
        const elements = form.elements as unknown as Record<string, HTMLInputElement | undefined>;
        if (elements.warningId) elements.warningId.value = kept.warningId;
        for (const field of WARNING_FIELDS) {
          const area = elements[field];
          if (area && area.value !== kept.texts[field]) {
            area.value = kept.texts[field];
            area.dispatchEvent(new Event("input", { bubbles: true }));
          }
        }
        return [KEY];
      });
    },
  };
}
