import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, type Browser, type Page, type TestInfo } from "@playwright/test";
import { checkPage, logIn, pressAndWaitForPost, readMail, test, screenshots } from "./support/fixtures";

/**
 * Nothing final in one click, and the teacher signs what was assessed. William Karlsen (student08,
 * SYK2001; his teacher Lars Bakken, laerer2; his supervisor has sent nothing) gets a signing form:
 * confirming the mid-semester part asks first, and with forms not sent it needs a box ticked;
 * the check before signing stands above the Sign button and says who has not sent which form;
 * the teacher's signature with forms not sent is refused without the box and taken with it.
 * Nora Hansen (student03, SYK2001; Ingrid Haugen, laerer1) is given a warning in two steps, and it
 * is deleted again at the end. Spec files share the demo's people on one server per project, so
 * these students are this file's alone: no other file opens their pages. Each project (JS and no
 * JS) has a database of its own, so both walk the whole way; the tests run in order.
 */
test.describe.configure({ mode: "serial" });

const flash = (page: Page) => page.getByRole("status").filter({ hasText: /\S/ }).first();
const STUDENT = "William Karlsen";
const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);

async function choose(page: Page, question: string, choice: string) {
  await page.getByRole("group", { name: question }).getByRole("radio", { name: choice, exact: true }).check();
}

/** The mails the e2e server's SMTP peer (support/serve.mjs) took for an address since `since`. */
function mailsSince(baseURL: string | undefined, email: string, since: number): number {
  const dir = path.join(os.tmpdir(), `praksis-e2e-${new URL(baseURL!).port}`, "mail");
  return fs
    .readdirSync(dir)
    .filter((f) => Number(f.split("-")[0]) >= since)
    .filter((f) => (JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as { to: string[] }).to.includes(email))
    .length;
}

/**
 * From the teacher's start page to a student's page in the class. The start page's to-do list can
 * name the same student, so the class page is waited for before the student's link is chosen: with a
 * client-side navigation still under way, `.first()` would otherwise find the start page's link.
 */
async function openStudentInClass(page: Page, student: string) {
  await page.getByRole("link", { name: "SYK2001 Praksis i sykehjem" }).first().click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("SYK2001 Praksis i sykehjem");
  await page.getByRole("link", { name: student }).first().click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(student);
}

async function openSigningForm(page: Page) {
  await logIn(page, "laerer2@example.org");
  await openStudentInClass(page, STUDENT);
  await page
    .getByRole("link", { name: /^(Opprett signeringsskjema|Signeringsskjema)$/ })
    .first()
    .click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Signeringsskjema");
}

async function asStudent(browser: Browser, testInfo: TestInfo, act: (page: Page) => Promise<void>) {
  const context = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    locale: "nb-NO",
    javaScriptEnabled: testInfo.project.use.javaScriptEnabled,
  });
  try {
    await act(await context.newPage());
  } finally {
    await context.close();
  }
}

