import { expect } from "@playwright/test";
import { checkPage, logInAsAdmin, test } from "./support/fixtures";
import type { Page } from "@playwright/test";

const group = (page: Page, number: number) => page.getByRole("region", { name: `Gruppe ${number}`, exact: true });

test("an admin builds a form with two groups, reorders questions, previews, saves and finds it", async ({
  page,
}, testInfo) => {
  test.slow();
  await logInAsAdmin(page);
  await page.goto("/admin/forms");
  await expect(page.getByRole("heading", { level: 1, name: "Skjemaer" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Vurdering av kliniske kompetanser", exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Legemiddelhåndtering", exact: true })).toBeVisible();
  await checkPage(page, testInfo, "admin-forms-list");

  await page.getByRole("link", { name: "Nytt skjema" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Nytt skjema" })).toBeVisible();
  await checkPage(page, testInfo, "admin-form-create");

  // Saving without a name: a message, and nothing lost.
  await page.getByRole("button", { name: "Ny gruppe" }).click();
  await group(page, 1).getByLabel("Navn på gruppen").fill("Pasientobservasjon");
  await page.getByRole("button", { name: "Lagre skjema" }).click();
  const summary = page.getByRole("alert").filter({ hasText: "Det er et problem" });
  await expect(summary.getByRole("link", { name: "Skriv inn et navn på skjemaet" })).toBeVisible();
  await expect(group(page, 1).getByLabel("Navn på gruppen")).toHaveValue("Pasientobservasjon");
  await checkPage(page, testInfo, "admin-form-errors");

  const name = `E2E Observasjonsskjema ${testInfo.project.name}`;
  await page.getByLabel("Navn på skjemaet").fill(name);

  // Group 1: grading (the default, with the default labels), two questions.
  await expect(group(page, 1).getByLabel("Graderingsvalg")).toHaveValue(
    "Selvstendig\nDelvis selvstendig\nVeiledet\nAssistert\nUselvstendig\nIkke relevant",
  );
  await page.getByRole("button", { name: "Nytt spørsmål i gruppe 1" }).click();
  await group(page, 1).getByLabel("Spørsmål 1").fill("Måler vitale tegn");
  await page.getByRole("button", { name: "Nytt spørsmål i gruppe 1" }).click();
  await group(page, 1).getByLabel("Spørsmål 2").fill("Rapporterer endringer");
  await group(page, 1).getByLabel("Hjelpetekst til veileder").nth(1).fill("Muntlig og skriftlig rapport.");

  // Group 2: text input, one question.
  await page.getByRole("button", { name: "Ny gruppe" }).click();
  await group(page, 2).getByLabel("Navn på gruppen").fill("Egenrefleksjon");
  await group(page, 2).getByRole("radio", { name: "Tekstfelt (fritt svar)" }).check();
  await page.getByRole("button", { name: "Nytt spørsmål i gruppe 2" }).click();
  await group(page, 2).getByLabel("Spørsmål 1").fill("Hva har du lært?");

  // Reorder: the second question moves up; its help text goes with it.
  await page.getByRole("button", { name: "Flytt opp spørsmål 2 i gruppe 1" }).click();
  // The page comes back where the moved question now is, not at the top (without JS: a URL fragment).
  await expect(page).toHaveURL(/#question-n\d+$/);
  await expect(group(page, 1).getByLabel("Spørsmål 1")).toBeInViewport();
  await expect(group(page, 1).getByLabel("Spørsmål 1")).toHaveValue("Rapporterer endringer");
  await expect(group(page, 1).getByLabel("Spørsmål 2")).toHaveValue("Måler vitale tegn");
  await expect(group(page, 1).getByLabel("Hjelpetekst til veileder").first()).toHaveValue(
    "Muntlig og skriftlig rapport.",
  );
  await expect(group(page, 2).getByRole("radio", { name: "Tekstfelt (fritt svar)" })).toBeChecked();
  await checkPage(page, testInfo, "admin-form-editing");

  // Preview: the form as it will be answered.
  await page.getByRole("button", { name: "Forhåndsvis" }).click();
  await expect(page.getByRole("button", { name: "Forhåndsvis" })).toHaveAttribute("aria-pressed", "true");
  const observation = page.getByRole("group", { name: "Pasientobservasjon" });
  // The questions in their new order, each a radio group of the six labels.
  await expect(observation.locator("legend")).toHaveText([
    "Pasientobservasjon",
    "Rapporterer endringer",
    "Måler vitale tegn",
  ]);
  const reported = observation.getByRole("group", { name: "Rapporterer endringer" });
  await expect(reported.getByRole("radio")).toHaveCount(6);
  await expect(reported.getByRole("radio", { name: "Ikke relevant" })).toBeVisible();
  await expect(observation.getByText("Hjelpetekst", { exact: true })).toBeVisible();
  await expect(
    page.getByRole("group", { name: "Egenrefleksjon" }).getByRole("textbox", { name: "Hva har du lært?" }),
  ).toBeVisible();
  await checkPage(page, testInfo, "admin-form-preview");

  // Back to editing keeps the draft.
  await page.getByRole("button", { name: "Rediger", exact: true }).click();
  await expect(page.getByLabel("Navn på skjemaet")).toHaveValue(name);
  await expect(group(page, 1).getByLabel("Spørsmål 1")).toHaveValue("Rapporterer endringer");

  await page.getByRole("button", { name: "Lagre skjema" }).click();
  await expect(page).toHaveURL(/\/admin\/forms\/edit\/\d+$/);
  await expect(page.getByRole("status").filter({ hasText: "Lagret!" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Rediger skjema");
  await expect(group(page, 1).getByLabel("Spørsmål 1")).toHaveValue("Rapporterer endringer");
  await expect(group(page, 2).getByLabel("Spørsmål 1")).toHaveValue("Hva har du lært?");
  await checkPage(page, testInfo, "admin-form-edit");

  await page.getByRole("link", { name: "Tilbake til skjemaene" }).first().click();
  const row = page.getByRole("row").filter({ has: page.getByRole("link", { name, exact: true }) });
  await expect(row.getByRole("cell")).toHaveText(["2", "3", "Ikke i bruk", /^Tomt skjema \(PDF\)/]);

  // An unused form can be deleted (the answers of a used one never are: see the route tests).
  await row.getByRole("link", { name, exact: true }).click();
  await page.getByRole("link", { name: "Slett skjemaet" }).click();
  await expect(page.getByRole("button", { name: "Ja, slett skjemaet" })).toBeVisible();
  await checkPage(page, testInfo, "admin-form-delete");
  await page.getByRole("button", { name: "Ja, slett skjemaet" }).click();
  await expect(page).toHaveURL(/\/admin\/forms$/);
  await expect(page.getByRole("status").filter({ hasText: "Slettet!" })).toBeVisible();
  await expect(page.getByRole("link", { name, exact: true })).toHaveCount(0);
});

test("the demo's answered main form opens in the editor with its answers marked", async ({ page }, testInfo) => {
  await logInAsAdmin(page);
  await page.goto("/admin/forms");
  await page.getByRole("link", { name: "Vurdering av kliniske kompetanser", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Rediger skjema");
  await expect(group(page, 2).getByText("Gruppen har svar, så typen kan ikke endres.")).toBeVisible();
  await expect(group(page, 2).getByText("Har svar").first()).toBeVisible();
  await page.getByRole("button", { name: "Forhåndsvis" }).click();
  await expect(page.getByRole("group", { name: "Studentens egenvurdering" })).toBeVisible();
  await checkPage(page, testInfo, "admin-form-main-preview");
});
