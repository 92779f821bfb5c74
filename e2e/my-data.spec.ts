import fs from "node:fs";
import { expect, type Page } from "@playwright/test";
import { checkPage, logIn, logInAsAdmin, test } from "./support/fixtures";

/**
 * A student sees who opened their record and downloads a copy of their data; the admin
 * searches the audit log. Jakob Pedersen (student04, SYK2001, taught by Ingrid Haugen, laerer1) is
 * opened by no other spec's teacher; his list may also hold the admin's semester CSV (documents.spec),
 * which records a row for every student in it.
 */

/** Nothing on the page may scroll sideways at a phone's width (WCAG 1.4.10). */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  await expect(page.locator("h1")).toBeVisible();
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
}

test("a teacher opens a student's page; the student sees it on My data and downloads a copy of their data", async ({
  page,
}, testInfo) => {
  // Two log-ins and four axe scans (two at phone widths).
  test.setTimeout(120_000);
  await logIn(page, "laerer1@example.org");
  await page.goto("/teacher");
  await page
    .getByRole("region", { name: "Dine emner dette semesteret" })
    .getByRole("link", { name: /^SYK2001/ })
    .click();
  await page.getByRole("link", { name: "Jakob Pedersen" }).first().click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Jakob Pedersen");

  await page.context().clearCookies();
  await logIn(page, "student04@example.org");
  await page.getByRole("link", { name: "Mine data" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Mine data" })).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: "Ingrid Haugen" });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Praksislærer");
  await expect(row).toContainText("Siden om deg i SYK2001");
  await expect(page.getByText(/^Viser 1–\d+ av \d+$/)).toBeVisible();
  await checkPage(page, testInfo, "my-data");

  // The full-record PDF of each of the student's classes, saved rather than shown.
  const pdf = page.getByRole("link", { name: /^Praksismappen for SYK2001 .*\(PDF\)$/ });
  await expect(pdf).toHaveAttribute("href", /^\/api\/classes\/\d+\/students\/\d+\/full\/pdf\?download=1$/);

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Last ned mine data (JSON)" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^praksis-my-data-\d+-\d{4}-\d{2}-\d{2}\.json$/);
  const copy = JSON.parse(fs.readFileSync(await download.path(), "utf8")) as {
    profile: { email: string };
    classes: { subjectCode: string }[];
    accessList: { viewer: string; kind: string }[];
    auditTrail: { action: string }[];
  };
  expect(copy.profile.email).toBe("student04@example.org");
  expect(copy.classes.map((c) => c.subjectCode)).toContain("SYK2001");
  expect(copy.accessList).toContainEqual(expect.objectContaining({ viewer: "Ingrid Haugen", kind: "studentPage" }));
  expect(copy.auditTrail.map((e) => e.action)).toContain("my_data.downloaded");

  for (const width of [390, 320]) {
    await page.setViewportSize({ width, height: 800 });
    await expectNoSidewaysScroll(page);
    await checkPage(page, testInfo, `my-data-${width}`);
  }
});

test("the admin searches the audit log for who opened a student's record, and exports the search as CSV", async ({
  page,
}, testInfo) => {
  // Three searches, a download and four axe scans (two at phone widths).
  test.setTimeout(120_000);
  await logInAsAdmin(page);
  await page.getByRole("link", { name: "Revisjonslogg" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Revisjonslogg" })).toBeVisible();
  await checkPage(page, testInfo, "admin-audit");

  await page.getByLabel("Person", { exact: true }).fill("student04@example.org");
  await page.getByRole("radio", { name: "handlingen gjaldt personen", exact: true }).check();
  await page.getByLabel("Handling", { exact: true }).selectOption("record.opened");
  await page.getByRole("button", { name: "Søk" }).click();
  await expect(page).toHaveURL(/\/admin\/audit\?person=student04%40example\.org&as=subject&action=record\.opened/);
  const rows = page.getByRole("table").getByRole("row").filter({ hasText: "Jakob Pedersen" });
  await expect(rows.filter({ hasText: "Ingrid Haugen" })).toHaveCount(1);
  await expect(page.getByLabel("Person", { exact: true })).toHaveValue("student04@example.org");
  await checkPage(page, testInfo, "admin-audit-results");

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Last ned søkeresultatet som CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^praksis-audit-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = fs
    .readFileSync(await download.path(), "utf8")
    .replace(/^\uFEFF/, "")
    .split("\r\n");
  expect(lines[0]).toBe(
    "Tidspunkt;Handling;Utført av;Utført av (e-post);Gjelder;Gjelder (e-post);Klasse-id;Detaljer;IP-adresse",
  );
  expect(
    lines.filter((l) =>
      l.includes(";record.opened;Ingrid Haugen;laerer1@example.org;Jakob Pedersen;student04@example.org;"),
    ),
  ).toHaveLength(1);

  // The search itself is in the log.
  await page.getByLabel("Person", { exact: true }).fill("admin@example.org");
  await page.getByRole("radio", { name: "utførte handlingen", exact: true }).check();
  await page.getByLabel("Handling", { exact: true }).selectOption("audit.searched");
  await page.getByRole("button", { name: "Søk" }).click();
  await expect(
    page.getByRole("table").getByRole("row").filter({ hasText: "Søkte i revisjonsloggen" }).first(),
  ).toBeVisible();

  for (const width of [390, 320]) {
    await page.setViewportSize({ width, height: 800 });
    await expectNoSidewaysScroll(page);
    await checkPage(page, testInfo, `admin-audit-${width}`);
  }
});
