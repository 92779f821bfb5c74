import { checkPage, expect, logIn, logInWithProvider, test } from "./support/fixtures";

test("an unknown path is a 404 page", async ({ page }, testInfo) => {
  const response = await page.goto("/finnes-ikke");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Fant ikke siden" })).toBeVisible();
  await checkPage(page, testInfo, "not-found");
});

test("inside an area, unknown paths lead home; /advisor leads to /supervisor; other areas to the role chooser", async ({
  page,
}, testInfo) => {
  // By Vipps, so no e-mail code of this file voids one another file is typing.
  await logInWithProvider(page, "Vipps", "veileder1");
  await expect(page).toHaveURL(/\/supervisor$/);
  await page.goto("/supervisor/finnes/ikke");
  await expect(page).toHaveURL(/\/supervisor$/);
  await page.goto("/advisor");
  await expect(page).toHaveURL(/\/supervisor$/);
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/role\?redirectTo=%2Fadmin$/);
  await expect(page.getByText("Du har ikke rollen Administrator")).toBeVisible();
  await checkPage(page, testInfo, "role-missing");
});

test("the language can be switched to English and back, without JavaScript too", async ({ page }, testInfo) => {
  await logIn(page, "student08@example.org");
  await page.getByRole("link", { name: "Innstillinger" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Innstillinger" })).toBeVisible();
  await checkPage(page, testInfo, "settings");
  await page.getByRole("radio", { name: "English" }).check();
  await page.getByRole("button", { name: "Lagre" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "My placement" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page).toHaveTitle(/My placement – Praksis Fjordbyen/);
  await checkPage(page, testInfo, "home-student-en");
  await page.getByRole("button", { name: "Norsk" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Min praksis" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "nb");
});

test("a visitor can read the log-in page in English", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("button", { name: "English" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Log in" })).toBeVisible();
  await expect(page).toHaveTitle("Log in – Praksis Fjordbyen");
});
