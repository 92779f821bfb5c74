import { describe, expect, test } from "vitest";
import type { Flash } from "~/services/platform/flash.server";
import { keyFrom, type KeyOf, type MessageKey } from "./keys";

// What `tsc` checks: a key that is in no text, or lacks its namespace, does not compile.
describe("translation key types", () => {
  test("take the keys of the texts, a plural key by its base", () => {
    const keys: MessageKey[] = ["auth:errors.emailInvalid", "auth:loggedOutUnsent", "adminSemesters:report.failed"];
    const own: KeyOf<"teacher">[] = ["class.outsider.heading"];
    // @ts-expect-error a key that is in no text
    const wrong: MessageKey = "auth:errors.noSuchKey";
    // @ts-expect-error a key without its namespace
    const bare: MessageKey = "errors.emailInvalid";
    // @ts-expect-error a plural form is not a key of its own
    const form: MessageKey = "auth:loggedOutUnsent_one";
    expect([...keys, ...own, wrong, bare, form]).toHaveLength(7);
  });

  test("a key built from data comes from a typed table", () => {
    const flash = { signedIn: "auth:loggedOut", unsent: "auth:loggedOutUnsent" } as const;
    expect(keyFrom(flash, "unsent")).toBe("auth:loggedOutUnsent");
    // @ts-expect-error the table may give only keys that are in the texts
    expect(keyFrom({ gone: "auth:noSuchKey" }, "gone")).toBe("auth:noSuchKey");
  });

  test("a flash message's key is one of them", () => {
    const saved: Flash = { type: "success", key: "signing:flash.saved" };
    // @ts-expect-error a flash whose key is in no text
    const wrong: Flash = { type: "error", key: "signing:flash.noSuchKey" };
    expect([saved, wrong]).toHaveLength(2);
  });
});
