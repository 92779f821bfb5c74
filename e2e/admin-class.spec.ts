import { expect, type Page } from "@playwright/test";
import { checkPage, logInAsAdmin, test } from "./support/fixtures";
import { addDays, calendar, dateText, exactDate, movedSyk2002End } from "./support/calendar";

/** Logs the admin in and opens SYK2002 from the start page's list of this semester's classes. */
async function openSyk2002(page: Page): Promise<string> {
  await logInAsAdmin(page);
  await expect(page).toHaveURL(/\/admin$/);
  await page.getByRole("link", { name: "SYK2002 Praksis i spesialisthelsetjenesten" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    `${calendar.current.name} SYK2002 Praksis i spesialisthelsetjenesten`,
  );
  expect(new URL(page.url()).pathname).toMatch(/^\/admin\/class\/\d+$/);
  return page.url();
}

test("the class page lists schemes and people; the admin adds a response scheme", async ({ page }, testInfo) => {
  await openSyk2002(page);
  const schemes = page.getByRole("region", { name: "Svarordninger" });
  await expect(schemes.getByRole("row")).toHaveCount(3);
  const students = page.getByRole("region", { name: "Studenter i klassen" });
  // The twelve seeded students; another file may let a student join this class meanwhile.
  await expect(students.getByRole("row").filter({ hasText: /student(1[3-9]|2[0-4])@example\.org/ })).toHaveCount(12);
  await expect(students.getByRole("link", { name: "Leah Strand" })).toHaveAttribute("href", /^\/admin\/users\/\d+$/);
  await checkPage(page, testInfo, "admin-class");

  // Nothing chosen: both problems are named, linked from the summary at the top.
  await page.getByRole("button", { name: "Legg til svarordning" }).click();
  const summary = page.getByRole("alert").filter({ hasText: "Det er et problem" });
  await expect(
    summary.getByRole("link", { name: "Velg om svarordningen gjelder midtveis eller slutt." }),
  ).toBeVisible();
  await expect(summary.getByRole("link", { name: "Velg minst ett skjema." })).toBeVisible();
  await checkPage(page, testInfo, "admin-class-scheme-errors");

  // A form already in the class's mid-semester scheme is refused by name, and the choices stay.
  await page.getByRole("radio", { name: "Midtveis" }).check();
  await page.getByRole("checkbox", { name: "Sårstell og infeksjonsforebygging" }).check();
  await page.getByRole("button", { name: "Legg til svarordning" }).click();
  await expect(
    summary.getByRole("link", {
      name: "«Sårstell og infeksjonsforebygging» er allerede med i en midtveisordning for klassen.",
    }),
  ).toBeVisible();
  await expect(page.getByRole("radio", { name: "Midtveis" })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: "Sårstell og infeksjonsforebygging" })).toBeChecked();

  await page.getByRole("checkbox", { name: "Sårstell og infeksjonsforebygging" }).uncheck();
  await page.getByRole("checkbox", { name: "Legemiddelhåndtering" }).check();
  await page.getByRole("button", { name: "Legg til svarordning" }).click();
  await expect(page.getByRole("status").getByText("Midtveisordningen er lagt til.")).toBeVisible();
  await expect(schemes.getByRole("row")).toHaveCount(4);
  const expectations = schemes.getByRole("link", { name: "Forventet nivå for Legemiddelhåndtering, Midtveis" });
  await expect(expectations).toHaveAttribute("href", /^\/admin\/class\/\d+\/form\/\d+\/assignment\/\d+$/);
  await expect(page.getByRole("checkbox", { name: "Legemiddelhåndtering" })).not.toBeChecked();

  // Removed again (nobody has answered it), so SYK2002's schemes are as the demo made them: other
  // files count its students' forms.
  await schemes.getByRole("link", { name: "Fjern svarordningen midtveis: Legemiddelhåndtering" }).click();
  await page.getByRole("button", { name: "Fjern svarordningen" }).click();
  await expect(page.getByRole("status").getByText("Midtveisordningen er fjernet.")).toBeVisible();
  await expect(schemes.getByRole("row")).toHaveCount(3);
});

test("the admin changes the end-semester date; a date after the semester is refused", async ({ page }, testInfo) => {
  await openSyk2002(page);
  const summary = page.getByRole("alert").filter({ hasText: "Det er et problem" });
  const seeded = calendar.classes.SYK2002.endSemesterDate;
  await expect(page.getByRole("definition").filter({ hasText: exactDate(seeded) })).toBeVisible();
  const endDate = page.getByLabel("Sluttdato", { exact: true });
  const afterSemester = addDays(calendar.current.endDate, 10);
  await endDate.fill(afterSemester);
  await page.getByRole("button", { name: "Lagre sluttdato" }).click();
  await expect(
    summary.getByRole("link", { name: "Sluttdatoen kan ikke være etter at semesteret slutter." }),
  ).toBeVisible();
  await expect(endDate).toHaveValue(afterSemester);
  await checkPage(page, testInfo, "admin-class-end-date-error");
  // A day earlier: inside the semester, after the mid-semester date (student.spec expects either date).
  await endDate.fill(movedSyk2002End);
  await page.getByRole("button", { name: "Lagre sluttdato" }).click();
  await expect(
    page.getByRole("status").getByText(`Sluttdatoen er lagret: ${dateText(movedSyk2002End)}.`),
  ).toBeVisible();
  await expect(page.getByRole("definition").filter({ hasText: exactDate(movedSyk2002End) })).toBeVisible();
  await expect(page.getByRole("definition").filter({ hasText: exactDate(seeded) })).toHaveCount(0);
});

test("the class page leads to a supervisor's students in the class", async ({ page }, testInfo) => {
  const classUrl = await openSyk2002(page);
  await page
    .getByRole("region", { name: "Praksisveiledere i klassen" })
    .getByRole("link", { name: "Hanne Berg" })
    .click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/Studentene til Hanne Berg/);
  const own = page.getByRole("region", { name: "Studentene til Hanne Berg i klassen" });
  await expect(own.getByRole("row")).toHaveCount(6);
  await expect(own.getByRole("link", { name: "Leah Strand" })).toHaveAttribute("href", /^\/admin\/users\/\d+$/);
  await checkPage(page, testInfo, "admin-class-supervisor");
  await page.getByRole("link", { name: "Tilbake til SYK2002 Praksis i spesialisthelsetjenesten" }).click();
  await expect(page).toHaveURL(classUrl);
});

test("an unknown class or a user who is no supervisor of the class is a 404 page", async ({ page }) => {
  await logInAsAdmin(page);
  for (const path of ["/admin/class/999999", "/admin/class/abc", "/admin/class/1/supervisor/999999"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Fant ikke siden" })).toBeVisible();
  }
});
