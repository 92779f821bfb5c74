import { useCallback, useEffect, useRef, useState, type RefObject } from "react";

/** The state of a page's autosave, shown and announced as "Lagret", "Klarte ikke lagre" and so on. */
export type AutosaveStatus =
  | { state: "idle" }
  | { state: "saving" }
  | { state: "saved"; at: Date }
  | { state: "conflict"; count: number }
  | { state: "tooLong" }
  /** The server will not take changes any more (say, the warning was given elsewhere); `reason` says why. */
  | { state: "refused"; reason: string }
  | { state: "failed"; status: number | null }
  /** No network: the changes are kept in the browser and sent when it is back (ADR 0011). */
  | { state: "offline" }
  /**
   * The session has ended (401 `loggedOut`): nothing was saved. `kept`: the changes are kept in the
   * browser (the page's OfflineKeeper) and sent when the page is opened again after logging in.
   */
  | { state: "loggedOut"; kept: boolean };

/** The endpoint's answer as the adapter reads it. */
export interface AutosaveAnswer {
  ok: boolean;
  status: number;
  body: unknown;
}

/**
 * What a page autosaves and how: the fields, grouped under keys (a question, a whole draft), the
 * post for the changed keys, and what the endpoint's answer means.
 */
export interface AutosaveAdapter {
  /** The key an edited field is saved under; null for a field the autosave leaves alone. */
  keyOf(fieldName: string): string | null;
  /** A key's content now, to tell whether it changed again while a save was under way. */
  snapshot(form: HTMLFormElement, key: string): string;
  /** The post for the changed keys. Keys over a limit are left out of `sent` and reported as `held` (the counter says so). */
  collect(form: HTMLFormElement, keys: ReadonlySet<string>): { body: FormData; sent: ReadonlySet<string>; held: boolean };
  /**
   * What the answer means: the keys now stored, the keys not to send again until they change
   * (refused for good), and the status to show.
   */
  settle(form: HTMLFormElement, answer: AutosaveAnswer): { stored: string[]; dropped: string[]; status: AutosaveStatus };
  /** Keys whose content as shown on the page is now the stored one. */
  onSaved?(keys: string[]): void;
}

/**
 * Keeps what a save could not send for lack of network in the browser (ADR 0011), by the
 * adapter's keys, until it reaches the server.
 */
export interface OfflineKeeper {
  /** Keeps these keys' content as the page shows it now; false when the browser refuses. */
  keep(form: HTMLFormElement, keys: ReadonlySet<string>): boolean;
  /** These keys reached the server (or a page post carries them): no longer kept. */
  forget(keys: string[]): void;
  /** On load: puts what was kept for this page back into its fields; the keys to send. */
  restore(form: HTMLFormElement): string[];
}

/** The log-in page, coming back to this page afterwards (the guards' `redirectTo`). */
export function logInAgainHref(): string {
  if (typeof window === "undefined") return "/";
  return `/?redirectTo=${encodeURIComponent(window.location.pathname + window.location.search)}`;
}

/** Whether the browser knows it has no network (a failed fetch says so too). */
function knownOffline(): boolean {
  return typeof navigator !== "undefined" && navigator.onLine === false;
}

/**
 * Saves a form's changed fields `delayMs` after the last change, without leaving the page (spec
 * §4, §9: answers and warning drafts, 3 seconds). What is waiting is sent when the person leaves
 * the page or the tab; a page post waits for a save under way, so it starts from what that save
 * stored. A failed save keeps everything in the page and is tried again with the next change.
 */
