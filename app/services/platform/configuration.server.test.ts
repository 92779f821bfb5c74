import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { checkConfiguration, configurationSummary, databaseSummary } from "./configuration.server";
import { resetEnvForTests } from "./env.server";

const settingNames = [
  "DATABASE_URL",
  "EMBEDDED_DATABASE",
  "SESSION_SECRET",
  "SMTP_URL",
  "APP_URL",
  "INSTITUTION",
  "INSTITUTION_FILE",
  "MAIL_TRANSPORT",
  "MAIL_FROM",
  "DEMO_MODE",
  "SEED_DEMO",
  "REMINDERS_INTERVAL_MINUTES",
  "NODE_ENV",
];
const saved = Object.fromEntries(settingNames.map((name) => [name, process.env[name]]));
const ownFile = path.resolve("app/test/institution.json");

function use(settings: Record<string, string>): void {
  for (const name of settingNames) delete process.env[name];
  Object.assign(process.env, settings);
  resetEnvForTests();
}

afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvForTests();
});

test("the start-up line states the configuration in effect, and no secret", () => {
  const secret = "hemmelig-økt-".padEnd(40, "x");
  use({
    NODE_ENV: "production",
    DATABASE_URL: "postgres://praksis:db-passord@db.hogskolen.no:5433/praksis",
    SESSION_SECRET: secret,
    SMTP_URL: "smtp://postmann:smtp-passord@mail.hogskolen.no:587",
    APP_URL: "https://praksis.hogskolen.no",
    INSTITUTION_FILE: ownFile,
    REMINDERS_INTERVAL_MINUTES: "30",
  });
  const { message, settings } = configurationSummary();
  expect(message).toBe(
    `in effect: institution testhogskolen (INSTITUTION_FILE ${ownFile}), APP_URL https://praksis.hogskolen.no, mail smtp mail.hogskolen.no:587, ` +
      "database external db.hogskolen.no:5433, database praksis, demo mode off, reminders every 30 min, NODE_ENV production",
  );
  expect(settings).toMatchObject({
    institution: "testhogskolen",
    institutionFrom: ownFile,
    demoMode: false,
    remindersEveryMinutes: 30,
  });
  const text = JSON.stringify({ message, settings });
  for (const kept of ["db-passord", "smtp-passord", "postmann", secret, "praksis:"]) expect(text).not.toContain(kept);
});

test("the demo: an example institution, the demo's outbox, the embedded database", () => {
  use({
    DEMO_MODE: "true",
    EMBEDDED_DATABASE: "true",
    DATABASE_URL: "postgres://praksis:pw@localhost:5999/praksis?host=%2Fsrv%2Fdata%2Fpostgres",
    INSTITUTION: "nordlys",
    REMINDERS_INTERVAL_MINUTES: "0",
  });
  expect(configurationSummary().message).toBe(
    "in effect: institution nordlys (the example nordlys), APP_URL (not set), mail outbox (demo), database embedded socket /srv/data/postgres, database praksis, " +
      "demo mode on, reminders off (cron), NODE_ENV development",
  );
});

test("databaseSummary never shows the user or password", () => {
  expect(databaseSummary("postgres://u:p@127.0.0.1/praksis", false)).toBe("external 127.0.0.1:5432, database praksis");
  expect(databaseSummary(undefined, true)).toBe("embedded");
});

test("start-up checks the institution and the mail together: outside demo mode, the example or no SMTP stops it", () => {
  use({ INSTITUTION: "fjordbyen", SMTP_URL: "smtp://mail.hogskolen.no" });
  expect(() => checkConfiguration()).toThrow(/INSTITUTION=fjordbyen is one of the examples/);
  use({ INSTITUTION_FILE: ownFile });
  expect(() => checkConfiguration()).toThrow(/SMTP_URL: required outside demo mode/);
  use({ INSTITUTION_FILE: ownFile, SMTP_URL: "smtp://mail.hogskolen.no" });
  expect(() => checkConfiguration()).not.toThrow();
  use({ DEMO_MODE: "true" });
  expect(() => checkConfiguration()).not.toThrow();
});
