import { expect, type Page } from "@playwright/test";
import { checkPage, logIn, test } from "./support/fixtures";

/**
 * The autosave never loses typing (ADR 0011): a save or a page post the server cannot take (a 503
 * while the database restarts) keeps the page, its fields and a copy in the browser, says so, and is
 * tried again; the copy is forgotten only once the server has stored it. Student18 (SYK2002) is
 * this file's alone.
 */
const FORM = "Vurdering av kliniske kompetanser";
const status = (page: Page, text: string | RegExp) => page.getByRole("status").filter({ hasText: text });
const kept = (page: Page) => page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith("praksis:unsent:")).length);

async function openForm(page: Page) {
  await page.goto("/student/forms");
  await page.getByRole("link", { name: new RegExp(`(Start|Fortsett|Åpne) ${FORM}`) }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: FORM })).toBeVisible();
  await expect(page.getByText("Del 1 av 5", { exact: true })).toBeVisible();
}

test("a save and a page post answered 503 keep the page and the answer, and it is stored once the server takes it", async ({ page }, testInfo) => {
  test.skip(testInfo.project.name === "no-js", "the autosave and the kept copy need JavaScript");
  test.setTimeout(90_000);
  await logIn(page, "student18@example.org");
  await openForm(page);
  const box = page.getByRole("textbox").first();
  const text = "Skrevet mens databasen startet på nytt.";

  // The autosave is answered 503: not saved yet, kept in this browser, and said so.
  await page.route("**/api/answers", (route) =>
    route.fulfill({ status: 503, contentType: "application/json", headers: { "Cache-Control": "no-store" }, body: '{"error":"unavailable"}' }),
  );
  await box.fill(text);
  await expect(status(page, "Ikke lagret ennå – tas vare på i denne nettleseren og prøves igjen.")).toBeVisible();
  expect(await kept(page)).toBeGreaterThan(0);

  // The page post ("Neste") is answered 503 too: the page stays with a message, the answer on it and kept.
  await page.route(
    (url) => url.pathname.endsWith(".data"),
    (route) => (route.request().method() === "POST" ? route.fulfill({ status: 503, contentType: "text/plain", body: "Service Unavailable" }) : route.fallback()),
  );
  await page.getByRole("button", { name: "Neste" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Svarene er ikke lagret ennå" })).toBeVisible();
  await expect(page.getByText("Del 1 av 5", { exact: true })).toBeVisible();
  await expect(box).toHaveValue(text);
  expect(await kept(page)).toBeGreaterThan(0);
  await checkPage(page, testInfo, "form-page-post-failed");

  // The server takes posts again: "Neste" stores the answer and goes on, and only then is the copy forgotten.
  await page.unrouteAll({ behavior: "wait" });
  await page.getByRole("button", { name: "Neste" }).click();
  await expect(page.getByText("Del 2 av 5", { exact: true })).toBeVisible();
  await expect.poll(() => kept(page)).toBe(0);
  await page.getByRole("button", { name: "Forrige" }).click();
  await expect(page.getByText("Del 1 av 5", { exact: true })).toBeVisible();
  await expect(page.getByRole("textbox").first()).toHaveValue(text);
});
