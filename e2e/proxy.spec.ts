import { expect, type Browser, type Page, type TestInfo } from "@playwright/test";
import { pressAndWaitForPost, readCode, requestCode, skipAutosavePause, test } from "./support/fixtures";

/**
 * Going live, as README's "Going live" says: the production build with its production settings
 * (APP_URL=https://…, HOST=127.0.0.1, TRUST_PROXY=127.0.0.1) behind nginx from Debian with
 * deploy/nginx/praksis.conf, which ends TLS (e2e/support/serve-proxied.mjs). Over https, with
 * JavaScript on and off: log in with an e-mail code, answer a form (autosaved with JavaScript, a
 * page post without), the teacher fills in the signing form and the student signs it. Every post
 * carries the browser's https Origin, which the app's request must match. Both projects use this
 * one server: the JS project Sofie Nilsen (student05) and her teacher laerer1, the no-JS project
 * Emil Larsen (student06) and laerer2.
 */
const ORIGIN = `https://localhost:${Number(process.env.E2E_PORT ?? 3100) + 50}`;
test.use({ baseURL: ORIGIN, ignoreHTTPSErrors: true });

const FORM = "Vurdering av kliniske kompetanser";
const flash = (page: Page) => page.getByRole("status").filter({ hasText: /\S/ }).first();
const questions = (page: Page) => page.getByRole("group", { name: /^\d+\. / });
const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);

async function choose(page: Page, question: string, choice: string) {
  await page.getByRole("group", { name: question }).getByRole("radio", { name: choice, exact: true }).check();
}

/** The log-in pages themselves, over https: the address, the code from the mail, the privacy notice. */
async function logIn(page: Page, email: string, home: string) {
  const since = await requestCode(page, email);
  await page.getByLabel("Engangskode").fill(await readCode(ORIGIN, email, since));
  await page.getByRole("button", { name: "Logg inn" }).click();
  if (test.info().retry === 0) {
    await expect(page.getByRole("heading", { level: 1, name: "Før du fortsetter: personvern" })).toBeVisible();
    await page.getByRole("button", { name: "Jeg godtar" }).click();
  } else {
    // A retry: the first attempt's log-in has accepted the privacy notice already.
    await page.waitForURL((url) => url.pathname === "/privacy-consent" || url.pathname === home);
    if (new URL(page.url()).pathname === "/privacy-consent")
      await page.getByRole("button", { name: "Jeg godtar" }).click();
  }
  await expect(page).toHaveURL(new RegExp(`${home}$`));
  // The session cookie of an https APP_URL: Secure, with the __Host- prefix.
  const session = (await page.context().cookies()).filter((cookie) => cookie.name.startsWith("__Host-"));
  expect(session.length, "a __Host- cookie").toBeGreaterThan(0);
  expect(session.every((cookie) => cookie.secure && cookie.httpOnly)).toBe(true);
}

async function newPage(browser: Browser, testInfo: TestInfo): Promise<Page> {
  const context = await browser.newContext({
    baseURL: ORIGIN,
    ignoreHTTPSErrors: true,
    locale: "nb-NO",
    javaScriptEnabled: testInfo.project.use.javaScriptEnabled,
  });
  return context.newPage();
}

test("over https behind nginx: log in, answer and save a form, fill in and sign the signing form", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const js = testInfo.project.name === "js";
  const [student, name, teacher] = js
    ? ["student05@example.org", "Sofie Nilsen", "laerer1@example.org"]
    : ["student06@example.org", "Emil Larsen", "laerer2@example.org"];

  await page.clock.install();
  await logIn(page, student, "/student");
  await page.goto("/student/forms");
  await page
    .getByRole("region", { name: "Midtveisvurdering (fristen er ute)" })
    .getByRole("link", { name: new RegExp(`(Start|Fortsett|Åpne) ${FORM}`) })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: FORM })).toBeVisible();
  const reflection = "Skrevet bak proxyen.";
  await page.getByRole("textbox").first().fill(reflection);
  await page.getByRole("button", { name: "Neste" }).click();
  await expect(page.getByText("Del 2 av 5", { exact: true })).toBeVisible();
  if (js) {
    // The autosave: a grade is saved by itself, without leaving the page.
    await questions(page).first().getByRole("radio", { name: "Assistert" }).check();
    await skipAutosavePause(page);
    await expect(page.locator(".answer-form__status")).toHaveText(/^Lagret kl\. \d{2}:\d{2}$/, { timeout: 15_000 });
    await page.reload();
    await expect(questions(page).first().getByRole("radio", { name: "Assistert" })).toBeChecked();
  }
  await page.getByRole("button", { name: "Forrige" }).click();
  await expect(page.getByText("Del 1 av 5", { exact: true })).toBeVisible();
  await expect(page.getByRole("textbox").first()).toHaveValue(reflection);

  // The teacher creates the signing form and fills in both parts.
  const teacherPage = await newPage(browser, testInfo);
  await logIn(teacherPage, teacher, "/teacher");
  await teacherPage
    .getByRole("region", { name: "Dine emner dette semesteret" })
    .getByRole("link", { name: "SYK2001 Praksis i sykehjem" })
    .click();
  await teacherPage
    .getByRole("region", { name: "Studentene du er praksislærer for" })
    .getByRole("link", { name })
    .click();
  await teacherPage.getByRole("link", { name: "Opprett signeringsskjema" }).click();
  await choose(teacherPage, "Er arbeidet med de spesifikke kompetanseområdene påbegynt?", "Ja");
  await choose(teacherPage, "Har studenten gitt tilbakemelding på praksisstudiet og veiledningen?", "Ikke relevant");
  await teacherPage.getByLabel("Dato for midtveisvurderingen").fill(weekAgo);
  await teacherPage.getByRole("button", { name: "Lagre og bekreft midtveisvurderingen" }).click();
  // It asks first; not every form is sent, so the box too.
  await teacherPage
    .getByRole("checkbox", { name: "Jeg bekrefter midtveisvurderingen selv om ikke alle skjemaene er sendt" })
    .check();
  await teacherPage.getByRole("button", { name: "Ja, bekreft midtveisvurderingen" }).click();
  await expect(flash(teacherPage)).toContainText("Signeringsskjemaet er lagret.");
  for (const question of [
    "Er kravet til tilstedeværelse oppfylt?",
    "Er de spesifikke kompetanseområdene bestått?",
    "Er de generelle kompetanseområdene bestått?",
  ]) {
    await choose(teacherPage, question, "Ja");
  }
  await choose(teacherPage, "Er arbeidskravene godkjent?", "Ikke relevant");
  // Landed before the page closes: the flash above has the same words as this one.
  await pressAndWaitForPost(teacherPage, teacherPage.getByRole("button", { name: "Lagre sluttvurderingen" }));
  await expect(flash(teacherPage)).toContainText("Signeringsskjemaet er lagret.");
  await teacherPage.context().close();

  // The student signs.
  await page.goto("/student/forms");
  await page.getByRole("link", { name: "Signeringsskjema", exact: true }).click();
  await page.getByRole("button", { name: "Signer" }).click();
  await expect(flash(page)).toContainText("Du har signert signeringsskjemaet.");
  await expect(page.getByRole("region", { name: "Signaturer" })).toContainText(`Signert av ${name}`);
});
