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
    // Demo mode is never on by itself: `npm start` asks for it on a fresh embedded database (scripts/demo-mode.mjs).
    demoMode: false,
    devOutbox: false,
  });
  expect(config.DATABASE_URL).toBeUndefined();
});

test("numbers and flags are parsed from strings", () => {
  const config = parseEnv({ PORT: "8080", TRUST_PROXY: "1", OTP_REQUESTS_PER_EMAIL: "3", DEMO_MODE: "1" });
  expect(config.PORT).toBe(8080);
  expect(config.TRUST_PROXY).toBe(1);
  expect(config.OTP_REQUESTS_PER_EMAIL).toBe(3);
  expect(config.demoMode).toBe(true);
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
  ["TRUST_PROXY", "10.0.0.0/33"],
  ["TRUST_PROXY", "proxy.example.org"],
])("%s=%j is refused with a message naming the variable", (name, value) => {
  const error = errorOf({ [name]: value, SESSION_SECRET: name === "SESSION_SECRET" ? value : secret });
  expect(error.message).toContain(`${name}:`);
});

// Each a value the old checks let through (a scheme alone, a URL without a host, a level the logger does not know).
test.each([
  ["DATABASE_URL", "postgres://"],
  ["DATABASE_URL", "postgresql://db.example.org"],
  ["DATABASE_URL", "postgres://user:pw@/praksis"],
  ["SMTP_URL", "smtp://"],
  ["SMTP_URL", "smtps://user:pw@:465"],
  ["APP_URL", "ftp://praksis.example.org"],
  ["APP_URL", "https://"],
  ["APP_URL", "https://praksis.example.org/praksis"],
  ["APP_URL", "https://praksis.example.org/?x=1"],
  ["LOG_LEVEL", "verbose"],
  ["LOG_FORMAT", "xml"],
  ["EMBEDDED_POSTGRES_PORT", "70000"],
  ["WEB_CONCURRENCY", "0"],
  ["FEIDE_ISSUER", "ftp://auth.dataporten.no"],
  ["VIPPS_TOKEN_URL", "https://"],
  ["MAIL_FROM", "Praksis"],
  ["MAIL_TRANSPORT", "file"],
  ["BACKUPS", "no"],
  ["BACKUP_TIME", "2.30"],
  ["BACKUP_KEEP_DAILY", "0"],
  ["BACKUP_KEEP_WEEKLY", "four"],
])("%s=%j is refused with a message naming the variable and what is wrong", (name, value) => {
  const error = errorOf({ [name]: value, SESSION_SECRET: secret });
  expect(error.message).toMatch(new RegExp(`\\n  ${name}: \\S`));
});

test("the messages say what is missing", () => {
  expect(errorOf({ DATABASE_URL: "postgres://", SESSION_SECRET: secret }).message).toContain(
    "DATABASE_URL: names no host",
  );
  expect(errorOf({ DATABASE_URL: "postgres://db.example.org", SESSION_SECRET: secret }).message).toContain(
    "DATABASE_URL: names no database",
  );
  expect(errorOf({ SMTP_URL: "smtp://" }).message).toContain("SMTP_URL: names no host");
  expect(errorOf({ APP_URL: "https://praksis.example.org/app" }).message).toContain(
    "APP_URL: must be the address of the site alone",
  );
  expect(errorOf({ LOG_LEVEL: "verbose" }).message).toContain(
    "LOG_LEVEL: must be one of trace, debug, info, warn, error, fatal, silent",
  );
});

