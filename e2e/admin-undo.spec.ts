import { expect, type Page } from "@playwright/test";
import { checkPage, logInAsAdmin, readMail, signInAtProvider, test } from "./support/fixtures";
import { addDays, calendar, dateText, exactDate } from "./support/calendar";

/**
 * The admin undoes set-up mistakes: a response scheme nobody has answered, the mid-semester date,
 * expected levels copied from the last time the subject ran, a supervisor's phone number, and the
 * audit log read in words. The class work happens in a class of its own (SYK1002 added to the current
 * semester), so the other files' classes stay as they are.
 */

const SYK1002 = "SYK1002 Praksis i hjemmesykepleien";

/** The current semester's SYK1002, added by this file (once per project's server). */
async function openOwnClass(page: Page): Promise<void> {
  await logInAsAdmin(page);
  await page.goto("/admin/semesters");
  await page.getByRole("link", { name: calendar.current.name, exact: true }).first().click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Semester ${calendar.current.name}`);
  const classLink = page.getByRole("link", { name: SYK1002 });
  if ((await classLink.count()) === 0) {
    await page.getByRole("link", { name: "Legg til emner" }).click();
    await page.getByRole("checkbox", { name: SYK1002 }).check();
    await page.getByRole("button", { name: "Legg til valgte emner" }).click();
  }
  await classLink.click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${calendar.current.name} ${SYK1002}`);
}

test("the admin moves the mid-semester date; one on or after the end date is refused", async ({ page }, testInfo) => {
  await openOwnClass(page);
  const summary = page.getByRole("alert").filter({ hasText: "Det er et problem" });
  const end = await page.getByLabel("Sluttdato", { exact: true }).inputValue();
  const midDate = page.getByLabel("Midtveisdato", { exact: true });
  await midDate.fill(end);
  await page.getByRole("button", { name: "Lagre midtveisdato" }).click();
  await expect(summary.getByRole("link", { name: "Midtveisdatoen må være før sluttdatoen." })).toBeVisible();
  await expect(midDate).toHaveValue(end);
  await checkPage(page, testInfo, "admin-class-mid-date-error");

  const moved = addDays(end, -20);
  await midDate.fill(moved);
  await page.getByRole("button", { name: "Lagre midtveisdato" }).click();
  await expect(page.getByRole("status").getByText(`Midtveisdatoen er lagret: ${dateText(moved)}.`)).toBeVisible();
  await expect(page.getByRole("definition").filter({ hasText: exactDate(moved) })).toBeVisible();
});

test("the admin copies expected levels from the last semester, then removes the scheme after a confirmation", async ({
  page,
}, testInfo) => {
  await openOwnClass(page);
  const schemes = page.getByRole("region", { name: "Svarordninger" });
  await expect(page.getByText("Legg til en svarordning først.")).toBeVisible();

  await page.getByRole("radio", { name: "Midtveis" }).check();
  await page.getByRole("checkbox", { name: "Vurdering av kliniske kompetanser" }).check();
  await page.getByRole("checkbox", { name: "Legemiddelhåndtering" }).check();
  await page.getByRole("button", { name: "Legg til svarordning" }).click();
  await expect(page.getByRole("status").getByText("Midtveisordningen er lagt til.")).toBeVisible();

  // All the questions at once, from the same subject's class last semester; what it had no levels for is named.
  const source = page.getByLabel("Kopier fra");
  await expect(source.locator("option:checked")).toHaveText(
    new RegExp(`^${calendar.previous.name} \\(\\d+ nivåer\\)$`),
  );
  await checkPage(page, testInfo, "admin-class-copy");
  await page.getByRole("button", { name: "Kopier forventet nivå" }).click();
  const copied = page.getByRole("status").filter({ hasText: "Forventet nivå er kopiert" });
  await expect(copied).toContainText(
    new RegExp(
      `Forventet nivå er kopiert fra ${calendar.previous.name}: Vurdering av kliniske kompetanser, midtveis \\(\\d+ spørsmål\\)\\. ` +
        `Ikke kopiert, for ${calendar.previous.name} har ikke forventet nivå for: Legemiddelhåndtering \\(midtveis\\)\\. Sett dem selv\\.`,
    ),
  );
  // The expected levels page of the main form now has levels chosen.
  await schemes.getByRole("link", { name: "Forventet nivå for Vurdering av kliniske kompetanser, Midtveis" }).click();
  await expect(page.getByRole("radio", { checked: true }).first()).toBeVisible();
  await page.goBack();

  // Removing: a confirmation first (Cancel leaves it), then it is gone.
  const remove = schemes.getByRole("link", {
    name: "Fjern svarordningen midtveis: Vurdering av kliniske kompetanser, Legemiddelhåndtering",
  });
  await remove.click();
  const confirm = page.getByRole("heading", { level: 3, name: "Fjerne svarordningen midtveis?" });
  await expect(confirm).toBeVisible();
  await checkPage(page, testInfo, "admin-class-remove-scheme");
  await page.getByRole("link", { name: "Avbryt" }).click();
  await expect(confirm).toHaveCount(0);
  await expect(schemes.getByRole("row")).toHaveCount(2);
  await remove.click();
  await page.getByRole("button", { name: "Fjern svarordningen" }).click();
  await expect(page.getByRole("status").getByText("Midtveisordningen er fjernet.")).toBeVisible();
  await expect(page.getByText("Klassen har ingen svarordninger ennå.")).toBeVisible();
});

