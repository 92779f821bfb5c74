import { expect, test } from "vitest";
import { isCrossSiteWrite } from "./security";

const post = { method: "POST", origin: null, referer: null, host: "praksis.example.org" };

test("reads are never cross-site writes", () => {
  for (const method of ["GET", "HEAD", "OPTIONS", "get"]) {
    expect(isCrossSiteWrite({ ...post, method, origin: "https://evil.example" })).toBe(false);
  }
});

test("a post from the same origin is allowed", () => {
  expect(isCrossSiteWrite({ ...post, origin: "https://praksis.example.org" })).toBe(false);
});

test("a post from a foreign origin is refused, whatever the method", () => {
  expect(isCrossSiteWrite({ ...post, origin: "https://evil.example" })).toBe(true);
  expect(isCrossSiteWrite({ ...post, method: "DELETE", origin: "https://evil.example" })).toBe(true);
  expect(isCrossSiteWrite({ ...post, origin: "https://praksis.example.org.evil.example" })).toBe(true);
});

test("a post from another port of the same host is refused", () => {
  expect(isCrossSiteWrite({ ...post, origin: "https://praksis.example.org:8443" })).toBe(true);
});

test('an opaque "null" origin is refused', () => {
  expect(isCrossSiteWrite({ ...post, origin: "null" })).toBe(true);
});

test("an unparseable origin is refused", () => {
  expect(isCrossSiteWrite({ ...post, origin: "not a url" })).toBe(true);
});

test("without Origin, the Referer decides", () => {
  expect(isCrossSiteWrite({ ...post, referer: "https://praksis.example.org/login" })).toBe(false);
  expect(isCrossSiteWrite({ ...post, referer: "https://evil.example/page" })).toBe(true);
});

test("Origin wins over Referer", () => {
  expect(isCrossSiteWrite({ ...post, origin: "https://evil.example", referer: "https://praksis.example.org/" })).toBe(
    true,
  );
});

test("a post with neither Origin nor Referer is refused (fail closed); an empty header counts as none", () => {
  expect(isCrossSiteWrite(post)).toBe(true);
  expect(isCrossSiteWrite({ ...post, origin: "", referer: "" })).toBe(true);
  expect(isCrossSiteWrite({ ...post, method: "DELETE" })).toBe(true);
  expect(isCrossSiteWrite({ ...post, method: "GET" })).toBe(false);
});

test("the APP_URL host counts as same site behind a proxy that rewrites Host", () => {
  const behindProxy = { ...post, host: "10.0.0.5:3000", origin: "https://praksis.example.org" };
  expect(isCrossSiteWrite(behindProxy)).toBe(true);
  expect(isCrossSiteWrite({ ...behindProxy, appUrl: "https://praksis.example.org" })).toBe(false);
  expect(
    isCrossSiteWrite({ ...behindProxy, origin: "https://evil.example", appUrl: "https://praksis.example.org" }),
  ).toBe(true);
});
