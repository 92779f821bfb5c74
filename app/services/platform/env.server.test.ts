import { expect, test } from "vitest";
import { EnvError, parseEnv } from "./env.server";

const secret = "s".repeat(32);

function errorOf(source: Record<string, string | undefined>): EnvError {
  try {
    parseEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return error as EnvError;
  }
  throw new Error("parseEnv accepted the configuration");
}

test("an empty environment gives the documented defaults", () => {
  const config = parseEnv({});
  expect(config).toMatchObject({
    NODE_ENV: "development",
    PORT: 3000,
    DATA_DIR: "./data",
    EMBEDDED_DATABASE: false,
    INSTITUTION: "fjordbyen",
    OUTBOX_DIR: "./data/outbox",
    OTP_LOGIN_ROLES: ["Admin", "Student", "Teacher", "Advisor"],
    OTP_REQUESTS_PER_ADDRESS: 20,
    OTP_REQUESTS_PER_EMAIL: 5,
    TRUST_PROXY: false,
    isProduction: false,
    seedDemo: true,
    devOutbox: true,
  });
  expect(config.DATABASE_URL).toBeUndefined();
});

test("numbers and flags are parsed from strings", () => {
  const config = parseEnv({ PORT: "8080", TRUST_PROXY: "1", OTP_REQUESTS_PER_EMAIL: "3", SEED_DEMO: "false" });
  expect(config.PORT).toBe(8080);
  expect(config.TRUST_PROXY).toBe(true);
  expect(config.OTP_REQUESTS_PER_EMAIL).toBe(3);
  expect(config.seedDemo).toBe(false);
});

test.each([
  ["PORT", "http"],
  ["PORT", "70000"],
  ["PORT", "0"],
  ["DATABASE_URL", "mysql://db/praksis"],
  ["OTP_LOGIN_ROLES", "Admin,Boss"],
  ["INSTITUTION", "../etc/passwd"],
  ["INSTITUTION", "Fjordbyen"],
  ["SMTP_URL", "http://mail"],
  ["SESSION_SECRET", "short"],
  ["TRUST_PROXY", "yes"],
])("%s=%j is refused with a message naming the variable", (name, value) => {
  const error = errorOf({ [name]: value, SESSION_SECRET: name === "SESSION_SECRET" ? value : secret });
  expect(error.message).toContain(`${name}:`);
});

test("DATABASE_URL without SESSION_SECRET is refused", () => {
  const error = errorOf({ DATABASE_URL: "postgres://localhost/praksis" });
  expect(error.message).toContain("SESSION_SECRET");
});

test("DATABASE_URL with SESSION_SECRET is accepted and switches the demo off", () => {
  const config = parseEnv({ DATABASE_URL: "postgresql://localhost/praksis", SESSION_SECRET: secret, NODE_ENV: "production" });
  expect(config.DATABASE_URL).toBe("postgresql://localhost/praksis");
  expect(config.seedDemo).toBe(false);
  expect(config.devOutbox).toBe(false);
  expect(config.isProduction).toBe(true);
});

test("in production the outbox page is open only for the demo: a real deployment on the embedded database keeps it shut", () => {
  expect(parseEnv({ NODE_ENV: "production" }).devOutbox).toBe(true);
  expect(parseEnv({ NODE_ENV: "production", SEED_DEMO: "false" }).devOutbox).toBe(false);
  expect(parseEnv({ NODE_ENV: "production", SEED_DEMO: "false", DEV_OUTBOX: "true" }).devOutbox).toBe(true);
  expect(parseEnv({ NODE_ENV: "development", SEED_DEMO: "false" }).devOutbox).toBe(true);
});

test("mail without SMTP_URL goes to DATA_DIR/outbox unless OUTBOX_DIR says otherwise", () => {
  expect(parseEnv({ DATA_DIR: "/srv/praksis/" }).OUTBOX_DIR).toBe("/srv/praksis/outbox");
  expect(parseEnv({ DATA_DIR: "/srv/praksis", OUTBOX_DIR: "/var/mail/praksis" }).OUTBOX_DIR).toBe("/var/mail/praksis");
});

test("an empty DATABASE_URL means the embedded database", () => {
  expect(parseEnv({ DATABASE_URL: "" }).DATABASE_URL).toBeUndefined();
  expect(parseEnv({ DATABASE_URL: "" }).embedded).toBe(true);
});

test("the embedded server's DATABASE_URL, as the launcher sets it, keeps the demo and the generated secret", () => {
  const config = parseEnv({ DATABASE_URL: "postgres://praksis:pw@127.0.0.1:5999/praksis", EMBEDDED_DATABASE: "true", NODE_ENV: "production" });
  expect(config).toMatchObject({ embedded: true, seedDemo: true, devOutbox: true });
  expect(config.SESSION_SECRET).toBeUndefined();
});

test("OTP_LOGIN_ROLES is a trimmed, comma-separated list", () => {
  expect(parseEnv({ OTP_LOGIN_ROLES: " Advisor , Student,," }).OTP_LOGIN_ROLES).toEqual(["Advisor", "Student"]);
  expect(parseEnv({ OTP_LOGIN_ROLES: "" }).OTP_LOGIN_ROLES).toEqual([]);
});

test("every wrong variable is reported at once", () => {
  const error = errorOf({ PORT: "x", INSTITUTION: "A B" });
  expect(error.message).toContain("PORT:");
  expect(error.message).toContain("INSTITUTION:");
});
