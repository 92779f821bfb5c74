import { expect, type Page } from "@playwright/test";
import { checkPage, logInAsAdmin, logInWithProvider, skipAutosavePause, test } from "./support/fixtures";
import { calendar, currentYear } from "./support/calendar";

// Everyone here logs in through the local Feide and Vipps providers, never by e-mail code: other
// files log people in by code at the same time, and a new code voids the one they are typing.
// Nobody here is someone whose first log-in another file checks (login.spec, privacy.spec).
const FORM = "Vurdering av kliniske kompetanser";
const flash = (page: Page) => page.getByRole("status").filter({ hasText: /\S/ }).first();
const summary = (page: Page) => page.getByRole("alert").filter({ hasText: "Det er et problem" });
/** The page's graded questions: each a group of radios named by its number and text ("1. Observerer …"). */
const questions = (page: Page) => page.getByRole("group", { name: /^\d+\. / });

/** Gives every graded question on the page the same grade (once the whole page is there: its buttons come last). */
async function gradeAll(page: Page, grade: string) {
  await page.getByRole("button", { name: "Lagre og avslutt" }).waitFor();
  const all = questions(page);
  const count = await all.count();
  for (let i = 0; i < count; i++) await all.nth(i).getByRole("radio", { name: grade, exact: true }).check();
  return count;
}

/** The student's mid-semester main form, from their forms page. */
async function openOwnMidForm(page: Page) {
  await page.goto("/student/forms");
  const mid = page.getByRole("region", { name: "Midtveisvurdering (fristen er ute)" });
  await mid.getByRole("link", { name: new RegExp(`(Start|Fortsett|Åpne) ${FORM}`) }).click();
  await expect(page.getByRole("heading", { level: 1, name: FORM })).toBeVisible();
}

test("a student answers the whole form page by page and sends it; the server refuses a 2001-character comment", async ({
  page,
}, testInfo) => {
  test.skip(testInfo.project.name === "js", "the plain-post path; the js project covers autosave");
  test.setTimeout(120_000);
  await logInWithProvider(page, "Feide", "student09");
  await openOwnMidForm(page);
  await expect(page.getByText("Del 1 av 5", { exact: true })).toBeVisible();
  await checkPage(page, testInfo, "form-page-1");

  // Part 1: the student's own reflection (text questions).
  for (const box of await page.getByRole("textbox").all()) await box.fill("Jeg har lært å planlegge vakten bedre.");
  await page.getByRole("button", { name: "Neste" }).click();
  await expect(page.getByText("Del 2 av 5", { exact: true })).toBeVisible();

  // Part 2: grades; one comment far too long.
  const grades = questions(page);
  expect(await gradeAll(page, "Veiledet")).toBeGreaterThan(0);
  const long = "Lang kommentar. ".repeat(126);
  expect(long.length).toBeGreaterThan(2000);
  await page.getByText("Legg til kommentar").first().click();
  const comment = page.getByRole("textbox", { name: "Kommentar" }).first();
  // The field's maxlength stops the typing at 2000 characters (docs/rules/answering.md), with JavaScript or without.
  await comment.fill(long);
  await expect(comment).toHaveValue(long.slice(0, 2000));
  // The server's check stays, for a browser that lets more through: it refuses and keeps the text.
  await comment.evaluate((field) => field.removeAttribute("maxlength"));
  await comment.fill(long);
  await page.getByRole("button", { name: "Neste" }).click();
  await expect(
    summary(page).getByRole("link", { name: "Kommentaren kan ha høyst 2000 tegn. Kort den ned, så lagres den." }),
  ).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Kommentar" }).first()).toHaveValue(long.replace(/\r\n/g, "\n"));
  await expect(grades.first().getByRole("radio", { name: "Veiledet" })).toBeChecked();
  await checkPage(page, testInfo, "form-page-comment-too-long");
  await page.getByRole("textbox", { name: "Kommentar" }).first().fill("Trygg på observasjonene.");
  await page.getByRole("button", { name: "Neste" }).click();
  await expect(page.getByText("Del 3 av 5", { exact: true })).toBeVisible();

  for (let part = 3; part <= 4; part++) {
    await gradeAll(page, "Delvis selvstendig");
    await page.getByRole("button", { name: "Neste" }).click();
    await expect(page.getByText(`Del ${part + 1} av 5`, { exact: true })).toBeVisible();
  }
  // Sending with the last part ungraded: it says which questions, with links to them.
  await page.getByRole("button", { name: "Send skjemaet" }).click();
  await expect(summary(page).getByRole("link", { name: "3 spørsmål mangler karakter" })).toBeVisible();
  await expect(page.getByRole("link", { name: /^Del 5: / })).toHaveCount(3);
  await checkPage(page, testInfo, "form-page-grades-missing");
  await gradeAll(page, "Delvis selvstendig");
  await page.getByRole("button", { name: "Forrige" }).click();
  await expect(page.getByText("Del 4 av 5", { exact: true })).toBeVisible();
  await expect(page.getByRole("radio", { name: "Delvis selvstendig" }).first()).toBeChecked();
  await page.getByRole("button", { name: "Neste" }).click();
  await page.getByRole("button", { name: "Send skjemaet" }).click();
  await expect(page).toHaveURL(/\/student\/forms$/);
  await expect(flash(page)).toContainText("Skjemaet er sendt.");
  const mid = page.getByRole("region", { name: "Midtveisvurdering (fristen er ute)" });
  await expect(mid.getByRole("row").filter({ hasText: FORM })).toContainText(
    new RegExp(`Sendt \\d{1,2}\\.\\d{1,2}\\.${currentYear}`),
  );

  // The results: own answers, nothing sent by the others yet.
  await mid.getByRole("link", { name: `Se resultater for ${FORM}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Resultater: ${FORM}` })).toBeVisible();
  await expect(page.getByRole("img", { name: "Karakterer, midtveisvurdering" })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "Forventet nivå" })).toHaveCount(0);
  await checkPage(page, testInfo, "results-student");
});

