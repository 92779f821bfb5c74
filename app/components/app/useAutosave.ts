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
  fieldErrors?: Record<string, string>;
}

const FIELD = /^([ac]):(\d+)$/;

function fieldValue(form: HTMLFormElement, name: string): string {
  const field = form.elements.namedItem(name);
  if (field instanceof RadioNodeList) return field.value;
  if (field instanceof HTMLTextAreaElement || field instanceof HTMLInputElement) return field.value;
  return "";
}

/** Characters as the server counts them: an emoji is one. */
function characters(text: string): number {
  return Array.from(text).length;
}

/**
 * Saves a form page's changed answers `delayMs` after the last change, without leaving the page
 * (issue 6): only the questions changed since the last save are posted, each with the base token of
 * the answer it started from (answering.ts), and the tokens the server answers with become the new
 * bases. What is waiting is sent when the person leaves the page or the tab; a page post waits for
 * a save under way, so it starts from that save's tokens. A failed save keeps everything in the page
 * and is tried again with the next change.
 */
export function useAutosave(
  formRef: RefObject<HTMLFormElement | null>,
  options: {
    endpoint: string;
    delayMs: number;
    /** Fields that say where the answers belong (class, form, scheme, student). */
    place: Record<string, string>;
    limits: { comment: number; text: number };
    onConflicts: (conflicts: AutosaveConflict[]) => void;
    /** Questions whose answer as shown on the page is now the stored one. */
    onSaved: (questionIds: number[]) => void;
    enabled: boolean;
  },
) {
  const [status, setStatus] = useState<AutosaveStatus>({ state: "idle" });
  const dirty = useRef(new Set<string>());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const inFlight = useRef<Promise<void> | null>(null);
  const optionsRef = useRef(options);
  useEffect(() => {
    optionsRef.current = options;
  });

  /** The changed answers as the endpoint takes them, leaving out any over its limit (the counter says so). */
  const collect = useCallback((form: HTMLFormElement) => {
    const { place, limits } = optionsRef.current;
    const body = new FormData();
    for (const [name, value] of Object.entries(place)) body.append(name, value);
    const sent = new Map<string, string>();
    let tooLong = false;
    for (const id of dirty.current) {
      const value = fieldValue(form, `a:${id}`);
      const comment = fieldValue(form, `c:${id}`);
      if (characters(comment) > limits.comment || characters(value) > limits.text) {
        tooLong = true;
        continue;
      }
      body.append(`b:${id}`, fieldValue(form, `b:${id}`));
      body.append(`a:${id}`, value);
      body.append(`c:${id}`, comment);
      sent.set(id, `${value}\u0000${comment}`);
    }
    return { body, sent, tooLong };
  }, []);

  const save = useCallback(async (): Promise<void> => {
    const form = formRef.current;
    if (!form || dirty.current.size === 0) return;
    if (inFlight.current) {
      // One save at a time; what changed meanwhile goes right after.
      await inFlight.current;
      return save();
    }
    const { body, sent, tooLong } = collect(form);
    if (sent.size === 0) {
      setStatus(tooLong ? { state: "tooLong" } : { state: "idle" });
      return;
    }
    const run = (async () => {
      setStatus({ state: "saving" });
      try {
        const response = await fetch(optionsRef.current.endpoint, {
          method: "POST",
          body,
          headers: { Accept: "application/json" },
          credentials: "same-origin",
        });
        const result = (await response.json().catch(() => ({}))) as AutosaveResponse;
        if (!response.ok) {
          // Refused answers are not sent again until they change; the page shows the counters.
          for (const id of Object.keys(result.fieldErrors ?? {})) dirty.current.delete(id);
          setStatus(result.fieldErrors ? { state: "tooLong" } : { state: "failed", status: response.status });
          return;
        }
        const saved: number[] = [];
        const conflicts = result.conflicts ?? [];
        const conflicting = new Set(conflicts.map((c) => String(c.questionId)));
        for (const [id, token] of Object.entries(result.tokens ?? {})) {
          const base = form.elements.namedItem(`b:${id}`);
          if (base instanceof HTMLInputElement) base.value = token;
          // Changed again while the save was under way: it stays to be saved.
          if (sent.get(id) === `${fieldValue(form, `a:${id}`)}\u0000${fieldValue(form, `c:${id}`)}` && !conflicting.has(id)) {
            dirty.current.delete(id);
            saved.push(Number(id));
          }
        }
        if (saved.length > 0) optionsRef.current.onSaved(saved);
        if (conflicts.length > 0) optionsRef.current.onConflicts(conflicts);
        setStatus(conflicts.length > 0 ? { state: "conflict", count: conflicts.length } : tooLong ? { state: "tooLong" } : { state: "saved", at: new Date() });
      } catch {
        setStatus({ state: "failed", status: null });
      }
    })();
    inFlight.current = run;
    try {
      await run;
    } finally {
      inFlight.current = null;
    }
  }, [formRef, collect]);

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
    // A page change or sending posts every answer of the page itself, from the newest bases: a save
    // under way is waited for, then the post goes on (pressed again by the same button).
    const onSubmit = (event: SubmitEvent) => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
      const pending = inFlight.current;
      if (!pending) {
        // The post carries them.
        dirty.current.clear();
        return;
      }
      event.preventDefault();
      event.stopImmediatePropagation();
      const submitter = event.submitter;
      void pending.finally(() => form.requestSubmit(submitter instanceof HTMLButtonElement ? submitter : undefined));
    };
    // Leaving: what is waiting goes out without waiting for an answer.
    const flush = () => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
      if (dirty.current.size === 0) return;
      const { body, sent } = collect(form);
      if (sent.size === 0) return;
      void fetch(optionsRef.current.endpoint, { method: "POST", body, keepalive: true, credentials: "same-origin" }).catch(() => {});
      dirty.current.clear();
    };
    form.addEventListener("input", onEdit);
    form.addEventListener("change", onEdit);
    form.addEventListener("submit", onSubmit);
    window.addEventListener("pagehide", flush);
    return () => {
      form.removeEventListener("input", onEdit);
      form.removeEventListener("change", onEdit);
      form.removeEventListener("submit", onSubmit);
      window.removeEventListener("pagehide", flush);
      // Leaving the page inside the app (a link, the back button): the same.
      flush();
    };
  }, [formRef, options.enabled, save, collect]);

  return { status };
}
