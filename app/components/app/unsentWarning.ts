import { WARNING_FIELDS } from "~/services/warnings";
import { storage, UNSENT_PREFIX } from "./unsentStore";
import { fieldValue, type OfflineKeeper } from "./useAutosave";

/**
 * The warning page's draft, kept in the browser when the autosave could not save it because the
 * session had ended (ADR 0011), and sent when the teacher opens the page again after logging in.
 * One entry per teacher and student: the three texts as typed and the id of the warning they
 * continued, so the server's rule still decides (a warning given or deleted meanwhile is refused
 * with a message, never overwritten). The key starts with the user's id, so "Logg ut" clears it
 * and another user's page removes it (unsentAnswers.ts).
 */
export interface UnsentWarning {
  warningId: string;
  texts: Record<string, string>;
  at: number;
}

const KEY = "draft";

export function unsentWarningKey(userId: string, classId: string, studentUserId: string): string {
  return `${UNSENT_PREFIX}${userId}:warning:${classId}:${studentUserId}`;
}

/** An entry as stored; anything malformed reads as nothing. */
export function parseUnsentWarning(text: string | null): UnsentWarning | null {
  if (!text) return null;
  try {
    const parsed = JSON.parse(text) as Partial<UnsentWarning> | null;
    if (!parsed || typeof parsed.warningId !== "string" || typeof parsed.at !== "number" || typeof parsed.texts !== "object" || !parsed.texts) return null;
    const texts: Record<string, string> = {};
    for (const field of WARNING_FIELDS) {
      const value = (parsed.texts as Record<string, unknown>)[field];
      if (typeof value !== "string") return null;
      texts[field] = value;
    }
    return { warningId: parsed.warningId, texts, at: parsed.at };
  } catch {
    return null;
  }
}

export function warningKeeper(options: { userId: string; classId: string; studentUserId: string; now?: () => number }): OfflineKeeper {
  const key = unsentWarningKey(options.userId, options.classId, options.studentUserId);
  const now = options.now ?? Date.now;
  return {
    keep(form) {
      const store = storage();
      if (!store) return false;
      const entry: UnsentWarning = {
        warningId: fieldValue(form, "warningId"),
        texts: Object.fromEntries(WARNING_FIELDS.map((field) => [field, fieldValue(form, field)])),
        at: now(),
      };
      try {
        store.setItem(key, JSON.stringify(entry));
        return true;
      } catch {
        return false;
      }
    },
    forget(keys) {
      if (keys.includes(KEY)) storage()?.removeItem(key);
    },
    restore(form) {
      const store = storage();
      const kept = store ? parseUnsentWarning(store.getItem(key)) : null;
      if (!store || !kept) return [];
      if (WARNING_FIELDS.every((field) => fieldValue(form, field) === kept.texts[field])) {
        store.removeItem(key);
        return [];
      }
      // Continued from the warning it was typed on: if that one is gone or given, the server says so.
      const id = form.elements.namedItem("warningId");
      if (id instanceof HTMLInputElement) id.value = kept.warningId;
      for (const field of WARNING_FIELDS) {
        const area = form.elements.namedItem(field);
        if (area instanceof HTMLTextAreaElement && area.value !== kept.texts[field]) {
          Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")?.set?.call(area, kept.texts[field]);
          area.dispatchEvent(new Event("input", { bubbles: true }));
        }
      }
      return [KEY];
    },
  };
}
