import { WARNING_FIELDS, WARNING_TEXT_LIMIT } from "~/services/warnings";
import { characters, fieldValue, type AutosaveAdapter } from "./useAutosave";

/** The draft is one key: any change sends all three texts, and the id of the warning the page shows. */
const DRAFT = "draft";
const FIELDS: readonly string[] = WARNING_FIELDS;

interface WarningResponse {
  warningId?: number;
  currentId?: number | null;
  error?: string;
}

export type WarningAutosaveRefusal = "alreadyGiven" | "gone";

/**
 * The warning page's autosave: the teacher's draft, posted to the warning's endpoint.
 * The first save creates the draft, and its id goes into the page's `warningId` field, so the page's
 * own posts (and later saves) continue the same warning. When the server refuses for good — the
 * warning was given or deleted elsewhere — the page is told, and stops saving by itself.
 */
export function warningAutosave(options: { onRefused: (reason: WarningAutosaveRefusal) => void }): AutosaveAdapter {
  const setWarningId = (form: HTMLFormElement, id: number | null) => {
    const field = form.elements.namedItem("warningId");
    if (field instanceof HTMLInputElement) field.value = id === null ? "" : String(id);
  };
  return {
    keyOf: (name) => (FIELDS.includes(name) ? DRAFT : null),
    snapshot: (form) => WARNING_FIELDS.map((field) => fieldValue(form, field)).join("\u0000"),
    collect(form) {
      const body = new FormData();
      const texts = WARNING_FIELDS.map((field) => [field, fieldValue(form, field)] as const);
      if (texts.some(([, text]) => characters(text) > WARNING_TEXT_LIMIT)) return { body, sent: new Set(), held: true };
      for (const [field, text] of texts) body.append(field, text);
      body.append("warningId", fieldValue(form, "warningId"));
      return { body, sent: new Set([DRAFT]), held: false };
    },
    settle(form, answer) {
      const result = answer.body as WarningResponse;
      if (answer.ok && typeof result.warningId === "number") {
        setWarningId(form, result.warningId);
        return { stored: [DRAFT], dropped: [], status: { state: "saved", at: new Date() } };
      }
      if (answer.status === 409 && (result.error === "alreadyGiven" || result.error === "gone")) {
        // "Lagre utkast" then saves the text on purpose, on top of what there is now.
        if (result.error === "gone") setWarningId(form, result.currentId ?? null);
        options.onRefused(result.error);
        return { stored: [], dropped: [DRAFT], status: { state: "refused", reason: result.error } };
      }
      if (answer.status === 400 && result.error === "invalid")
        return { stored: [], dropped: [DRAFT], status: { state: "tooLong" } };
      return { stored: [], dropped: [], status: { state: "failed", status: answer.ok ? null : answer.status } };
    },
  };
}
