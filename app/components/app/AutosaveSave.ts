// One save of useAutosave (useAutosave.ts): what it holds between saves, the post of the changed
// keys, and what the endpoint's answer does to them.
import { decideSave, retryDelay } from "./autosaveDecision";
import type { AutosaveAdapter, AutosaveOptions, AutosaveStatus, OfflineKeeper } from "./useAutosave";

/** What a page's autosave holds between renders and events. */
export interface AutosaveState {
  /** The keys changed and not yet stored. */
  dirty: Set<string>;
  timer: ReturnType<typeof setTimeout> | null;
  inFlight: Promise<void> | null;
  /** The last save was refused for an ended session: what is left is kept, not posted in vain. */
  loggedOut: boolean;
  retryTimer: ReturnType<typeof setTimeout> | null;
  /** Failed tries in a row, for the growing pause. */
  attempts: number;
  /** What the server last said it stored, per key (a field's `change` after its `input` is no change). */
  lastStored: Map<string, string>;
  /** The keys a page post carries, as they were when it went: forgotten once it is stored. */
  posted: Map<string, string> | null;
}

export function newAutosaveState(): AutosaveState {
  return {
    dirty: new Set(),
    timer: null,
    inFlight: null,
    loggedOut: false,
    retryTimer: null,
    attempts: 0,
    lastStored: new Map(),
    posted: null,
  };
}

/** What the pieces of an autosave share: its state, the page's options now, its status, and a save. */
export interface AutosaveHooks {
  state: AutosaveState;
  options: () => AutosaveOptions;
  setStatus: (status: AutosaveStatus) => void;
  save: () => Promise<void>;
}

/** Whether the browser knows it has no network (a failed fetch says so too). */
export function knownOffline(): boolean {
  return typeof navigator !== "undefined" && navigator.onLine === false;
}

/** The save waiting for the pause after the last change: not now. */
export function clearTimer(state: AutosaveState) {
  if (state.timer) clearTimeout(state.timer);
  state.timer = null;
}

/** The try again after a failed save: not now. */
export function clearRetry(state: AutosaveState) {
  if (state.retryTimer) clearTimeout(state.retryTimer);
  state.retryTimer = null;
}

/** Tries again after a pause that grows with each failed try in a row. */
export function scheduleRetry({ state, save }: AutosaveHooks) {
  if (state.retryTimer) clearTimeout(state.retryTimer);
  state.retryTimer = setTimeout(() => {
    state.retryTimer = null;
    void save();
  }, retryDelay(state.attempts++));
}

/**
 * Starts the post of the changed keys; null when there is nothing to post (all held back by a
 * limit) or no network to post it on (kept in the browser, sent when the network is back).
 */
export function startSave(hooks: AutosaveHooks, form: HTMLFormElement): Promise<void> | null {
  const { state, setStatus } = hooks;
  const { adapter, endpoint, offline } = hooks.options();
  const { body, sent, held } = adapter.collect(form, state.dirty);
  if (sent.size === 0) {
    setStatus(held ? { state: "tooLong" } : { state: "idle" });
    return null;
  }
  // Without network the post cannot go: kept in the browser, sent when the network is back.
  if (offline && knownOffline()) {
    setStatus(offline.keep(form, state.dirty) ? { state: "offline" } : { state: "failed", status: null });
    return null;
  }
  const snapshots = new Map([...sent].map((key) => [key, adapter.snapshot(form, key)]));
  /** Not stored, not for good: kept, and tried again after a pause. */
  const retryLater = () => {
    const kept = offline?.keep(form, state.dirty) ?? false;
    setStatus(knownOffline() && kept ? { state: "offline" } : { state: "retrying", kept });
    scheduleRetry(hooks);
  };
  return (async () => {
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
      state.loggedOut = true;
      setStatus({ state: "loggedOut", kept: offline?.keep(form, state.dirty) ?? false });
      return;
    }
    state.loggedOut = false;
    if (decision === "retry") {
      retryLater();
      return;
    }
    state.attempts = 0;
    clearRetry(state);
    try {
      await settleSave(hooks, form, { adapter, offline, response, sent, held, snapshots });
    } catch {
      // The answer could not be read (cut off on the way): not known to be stored.
      retryLater();
    }
  })();
}

/** The endpoint answered for good: the keys it stored (and not changed since) are no longer waiting. */
async function settleSave(
  { state, setStatus }: AutosaveHooks,
  form: HTMLFormElement,
  save: {
    adapter: AutosaveAdapter;
    offline: OfflineKeeper | undefined;
    response: Response;
    sent: ReadonlySet<string>;
    held: boolean;
    snapshots: Map<string, string>;
  },
) {
  const { adapter, offline, response, sent, held, snapshots } = save;
  const answer = {
    ok: response.ok,
    status: response.status,
    body: (await response.json().catch(() => ({}))) as unknown,
  };
  const settled = adapter.settle(form, answer);
  for (const key of settled.dropped) state.dirty.delete(key);
  // Changed again while the save was under way: it stays to be saved.
  const saved = settled.stored.filter(
    (key) => snapshots.has(key) && snapshots.get(key) === adapter.snapshot(form, key),
  );
  for (const key of saved) {
    state.dirty.delete(key);
    state.lastStored.set(key, snapshots.get(key)!);
  }
  // Refused for good (another 4xx: locked, not one's own): nothing to keep for later; the page still shows it.
  offline?.forget(response.ok ? [...saved, ...settled.dropped] : [...sent, ...settled.dropped]);
  if (saved.length > 0) adapter.onSaved?.(saved);
  setStatus(settled.status.state === "saved" && held ? { state: "tooLong" } : settled.status);
}
