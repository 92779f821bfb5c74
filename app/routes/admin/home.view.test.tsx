import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { cleanup, screen, within } from "@testing-library/react";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import enAdmin from "~/locales/en/admin.json";
import nbAdmin from "~/locales/nb/admin.json";
import { ROLE } from "~/services/identity";
import { resetEnvForTests } from "~/services/platform/env.server";
import { cookieActingAs, startTestApp, stopTestApp } from "~/test/app";
import { renderRoute } from "~/test/render-route";
import { writeBackupStatus, type BackupStatus } from "../../../scripts/backup-schedule.mjs";
import * as home from "./home";

let app: Awaited<ReturnType<typeof startTestApp>>;

beforeAll(async () => {
  app = await startTestApp();
});

afterAll(async () => {
  await stopTestApp(app);
});

test("the admin's main page: the six sections with what each is for, this semester's classes and how many use Praksis", async () => {
  const cookie = await cookieActingAs(app.database.db, "admin@example.org", ROLE.Admin);
  await renderRoute({ module: home, path: "/admin", cookie });
  expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Administrasjon");
  expect(screen.getByText("Hei, Ada Administrator!")).toBeTruthy();

  const sections = screen.getByRole("navigation", { name: "Administrasjon" });
  expect(
    within(sections)
      .getAllByRole("link")
      .map((a) => [a.textContent, a.getAttribute("href")]),
  ).toEqual([
    [expect.stringMatching(/^Semestre/), "/admin/semesters"],
    [expect.stringMatching(/^Skjemaer/), "/admin/forms"],
    [expect.stringMatching(/^Emner/), "/admin/subjects"],
    [expect.stringMatching(/^Brukere/), "/admin/users"],
    [expect.stringMatching(/^Revisjonslogg/), "/admin/audit"],
    [expect.stringMatching(/^Påminnelser/), "/admin/reminders"],
    [expect.stringMatching(/^Oppbevaring og sletting/), "/admin/retention"],
  ]);
  expect(within(sections).getByText("Praksisemnene og emnekodene deres.")).toBeTruthy();

  const classes = screen.getByRole("table", { name: "Klasser dette semesteret" });
  expect(
    within(classes)
      .getByRole("link", { name: /^SYK2001 Praksis i sykehjem/ })
      .getAttribute("href"),
  ).toMatch(/^\/admin\/class\/\d+$/);

  const users = screen.getByRole("table", { name: "Aktive brukere" });
  const counts = within(users)
    .getAllByRole("row")
    .slice(1)
    .map((row) => [within(row).getByRole("rowheader").textContent, within(row).getByRole("cell").textContent]);
  expect(counts).toEqual([
    ["Administrator", "1"],
    ["Student", "25"],
    ["Praksislærer", "4"],
    ["Praksisveileder", "4"],
  ]);
});

