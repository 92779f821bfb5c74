import { checkPage, expect, logIn, test } from "./support/fixtures";
import type { Page } from "@playwright/test";

const LEVELS = ["Selvstendig", "Delvis selvstendig", "Veiledet", "Assistert", "Uselvstendig"];
const ASPECTS = [
  "Observasjoner",
  "Målrettethet",
  "Nøyaktighet",
  "Ressursbruk",
  "Tidsbruk og effektivitet",
  "Pasientfokus",
  "Sikkerhet",
  "Faglig refleksjon",
  "Atferd og opptreden",
  "Behov for veiledning",
];
const NARROW = { width: 375, height: 800 };

/** With JavaScript, waits until React has taken over (the close control turns into a button). */
async function ready(page: Page, js: boolean) {
  await expect(page.getByRole("heading", { level: 1, name: "Selvstendighetsskalaen" })).toBeVisible();
  if (js) await expect(page.getByRole("button", { name: "Lukk" })).toBeVisible();
}

test("on a wide screen all five levels stand side by side, one row per aspect", async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/independence-scale");
  await ready(page, testInfo.project.name === "js");
  await expect(page).toHaveTitle(/^Selvstendighetsskalaen – /);
  await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
  await expect(page.getByText("«Ikke relevant» er ikke et nivå på skalaen.")).toBeVisible();

  const table = page.getByRole("table", { name: "Selvstendighetsskalaens fem nivåer" });
  await expect(table.getByRole("columnheader")).toHaveText(["Område", ...LEVELS]);
  await expect(table.getByRole("rowheader")).toHaveText(ASPECTS);
  await expect(table.getByRole("row")).toHaveCount(11);
  const safety = table.getByRole("row", { name: /^Sikkerhet/ });
  await expect(safety.getByRole("cell")).toHaveCount(5);
  await expect(safety.getByRole("cell").first()).toHaveText(/^Handler trygt og forsvarlig i alle situasjoner\./);
  await expect(safety.getByRole("cell").last()).toHaveText(/^Handler utrygt og kan sette pasienten i fare\./);

  // The narrow-screen comparison is not shown, to eyes or to screen readers.
  await expect(page.getByRole("heading", { name: "Sammenlign to nivåer" })).toBeHidden();
  await expect(page.getByRole("table")).toHaveCount(1);
  await checkPage(page, testInfo, "independence-scale-wide");
});

test("on a narrow screen two chosen levels are compared through a plain GET form", async ({ page }, testInfo) => {
  const js = testInfo.project.name === "js";
  await page.setViewportSize(NARROW);
  await page.goto("/independence-scale");
  await ready(page, js);
  await expect(page.getByRole("table", { name: "Selvstendighetsskalaens fem nivåer" })).toBeHidden();

  const first = page.getByLabel("Første nivå");
  const second = page.getByLabel("Andre nivå");
  await expect(first).toHaveValue("0");
  await expect(second).toHaveValue("1");
  const byDefault = page.getByRole("table", { name: "Selvstendig sammenlignet med Delvis selvstendig" });
  await expect(byDefault.getByRole("columnheader")).toHaveText(["Område", "Selvstendig", "Delvis selvstendig"]);
  await checkPage(page, testInfo, "independence-scale-narrow");

  await first.selectOption({ label: "Veiledet" });
  // With JavaScript the page follows each change at once; without, the button sends the form.
  if (js) await expect(page).toHaveURL(/\?a=2&b=1$/);
  await second.selectOption({ label: "Uselvstendig" });
  if (!js) await page.getByRole("button", { name: "Sammenlign" }).click();
  await expect(page).toHaveURL(/\/independence-scale\?a=2&b=4$/);

  const table = page.getByRole("table", { name: "Veiledet sammenlignet med Uselvstendig" });
  await expect(table.getByRole("columnheader")).toHaveText(["Område", "Veiledet", "Uselvstendig"]);
  await expect(table.getByRole("rowheader")).toHaveText(ASPECTS);
  await expect(table.getByRole("cell")).toHaveCount(20);
  await expect(table.getByRole("cell").nth(12)).toHaveText(/^Handler trygt når veilederen følger med/);
  await expect(table.getByRole("cell").nth(13)).toHaveText(/^Handler utrygt og kan sette pasienten i fare/);
  await expect(page.getByLabel("Første nivå")).toHaveValue("2");
  await expect(page.getByLabel("Andre nivå")).toHaveValue("4");
  await checkPage(page, testInfo, "independence-scale-compare");

  // The language toggle in the shell keeps the comparison.
  await page.getByRole("button", { name: "English" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "The independence scale" })).toBeVisible();
  await expect(page.getByRole("table", { name: "Supervised compared with Dependent" })).toBeVisible();
  await expect(page.getByLabel("First level")).toHaveValue("2");
  await checkPage(page, testInfo, "independence-scale-compare-en");
});

