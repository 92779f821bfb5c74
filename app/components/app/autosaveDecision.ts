/**
 * What the autosave does with each outcome (ADR 0011): the hook's decisions as plain functions, so
 * that every row of the table is tested on its own (autosaveDecision.test.ts). Nothing typed is
 * dropped: what the server did not say it stored stays kept in the browser and is tried again.
 */

/**
 * A change is saved this long after the last one (the answers and the warning's draft): nothing typed
 * is lost, and a pause in typing is not a save per key.
 */
export const AUTOSAVE_DELAY_MS = 3000;

/** What became of a post: no answer at all (the network, or a server that is away), or an answer. */
export type PostOutcome = { kind: "noAnswer" } | { kind: "answered"; status: number; redirected: boolean };

/**
 * - `settle`: the server answered for good (2xx, or a 4xx that says what is wrong); the adapter reads it.
 * - `retry`: not saved, and not for good: kept in the browser, tried again after a pause.
 * - `loggedOut`: the session has ended; kept until the person has logged in again.
 */
export type SaveDecision = "settle" | "retry" | "loggedOut";

/** Statuses that say "not now" rather than "no": a server error or restart, a timeout, too many requests. */
export function isTransient(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

export function decideSave(outcome: PostOutcome): SaveDecision {
  if (outcome.kind === "noAnswer") return "retry";
  // A redirect to the log-in page (an older server) means the same as the 401 the API gives now.
  if (outcome.status === 401 || outcome.redirected) return "loggedOut";
  if (isTransient(outcome.status)) return "retry";
  return "settle";
}

/** The pause before the next try: 2 s, doubling, at most a minute. `attempt` counts failed tries from 0. */
export const RETRY_FIRST_MS = 2_000;
export const RETRY_MAX_MS = 60_000;
export function retryDelay(attempt: number): number {
  return Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** Math.max(0, Math.min(attempt, 10)));
}

/**
 * A page post ("Neste", "Lagre og avslutt"), before it goes:
 * - `hold`: the browser knows it has no network: the post is stopped, the page stays, what changed is kept;
 * - `wait`: an autosave is under way: the post goes when it has its answer, from what it stored;
 * - `post`: it goes; what changed stays kept until the post has succeeded (`decidePagePost`).
 */
export type SubmitDecision = "hold" | "wait" | "post";

export function decideSubmit(state: { knownOffline: boolean; saving: boolean }): SubmitDecision {
  if (state.knownOffline) return "hold";
  if (state.saving) return "wait";
  return "post";
}

/** What became of a page post with JavaScript (the route's clientAction sees it). */
export type PagePostOutcome =
  /** The server sent the person on: to the next page, the same page with a message, or where they came from. */
  | { kind: "redirect"; location: string }
  /** The page again with the server's refusal (a comment too long, a conflict, grades missing). */
  | { kind: "data"; status: number }
  /** An error answer (`status`), or none at all (null: the network). */
  | { kind: "error"; status: number | null };

/**
 * - `stored`: the answers are stored: the kept copies are forgotten;
 * - `kept`: not stored, not for good: the page stays with a message, the answers stay kept and are tried again;
 * - `loggedOut`: the post leads to the log-in page: kept until the person is back;
 * - `shown`: the server answered with the page (a refusal) or an error the error page explains; kept copies stay until an autosave stores them.
 */
export type PagePostDecision = "stored" | "kept" | "loggedOut" | "shown";

export function decidePagePost(outcome: PagePostOutcome): PagePostDecision {
  switch (outcome.kind) {
    case "redirect":
      // The guards send an ended session (or another role, or the privacy gate) away with `redirectTo`.
      return /[?&]redirectTo=/.test(outcome.location) ? "loggedOut" : "stored";
    case "data":
      return isTransient(outcome.status) ? "kept" : "shown";
    case "error":
      if (outcome.status === null || isTransient(outcome.status)) return "kept";
      return outcome.status === 401 ? "loggedOut" : "shown";
  }
}
