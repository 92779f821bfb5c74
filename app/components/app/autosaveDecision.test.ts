import { describe, expect, test } from "vitest";
import {
  decidePagePost,
  decideSave,
  decideSubmit,
  retryDelay,
  type PagePostOutcome,
  type PostOutcome,
} from "./autosaveDecision";

const answered = (status: number, redirected = false): PostOutcome => ({ kind: "answered", status, redirected });

const noAnswer: PostOutcome = { kind: "noAnswer" };

describe("decideSave: an autosave's post", () => {
  test.each([
    ["no answer (network, server away)", noAnswer, "retry"],
    ["200 stored", answered(200), "settle"],
    ["200 after a redirect (an older server's log-in page)", answered(200, true), "loggedOut"],
    ["400 refused for good (too long)", answered(400), "settle"],
    ["401 logged out", answered(401), "loggedOut"],
    ["403 another role", answered(403), "settle"],
    ["404 not one's own", answered(404), "settle"],
    ["408 timeout", answered(408), "retry"],
    ["409 locked", answered(409), "settle"],
    ["413 too large", answered(413), "settle"],
    ["429 too many", answered(429), "retry"],
    ["500 a bug", answered(500), "retry"],
    ["502 a proxy without the app", answered(502), "retry"],
    ["503 database restarting", answered(503), "retry"],
    ["504 gateway timeout", answered(504), "retry"],
  ])("%s → %s", (_name, outcome, decision) => {
    expect(decideSave(outcome)).toBe(decision);
  });
});

describe("retryDelay: 2 s doubling to a minute", () => {
  test.each([
    [0, 2_000],
    [1, 4_000],
    [2, 8_000],
    [3, 16_000],
    [4, 32_000],
    [5, 60_000],
    [50, 60_000],
    [-1, 2_000],
  ])("attempt %i → %i ms", (attempt, ms) => {
    expect(retryDelay(attempt)).toBe(ms);
  });
});

describe("decideSubmit: a page post before it goes", () => {
  test.each([
    [{ knownOffline: true, saving: false }, "hold"],
    [{ knownOffline: true, saving: true }, "hold"],
    [{ knownOffline: false, saving: true }, "wait"],
    [{ knownOffline: false, saving: false }, "post"],
  ] as const)("%o → %s", (state, decision) => {
    expect(decideSubmit(state)).toBe(decision);
  });
});

describe("decidePagePost: a page post's outcome", () => {
  test.each([
    [
      "redirect to the next page",
      { kind: "redirect", location: "/student/1/form/2/class/3/assignment/4?group=2" },
      "stored",
    ],
    ["redirect to where one came from", { kind: "redirect", location: "/student/forms" }, "stored"],
    ["redirect to the log-in page", { kind: "redirect", location: "/?redirectTo=%2Fstudent%2Fforms" }, "loggedOut"],
    ["redirect to the role chooser", { kind: "redirect", location: "/role?redirectTo=%2Fteacher" }, "loggedOut"],
    ["the page with a refusal (400)", { kind: "data", status: 400 }, "shown"],
    ["the page with a conflict (409)", { kind: "data", status: 409 }, "shown"],
    ["data with 503", { kind: "data", status: 503 }, "kept"],
    ["503 database restarting", { kind: "error", status: 503 }, "kept"],
    ["500 a bug", { kind: "error", status: 500 }, "kept"],
    ["429 too many", { kind: "error", status: 429 }, "kept"],
    ["408 timeout", { kind: "error", status: 408 }, "kept"],
    ["no answer", { kind: "error", status: null }, "kept"],
    ["401", { kind: "error", status: 401 }, "loggedOut"],
    ["404", { kind: "error", status: 404 }, "shown"],
    ["400 malformed", { kind: "error", status: 400 }, "shown"],
  ] as Array<[string, PagePostOutcome, string]>)("%s → %s", (_name, outcome, decision) => {
    expect(decidePagePost(outcome)).toBe(decision);
  });
});