test("confirming the mid-semester part asks first; with forms not sent it needs the box ticked", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await openSigningForm(page);
  await choose(page, "Er arbeidet med de spesifikke kompetanseområdene påbegynt?", "Ja");
  await choose(page, "Har studenten gitt tilbakemelding på praksisstudiet og veiledningen?", "Nei");
  await page.getByLabel("Dato for midtveisvurderingen").fill(weekAgo);
  await page.getByRole("button", { name: "Lagre og bekreft midtveisvurderingen" }).click();

  // The first press keeps nothing: it shows what will be confirmed and the forms not sent.
  // A modal once the page's script runs; a section of the page without it, or when the server's page
  // (a press before the script started) showed it first.
  const asked = { name: `Vil du bekrefte midtveisvurderingen for ${STUDENT}?` };
  const dialog = page.getByRole("dialog", asked).or(page.getByRole("region", asked));
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(
    "Vurdering av kliniske kompetanser: ikke sendt av studenten, praksisveileder og praksislærer",
  );
  await expect(dialog).toContainText("Legemiddelhåndtering: ikke sendt av");
  await checkPage(page, testInfo, "mid-confirm");
  await screenshots(page, testInfo, "mid-confirm");

  // "Nei, gå tilbake": the form again, as typed, nothing confirmed.
  await dialog.getByRole("button", { name: "Nei, gå tilbake" }).click();
  await expect(page.getByRole("region", { name: `Vil du bekrefte midtveisvurderingen for ${STUDENT}?` })).toHaveCount(
    0,
  );
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(
    page
      .getByRole("group", { name: "Har studenten gitt tilbakemelding på praksisstudiet og veiledningen?" })
      .getByRole("radio", { name: "Nei", exact: true }),
  ).toBeChecked();
  await expect(page.getByText("Signeringsskjemaet er ikke opprettet ennå.")).toBeVisible();

  // Confirmed without the box: refused, saying why.
  await page.getByRole("button", { name: "Lagre og bekreft midtveisvurderingen" }).click();
  await dialog.getByRole("button", { name: "Ja, bekreft midtveisvurderingen" }).click();
  await expect(dialog.getByText("Kryss av for at du går videre selv om ikke alle skjemaene er sendt.")).toBeVisible();
  await expect(page.getByText("Signeringsskjemaet er ikke opprettet ennå.")).toBeVisible();
  await checkPage(page, testInfo, "mid-confirm-refused");

  await dialog
    .getByRole("checkbox", { name: "Jeg bekrefter midtveisvurderingen selv om ikke alle skjemaene er sendt" })
    .check();
  await dialog.getByRole("button", { name: "Ja, bekreft midtveisvurderingen" }).click();
  await expect(flash(page)).toContainText("Signeringsskjemaet er lagret.");
  await expect(page.getByRole("region", { name: "Midtveisvurdering" }).getByRole("button")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Lagre sluttvurderingen" })).toBeVisible();
});

test("the check before signing stands above the Sign button; the teacher's signature with forms not sent needs the box", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  await openSigningForm(page);
  for (const question of [
    "Er kravet til tilstedeværelse oppfylt?",
    "Er de spesifikke kompetanseområdene bestått?",
    "Er de generelle kompetanseområdene bestått?",
  ]) {
    await choose(page, question, "Ja");
  }
  await choose(page, "Er arbeidskravene godkjent?", "Ikke relevant");
  await pressAndWaitForPost(page, page.getByRole("button", { name: "Lagre sluttvurderingen" }));
  await expect(flash(page)).toContainText("Signeringsskjemaet er lagret.");

  await asStudent(browser, testInfo, async (student) => {
    await logIn(student, "student08@example.org");
    await student.goto("/student/forms");
    await student.getByRole("link", { name: "Signeringsskjema", exact: true }).first().click();
    await student.getByRole("button", { name: "Signer" }).click();
    await expect(flash(student)).toContainText("Du har signert signeringsskjemaet.");
  });

  await page.reload();
  const check = page.getByRole("region", { name: "Kontroll før signering" });
  const sign = page.getByRole("button", { name: "Signer" });
  await expect(check).toBeVisible();
  // Above the button, in the page's order and on the screen.
  expect((await check.boundingBox())!.y).toBeLessThan((await sign.boundingBox())!.y);
  await expect(check).toContainText("4 skjemaer er ikke sendt av alle.");
  const row = check.getByRole("row", { name: /Vurdering av kliniske kompetanser \(midtveis\)/ });
  await expect(row).toContainText("Ikke sendt");
  await expect(row).toContainText(/Ikke sendt, 0 av \d+ besvart/);
  // Each form not sent links to the teacher's page of it.
  await expect(row.getByRole("link", { name: "Vurdering av kliniske kompetanser (midtveis)" })).toHaveAttribute(
    "href",
    /^\/teacher\/class\/\d+\/student\/\d+\/form\/\d+\/assignment\/\d+$/,
  );
  await checkPage(page, testInfo, "signing-check");
  await screenshots(page, testInfo, "signing-check");

  // Without the box about the forms: refused, and nothing signed.
  await page.getByRole("checkbox", { name: "Jeg bekrefter at jeg signerer uten praksisveileders signatur" }).check();
  await sign.click();
  const summary = page.getByRole("alert").filter({ hasText: "Klarte ikke signere." });
  await expect(
    summary.getByRole("link", { name: "Kryss av for at du går videre selv om ikke alle skjemaene er sendt." }),
  ).toBeVisible();
  await expect(page.getByRole("region", { name: "Signaturer" })).not.toContainText("Signert av Lars Bakken");
  await checkPage(page, testInfo, "signing-unsent-refused");

  await page.getByRole("checkbox", { name: "Jeg bekrefter at jeg signerer uten praksisveileders signatur" }).check();
  await page.getByRole("checkbox", { name: "Jeg signerer selv om ikke alle skjemaene er sendt" }).check();
  await sign.click();
  await expect(flash(page)).toContainText("Signeringsskjemaet er signert av alle");
  await expect(page.getByRole("region", { name: "Signaturer" })).toContainText("Signert av Lars Bakken");
});

