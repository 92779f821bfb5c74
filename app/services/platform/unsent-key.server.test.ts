import { afterEach, describe, expect, test } from "vitest";
import { resetEnvForTests } from "./env.server";
import { unsentKeyFor } from "./unsent-key.server";

describe("the key for what a browser keeps (ADR 0011)", () => {
  const original = process.env.SESSION_SECRET;
  afterEach(() => {
    process.env.SESSION_SECRET = original;
    resetEnvForTests();
  });

  test("is the same for a person every time, another for another person, and 256 bits", () => {
    const a = unsentKeyFor(42);
    expect(unsentKeyFor(42)).toEqual(a);
    const b = unsentKeyFor(43);
    expect(b.key).not.toBe(a.key);
    expect(b.keyId).not.toBe(a.keyId);
    expect(Buffer.from(a.key, "base64url")).toHaveLength(32);
  });

  test("its id names nobody: not the user id, and unrelated to the key", () => {
    const { key, keyId } = unsentKeyFor(42);
    expect(keyId).toMatch(/^[A-Za-z0-9_-]{12}$/);
    expect(keyId).not.toContain("42");
    expect(key.startsWith(keyId)).toBe(false);
  });

  test("follows the app's secret: another installation gives other keys", () => {
    process.env.SESSION_SECRET = "one-secret-0123456789abcdefghijklmnopqrstuv";
    resetEnvForTests();
    const first = unsentKeyFor(42);
    process.env.SESSION_SECRET = "another-secret-0123456789abcdefghijklmnopqr";
    resetEnvForTests();
    expect(unsentKeyFor(42).key).not.toBe(first.key);
  });
});
