import { expect, test } from "vitest";
import { keptFields, typedTexts } from "./kept-post";
import { keepablePost, readPostedFields } from "./kept-post.server";
import { MAX_FORM_BYTES } from "./request.server";

const post = (body: BodyInit, headers: Record<string, string>) =>
  new Request("http://localhost/p", { method: "POST", headers, body });

test("only a url-encoded post within the body limit is kept", () => {
  expect(
    keepablePost(
      post("a=1", { "Content-Type": "application/x-www-form-urlencoded; charset=UTF-8", "Content-Length": "3" }),
    ),
  ).toBe(true);
  // Streamed without a length (no browser's form does that): not kept.
  expect(keepablePost(post("a=1", { "Content-Type": "application/x-www-form-urlencoded; charset=UTF-8" }))).toBe(false);
  expect(keepablePost(post("a=1", { "Content-Type": "multipart/form-data; boundary=x" }))).toBe(false);
  expect(keepablePost(post("{}", { "Content-Type": "application/json" }))).toBe(false);
  expect(keepablePost(post("a=1", { "Content-Type": "text/plain" }))).toBe(false);
  expect(
    keepablePost(
      post("a=1", {
        "Content-Type": "application/x-www-form-urlencoded",
        "Content-Length": String(MAX_FORM_BYTES + 1),
      }),
    ),
  ).toBe(false);
  expect(
    keepablePost(
      new Request("http://localhost/p", { headers: { "Content-Type": "application/x-www-form-urlencoded" } }),
    ),
  ).toBe(false);
});

test("the fields are read in order with repeats, NUL dropped; too big or too many is nothing", async () => {
  const body = (text: string) => new Response(text).body;
  expect(await readPostedFields(body("a=1&b=x%00y&a=2"))).toEqual([
    ["a", "1"],
    ["b", "xy"],
    ["a", "2"],
  ]);
  expect(await readPostedFields(body(`a=${"x".repeat(MAX_FORM_BYTES)}`))).toBeNull();
  expect(await readPostedFields(body(Array.from({ length: 1001 }, () => "a=1").join("&")))).toBeNull();
  expect(await readPostedFields(null)).toBeNull();
});

test("the 503's data is read only in its own shape", () => {
  expect(keptFields({ kind: "unavailable", resend: { fields: [["a", "1"]] } })).toEqual([["a", "1"]]);
  expect(keptFields("The database is not available right now.")).toBeNull();
  expect(keptFields({ kind: "other", resend: { fields: [["a", "1"]] } })).toBeNull();
  expect(keptFields({ kind: "unavailable", resend: { fields: [["a", 1]] } })).toBeNull();
});

test("the texts shown are what a person wrote, not buttons, numbers or fingerprints", () => {
  expect(
    typedTexts([
      ["intent", "next"],
      ["b:1", "1x9k2a.0b7m3q.4"],
      ["a:1", "3"],
      ["a:2", "Bra"],
      ["c:2", "  "],
      ["c:3", "God innsats 2. uke"],
      ["warningId", "17"],
    ]),
  ).toEqual(["Bra", "God innsats 2. uke"]);
});
