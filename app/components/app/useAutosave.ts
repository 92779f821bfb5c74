import { useCallback, useEffect, useRef, useState, type RefObject } from "react";
import { isRouteErrorResponse } from "react-router";
import {
  decidePagePost,
  decideSave,
  decideSubmit,
  retryDelay,
  type PagePostDecision,
  type PagePostOutcome,
} from "./autosaveDecision";

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
   * Not saved, not for good (no answer, a 5xx while the database restarts, 408, 429): tried again
   * after a growing pause, and at once when the network returns or the page gets the focus.
   * `kept`: the changes are kept in the browser meanwhile (closing the tab does not lose them).
   */
  | { state: "retrying"; kept: boolean }
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
  collect(
    form: HTMLFormElement,
    keys: ReadonlySet<string>,
  ): { body: FormData; sent: ReadonlySet<string>; held: boolean };
  /**
   * What the answer means: the keys now stored, the keys not to send again until they change
   * (refused for good), and the status to show.
   */
  settle(
    form: HTMLFormElement,
    answer: AutosaveAnswer,
  ): { stored: string[]; dropped: string[]; status: AutosaveStatus };
  /** Keys whose content as shown on the page is now the stored one. */
  onSaved?(keys: string[]): void;
}

/**
 * Keeps in the browser what the server has not said it stored (ADR 0011), by the adapter's keys:
 * from the change until a 2xx says it is stored, so neither a failed save, a failed page post nor a
 * tab closed meanwhile loses it.
 */
export interface OfflineKeeper {
  /** Keeps these keys' content as the page shows it now; false when the browser refuses. */
  keep(form: HTMLFormElement, keys: ReadonlySet<string>): boolean;
  /** These keys reached the server (a 2xx said so): no longer kept. */
  forget(keys: string[]): void;
  /** On load: puts what was kept for this page back into its fields; the keys to send. */
  restore(form: HTMLFormElement): string[] | Promise<string[]>;
}

/**
 * The page post's outcome, for the page whose autosave is open (one at a time): the route's
 * clientAction hands it over through `guardPagePost`.
 */
let pagePostListener: ((decision: PagePostDecision) => void) | null = null;

/** What a route's clientAction returns for a page post that did not get through: the page stays. */
export interface PagePostFailed {
  pagePostFailed: true;
}

/**
 * A form page's post with JavaScript (the route's clientAction): what the server did with it is told
 * to the autosave, which forgets the kept answers only once it is stored. A post that did not get
 * through (no answer, 5xx, 408, 429) keeps the page and its fields, with a message, instead of the
 * error page; the answers stay kept and are tried again.
 */