test("addresses that name what they must are accepted; APP_URL is kept as its origin", () => {
  const socket = "postgres://praksis@localhost/praksis?host=%2Fvar%2Frun%2Fpostgresql";
  expect(parseEnv({ DATABASE_URL: socket, SESSION_SECRET: secret }).DATABASE_URL).toBe(socket);
  expect(
    parseEnv({ DATABASE_URL: "postgres:///praksis?host=/var/run/postgresql", SESSION_SECRET: secret }).DATABASE_URL,
  ).toBeDefined();
  expect(parseEnv({ SMTP_URL: "smtps://user:pw@mail.example.org:465?greetingTimeout=2000" }).SMTP_URL).toContain(
    "mail.example.org",
  );
  expect(parseEnv({ APP_URL: "https://praksis.example.org/" }).APP_URL).toBe("https://praksis.example.org");
  expect(parseEnv({ APP_URL: "http://localhost:3000" }).APP_URL).toBe("http://localhost:3000");
  expect(
    parseEnv({ LOG_LEVEL: "debug", LOG_FORMAT: "json", EMBEDDED_POSTGRES_PORT: "5433", WEB_CONCURRENCY: "4" }),
  ).toMatchObject({ LOG_LEVEL: "debug" });
  expect(parseEnv({ MAIL_FROM: "Praksis Fjordbyen <praksis@hogskolen.no>" }).MAIL_FROM).toBe(
    "Praksis Fjordbyen <praksis@hogskolen.no>",
  );
  expect(parseEnv({ MAIL_FROM: "" }).MAIL_FROM).toBeUndefined();
});

// How mail goes: SMTP when SMTP_URL is set; the demo's outbox in demo mode; otherwise written to the
// outbox folder with no text in the log ("log"), chosen only by MAIL_TRANSPORT=log (start-up stops
// outside demo mode without a choice).
test.each([
  [{ SMTP_URL: "smtp://mail.example.org" }, "smtp", true],
  [{ SMTP_URL: "smtp://mail.example.org", MAIL_TRANSPORT: "smtp" }, "smtp", true],
  [{ SMTP_URL: "smtp://mail.example.org", DEMO_MODE: "true" }, "smtp", true],
  [{ DEMO_MODE: "true" }, "outbox", true],
  [{ DEMO_MODE: "true", MAIL_TRANSPORT: "log" }, "log", true],
  [{ MAIL_TRANSPORT: "log" }, "log", true],
  [{}, "log", false],
  [{ DEMO_MODE: "false" }, "log", false],
])("%j: mail goes by %s (chosen: %s)", (source, mailTransport, mailTransportChosen) => {
  expect(parseEnv(source)).toMatchObject({ mailTransport, mailTransportChosen, devOutbox: mailTransport === "outbox" });
});

test("MAIL_TRANSPORT that contradicts SMTP_URL is refused", () => {
  expect(errorOf({ MAIL_TRANSPORT: "smtp" }).message).toContain("MAIL_TRANSPORT: smtp needs SMTP_URL");
  expect(errorOf({ MAIL_TRANSPORT: "log", SMTP_URL: "smtp://mail.example.org" }).message).toContain(
    "MAIL_TRANSPORT: log, but SMTP_URL is set too",
  );
});

test("DATABASE_URL without SESSION_SECRET is refused", () => {
  const error = errorOf({ DATABASE_URL: "postgres://localhost/praksis" });
  expect(error.message).toContain("SESSION_SECRET");
});

test("DATABASE_URL with SESSION_SECRET is accepted and switches the demo off", () => {
  const config = parseEnv({
    DATABASE_URL: "postgresql://localhost/praksis",
    SESSION_SECRET: secret,
    NODE_ENV: "production",
  });
  expect(config.DATABASE_URL).toBe("postgresql://localhost/praksis");
  expect(config.demoMode).toBe(false);
  expect(config.devOutbox).toBe(false);
  expect(config.isProduction).toBe(true);
});

const withDb = { DATABASE_URL: "postgres://localhost/praksis", SESSION_SECRET: secret };
const smtp = { SMTP_URL: "smtp://mail.example.org" };