test("with JavaScript, answers save themselves 3 seconds after the last change, with a counter and a help dialog", async ({
  page,
}, testInfo) => {
  test.skip(testInfo.project.name === "no-js", "autosave needs JavaScript");
  await logInWithProvider(page, "Feide", "student10");
  await page.clock.install();
  await openOwnMidForm(page);
  await page.getByRole("button", { name: "Neste" }).click();
  await expect(page.getByText("Del 2 av 5", { exact: true })).toBeVisible();
  // From here the page's time moves only when the test moves it.
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));

  const first = questions(page).first();
  await first.getByRole("radio", { name: "Assistert" }).check();
  await page.getByText("Legg til kommentar").first().click();
  const comment = page.getByRole("textbox", { name: "Kommentar" }).first();
  await comment.fill("Trenger mer trening");
  await expect(page.getByText("Du har 1981 tegn igjen")).toBeVisible();
  const status = page.locator(".answer-form__status");
  // Nothing is sent before the pause is over…
  await page.clock.runFor(2500);
  await expect(status).toHaveText("");
  // …and then it is, without leaving the page.
  await page.clock.runFor(600);
  await expect(status).toHaveText(/^Lagret kl\. \d{2}:\d{2}$/);
  await expect(page).toHaveURL(/\?group=2$/);
  // Time runs again (axe and the rest of the page need it).
  await page.clock.resume();

  await page.reload();
  await expect(questions(page).first().getByRole("radio", { name: "Assistert" })).toBeChecked();
  await expect(page.getByRole("textbox", { name: "Kommentar" }).first()).toHaveValue("Trenger mer trening");

  // The help text opens as a dialog and closes again.
  await page
    .getByRole("button", { name: /^Hjelpetekst/ })
    .first()
    .click();
  const dialog = page.getByRole("dialog", { name: "Hjelpetekst" });
  await expect(dialog).toBeVisible();
  await checkPage(page, testInfo, "form-page-help-dialog");
  await dialog.getByRole("button", { name: "Lukk" }).click();
  await expect(dialog).toBeHidden();

  // The independence scale opens in a new tab.
  const [scale] = await Promise.all([
    page.context().waitForEvent("page"),
    page.getByRole("link", { name: /Se selvstendighetsskalaen/ }).click(),
  ]);
  await expect(scale.getByRole("heading", { level: 1 })).toBeVisible();
  await scale.close();
  await checkPage(page, testInfo, "form-page-autosaved");

  // Leaving before the 3 seconds are over loses nothing: what is waiting is sent on the way out.
  await questions(page).nth(1).getByRole("radio", { name: "Uselvstendig" }).check();
  const formPage = page.url();
  const sentOnLeaving = page.waitForResponse(
    (r) => new URL(r.url()).pathname === "/api/answers" && r.request().method() === "POST",
  );
  await page.getByRole("link", { name: "Tilbake" }).click();
  await expect(page).toHaveURL(/\/student\/forms$/);
  // The save goes out as the page is left; come back once it has landed.
  expect((await sentOnLeaving).ok()).toBe(true);
  await page.goto(formPage);
  await expect(questions(page).nth(1).getByRole("radio", { name: "Uselvstendig" })).toBeChecked();

  // Logged out meanwhile (another tab, an expired session): the save is refused, and the page says so
  // with a way to log in again (logged-out.spec.ts follows it through the log-in and back).
  await page.context().clearCookies();
  await questions(page).nth(1).getByRole("radio", { name: "Veiledet" }).check();
  await skipAutosavePause(page);
  await expect(page.locator(".answer-form__status")).toHaveText(/^Ikke lagret – du er logget ut\. .* Logg inn igjen$/, {
    timeout: 8000,
  });
  await expect(questions(page).nth(1).getByRole("radio", { name: "Veiledet" })).toBeChecked();
});