test("an invalid choice falls back to the first and second level, never an error", async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 320, height: 700 });
  for (const query of ["a=5&b=banan", "a=-1&b=1.0", "a=%00&b=99999999999999999999", "a=&b="]) {
    const response = await page.goto(`/independence-scale?${query}`);
    expect(response?.status(), query).toBe(200);
    await ready(page, testInfo.project.name === "js");
    await expect(page.getByLabel("Første nivå"), query).toHaveValue("0");
    await expect(page.getByLabel("Andre nivå"), query).toHaveValue("1");
    await expect(page.getByRole("table", { name: "Selvstendig sammenlignet med Delvis selvstendig" })).toBeVisible();
  }
  // One valid level is kept; only the invalid one falls back.
  await page.goto("/independence-scale?a=3&b=7");
  await expect(page.getByRole("table", { name: "Assistert sammenlignet med Delvis selvstendig" })).toBeVisible();
  // At 320 px the page reflows without sideways scrolling (WCAG 1.4.10).
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await checkPage(page, testInfo, "independence-scale-320");
});

test("without JavaScript the close control is a link back to a path on this site", async ({ page }, testInfo) => {
  test.skip(testInfo.project.name === "js", "the no-JS control");
  await page.goto(`/independence-scale?back=${encodeURIComponent("https://evil.example/")}`);
  await expect(page.getByRole("link", { name: "Tilbake" })).toHaveAttribute("href", "/");
  await expect(page.getByRole("button", { name: "Lukk" })).toHaveCount(0);

  await page.setViewportSize(NARROW);
  await page.goto("/independence-scale?back=%2Fprivacy-policy");
  // The comparison form carries `back` along, so the link still leads there after comparing.
  await page.getByLabel("Andre nivå").selectOption({ label: "Assistert" });
  await page.getByRole("button", { name: "Sammenlign" }).click();
  await expect(page).toHaveURL(/\?back=%2Fprivacy-policy&a=0&b=3$/);
  await page.getByRole("link", { name: "Tilbake" }).click();
  await expect(page).toHaveURL(/\/privacy-policy$/);
  await expect(page.getByRole("heading", { level: 1, name: "Personvernerklæring" })).toBeVisible();
});

test("with JavaScript the close button closes the tab the page was opened in", async ({ page }, testInfo) => {
  test.skip(testInfo.project.name === "no-js", "the JS control");
  await page.goto("/privacy-policy");
  const opened = page.waitForEvent("popup");
  // As the form page does: a link with target="_blank", which opens without an opener.
  await page.evaluate(() => window.open("/independence-scale?back=%2Fprivacy-policy", "_blank", "noopener"));
  const popup = await opened;
  await popup.setViewportSize(NARROW);
  await ready(popup, true);
  await expect(popup.getByRole("link", { name: "Tilbake" })).toHaveCount(0);
  // Comparing replaces the history entry, so the tab stays one a script may close.
  await popup.getByLabel("Andre nivå").selectOption({ label: "Veiledet" });
  await expect(popup).toHaveURL(/a=0&b=2$/);
  const closed = popup.waitForEvent("close");
  // The press closes the tab: Playwright's click may then find its page closed under it, and say so.
  await popup
    .getByRole("button", { name: "Lukk" })
    .click()
    .catch((error: unknown) => {
      if (!popup.isClosed()) throw error;
    });
  await closed;
  expect(popup.isClosed()).toBe(true);
});

test("with JavaScript, a page the browser will not close goes back instead", async ({ page }, testInfo) => {
  test.skip(testInfo.project.name === "no-js", "the JS control");
  await page.goto("/privacy-policy");
  await page.goto("/independence-scale");
  await ready(page, true);
  await page.getByRole("button", { name: "Lukk" }).click();
  await expect(page).toHaveURL(/\/privacy-policy$/);
  expect(page.isClosed()).toBe(false);
});

test("a signed-in user sees the scale inside the app, the table once there is room beside the menu", async ({
  page,
}, testInfo) => {
  await logIn(page, "student17@example.org");
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/independence-scale");
  await ready(page, testInfo.project.name === "js");
  await expect(page.getByRole("navigation", { name: "Hovedmeny" })).toBeVisible();
  await expect(page.getByRole("table", { name: "Selvstendighetsskalaens fem nivåer" })).toBeVisible();
  await checkPage(page, testInfo, "independence-scale-signed-in");

  await page.setViewportSize({ width: 1024, height: 800 });
  await expect(page.getByRole("table", { name: "Selvstendighetsskalaens fem nivåer" })).toBeHidden();
  await expect(page.getByRole("table", { name: "Selvstendig sammenlignet med Delvis selvstendig" })).toBeVisible();
  await checkPage(page, testInfo, "independence-scale-signed-in-1024");
});
