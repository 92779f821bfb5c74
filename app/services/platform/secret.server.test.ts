import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { parseEnv, resetEnvForTests } from "./env.server";
import { appCookies } from "./request.server";
import { appSecret, appSecrets } from "./secret.server";

// SESSION_SECRET as a list: the first signs, every one verifies, so putting a new secret first (the
// old one after it) logs nobody out; once every cookie signed with the old one has ended (the
// session's 12 hours), the old one can go.

const OLD = "the-old-secret-that-is-long-enough-0000";
const NEW = "the-new-secret-that-is-long-enough-1111";
const saved = { ...process.env };

afterEach(() => {
  process.env = { ...saved };
  resetEnvForTests();
});

function withSecret(value: string | undefined): void {
  if (value === undefined) delete process.env.SESSION_SECRET;
  else process.env.SESSION_SECRET = value;
  resetEnvForTests();
}

test("SESSION_SECRET takes a comma-separated list, each at least 32 characters", () => {
  const external = { DATABASE_URL: "postgres://app@db.example.org/praksis" };
  expect(parseEnv({ ...external, SESSION_SECRET: `${NEW}, ${OLD}` }).SESSION_SECRET).toBe(`${NEW}, ${OLD}`);
  expect(() => parseEnv({ ...external, SESSION_SECRET: `${NEW},short` })).toThrow(
    /SESSION_SECRET: must be at least 32 characters \(each one, in a comma-separated list\)/,
  );
  expect(() => parseEnv({ ...external, SESSION_SECRET: `${NEW},` })).toThrow(
    /SESSION_SECRET: must be at least 32 characters/,
  );
});

test("the first secret signs, and every one is offered for verifying", () => {
  withSecret(`${NEW} , ${OLD}`);
  expect(appSecrets()).toEqual([NEW, OLD]);
  expect(appSecret()).toBe(NEW);
  withSecret(OLD);
  expect(appSecrets()).toEqual([OLD]);
});

test("a session cookie signed with the old secret still verifies after the rotation; new ones are signed with the new secret", async () => {
  withSecret(OLD);
  const before = await appCookies().session.serialize("the-session-token");
  const cookie = before.split(";")[0];

  withSecret(`${NEW},${OLD}`);
  expect(await appCookies().session.parse(cookie)).toBe("the-session-token");
  const after = (await appCookies().session.serialize("a-new-token")).split(";")[0];

  // Once the old secret is dropped, its cookies are nobody's; the new ones stay valid.
  withSecret(NEW);
  expect(await appCookies().session.parse(cookie)).toBeNull();
  expect(await appCookies().session.parse(after)).toBe("a-new-token");
});

test("without SESSION_SECRET (the embedded database) the secret is made once in DATA_DIR and kept", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "praksis-secret-"));
  try {
    process.env.DATA_DIR = dir;
    withSecret(undefined);
    const made = appSecret();
    expect(made.length).toBeGreaterThanOrEqual(32);
    expect(fs.readFileSync(path.join(dir, "secret"), "utf8")).toBe(made);
    resetEnvForTests();
    expect(appSecrets()).toEqual([made]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
