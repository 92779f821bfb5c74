import { checkPage, expect, logIn, test } from "./support/fixtures";

test("the privacy policy is public, names the institution and says how long the data is kept", async ({
  page,
}, testInfo) => {
  await page.goto("/privacy-policy");
  await expect(page.getByRole("heading", { level: 1, name: "Personvernerklæring" })).toBeVisible();
  await expect(page.getByText("Fjordbyen høgskole (organisasjonsnummer 991 258 736)")).toBeVisible();
  // Under the institution's text, how long each kind of data is kept (the institution's file, else the defaults).
  const periods = page.getByRole("region", { name: "Hvor lenge opplysningene lagres" });
  await expect(periods.getByText("Svar og kommentarer: slettes 365 dager etter at klassen er slutt")).toBeVisible();
  await checkPage(page, testInfo, "privacy-policy");
});

test("nothing opens before the policy is accepted, and acceptance is remembered", async ({ page }) => {
  await logIn(page, "student06@example.org", { acceptPrivacy: false });
  await expect(page).toHaveURL(/\/privacy-consent\?redirectTo=%2Fstudent$/);
  await page.goto("/student");
  await expect(page).toHaveURL(/\/privacy-consent/);
  await page.getByRole("button", { name: "Jeg godtar" }).click();
  await expect(page).toHaveURL(/\/student$/);
  await page.getByRole("button", { name: "Logg ut" }).first().click();
  // Wait for the log-out to land, or its redirect could overtake the next navigation.
  await expect(page.getByRole("status")).toContainText("Du er logget ut");
  await logIn(page, "student06@example.org", { acceptPrivacy: false });
  await expect(page).toHaveURL(/\/student$/);
});

test("declining the policy logs the user out", async ({ page }) => {
  await logIn(page, "student07@example.org", { acceptPrivacy: false });
  await page.getByRole("button", { name: "Nei takk, logg meg ut" }).click();
  await expect(page.getByRole("status")).toContainText("Du har takket nei til personvernerklæringen og er logget ut.");
  await page.goto("/student");
  await expect(page).toHaveURL(/\/\?redirectTo=%2Fstudent$/);
});
