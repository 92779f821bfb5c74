import { expect, test } from "vitest";
import { isLanguage, languageFromHeader } from "./i18n.server";

test.each([
  ["nb-NO,nb;q=0.9", "nb"],
  ["en-US,en;q=0.9", "en"],
  ["nn", "nb"],
  ["no", "nb"],
  ["de,en;q=0.5", "en"],
  ["fr", "nb"],
  ["en;q=0.3,no;q=0.8", "nb"],
  ["en-GB;q=0.9,nb;q=0.1", "en"],
  ["  EN-us ", "en"],
  ["*", "nb"],
  ["", "nb"],
])("Accept-Language %j gives %s", (header, expected) => {
  expect(languageFromHeader(header)).toBe(expected);
});

test("no Accept-Language gives Norwegian", () => {
  expect(languageFromHeader(null)).toBe("nb");
});

test("isLanguage knows only nb and en", () => {
  expect(isLanguage("nb")).toBe(true);
  expect(isLanguage("en")).toBe(true);
  expect(isLanguage("nn")).toBe(false);
  expect(isLanguage(undefined)).toBe(false);
});