// The backups' status, as the nightly schedule in server.mjs writes it (scripts/backup-schedule.mjs),
// at a set time: Thursday 26 November 2026, 13:00 in Oslo.
describe("the backups on the admin's start page", () => {
  const NOW = new Date("2026-11-26T12:00:00Z");
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "praksis-admin-backups-"));
    Object.assign(process.env, { BACKUP_DIR: dir, BACKUPS_SCHEDULED: "true" });
    resetEnvForTests();
  });
  afterEach(() => {
    vi.useRealTimers();
    delete process.env.BACKUP_DIR;
    delete process.env.BACKUPS_SCHEDULED;
    resetEnvForTests();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const good = (at: string) => ({ at, file: "praksis-nightly.backup.gz", bytes: 1000, seconds: 2 });
  async function show(status: BackupStatus | null, language: "nb" | "en" = "nb") {
    if (status) writeBackupStatus(dir, status);
    const cookie = await cookieActingAs(app.database.db, "admin@example.org", ROLE.Admin);
    // Only the clock the page reads is set (the session and the database keep theirs).
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    await renderRoute({ module: home, path: "/admin", cookie, language });
    const heading = screen.getByRole("heading", { level: 2, name: language === "nb" ? "Sikkerhetskopi" : "Backups" });
    return heading.closest("section")!;
  }
  /** Whether the backups' section comes before the sections' links (a warning does) or after everything. */
  const comesFirst = (section: Element) => {
    const nav = screen.getByRole("navigation", { name: /Administrasjon|Administration/ });
    return Boolean(section.compareDocumentPosition(nav) & Node.DOCUMENT_POSITION_FOLLOWING);
  };

  test("last night's good backup: said at the end of the page, no warning", async () => {
    const section = await show({ lastGood: good("2026-11-26T01:30:00.000Z"), lastFailure: null });
    expect(section.textContent).toContain(
      "Siste sikkerhetskopi: i natt kl. 02.30. Praksis tar en sikkerhetskopi av databasen hver natt.",
    );
    expect(within(section as HTMLElement).queryByText("Sikkerhetskopien er ikke i orden")).toBeNull();
    expect(comesFirst(section)).toBe(false);
  });

  test("a failed backup: a warning first on the page, when it failed and the last good one", async () => {
    const section = await show({
      lastGood: good("2026-11-25T01:30:00.000Z"),
      lastFailure: { at: "2026-11-26T01:30:00.000Z", message: "no space left on device" },
    });
    const warning = within(section as HTMLElement);
    expect(warning.getByRole("heading", { level: 3, name: "Sikkerhetskopien er ikke i orden" })).toBeTruthy();
    expect(
      warning.getByText(
        "Siste forsøk på sikkerhetskopi mislyktes i natt kl. 02.30. Årsaken står i loggen på serveren.",
      ),
    ).toBeTruthy();
    expect(warning.getByText("Siste sikkerhetskopi: i går kl. 02.30.")).toBeTruthy();
    // The cause is for the log, not the page.
    expect(section.textContent).not.toContain("no space");
    expect(comesFirst(section)).toBe(true);
  });

  test("the same in English", async () => {
    const section = await show(
      {
        lastGood: good("2026-11-20T01:30:00.000Z"),
        lastFailure: { at: "2026-11-26T10:15:00.000Z", message: "x" },
      },
      "en",
    );
    expect(within(section as HTMLElement).getByRole("heading", { name: "The backups are not in order" })).toBeTruthy();
    expect(section.textContent).toContain(
      "The last attempt to back up failed today at 11:15. The cause is in the server's log.",
    );
    expect(section.textContent).toContain("Last backup: on 20 November 2026 at 02:30.");
  });

  test("no backup yet: a warning", async () => {
    const section = await show(null);
    expect(
      within(section as HTMLElement).getByRole("heading", { name: "Sikkerhetskopien er ikke i orden" }),
    ).toBeTruthy();
    expect(section.textContent).toContain("Det er ikke tatt noen sikkerhetskopi av databasen ennå.");
    expect(comesFirst(section)).toBe(true);
  });

  test("a last good backup older than 26 hours: a warning with its age", async () => {
    let section = await show({ lastGood: good("2026-11-25T09:00:00.000Z"), lastFailure: null });
    expect(section.textContent).toContain(
      "Siste sikkerhetskopi er 27 timer gammel: nattens sikkerhetskopi er ikke tatt.",
    );
    cleanup();
    vi.useRealTimers();
    section = await show({ lastGood: good("2026-11-23T01:30:00.000Z"), lastFailure: null });
    expect(section.textContent).toContain("Siste sikkerhetskopi er 3 døgn gammel");
    expect(comesFirst(section)).toBe(true);
  });

  test("25 hours old is still in order (the night's backup may take its time)", async () => {
    const section = await show({ lastGood: good("2026-11-25T11:00:00.000Z"), lastFailure: null });
    expect(section.textContent).toContain("Siste sikkerhetskopi: i går kl. 12.00.");
    expect(section.textContent).not.toContain("ikke i orden");
  });

  test("no schedule: switched off on the embedded database; with the institution's own PostgreSQL, backed up there", async () => {
    delete process.env.BACKUPS_SCHEDULED;
    resetEnvForTests();
    let section = await show(null);
    expect(section.textContent).toContain("Nattlig sikkerhetskopi er slått av på denne serveren.");
    expect(comesFirst(section)).toBe(false);
    cleanup();
    vi.useRealTimers();
    try {
      Object.assign(process.env, {
        DATABASE_URL: "postgres://praksis@db.hogskolen.no/praksis",
        SESSION_SECRET: "s".repeat(32),
      });
      resetEnvForTests();
      section = await show(null);
      expect(section.textContent).toContain(
        "Databasen kjører på institusjonens egen PostgreSQL-server og sikkerhetskopieres der, ikke av Praksis.",
      );
      expect(comesFirst(section)).toBe(false);
    } finally {
      delete process.env.DATABASE_URL;
      delete process.env.SESSION_SECRET;
    }
  });

  test("the page's texts have the same keys in both languages", () => {
    const keys = (tree: object, prefix = ""): string[] =>
      Object.entries(tree).flatMap(([k, v]) =>
        typeof v === "object" && v !== null ? keys(v as object, `${prefix}${k}.`) : [`${prefix}${k}`],
      );
    expect(keys(enAdmin).sort()).toEqual(keys(nbAdmin).sort());
  });
});
