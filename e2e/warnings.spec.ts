import { expect, type Page } from "@playwright/test";
import { checkPage, logInAsAdmin, logInWithProvider, readMail, test } from "./support/fixtures";

/**
 * A warning from start to end, for Lukas Iversen (student14, SYK2002): his teacher (the admin, acting
 * as practice teacher) writes and gives it, he reads and confirms it, his supervisor (veileder4,
 * Jonas Eriksen) sees it, and the teacher deletes it again. Each project starts from the demo data,
 * so the tests run in order and hand the warning on. Without JavaScript the draft is saved with the
 * button; with it, it saves itself.
 */
test.describe.configure({ mode: "serial" });

const STUDENT = "Lukas Iversen";
const TEXT = {
  Begrunnelse:
    "Du har flere ganger ikke meldt fra om endringer i pasientens tilstand.\nDet er fare for at du ikke når læringsutbyttet.",
  "Krav for å bestå praksis":
    "Du må melde fra til veileder med en gang pasientens tilstand endrer seg, og bruke NEWS2 ved hver observasjon.",
  "Oppsummering av kravene": "Meld fra om endringer med en gang.",
};

const flash = (page: Page) => page.getByRole("status").filter({ hasText: /\S/ }).first();

/** The admin, switched to the practice-teacher role, on Lukas Iversen's page in SYK2002. */
async function openStudentAsTeacher(page: Page): Promise<void> {
  await logInAsAdmin(page);
  await page.getByRole("button", { name: "Bytt til Praksislærer" }).first().click();
  await expect(page).toHaveURL(/\/teacher$/);
  await page
    .getByRole("region", { name: "Dine emner dette semesteret" })
    .getByRole("link", { name: "SYK2002 Praksis i spesialisthelsetjenesten" })
    .click();
  await page
    .getByRole("region", { name: "Studentene du er praksislærer for" })
    .getByRole("link", { name: STUDENT })
    .click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(STUDENT);
}

const warningCard = (page: Page) => page.getByRole("region", { name: /^Varsel/ });

