import { useCallback, useEffect, useRef, useState, type RefObject } from "react";
import { isRouteErrorResponse } from "react-router";
import { listenForAutosave, pagePostHandler } from "./AutosaveListeners";
import { newAutosaveState, startSave } from "./AutosaveSave";
import { decidePagePost, type PagePostDecision, type PagePostOutcome } from "./autosaveDecision";

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

/** What a page autosaves, where it posts, and after how long a pause. */
export interface AutosaveOptions {
  endpoint: string;
  delayMs: number;
  adapter: AutosaveAdapter;
  enabled: boolean;
  offline?: OfflineKeeper;
}

/**
 * Saves a form's changed fields `delayMs` after the last change, without leaving the page
 * (answers and warning drafts, 3 seconds). What is waiting is sent when the person leaves
 * the page or the tab; a page post waits for a save under way, so it starts from what that save
 * stored. With a keeper, every change is kept in the browser until a 2xx says it is stored; a save
 * that is not answered for good (autosaveDecision.ts) is tried again after a growing pause.
 * The save is AutosaveSave.ts, what it listens to AutosaveListeners.ts.
 */
export function useAutosave(formRef: RefObject<HTMLFormElement | null>, options: AutosaveOptions) {
  const [status, setStatus] = useState<AutosaveStatus>({ state: "idle" });
  const [state] = useState(newAutosaveState);
  const optionsRef = useRef(options);
  useEffect(() => {
    optionsRef.current = options;
  });

  const save = useCallback(async (): Promise<void> => {
    const form = formRef.current;
    if (!form || state.dirty.size === 0) return;
    if (state.inFlight) {
      // One save at a time; what changed meanwhile goes right after.
      await state.inFlight;
      return save();
    }
    const run = startSave({ state, options: () => optionsRef.current, setStatus, save }, form);
    if (!run) return;
    state.inFlight = run;
    try {
      await run;
    } finally {
      state.inFlight = null;
    }
  }, [formRef, state]);

  // A keeper that arrives later (loaded lazily) restores what it kept as soon as it is there.
  const hasKeeper = options.offline !== undefined;
  useEffect(() => {
    const form = formRef.current;
    if (!form || !options.enabled) return;
    const hooks = { state, options: () => optionsRef.current, setStatus, save };
    const onPagePost = pagePostHandler(hooks, form);
    pagePostListener = onPagePost;
    const stop = listenForAutosave(hooks, form);
    return () => {
      if (pagePostListener === onPagePost) pagePostListener = null;
      stop();
    };
  }, [formRef, options.enabled, hasKeeper, save, state]);

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