test("with JavaScript, an answer changed in another tab meanwhile is shown, not overwritten", async ({
  page,
  context,
}, testInfo) => {
  test.skip(testInfo.project.name === "no-js", "autosave needs JavaScript");
  await page.clock.install();
  await logInWithProvider(page, "Feide", "student12");
  await openOwnMidForm(page);
  const url = page.url().replace(/\?.*$/, "") + "?group=3";
  await page.goto(url);
  const other = await context.newPage();
  await other.goto(url);
  const gradesIn = (p: Page) => questions(p).first();

  await gradesIn(page).getByRole("radio", { name: "Veiledet" }).check();
  await skipAutosavePause(page);
  await expect(page.locator(".answer-form__status")).toHaveText(/^Lagret/, { timeout: 10_000 });
  await gradesIn(other).getByRole("radio", { name: "Uselvstendig" }).check();
  await skipAutosavePause(other);
  const conflict = other.getByRole("alert").filter({ hasText: "Endret et annet sted" });
  await expect(conflict).toContainText("«Veiledet»", { timeout: 10_000 });
  await checkPage(other, testInfo, "form-page-conflict");
  await conflict.getByRole("button", { name: "Bruk det lagrede svaret" }).click();
  await expect(gradesIn(other).getByRole("radio", { name: "Veiledet" })).toBeChecked();
  await other.close();
});

test("a supervisor grades their student's form and leaves with 'Lagre og avslutt'", async ({ page }, testInfo) => {
  await logInWithProvider(page, "Vipps", "veileder3");
  await page.getByRole("link", { name: /^SYK2002 / }).click();
  await page
    .getByRole("region", { name: "Mine studenter i emnet" })
    .getByRole("link", { name: "Olivia Jacobsen" })
    .click();
  await page
    .getByRole("region", { name: "Skjemaer til midtveisvurdering" })
    .getByRole("link", { name: `${FORM} (midtveisvurdering)` })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: FORM })).toBeVisible();
  await expect(
    page.getByText("Midtveisvurdering · SYK2002 Praksis i spesialisthelsetjenesten · Olivia Jacobsen"),
  ).toBeVisible();
  await page.getByRole("button", { name: "Neste" }).click();
  // The student's own comment on a question shows with their badge.
  await questions(page).first().getByRole("radio", { name: "Delvis selvstendig" }).check();
  await checkPage(page, testInfo, "form-page-supervisor");
  await page.getByRole("button", { name: "Lagre og avslutt" }).click();
  await expect(page).toHaveURL(/\/supervisor\/class\/\d+\/student\/\d+$/);
  await expect(flash(page)).toContainText("Lagret!");
});

test("a teacher sees a student's grades side by side with the expected level, as a chart and a table", async ({
  page,
}, testInfo) => {
  await logInWithProvider(page, "Feide", "laerer2");
  await page
    .getByRole("link", { name: /^SYK2001 / })
    .first()
    .click();
  await page.getByRole("link", { name: "Emma Andersen" }).first().click();
  await page
    .getByRole("link", { name: `Se resultater for ${FORM}` })
    .first()
    .click();
  await expect(page.getByRole("heading", { level: 1, name: `Resultater: ${FORM}` })).toBeVisible();
  const mid = page.getByRole("region", { name: "Midtveisvurdering" });
  await expect(mid.getByRole("img", { name: "Karakterer, midtveisvurdering" })).toBeVisible();
  const table = mid
    .getByRole("table")
    .filter({ has: page.getByRole("columnheader", { name: "Forventet nivå" }) })
    .first();
  await expect(table.getByRole("columnheader", { name: /S Emma Andersen/ })).toBeVisible();
  await expect(table.getByRole("columnheader", { name: /PV Marte Solberg/ })).toBeVisible();
  await expect(table.getByRole("columnheader", { name: /PL Ingrid Haugen/ })).toBeVisible();
  await expect(mid.getByText("Kommentarer til", { exact: false }).first()).toBeVisible();
  await checkPage(page, testInfo, "results-teacher");
});

test("the admin sets expected levels for a class, and can take one away again", async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  await logInAsAdmin(page);
  await page.getByRole("link", { name: "Semestre" }).first().click();
  await page.getByRole("link", { name: calendar.current.name }).first().click();
  await page
    .getByRole("link", { name: /SYK2002/ })
    .first()
    .click();
  const schemes = page.getByRole("region", { name: "Svarordninger" });
  await schemes.getByRole("link", { name: `Forventet nivå for ${FORM}, Slutt` }).click();
  await expect(page.getByRole("heading", { level: 1, name: FORM })).toBeVisible();
  await expect(page.getByText(/Sluttvurdering · SYK2002/)).toBeVisible();
  await checkPage(page, testInfo, "expectations");
  const first = questions(page).first();
  await first.getByRole("radio", { name: "Selvstendig", exact: true }).check();
  const second = questions(page).nth(1);
  await second.getByRole("radio", { name: "Ikke satt" }).check();
  await page.getByRole("button", { name: "Lagre og avslutt" }).click();
  await expect(page).toHaveURL(/\/admin\/class\/\d+$/);
  await expect(flash(page)).toContainText("Lagret!");
  await page.goBack();
  await page.reload();
  await expect(questions(page).first().getByRole("radio", { name: "Selvstendig", exact: true })).toBeChecked();
  await expect(questions(page).nth(1).getByRole("radio", { name: "Ikke satt" })).toBeChecked();
});
