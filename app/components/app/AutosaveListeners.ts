// What useAutosave (useAutosave.ts) listens to on the page: edits, the page post and its outcome,
// leaving the page, and the network or the person coming back.
import { clearRetry, clearTimer, knownOffline, scheduleRetry, type AutosaveHooks } from "./AutosaveSave";
import { decideSubmit, type PagePostDecision } from "./autosaveDecision";

/** An edit: its key waits to be saved `delayMs` after the last change, and is kept meanwhile. */
function editHandler(hooks: AutosaveHooks, form: HTMLFormElement) {
  const { state } = hooks;
  const schedule = () => {
    clearTimer(state);
    state.timer = setTimeout(() => {
      state.timer = null;
      void hooks.save();
    }, hooks.options().delayMs);
  };
  return (event: Event) => {
    const key = hooks.options().adapter.keyOf((event.target as HTMLInputElement | null)?.name ?? "");
    if (key === null) return;
    const { adapter, offline } = hooks.options();
    if (state.lastStored.get(key) === adapter.snapshot(form, key)) {
      // As stored (a `change` on leaving a field already saved, or typed back): nothing to send or keep.
      if (state.dirty.delete(key)) offline?.forget([key]);
      return;
    }
    state.dirty.add(key);
    // Kept from the first keystroke until the server has it: a tab closed before the save (or
    // while the server cannot store it) loses nothing.
    offline?.keep(form, new Set([key]));
    schedule();
  };
}

/**
 * A page post carries every field itself, from the newest state: a save under way is waited for,
 * then the post goes on (pressed again by the same button).
 */
function submitHandler({ state, options, setStatus }: AutosaveHooks, form: HTMLFormElement) {
  return (event: SubmitEvent) => {
    clearTimer(state);
    const pending = state.inFlight;
    const { offline, adapter } = options();
    switch (decideSubmit({ knownOffline: offline !== undefined && knownOffline(), saving: pending !== null })) {
      case "hold":
        // The post cannot go either: the page stays, and what changed is kept to be sent.
        event.preventDefault();
        event.stopImmediatePropagation();
        setStatus(
          state.dirty.size === 0 || offline!.keep(form, state.dirty)
            ? { state: "offline" }
            : { state: "failed", status: null },
        );
        return;
      case "wait": {
        event.preventDefault();
        event.stopImmediatePropagation();
        const submitter = event.submitter;
        void pending!.finally(() => form.requestSubmit(submitter instanceof HTMLButtonElement ? submitter : undefined));
        return;
      }
      case "post":
        // The post carries them, but they stay kept (and waiting) until it has succeeded: a post
        // that fails, or that lands on the log-in page, loses nothing.
        clearRetry(state);
        if (state.dirty.size > 0) offline?.keep(form, state.dirty);
        state.posted = new Map([...state.dirty].map((key) => [key, adapter.snapshot(form, key)]));
    }
  };
}

/** The page post's outcome (guardPagePost): forget what it stored, or keep and try again. */
export function pagePostHandler(hooks: AutosaveHooks, form: HTMLFormElement) {
  const { state, setStatus } = hooks;
  return (decision: PagePostDecision) => {
    const carried = state.posted;
    state.posted = null;
    const { offline, adapter } = hooks.options();
    switch (decision) {
      case "stored": {
        const stored = [...(carried ?? [])]
          .filter(([key, snapshot]) => adapter.snapshot(form, key) === snapshot)
          .map(([key]) => key);
        for (const key of stored) {
          state.dirty.delete(key);
          state.lastStored.set(key, carried!.get(key)!);
        }
        offline?.forget(stored);
        return;
      }
      case "loggedOut":
        state.loggedOut = true;
        setStatus({
          state: "loggedOut",
          kept: state.dirty.size > 0 && (offline?.keep(form, state.dirty) ?? false),
        });
        return;
      case "kept": {
        const kept = state.dirty.size === 0 || (offline?.keep(form, state.dirty) ?? false);
        setStatus({ state: "retrying", kept });
        scheduleRetry(hooks);
        return;
      }
      case "shown":
        // The server answered with the page (a refusal): what it did not store is still waiting.
        return;
    }
  };
}

/**
 * Leaving: what is waiting goes out without waiting for an answer. It is kept first: the page may
 * be gone before the answer comes, and only a 2xx it hears forgets it.
 */
function flushHandler({ state, options }: AutosaveHooks, form: HTMLFormElement) {
  return () => {
    clearTimer(state);
    clearRetry(state);
    if (state.dirty.size === 0) return;
    const { adapter, endpoint, offline } = options();
    const { body, sent } = adapter.collect(form, state.dirty);
    if (sent.size === 0) return;
    offline?.keep(form, sent);
    if (!(offline && (knownOffline() || state.loggedOut))) {
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
    state.dirty.clear();
  };
}

/**
 * Listens to the form and the window for as long as the page's autosave is open; the returned
 * function stops, and sends what is waiting (leaving the page inside the app).
 */
export function listenForAutosave(hooks: AutosaveHooks, form: HTMLFormElement): () => void {
  const { state } = hooks;
  const onEdit = editHandler(hooks, form);
  const onSubmit = submitHandler(hooks, form);
  const flush = flushHandler(hooks, form);
  // The network is back, or the person is back at the page: what is waiting goes at once.
  const retryNow = () => {
    if (state.dirty.size === 0 || state.loggedOut || state.inFlight) return;
    clearTimer(state);
    void hooks.save();
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
  void Promise.resolve(hooks.options().offline?.restore(form) ?? []).then(
    (restored) => {
      if (!live || restored.length === 0) return;
      for (const key of restored) state.dirty.add(key);
      clearTimer(state);
      void hooks.save();
    },
    () => undefined,
  );
  return () => {
    live = false;
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
}
