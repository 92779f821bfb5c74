import { expect, type Page } from "@playwright/test";
import { checkPage, logInWithProvider, skipAutosavePause, test } from "./support/fixtures";

// Offline (ADR 0011): the service worker's kept pages, and answers kept in the browser while the
// network is away. Student15 logs in here through the local Feide (no other file logs them in;
// answering.spec.ts only has their supervisor answer about them, in a set of the supervisor's own).
const FORM = "Vurdering av kliniske kompetanser";
const questions = (page: Page) => page.getByRole("group", { name: /^\d+\. / });
const status = (page: Page, text: string | RegExp) => page.getByRole("status").filter({ hasText: text });
const kept = (page: Page) =>
  page.evaluate(() =>
    Object.keys(localStorage)
      .filter((key) => key.startsWith("praksis:unsent:"))
      .map((key) => localStorage.getItem(key)),
  );

test.use({ serviceWorkers: "allow" });

test("offline: kept pages, and answers kept in the browser until the network is back", async ({
  page,
  context,
}, testInfo) => {
  test.skip(testInfo.project.name === "no-js", "the service worker and the autosave need JavaScript");
  // The worker's first install fetches every kept file; on a busy machine that takes a while.
  test.setTimeout(90_000);
  // The worker's file is looked for afresh on every visit, never kept by an HTTP cache.
  const worker = await page.request.get("/sw.js");
  expect(worker.status()).toBe(200);
  expect(worker.headers()["content-type"]).toMatch(/javascript/);
  expect(worker.headers()["cache-control"]).toBe("no-cache");

  await page.clock.install();
  await logInWithProvider(page, "Feide", "student15");
  // The worker is registered on the first page and active once it has kept its files; the pages
  // loaded from then on go through it.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.goto("/student/forms");
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null), "the worker controls the page").toBe(
    true,
  );
  await page
    .getByRole("link", { name: new RegExp(`(Start|Fortsett|Åpne) ${FORM}`) })
    .first()
    .click();
  await expect(page.getByRole("heading", { level: 1, name: FORM })).toBeVisible();
  await page.getByRole("button", { name: "Neste" }).click();
  await expect(page.getByText("Del 2 av 5", { exact: true })).toBeVisible();
  const formUrl = page.url();
  const first = questions(page).first();
  const second = questions(page).nth(1);

  // Offline, the autosave keeps the change in the browser and says so.
  await context.setOffline(true);
  await first.getByRole("radio", { name: "Assistert" }).check();
  await skipAutosavePause(page);
  await expect(
    status(page, "Ikke lagret – ingen nett. Svarene dine ligger i nettleseren og sendes når nettet er tilbake."),
  ).toBeVisible();
  expect(await kept(page)).toHaveLength(1);

  // A link followed without network (the app fetches the next page's data) ends on the offline page.
  await page.getByRole("link", { name: "Tilbake" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Ingen nett" })).toBeVisible();
  await expect(page).toHaveURL(/\/student\/forms$/);
  // So does a page loaded without network; the independence scale is kept.
  await page.goto("/student");
  await expect(page.getByRole("heading", { level: 1, name: "Ingen nett" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "No connection" })).toBeVisible();
  await checkPage(page, testInfo, "offline-page");
  await page.goto("/independence-scale?back=%2Fstudent");
  await expect(page.getByRole("heading", { level: 1, name: "Selvstendighetsskalaen" })).toBeVisible();

  // Back online, the form page puts the kept answer back and sends it; then nothing is kept.
  await context.setOffline(false);
  await page.goto(formUrl);
  await expect(status(page, /^Lagret kl\. \d\d[:.]\d\d$/)).toBeVisible();
  await expect(first.getByRole("radio", { name: "Assistert" })).toBeChecked();
  expect(await kept(page)).toEqual([]);
  // The server has it: loaded again, with nothing left in the browser to put back.
  await page.reload();
  await expect(first.getByRole("radio", { name: "Assistert" })).toBeChecked();

  // Offline again: kept; the network comes back while the page is open, and it is sent at once.
  await context.setOffline(true);
  await second.getByRole("radio", { name: "Veiledet" }).check();
  await skipAutosavePause(page);
  await expect(status(page, /^Ikke lagret – ingen nett/)).toBeVisible();
  await context.setOffline(false);
  await expect(status(page, /^Lagret kl\./)).toBeVisible();
  expect(await kept(page)).toEqual([]);
  await page.reload();
  await expect(second.getByRole("radio", { name: "Veiledet" })).toBeChecked();
});
