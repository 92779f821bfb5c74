import { expect, type Page } from "@playwright/test";
import { checkPage, logInAsAdmin, logIn, readCode, skipAutosavePause, test } from "./support/fixtures";

/**
 * Logged out while typing (ADR 0011): the autosave's endpoints answer 401 in JSON, the
 * page says so with a link to log in again, keeps what was typed in the browser, and sends it once
 * the person is back. Student04 (Jakob Pedersen) and a warning draft for Frida Sæther (SYK2002, by
 * the admin acting as a teacher of SYK2002) are this file's alone.
 */
const FORM = "Vurdering av kliniske kompetanser";
const questions = (page: Page) => page.getByRole("group", { name: /^\d+\. / });
const status = (page: Page, text: string | RegExp) => page.getByRole("status").filter({ hasText: text });
const kept = (page: Page) =>
  page.evaluate(() =>
    Object.keys(localStorage)
      .filter((key) => key.startsWith("praksis:unsent:"))
      .map((key) => localStorage.getItem(key)),
  );

/** "Logg ut" in another tab of the same browser: the session ends on the server and its cookie goes. */
async function logOutInAnotherTab(page: Page, home: string): Promise<void> {
  const other = await page.context().newPage();
  await other.goto(home);
  await other.getByRole("button", { name: "Logg ut" }).first().click();
  await expect(other.getByRole("status")).toContainText("Du er logget ut.");
  await other.close();
}

test("an answer typed after logging out elsewhere is kept, and saved after logging in again", async ({
  page,
  baseURL,
}, testInfo) => {
  test.skip(testInfo.project.name === "no-js", "without JavaScript the page's own post goes to the log-in page");
  test.setTimeout(90_000);
  await page.clock.install();
  await logIn(page, "student04@example.org");
  await page.goto("/student/forms");
  await page
    .getByRole("link", { name: new RegExp(`(Start|Fortsett|Åpne) ${FORM}`) })
    .first()
    .click();
  await expect(page.getByRole("heading", { level: 1, name: FORM })).toBeVisible();
  await page.getByRole("button", { name: "Neste" }).click();
  await expect(page.getByText("Del 2 av 5", { exact: true })).toBeVisible();
  const formUrl = new URL(page.url());
  const first = questions(page).first();
  const before = await first.getByRole("radio", { checked: true }).count();
  expect(before, "the question starts unanswered").toBe(0);

  await logOutInAnotherTab(page, "/student");
  await first.getByRole("radio", { name: "Veiledet" }).check();
  await skipAutosavePause(page);
  await expect(
    status(
      page,
      "Ikke lagret – du er logget ut. Svarene dine er tatt vare på i denne nettleseren og sendes når du har logget inn igjen.",
    ),
  ).toBeVisible();
  expect(await kept(page)).toHaveLength(1);
  await checkPage(page, testInfo, "form-page-logged-out");

  // The link leads to the log-in page and back to this page; the e-mail code, as a person would.
  const since = Date.now() - 1;
  await status(page, /du er logget ut/)
    .getByRole("link", { name: "Logg inn igjen" })
    .click();
  await expect(page).toHaveURL(`/?redirectTo=${encodeURIComponent(formUrl.pathname + formUrl.search)}`);
  await page.getByRole("link", { name: "Logg inn med e-post" }).click();
  await page.getByLabel("E-postadresse").fill("student04@example.org");
  await page.getByRole("button", { name: "Send kode" }).click();
  await page.getByLabel("Engangskode").fill(await readCode(baseURL, "student04@example.org", since));
  await page.getByRole("button", { name: "Logg inn" }).click();

  // Back on the form page: the kept answer is put back and sent at once; nothing is left kept.
  await expect(page).toHaveURL(formUrl.pathname + formUrl.search);
  await expect(status(page, /^Lagret kl\. \d\d[:.]\d\d$/)).toBeVisible();
  await expect(first.getByRole("radio", { name: "Veiledet" })).toBeChecked();
  expect(await kept(page)).toEqual([]);
  // The server has it.
  await page.reload();
  await expect(first.getByRole("radio", { name: "Veiledet" })).toBeChecked();
});

test("a warning draft typed after logging out elsewhere is kept, and saved after logging in again", async ({
  page,
}, testInfo) => {
  test.skip(testInfo.project.name === "no-js", "without JavaScript the page's own post goes to the log-in page");
  test.setTimeout(90_000);
  await page.clock.install();
  await logInAsAdmin(page);
  await page.getByRole("button", { name: "Bytt til Praksislærer" }).first().click();
  await expect(page).toHaveURL(/\/teacher$/);
  await page
    .getByRole("region", { name: "Dine emner dette semesteret" })
    .getByRole("link", { name: "SYK2002 Praksis i spesialisthelsetjenesten" })
    .click();
  await page.getByRole("link", { name: "Frida Sæther", exact: true }).first().click();
  await page
    .getByRole("region", { name: /^Varsel/ })
    .getByRole("link", { name: "Skriv varsel" })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Varsel om fare for ikke bestått praksis" })).toBeVisible();
  const warningUrl = new URL(page.url());
  const reason = "Kom for sent til tre vakter denne uken.";

  await logOutInAnotherTab(page, "/teacher");
  await page.getByLabel("Begrunnelse").fill(reason);
  await skipAutosavePause(page);
  const loggedOut = status(
    page,
    "Utkastet er ikke lagret – du er logget ut. Teksten er tatt vare på i denne nettleseren og lagres når du har logget inn igjen.",
  );
  await expect(loggedOut).toBeVisible();
  await expect(loggedOut.getByRole("link", { name: "Logg inn igjen" })).toHaveAttribute(
    "href",
    `/?redirectTo=${encodeURIComponent(warningUrl.pathname + warningUrl.search)}`,
  );
  expect(await kept(page)).toHaveLength(1);
  await checkPage(page, testInfo, "warning-logged-out");

  // Logged in again (the admin chooses the teacher's role) and back to the page: the draft is saved.
  await page.context().clearCookies();
  await logInAsAdmin(page);
  await page.getByRole("button", { name: "Bytt til Praksislærer" }).first().click();
  // The switch has landed before the page is left (a goto could cancel its post).
  await expect(page).toHaveURL(/\/teacher$/);
  await page.goto(warningUrl.pathname);
  await expect(status(page, /^Utkastet ble lagret kl\. \d{2}:\d{2}$/)).toBeVisible();
  await expect(page.getByLabel("Begrunnelse")).toHaveValue(reason);
  expect(await kept(page)).toEqual([]);
  await page.reload();
  await expect(page.getByLabel("Begrunnelse")).toHaveValue(reason);
});
