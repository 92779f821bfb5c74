import type { Page } from "@playwright/test";
import { checkPage, expect, logIn, logInAsAdmin, test, screenshots } from "./support/fixtures";

// Data changed here: laerer2 adds the supervisor Sara Slettes (sara.slettes@example.org, nobody else's) to
// SYK2001, and the admin erases her. Every demo person is another file's, so this file makes its own.

const flash = (page: Page) => page.getByRole("status");

test("the admin sees what the next retention run removes, then erases a person in two steps", async ({
  page,
}, testInfo) => {
  await logIn(page, "laerer2@example.org");
  await page.getByRole("link", { name: "SYK2001 Praksis i sykehjem" }).first().click();
  await page.getByRole("link", { name: "Legg til praksisveileder" }).click();
  await page.getByLabel("Navn").fill("Sara Slettes");
  await page.getByLabel("E-postadresse").fill("sara.slettes@example.org");
  await page.getByRole("button", { name: "Legg til praksisveileder" }).click();
  await expect(flash(page)).toContainText("Sara Slettes er lagt til som praksisveileder");
  await page.getByRole("button", { name: "Logg ut" }).first().click();
  await expect(flash(page)).toContainText("Du er logget ut");

  await logInAsAdmin(page);
  await page
    .getByRole("navigation", { name: "Hovedmeny" })
    .getByRole("link", { name: "Oppbevaring og sletting" })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Oppbevaring og sletting" })).toBeVisible();
  await expect(
    page.getByRole("row", { name: /Svar og kommentarer slettes 365 dager etter at klassen er slutt/ }),
  ).toBeVisible();
  await checkPage(page, testInfo, "admin-retention");
  await screenshots(page, testInfo, "admin-retention");

  await page.goto("/admin/users?search=sara.slettes%40example.org");
  await page.getByRole("link", { name: "Sara Slettes" }).click();
  await page.getByRole("link", { name: "Slett Sara Slettes" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sletting på forespørsel Slette Sara Slettes?");
  await expect(page.getByRole("rowheader", { name: /^Brukerkontoen/ })).toBeVisible();
  await checkPage(page, testInfo, "admin-erase-user");
  await screenshots(page, testInfo, "admin-erase-user");

  // Without the box: refused, saying why.
  await page.getByRole("button", { name: "Slett Sara Slettes" }).click();
  await expect(
    page.getByRole("alert").getByRole("link", { name: "Kryss av for at du forstår at slettingen ikke kan angres." }),
  ).toBeVisible();
  await page.getByRole("checkbox", { name: "Jeg forstår at dette ikke kan angres" }).check();
  await page.getByRole("button", { name: "Slett Sara Slettes" }).click();
  await expect(flash(page)).toContainText("Sara Slettes er slettet.");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Slettet bruker");
  await expect(page.getByText("Denne personen er slettet.", { exact: false }).first()).toBeVisible();
  await checkPage(page, testInfo, "admin-user-erased");
  await screenshots(page, testInfo, "admin-user-erased");
});