test("giving a warning shows it as the student will see it, and asks once more; nothing is mailed before", async ({
  page,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  await logIn(page, "laerer1@example.org");
  await openStudentInClass(page, "Nora Hansen");
  await page
    .getByRole("region", { name: /^Varsel/ })
    .getByRole("link", { name: "Skriv varsel" })
    .click();
  await page.getByLabel("Begrunnelse").fill("Du har flere ganger ikke dobbeltkontrollert legemidler.");
  await page.getByLabel("Krav for å bestå praksis").fill("Du må dobbeltkontrollere hver utdeling sammen med veileder.");
  await page.getByLabel("Oppsummering av kravene").fill("Dobbeltkontroll ved hver utdeling.");
  // "Lagre utkast" is the primary button; "Gi varsel" the second.
  const buttons = page.locator(".ui-button-group").last().getByRole("button");
  await expect(buttons.first()).toHaveText("Lagre utkast");
  await expect(buttons.first()).not.toHaveClass(/ui-button--secondary/);
  await expect(page.getByRole("button", { name: "Gi varsel" })).toHaveClass(/ui-button--secondary/);

  const since = Date.now() - 1;
  await page.getByRole("button", { name: "Gi varsel" }).click();
  await expect(page).toHaveURL(/\/warning\/give$/);
  await expect(page.getByRole("heading", { level: 1, name: "Vil du gi varselet til Nora Hansen?" })).toBeVisible();
  const preview = page.getByRole("region", { name: "Slik ser studenten varselet" });
  await expect(preview).toContainText(/^Slik ser studenten varselet\s*Ingrid Haugen ga deg dette varselet \d/);
  await expect(preview.getByRole("heading", { level: 3, name: "Krav for å bestå praksis" })).toBeVisible();
  await expect(preview).toContainText("Dobbeltkontroll ved hver utdeling.");
  await checkPage(page, testInfo, "warning-give");
  await screenshots(page, testInfo, "warning-give");
  // The first press mailed nobody and gave nothing.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  expect(mailsSince(baseURL, "student03@example.org", since)).toBe(0);

  // Back to the draft: still a draft.
  await page.getByRole("link", { name: "Nei, gå tilbake til utkastet" }).click();
  await expect(page.getByRole("definition").filter({ hasText: "Utkast" })).toBeVisible();
  await expect(page.getByLabel("Oppsummering av kravene")).toHaveValue("Dobbeltkontroll ved hver utdeling.");

  await page.getByRole("button", { name: "Gi varsel" }).click();
  await page.getByRole("button", { name: "Gi varselet nå" }).click();
  await expect(flash(page)).toContainText("Varselet er gitt til Nora Hansen, som har fått beskjed på e-post.");
  await expect(page.getByRole("definition").filter({ hasText: "Gitt, ikke bekreftet av studenten" })).toBeVisible();
  expect(await readMail(baseURL, "student03@example.org", since, /student\/warning/)).toContain("student/warning");

  // Taken away again, so Nora's pages are as the demo made them for the other tests.
  await page.getByRole("link", { name: "Slett varselet" }).click();
  await page.getByRole("button", { name: "Ja, slett" }).click();
  await expect(flash(page)).toContainText("Varselet til Nora Hansen er slettet.");
});