test("the teacher writes a warning and gives it; the student is told by e-mail", async ({
  page,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  const js = testInfo.project.name === "js";
  // The page's clock starts at the real time (the server's), so whatever the page computes from it agrees.
  if (js) await page.clock.install();
  await openStudentAsTeacher(page);
  await expect(warningCard(page)).toContainText("Studenten har ikke fått noe varsel.");
  await warningCard(page).getByRole("link", { name: "Skriv varsel" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Varsel om fare for ikke bestått praksis" })).toBeVisible();
  const give = page.getByRole("button", { name: "Gi varsel" });
  await checkPage(page, testInfo, "warning-teacher-new");

  if (js) {
    // Offered only once all three texts are written.
    await expect(give).toBeDisabled();
    await expect(page.getByText("Fyll ut alle de tre feltene for å gi varselet.")).toBeVisible();
    // From here the page's time moves only when the test moves it.
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
    await page.getByLabel("Begrunnelse").fill(TEXT.Begrunnelse);
    const saved = page.getByRole("status").filter({ hasText: /^Utkastet ble lagret kl\. \d{2}:\d{2}$/ });
    await page.clock.runFor(2500);
    await expect(saved).toHaveCount(0);
    await page.clock.runFor(600);
    await expect(saved).toBeVisible();
    await page.clock.resume();
    await page.reload();
    await expect(page.getByLabel("Begrunnelse")).toHaveValue(TEXT.Begrunnelse);
    await expect(page.getByRole("definition").filter({ hasText: "Utkast" })).toBeVisible();
    await page.getByLabel("Krav for å bestå praksis").fill(TEXT["Krav for å bestå praksis"]);
    await expect(give).toBeDisabled();
    await page.getByLabel("Oppsummering av kravene").fill(TEXT["Oppsummering av kravene"]);
    await expect(page.getByText(`Du har ${10_000 - TEXT["Oppsummering av kravene"].length} tegn igjen`)).toBeVisible();
    await expect(give).toBeEnabled();
    await checkPage(page, testInfo, "warning-teacher-draft");
  } else {
    await page.getByLabel("Begrunnelse").fill(TEXT.Begrunnelse);
    await page.getByRole("button", { name: "Lagre utkast" }).click();
    await expect(flash(page)).toContainText("Utkastet er lagret.");
    await expect(page.getByRole("definition").filter({ hasText: "Utkast" })).toBeVisible();
    await expect(page.getByLabel("Begrunnelse")).toHaveValue(TEXT.Begrunnelse);
    // The server asks for what is missing and keeps what was typed.
    await page.getByLabel("Oppsummering av kravene").fill(TEXT["Oppsummering av kravene"]);
    await give.click();
    const summary = page.getByRole("alert").filter({ hasText: "Det er et problem" });
    await expect(summary.getByRole("link", { name: "Skriv hva som kreves for å bestå praksis" })).toBeVisible();
    await expect(page.getByLabel("Oppsummering av kravene")).toHaveValue(TEXT["Oppsummering av kravene"]);
    await checkPage(page, testInfo, "warning-teacher-errors");
    await page.getByLabel("Krav for å bestå praksis").fill(TEXT["Krav for å bestå praksis"]);
  }

  const since = Date.now() - 1;
  await give.click();
  // It asks once more, showing the warning as the student will see it (zz-final-steps.spec.ts).
  await expect(page.getByRole("heading", { level: 1, name: `Vil du gi varselet til ${STUDENT}?` })).toBeVisible();
  await page.getByRole("button", { name: "Gi varselet nå" }).click();
  await expect(flash(page)).toContainText(`Varselet er gitt til ${STUDENT}, som har fått beskjed på e-post.`);
  await expect(page.getByRole("definition").filter({ hasText: "Gitt, ikke bekreftet av studenten" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Gi varsel" })).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 2, name: "Krav for å bestå praksis" })).toBeVisible();
  await expect(page.getByText(TEXT["Krav for å bestå praksis"])).toBeVisible();
  await checkPage(page, testInfo, "warning-teacher-given");

  const mail = (await readMail(baseURL, "student14@example.org", since, /student\/warning/)).replace(/=\r?\n/g, "");
  expect(mail).toContain("/student/warning");
  expect(mail).not.toContain("NEWS2");

  await page.getByRole("link", { name: `Tilbake til ${STUDENT}` }).click();
  await expect(warningCard(page)).toContainText("Studenten har ikke bekreftet at hen har lest det.");
  await expect(warningCard(page).getByRole("link", { name: "Se varselet" })).toBeVisible();
});

test("the student sees the alert on the class pages, reads the warning and confirms it", async ({ page }, testInfo) => {
  await logInWithProvider(page, "Feide", "student14");
  await page.goto("/student/forms");
  const alert = page.getByRole("region", { name: "Du har fått et varsel" });
  await expect(alert).toBeVisible();
  await expect(alert).toHaveCSS("position", "sticky");
  await checkPage(page, testInfo, "warning-student-alert");
  // Short enough that the scroll margin keeping focused controls clear of it (12rem on a phone,
  // 8rem from 40em) is taller; readable at 320 px.
  expect((await alert.boundingBox())!.height).toBeLessThan(8 * 16);
  await page.setViewportSize({ width: 320, height: 640 });
  await expect(alert).toBeVisible();
  expect((await alert.boundingBox())!.height).toBeLessThan(12 * 16);
  await checkPage(page, testInfo, "warning-student-alert-320");
  await page.setViewportSize({ width: 1280, height: 720 });

  await alert.getByRole("link", { name: "Les varselet og bekreft at du har lest det" }).click();
  await expect(page).toHaveURL(/\/student\/warning$/);
  await expect(page.getByRole("heading", { level: 1, name: "Varsel om fare for ikke bestått praksis" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Du har fått et varsel" })).toHaveCount(0);
  await expect(page.getByText(/^Ada Administrator ga deg dette varselet \d/)).toBeVisible();
  await expect(page.getByText(TEXT["Oppsummering av kravene"])).toBeVisible();
  await checkPage(page, testInfo, "warning-student");

  await page.getByRole("button", { name: "Jeg har lest og forstått varselet" }).click();
  await expect(flash(page)).toContainText("Takk! Du har bekreftet at du har lest varselet.");
  await expect(page.getByRole("heading", { name: "Du har bekreftet varselet" })).toBeVisible();
  await expect(
    page.getByText(/^Du bekreftet \d{1,2}\.\d{1,2}\.\d{4} kl\. \d{2}:\d{2} at du har lest og forstått varselet\.$/),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Jeg har lest og forstått varselet" })).toHaveCount(0);
  await checkPage(page, testInfo, "warning-student-confirmed");

  await page.getByRole("link", { name: "Tilbake til skjemaene dine" }).click();
  await expect(page).toHaveURL(/\/student\/forms$/);
  await expect(page.getByRole("region", { name: "Du har fått et varsel" })).toHaveCount(0);
});

test("the supervisor reads the warning, and that the student has confirmed it", async ({ page }, testInfo) => {
  await logInWithProvider(page, "Vipps", "veileder4");
  await expect(page).toHaveURL(/\/supervisor$/);
  await page.getByRole("link", { name: "SYK2002 Praksis i spesialisthelsetjenesten" }).click();
  await page.getByRole("region", { name: "Mine studenter i emnet" }).getByRole("link", { name: STUDENT }).click();
  const card = warningCard(page);
  await expect(card).toContainText(
    /Ada Administrator ga studenten et varsel .*Studenten bekreftet .* at hen har lest og forstått det\./,
  );
  await expect(card.getByRole("heading", { level: 3, name: "Begrunnelse" })).toBeVisible();
  await expect(card.getByText(TEXT["Krav for å bestå praksis"])).toBeVisible();
  // Read-only: nothing to write, give or delete.
  await expect(card.getByRole("link")).toHaveCount(0);
  await expect(card.getByRole("button")).toHaveCount(0);
  await checkPage(page, testInfo, "warning-supervisor");
});

test("the teacher deletes the warning, after a confirmation step", async ({ page }, testInfo) => {
  await openStudentAsTeacher(page);
  await warningCard(page).getByRole("link", { name: "Se varselet" }).click();
  await expect(page.getByRole("definition").filter({ hasText: "Bekreftet av studenten" })).toBeVisible();
  await page.getByRole("link", { name: "Slett varselet" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Vil du slette varselet?" })).toBeVisible();
  await checkPage(page, testInfo, "warning-delete");

  // Changing one's mind leaves it as it was.
  await page.getByRole("link", { name: "Nei, gå tilbake" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Varsel om fare for ikke bestått praksis" })).toBeVisible();
  await page.getByRole("link", { name: "Slett varselet" }).click();
  await page.getByRole("button", { name: "Ja, slett" }).click();

  await expect(page.getByRole("heading", { level: 1 })).toContainText(STUDENT);
  await expect(flash(page)).toContainText(`Varselet til ${STUDENT} er slettet.`);
  await expect(warningCard(page)).toContainText("Studenten har ikke fått noe varsel.");
  await expect(warningCard(page).getByRole("link", { name: "Skriv varsel" })).toBeVisible();
  await checkPage(page, testInfo, "warning-deleted");
});