export async function guardPagePost<T>(serverAction: () => Promise<T>): Promise<T | PagePostFailed> {
  let outcome: PagePostOutcome;
  try {
    const result = await serverAction();
    pagePostListener?.(decidePagePost({ kind: "data", status: 200 }));
    return result;
  } catch (error) {
    if (error instanceof Response && error.status >= 300 && error.status < 400) {
      outcome = { kind: "redirect", location: error.headers.get("Location") ?? "" };
    } else if (isRouteErrorResponse(error) || error instanceof Response) {
      outcome = { kind: "error", status: error.status };
    } else {
      outcome = { kind: "error", status: null };
    }
    const decision = decidePagePost(outcome);
    pagePostListener?.(decision);
    if (decision === "kept") return { pagePostFailed: true };
    throw error;
  }
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
 * Saves a form's changed fields `delayMs` after the last change, without leaving the page
 * (answers and warning drafts, 3 seconds). What is waiting is sent when the person leaves
 * the page or the tab; a page post waits for a save under way, so it starts from what that save
 * stored. With a keeper, every change is kept in the browser until a 2xx says it is stored; a save
 * that is not answered for good (autosaveDecision.ts) is tried again after a growing pause.
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
  const retryTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  /** Failed tries in a row, for the growing pause. */
  const attempts = useRef(0);
  /** What the server last said it stored, per key (a field's `change` after its `input` is no change). */
  const lastStored = useRef(new Map<string, string>());
  /** The keys a page post carries, as they were when it went: forgotten once it is stored. */
  const posted = useRef<Map<string, string> | null>(null);
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
    /** Not stored, not for good: kept, and tried again after a pause. */
    const retryLater = () => {
      const kept = offline?.keep(form, dirty.current) ?? false;
      setStatus(knownOffline() && kept ? { state: "offline" } : { state: "retrying", kept });
      if (retryTimer.current) clearTimeout(retryTimer.current);
      retryTimer.current = setTimeout(() => {
        retryTimer.current = null;
        void save();
      }, retryDelay(attempts.current++));
    };
    const run = (async () => {
      setStatus({ state: "saving" });
      let response: Response;
      try {
        response = await fetch(endpoint, {
          method: "POST",
          body,
          headers: { Accept: "application/json" },
          credentials: "same-origin",
        });
      } catch {
        // The post did not get an answer: the network (or the server) is away.
        retryLater();
        return;
      }
      const decision = decideSave({ kind: "answered", status: response.status, redirected: response.redirected });
      if (decision === "loggedOut") {
        // An ended session: nothing was saved. What changed is kept in the browser, to be sent once
        // the person has logged in again.
        loggedOut.current = true;
        setStatus({ state: "loggedOut", kept: offline?.keep(form, dirty.current) ?? false });
        return;
      }
      loggedOut.current = false;
      if (decision === "retry") {
        retryLater();
        return;
      }
      attempts.current = 0;
      if (retryTimer.current) clearTimeout(retryTimer.current);
      retryTimer.current = null;
      try {
        const answer = {
          ok: response.ok,
          status: response.status,
          body: (await response.json().catch(() => ({}))) as unknown,
        };
        const settled = adapter.settle(form, answer);
        for (const key of settled.dropped) dirty.current.delete(key);
        // Changed again while the save was under way: it stays to be saved.
        const saved = settled.stored.filter(
          (key) => snapshots.has(key) && snapshots.get(key) === adapter.snapshot(form, key),
        );
        for (const key of saved) {
          dirty.current.delete(key);
          lastStored.current.set(key, snapshots.get(key)!);
        }
        // Refused for good (another 4xx: locked, not one's own): nothing to keep for later; the page still shows it.
        offline?.forget(response.ok ? [...saved, ...settled.dropped] : [...sent, ...settled.dropped]);
        if (saved.length > 0) adapter.onSaved?.(saved);
        setStatus(settled.status.state === "saved" && held ? { state: "tooLong" } : settled.status);
      } catch {
        // The answer could not be read (cut off on the way): not known to be stored.
        retryLater();
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
      const { adapter, offline } = optionsRef.current;
      if (lastStored.current.get(key) === adapter.snapshot(form, key)) {
        // As stored (a `change` on leaving a field already saved, or typed back): nothing to send or keep.
        if (dirty.current.delete(key)) offline?.forget([key]);
        return;
      }
      dirty.current.add(key);
      // Kept from the first keystroke until the server has it: a tab closed before the save (or
      // while the server cannot store it) loses nothing.
      offline?.keep(form, new Set([key]));
      schedule();
    };
    // A page post carries every field itself, from the newest state: a save under way is waited
    // for, then the post goes on (pressed again by the same button).
    const onSubmit = (event: SubmitEvent) => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
      const pending = inFlight.current;
      const { offline, adapter } = optionsRef.current;
      switch (decideSubmit({ knownOffline: offline !== undefined && knownOffline(), saving: pending !== null })) {
        case "hold":
          // The post cannot go either: the page stays, and what changed is kept to be sent.
          event.preventDefault();
          event.stopImmediatePropagation();
          setStatus(
            dirty.current.size === 0 || offline!.keep(form, dirty.current)
              ? { state: "offline" }
              : { state: "failed", status: null },
          );
          return;
        case "wait": {
          event.preventDefault();
          event.stopImmediatePropagation();
          const submitter = event.submitter;
          void pending!.finally(() =>
            form.requestSubmit(submitter instanceof HTMLButtonElement ? submitter : undefined),
          );
          return;
        }
        case "post":
          // The post carries them, but they stay kept (and waiting) until it has succeeded: a post
          // that fails, or that lands on the log-in page, loses nothing.
          if (retryTimer.current) clearTimeout(retryTimer.current);
          retryTimer.current = null;
          if (dirty.current.size > 0) offline?.keep(form, dirty.current);
          posted.current = new Map([...dirty.current].map((key) => [key, adapter.snapshot(form, key)]));
      }
    };
    /** The page post's outcome (guardPagePost): forget what it stored, or keep and try again. */
    const onPagePost = (decision: PagePostDecision) => {
      const carried = posted.current;
      posted.current = null;
      const { offline, adapter } = optionsRef.current;
      switch (decision) {
        case "stored": {
          const stored = [...(carried ?? [])]
            .filter(([key, snapshot]) => adapter.snapshot(form, key) === snapshot)
            .map(([key]) => key);
          for (const key of stored) {
            dirty.current.delete(key);
            lastStored.current.set(key, carried!.get(key)!);
          }
          offline?.forget(stored);
          return;
        }
        case "loggedOut":
          loggedOut.current = true;
          setStatus({
            state: "loggedOut",
            kept: dirty.current.size > 0 && (offline?.keep(form, dirty.current) ?? false),
          });
          return;
        case "kept": {
          const kept = dirty.current.size === 0 || (offline?.keep(form, dirty.current) ?? false);
          setStatus({ state: "retrying", kept });
          if (retryTimer.current) clearTimeout(retryTimer.current);
          retryTimer.current = setTimeout(() => {
            retryTimer.current = null;
            void save();
          }, retryDelay(attempts.current++));
          return;
        }
        case "shown":
          // The server answered with the page (a refusal): what it did not store is still waiting.
          return;
      }
    };
    pagePostListener = onPagePost;
    // Leaving: what is waiting goes out without waiting for an answer. It is kept first: the
    // page may be gone before the answer comes, and only a 2xx it hears forgets it.
    const flush = () => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
      if (retryTimer.current) clearTimeout(retryTimer.current);
      retryTimer.current = null;
      if (dirty.current.size === 0) return;
      const { adapter, endpoint, offline } = optionsRef.current;
      const { body, sent } = adapter.collect(form, dirty.current);
      if (sent.size === 0) return;
      offline?.keep(form, sent);
      if (!(offline && (knownOffline() || loggedOut.current))) {
        // The form's fields keep their values after it leaves the page. When the page is still
        // there to hear the answer (a link inside the app), a stored save is no longer kept.
        const snapshots = new Map([...sent].map((key) => [key, adapter.snapshot(form, key)]));
        void fetch(endpoint, { method: "POST", body, keepalive: true, credentials: "same-origin" }).then(
          (response) => {
            if (!response.ok) return;
            void response
              .json()
              .then((answer: { conflicts?: unknown[] }) => {
                if ((answer.conflicts ?? []).length === 0)
                  offline?.forget([...sent].filter((key) => snapshots.get(key) === adapter.snapshot(form, key)));
              })
              .catch(() => undefined);
          },
          () => undefined,
        );
      }
      dirty.current.clear();
    };
    // The network is back, or the person is back at the page: what is waiting goes at once.
    const retryNow = () => {
      if (dirty.current.size === 0 || loggedOut.current || inFlight.current) return;
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
      void save();
    };
    const onVisible = () => {
      if (document.visibilityState === "visible") retryNow();
    };
    form.addEventListener("input", onEdit);
    form.addEventListener("change", onEdit);
    form.addEventListener("submit", onSubmit);
    window.addEventListener("pagehide", flush);
    window.addEventListener("online", retryNow);
    window.addEventListener("focus", retryNow);
    document.addEventListener("visibilitychange", onVisible);
    // Kept from an earlier visit (the network went, the tab was closed): back into the fields, and sent.
    let live = true;
    void Promise.resolve(optionsRef.current.offline?.restore(form) ?? []).then(
      (restored) => {
        if (!live || restored.length === 0) return;
        for (const key of restored) dirty.current.add(key);
        if (timer.current) clearTimeout(timer.current);
        timer.current = null;
        void save();
      },
      () => undefined,
    );
    return () => {
      live = false;
      if (pagePostListener === onPagePost) pagePostListener = null;
      window.removeEventListener("online", retryNow);
      window.removeEventListener("focus", retryNow);
      document.removeEventListener("visibilitychange", onVisible);
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
 * time), `.conflict`, `.tooLong`, `.failed`/`.failedStatus`, `.offline`, `.retrying`/`.retryingUnkept`,
 * `.loggedOut`/`.loggedOutKept`, and `.<reason>` for a refusal.
 */
export function autosaveStatusText(
  t: (key: string, options?: Record<string, unknown>) => string,
  status: AutosaveStatus,
  language: string,
): string {
  switch (status.state) {
    case "idle":
      return "";
    case "saving":
      return t("autosave.saving");
    case "saved":
      return t("autosave.saved", {
        time: status.at.toLocaleTimeString(language === "en" ? "en-GB" : "nb-NO", {
          hour: "2-digit",
          minute: "2-digit",
        }),
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
    case "retrying":
      return t(status.kept ? "autosave.retrying" : "autosave.retryingUnkept");
    case "loggedOut":
      return t(status.kept ? "autosave.loggedOutKept" : "autosave.loggedOut");
  }
}