// Every combination: demo mode only when asked for (DEMO_MODE, or the older SEED_DEMO; DEMO_MODE
// wins), whatever the database, mail and NODE_ENV; the outbox page only in demo mode without SMTP.
test.each([
  [{}, false, false],
  [{ NODE_ENV: "development" }, false, false],
  [{ NODE_ENV: "production" }, false, false],
  [{ EMBEDDED_DATABASE: "true", DATABASE_URL: "postgres://praksis:pw@127.0.0.1:5999/praksis" }, false, false],
  [withDb, false, false],
  [smtp, false, false],
  [{ ...withDb, ...smtp }, false, false],
  [{ DEMO_MODE: "true" }, true, true],
  [{ DEMO_MODE: "true", NODE_ENV: "production" }, true, true],
  [{ DEMO_MODE: "true", ...withDb }, true, true],
  [{ DEMO_MODE: "true", ...smtp }, true, false],
  [{ DEMO_MODE: "true", ...withDb, ...smtp }, true, false],
  [{ DEMO_MODE: "false" }, false, false],
  [{ DEMO_MODE: "" }, false, false],
  // Empty is unset, as the launcher reads it: the older name then decides.
  [{ DEMO_MODE: "", SEED_DEMO: "true" }, true, true],
  [{ SEED_DEMO: "true" }, true, true],
  [{ SEED_DEMO: "true", ...withDb }, true, true],
  [{ SEED_DEMO: "true", ...smtp }, true, false],
  [{ SEED_DEMO: "false" }, false, false],
  [{ SEED_DEMO: "true", DEMO_MODE: "false" }, false, false],
  [{ SEED_DEMO: "false", DEMO_MODE: "true" }, true, true],
  // The variable that used to open the outbox by itself opens nothing now.
  [{ DEV_OUTBOX: "true", NODE_ENV: "production" }, false, false],
])("%j: demo mode %s, the outbox page %s", (source, demoMode, devOutbox) => {
  expect(parseEnv(source)).toMatchObject({ demoMode, devOutbox });
});

test("a wrong DEMO_MODE is refused with a message naming it", () => {
  expect(errorOf({ DEMO_MODE: "yes" }).message).toContain("DEMO_MODE:");
});

test("mail without SMTP_URL goes to DATA_DIR/outbox unless OUTBOX_DIR says otherwise", () => {
  expect(parseEnv({ DATA_DIR: "/srv/praksis/" }).OUTBOX_DIR).toBe("/srv/praksis/outbox");
  expect(parseEnv({ DATA_DIR: "/srv/praksis", OUTBOX_DIR: "/var/mail/praksis" }).OUTBOX_DIR).toBe("/var/mail/praksis");
});

test("an empty DATABASE_URL means the embedded database", () => {
  expect(parseEnv({ DATABASE_URL: "" }).DATABASE_URL).toBeUndefined();
  expect(parseEnv({ DATABASE_URL: "" }).embedded).toBe(true);
});

test("the embedded server's DATABASE_URL, as the launcher sets it with demo mode, keeps the demo and the generated secret", () => {
  const config = parseEnv({
    DATABASE_URL: "postgres://praksis:pw@127.0.0.1:5999/praksis",
    EMBEDDED_DATABASE: "true",
    DEMO_MODE: "true",
    NODE_ENV: "production",
  });
  expect(config).toMatchObject({ embedded: true, demoMode: true, devOutbox: true });
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

test("the nightly backup's variables: their defaults, and the folder beside the data", () => {
  expect(parseEnv({ DATA_DIR: "/srv/praksis/" })).toMatchObject({
    BACKUP_DIR: "/srv/praksis/backups",
    BACKUPS_SCHEDULED: false,
  });
  expect(
    parseEnv({
      BACKUPS: "off",
      BACKUP_TIME: "23:05",
      BACKUP_KEEP_DAILY: "14",
      BACKUP_KEEP_WEEKLY: "0",
      BACKUP_DIR: "/var/backups/praksis",
      BACKUPS_SCHEDULED: "true",
    }),
  ).toMatchObject({
    BACKUPS: "off",
    BACKUP_TIME: "23:05",
    BACKUP_KEEP_DAILY: 14,
    BACKUP_KEEP_WEEKLY: 0,
    BACKUP_DIR: "/var/backups/praksis",
    BACKUPS_SCHEDULED: true,
  });
});