test("a scheme with answers cannot be removed: the page says why", async ({ page }, testInfo) => {
  await logInAsAdmin(page);
  await page.getByRole("link", { name: "SYK2001 Praksis i sykehjem" }).click();
  const schemes = page.getByRole("region", { name: "Svarordninger" });
  await schemes.getByRole("link", { name: /^Fjern svarordningen midtveis: / }).click();
  await expect(page.getByRole("heading", { level: 3, name: "Svarordningen kan ikke fjernes" })).toBeVisible();
  await expect(page.getByText(/Den har \d+ besvarelser \(sendte eller påbegynte\)/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Fjern svarordningen" })).toHaveCount(0);
  await checkPage(page, testInfo, "admin-class-remove-refused");
});

test("the admin corrects a supervisor's phone number; Vipps must have the new number proved; the log says so in words", async ({
  page,
  baseURL,
}, testInfo) => {
  await logInAsAdmin(page);
  await page.goto("/admin/users?search=veileder4");
  await page.getByRole("link", { name: "Jonas Eriksen" }).click();
  const phone = page.getByLabel("Mobilnummer", { exact: true });
  await phone.fill("12");
  await page.getByRole("button", { name: "Lagre mobilnummer" }).click();
  const summary = page.getByRole("alert").filter({ hasText: "Det er et problem" });
  await expect(
    summary.getByRole("link", { name: "Skriv inn et mobilnummer med 8 til 15 sifre, for eksempel 987 65 432." }),
  ).toBeVisible();
  await checkPage(page, testInfo, "admin-user-phone-error");
  // The number of the Vipps account "ukjent", whom Praksis does not know.
  await phone.fill("111 11 111");
  await page.getByRole("button", { name: "Lagre mobilnummer" }).click();
  await expect(
    page.getByRole("status").getByText("Mobilnummeret til Jonas Eriksen er lagret.", { exact: false }),
  ).toBeVisible();
  await expect(phone).toHaveValue("+4711111111");

  // The log: the phrase, the person, the detail by name.
  await page.goto("/admin/audit");
  await page.getByLabel("Handling", { exact: true }).selectOption({ label: "Endret mobilnummer" });
  await page.getByRole("button", { name: "Søk" }).click();
  const row = page.getByRole("row").filter({ hasText: "Jonas Eriksen" }).first();
  await expect(row).toContainText("Endret mobilnummer");
  await expect(row).toContainText("Mobilnummer: endret");
  await checkPage(page, testInfo, "admin-audit-words");

  // Vipps with the new number: not in at once, the account's e-mail code first.
  await page.context().clearCookies();
  const since = Date.now() - 1;
  await signInAtProvider(page, "Vipps", "ukjent");
  await expect(page).toHaveURL(/\/vipps-confirm$/);
  expect(await readMail(baseURL, "veileder4@example.org", since)).toBeTruthy();

  // Put back as it was.
  await page.context().clearCookies();
  await logInAsAdmin(page);
  await page.goto("/admin/users?search=veileder4");
  await page.getByRole("link", { name: "Jonas Eriksen" }).click();
  await page.getByLabel("Mobilnummer", { exact: true }).fill("+47 468 13 579");
  await page.getByRole("button", { name: "Lagre mobilnummer" }).click();
  await expect(
    page.getByRole("status").getByText("Mobilnummeret til Jonas Eriksen er lagret.", { exact: false }),
  ).toBeVisible();
});

test("a semester report download is one entry in the log, with its count of students", async ({ page }) => {
  await logInAsAdmin(page);
  await page.goto("/admin/semesters");
  await page.getByRole("link", { name: calendar.current.name, exact: true }).first().click();
  const href = await page.getByRole("link", { name: /^Last ned semesterrapport for / }).getAttribute("href");
  expect((await page.request.get(href!)).status()).toBe(200);

  await page.goto("/admin/audit?person=student01%40example.org&as=subject");
  const rows = page.getByRole("row").filter({ hasText: "Lastet ned semesterrapport" });
  await expect(rows.first()).toContainText(`Semester: ${calendar.current.name}`);
  await expect(rows.first()).toContainText(/Studenter: \d+/);
  // No row per student for the download.
  await expect(page.getByRole("row").filter({ hasText: "Side: Semesterrapport" })).toHaveCount(0);
});
