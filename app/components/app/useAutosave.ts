import { useCallback, useEffect, useRef, useState, type RefObject } from "react";

/** The state of the form page's autosave, shown and announced as "Lagret", "Klarte ikke lagre" and so on. */
export type AutosaveStatus =
  | { state: "idle" }
  | { state: "saving" }
  | { state: "saved"; at: Date }
  | { state: "conflict"; count: number }
  | { state: "tooLong" }
  | { state: "failed"; status: number | null };

export interface AutosaveConflict {
  questionId: number;
  value: string | null;
  comment: string | null;
}

interface AutosaveResponse {
  tokens?: Record<string, string>;
  conflicts?: AutosaveConflict[];
}

const FIELD = /^([ac]):(\d+)$/;

function fieldValue(form: HTMLFormElement, name: string): string {
  const field = form.elements.namedItem(name);
  if (field instanceof RadioNodeList) return field.value;
  if (field instanceof HTMLTextAreaElement || field instanceof HTMLInputElement) return field.value;
  return "";
}

/**
 * Saves a form page's changed answers `delayMs` after the last change, without leaving the page
 * (issue 6): only the questions changed since the last save are posted, each with the base token of
 * the answer it started from (answering.ts), and the tokens the server answers with become the new
 * bases. A failed save keeps everything in the page and is tried again with the next change.
 */
export function useAutosave(
  formRef: RefObject<HTMLFormElement | null>,
  options: {
    endpoint: string;
    delayMs: number;
    /** Fields that say where the answers belong (class, form, scheme, student). */
    place: Record<string, string>;
    commentLimit: number;
    onConflicts: (conflicts: AutosaveConflict[]) => void;
    enabled: boolean;
  },
) {
  const [status, setStatus] = useState<AutosaveStatus>({ state: "idle" });
  const dirty = useRef(new Set<string>());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const saving = useRef(false);
  const optionsRef = useRef(options);
  useEffect(() => {
    optionsRef.current = options;
  });

  const save = useCallback(async () => {
    const form = formRef.current;
    if (!form || saving.current || dirty.current.size === 0) return;
    const { endpoint, place, commentLimit, onConflicts } = optionsRef.current;
    const body = new FormData();
    for (const [name, value] of Object.entries(place)) body.append(name, value);
    const sent = new Map<string, string>();
    let tooLong = false;
    for (const id of dirty.current) {
      const comment = fieldValue(form, `c:${id}`);
      // Over the limit the server refuses; the counter already says so, and the text stays in the page.
      if (comment.length > commentLimit) {
        tooLong = true;
        continue;
      }
      const value = fieldValue(form, `a:${id}`);
      body.append(`b:${id}`, fieldValue(form, `b:${id}`));
      body.append(`a:${id}`, value);
      body.append(`c:${id}`, comment);
      sent.set(id, `${value}\u0000${comment}`);
    }
    if (sent.size === 0) {
      setStatus(tooLong ? { state: "tooLong" } : { state: "idle" });
      return;
    }
    saving.current = true;
    setStatus({ state: "saving" });
    try {
      const response = await fetch(endpoint, { method: "POST", body, headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (!response.ok) {
        setStatus({ state: "failed", status: response.status });
        return;
      }
      const result = (await response.json()) as AutosaveResponse;
      for (const [id, token] of Object.entries(result.tokens ?? {})) {
        const base = form.elements.namedItem(`b:${id}`);
        if (base instanceof HTMLInputElement) base.value = token;
        // Changed again while the save was under way: it stays to be saved.
        if (sent.get(id) === `${fieldValue(form, `a:${id}`)}\u0000${fieldValue(form, `c:${id}`)}`) dirty.current.delete(id);
      }
      const conflicts = result.conflicts ?? [];
      if (conflicts.length > 0) onConflicts(conflicts);
      setStatus(conflicts.length > 0 ? { state: "conflict", count: conflicts.length } : tooLong ? { state: "tooLong" } : { state: "saved", at: new Date() });
    } catch {
      setStatus({ state: "failed", status: null });
    } finally {
      saving.current = false;
    }
  }, [formRef]);

  useEffect(() => {
    const form = formRef.current;
    if (!form || !options.enabled) return;
    const schedule = () => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        timer.current = null;
        void save();
      }, optionsRef.current.delayMs);
    };
    const onEdit = (event: Event) => {
      const name = (event.target as HTMLInputElement | null)?.name ?? "";
      const match = FIELD.exec(name);
      if (!match) return;
      dirty.current.add(match[2]);
      schedule();
    };
    // A page change or sending posts every answer of the page itself.
    const onSubmit = () => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
    };
    form.addEventListener("input", onEdit);
    form.addEventListener("change", onEdit);
    form.addEventListener("submit", onSubmit);
    return () => {
      form.removeEventListener("input", onEdit);
      form.removeEventListener("change", onEdit);
      form.removeEventListener("submit", onSubmit);
      if (timer.current) clearTimeout(timer.current);
    };
  }, [formRef, options.enabled, save]);

  /** The next page: nothing pending carries over. */
  const reset = useCallback(() => {
    dirty.current.clear();
    setStatus({ state: "idle" });
  }, []);

  return { status, reset };
}
