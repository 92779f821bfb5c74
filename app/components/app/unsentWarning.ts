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
  try {
    const entry = JSON.parse(text ?? "") as UnsentWarning;
    const valid =
      typeof entry.warningId === "string" &&
      typeof entry.at === "number" &&
      WARNING_FIELDS.every((field) => typeof entry.texts[field] === "string");
    return valid ? entry : null;
  } catch {
    return null;
  }
}

export function warningKeeper(options: { userId: string; classId: string; studentUserId: string }): OfflineKeeper {
  const key = unsentWarningKey(options.userId, options.classId, options.studentUserId);
  return {
    keep(form) {
      const entry: UnsentWarning = {
        warningId: fieldValue(form, "warningId"),
        texts: Object.fromEntries(WARNING_FIELDS.map((field) => [field, fieldValue(form, field)])),
        at: Date.now(),
      };
      try {
        storage()!.setItem(key, JSON.stringify(entry));
        return true;
      } catch {
        return false;
      }
    },
    forget(keys) {
      if (keys.includes(KEY)) storage()?.removeItem(key);
    },
    restore(form) {
      const kept = parseUnsentWarning(storage()?.getItem(key) ?? null);
      if (!kept) return [];
      if (WARNING_FIELDS.every((field) => fieldValue(form, field) === kept.texts[field])) {
        storage()?.removeItem(key);
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
    },
  };
}
