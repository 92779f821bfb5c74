import { expect, type Page } from "@playwright/test";
import { checkPage, logIn, test } from "./support/fixtures";

/**
 * The accessibility statement: every page's footer links to the institution's statement
 * on uustatus.no and to the app's own page, which says what Praksis meets, how it is tested, its
 * known exceptions and whom to contact; public, in Norwegian and English, and readable on a phone.
 */
const footer = (page: Page) => page.getByRole("contentinfo");

async function footerLinks(page: Page): Promise<void> {
  await expect(footer(page).getByRole("link", { name: "Tilgjengelighetserklæring" })).toHaveAttribute(
    "href",
    /^https:\/\/uustatus\.no\/nb\/erklaringer\/publisert\/[0-9a-f-]{36}$/,
  );
  await expect(footer(page).getByRole("link", { name: "Tilgjengelighet i Praksis" })).toHaveAttribute(
    "href",
    "/accessibility",
  );
}

test("the footer links to both statements; the app's page says what it meets, its exceptions and whom to contact", async ({
  page,
}, testInfo) => {
  await page.goto("/");
  await footerLinks(page);
  await footer(page).getByRole("link", { name: "Tilgjengelighet i Praksis" }).click();
  await expect(page).toHaveURL(/\/accessibility$/);
  await expect(page.getByRole("heading", { level: 1, name: "Tilgjengelighet i Praksis" })).toBeVisible();
  for (const heading of ["Hva Praksis oppfyller", "Slik tester vi", "Kjente avvik", "Kontakt oss"]) {
    await expect(page.getByRole("heading", { level: 2, name: heading })).toBeVisible();
  }
  await expect(page.getByRole("list", { name: "Hva Praksis oppfyller" })).toContainText("WCAG 2.1 på nivå AA");
  await expect(page.getByRole("list", { name: "Kjente avvik" })).toContainText("PDF/UA");
  await expect(page.getByRole("link", { name: /^uu@[a-z]+\.example\.no$/ })).toHaveAttribute("href", /^mailto:uu@/);
  await expect(
    page.getByRole("link", { name: "Den offisielle tilgjengelighetserklæringen for Praksis står på uustatus.no" }),
  ).toHaveAttribute("href", /^https:\/\/uustatus\.no\//);
  await checkPage(page, testInfo, "accessibility");

  await page.getByRole("button", { name: "English" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Accessibility in Praksis" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Known exceptions" })).toBeVisible();
  await expect(footer(page).getByRole("link", { name: "Accessibility statement" })).toBeVisible();
  await checkPage(page, testInfo, "accessibility-en");
  await page.getByRole("button", { name: "Norsk" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Tilgjengelighet i Praksis" })).toBeVisible();
});

test("a logged-in page has the same footer links", async ({ page }) => {
  await logIn(page, "student05@example.org");
  await footerLinks(page);
});

test("on a phone (320 px) the page and its footer do not scroll sideways", async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto("/accessibility");
  await expect(page.getByRole("heading", { level: 1, name: "Tilgjengelighet i Praksis" })).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(320);
  // Each footer link is a tap target of at least 24 px (WCAG 2.2 2.5.8).
  for (const link of await footer(page).getByRole("link").all()) {
    const box = (await link.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(24);
  }
  await checkPage(page, testInfo, "accessibility-320");
});

/** A page served by the browser's route (not the app), for the check of the check below. */
async function servePage(page: Page, path: string, body: string): Promise<void> {
  await page.route(`**${path}`, (route) =>
    route.fulfill({
      contentType: "text/html; charset=utf-8",
      body: `<!doctype html><html lang="nb"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sjekk</title></head><body><main><h1>Sjekk</h1>${body}</main></body></html>`,
    }),
  );
  await page.goto(path);
}

test("the page check itself fails on an axe violation, on invalid HTML and on a page that scrolls sideways at 320 px", async ({
  page,
}, testInfo) => {
  await servePage(page, "/check-the-check/fine", "<p>Ingenting å utsette.</p>");
  await checkPage(page, testInfo, "check-the-check-fine");
  await servePage(page, "/check-the-check/unnamed-button", "<button></button>");
  await expect(checkPage(page, testInfo, "check-the-check-unnamed-button")).rejects.toThrow(/button-name/);
  // Two elements with one id: axe lets it pass, the HTML check does not.
  await servePage(page, "/check-the-check/invalid-html", '<p id="to">En</p><p id="to">To</p>');
  await expect(checkPage(page, testInfo, "check-the-check-invalid-html")).rejects.toThrow(/no-dup-id/);
  await servePage(page, "/check-the-check/wide", '<p style="width: 360px">Bred</p>');
  await expect(checkPage(page, testInfo, "check-the-check-wide")).rejects.toThrow(
    /scrolls sideways on a phone[\s\S]*320 px: the page is \d+ px wide; sticking out: p \\"Bred\\"/,
  );
});