export function useAutosave(
  formRef: RefObject<HTMLFormElement | null>,
  options: { endpoint: string; delayMs: number; adapter: AutosaveAdapter; enabled: boolean; offline?: OfflineKeeper },
) {
  const [status, setStatus] = useState<AutosaveStatus>({ state: "idle" });
  const dirty = useRef(new Set<string>());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const inFlight = useRef<Promise<void> | null>(null);
  /** The last save was refused for an ended session: what is left is kept, not posted in vain. */
  const loggedOut = useRef(false);
  const optionsRef = useRef(options);
  useEffect(() => {
    optionsRef.current = options;
  });

  const save = useCallback(async (): Promise<void> => {
    const form = formRef.current;
    if (!form || dirty.current.size === 0) return;
    if (inFlight.current) {
      // One save at a time; what changed meanwhile goes right after.
      await inFlight.current;
      return save();
    }
    const { adapter, endpoint } = optionsRef.current;
    const { body, sent, held } = adapter.collect(form, dirty.current);
    if (sent.size === 0) {
      setStatus(held ? { state: "tooLong" } : { state: "idle" });
      return;
    }
    const { offline } = optionsRef.current;
    // Without network the post cannot go: kept in the browser, sent when the network is back.
    if (offline && knownOffline()) {
      setStatus(offline.keep(form, dirty.current) ? { state: "offline" } : { state: "failed", status: null });
      return;
    }
    const snapshots = new Map([...sent].map((key) => [key, adapter.snapshot(form, key)]));
    const run = (async () => {
      setStatus({ state: "saving" });
      try {
        const response = await fetch(endpoint, {
          method: "POST",
          body,
          headers: { Accept: "application/json" },
          credentials: "same-origin",
        });
        // An ended session (401; a redirect to the log-in page from an older server): nothing was saved.
        // What changed is kept in the browser, to be sent once the person has logged in again.
        if (response.status === 401 || response.redirected) {
          loggedOut.current = true;
          setStatus({ state: "loggedOut", kept: offline?.keep(form, dirty.current) ?? false });
          return;
        }
        loggedOut.current = false;
        const answer = { ok: response.ok, status: response.status, body: await response.json().catch(() => ({})) };
        const settled = adapter.settle(form, answer);
        for (const key of settled.dropped) dirty.current.delete(key);
        // Changed again while the save was under way: it stays to be saved.
        const saved = settled.stored.filter((key) => snapshots.has(key) && snapshots.get(key) === adapter.snapshot(form, key));
        for (const key of saved) dirty.current.delete(key);
        offline?.forget([...saved, ...settled.dropped]);
        if (saved.length > 0) adapter.onSaved?.(saved);
        setStatus(settled.status.state === "saved" && held ? { state: "tooLong" } : settled.status);
      } catch {
        // The post did not get an answer: the network (or the server) is away.
        setStatus(offline?.keep(form, dirty.current) ? { state: "offline" } : { state: "failed", status: null });
      }
    })();
    inFlight.current = run;
    try {
      await run;
    } finally {
      inFlight.current = null;
    }
  }, [formRef]);

  // A keeper that arrives later (loaded lazily) restores what it kept as soon as it is there.
  const hasKeeper = options.offline !== undefined;
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
      const key = optionsRef.current.adapter.keyOf((event.target as HTMLInputElement | null)?.name ?? "");
      if (key === null) return;
      dirty.current.add(key);
      schedule();
    };
    // A page post carries every field itself, from the newest state: a save under way is waited
    // for, then the post goes on (pressed again by the same button).
    const onSubmit = (event: SubmitEvent) => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
      const pending = inFlight.current;
      const { offline } = optionsRef.current;
      if (offline && knownOffline()) {
        // The post cannot go either: the page stays, and what changed is kept to be sent.
        event.preventDefault();
        event.stopImmediatePropagation();
        setStatus(dirty.current.size === 0 || offline.keep(form, dirty.current) ? { state: "offline" } : { state: "failed", status: null });
        return;
      }
      if (offline && loggedOut.current) {
        // Logged out: the post leads to the log-in page and what it carries is lost, so it is kept
        // first, and sent when the page is opened again after logging in.
        if (dirty.current.size > 0) offline.keep(form, dirty.current);
        dirty.current.clear();
        return;
      }
      if (!pending) {
        // The post carries them.
        offline?.forget([...dirty.current]);
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
      const { adapter, endpoint, offline } = optionsRef.current;
      const { body, sent } = adapter.collect(form, dirty.current);
      if (sent.size === 0) return;
      if (offline && (knownOffline() || loggedOut.current)) {
        offline.keep(form, sent);
      } else {
        // The form's fields keep their values after it leaves the page, for a keep if the post fails.
        // A session that has ended is kept too, when the page is still there to hear the answer (a link inside the app).
        void fetch(endpoint, { method: "POST", body, keepalive: true, credentials: "same-origin" }).then(
          (response) => {
            if (response.status === 401) offline?.keep(form, sent);
          },
          () => offline?.keep(form, sent),
        );
      }
      dirty.current.clear();
    };
    // The network is back: what is waiting goes at once.
    const onOnline = () => {
      if (dirty.current.size > 0) void save();
    };
    form.addEventListener("input", onEdit);
    form.addEventListener("change", onEdit);
    form.addEventListener("submit", onSubmit);
    window.addEventListener("pagehide", flush);
    window.addEventListener("online", onOnline);
    // Kept from an earlier visit (the network went, the tab was closed): back into the fields, and sent.
    const restored = optionsRef.current.offline?.restore(form) ?? [];
    if (restored.length > 0) {
      for (const key of restored) dirty.current.add(key);
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
      void save();
    }
    return () => {
      window.removeEventListener("online", onOnline);
      form.removeEventListener("input", onEdit);
      form.removeEventListener("change", onEdit);
      form.removeEventListener("submit", onSubmit);
      window.removeEventListener("pagehide", flush);
      // Leaving the page inside the app (a link, the back button): the same.
      flush();
    };
  }, [formRef, options.enabled, hasKeeper, save]);

  return { status };
}

/** A field's value as posted: a radio group's chosen value, a text field's text. */
export function fieldValue(form: HTMLFormElement, name: string): string {
  const field = form.elements.namedItem(name);
  if (field instanceof RadioNodeList) return field.value;
  if (field instanceof HTMLTextAreaElement || field instanceof HTMLInputElement) return field.value;
  return "";
}

/** Characters as the server counts them: an emoji is one. */
export function characters(text: string): number {
  return Array.from(text).length;
}

/**
 * The status line's text, from the page's own namespace: `autosave.saving`, `.saved` (with the
 * time), `.conflict`, `.tooLong`, `.failed`/`.failedStatus`, and `.<reason>` for a refusal.
 */
export function autosaveStatusText(t: (key: string, options?: Record<string, unknown>) => string, status: AutosaveStatus, language: string): string {
  switch (status.state) {
    case "idle":
      return "";
    case "saving":
      return t("autosave.saving");
    case "saved":
      return t("autosave.saved", {
        time: status.at.toLocaleTimeString(language === "en" ? "en-GB" : "nb-NO", { hour: "2-digit", minute: "2-digit" }),
      });
    case "conflict":
      return t("autosave.conflict", { count: status.count });
    case "tooLong":
      return t("autosave.tooLong");
    case "refused":
      return t(`autosave.${status.reason}`);
    case "failed":
      return status.status ? t("autosave.failedStatus", { status: status.status }) : t("autosave.failed");
    case "offline":
      return t("autosave.offline");
    case "loggedOut":
      return t(status.kept ? "autosave.loggedOutKept" : "autosave.loggedOut");
  }
}
