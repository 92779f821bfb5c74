import { expect, type Page } from "@playwright/test";
import { checkPage, logIn, skipAutosavePause, test } from "./support/fixtures";

/**
 * The autosave never loses typing (ADR 0011): a save or a page post the server cannot take (a 503
 * while the database restarts) keeps the page, its fields and a copy in the browser, says so, and is
 * tried again; the copy is forgotten only once the server has stored it. What is kept is sealed
 * with its owner's key: the next person at a shared browser can neither read nor remove it, and it
 * is sent when its owner is back. Student18 and student19 (SYK2002) are this file's alone.
 */
const FORM = "Vurdering av kliniske kompetanser";
const status = (page: Page, text: string | RegExp) => page.getByRole("status").filter({ hasText: text });
const kept = (page: Page) =>
  page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith("praksis:unsent:")).length);
/** Everything kept in the browser, as stored. */
const store = (page: Page) =>
  page.evaluate(() =>
    Object.fromEntries(
      Object.keys(localStorage)
        .filter((key) => key.startsWith("praksis:unsent:"))
        .map((key) => [key, localStorage.getItem(key)]),
    ),
  );

async function openForm(page: Page) {
  await page.goto("/student/forms");
  await page
    .getByRole("link", { name: new RegExp(`(Start|Fortsett|Åpne) ${FORM}`) })
    .first()
    .click();
  await expect(page.getByRole("heading", { level: 1, name: FORM })).toBeVisible();
  await expect(page.getByText("Del 1 av 5", { exact: true })).toBeVisible();
}

test("a save and a page post answered 503 keep the page and the answer, and it is stored once the server takes it", async ({
  page,
}, testInfo) => {
  test.skip(testInfo.project.name === "no-js", "the autosave and the kept copy need JavaScript");
  test.setTimeout(90_000);
  await page.clock.install();
  await logIn(page, "student18@example.org");
  await openForm(page);
  const box = page.getByRole("textbox").first();
  const text = "Skrevet mens databasen startet på nytt.";

  // The autosave is answered 503: not saved yet, kept in this browser, and said so.
  await page.route("**/api/answers", (route) =>
    route.fulfill({
      status: 503,
      contentType: "application/json",
      headers: { "Cache-Control": "no-store" },
      body: '{"error":"unavailable"}',
    }),
  );
  await box.fill(text);
  await skipAutosavePause(page);
  await expect(status(page, "Ikke lagret ennå – tas vare på i denne nettleseren og prøves igjen.")).toBeVisible();
  expect(await kept(page)).toBeGreaterThan(0);

  // The page post ("Neste") is answered 503 too: the page stays with a message, the answer on it and kept.
  await page.route(
    (url) => url.pathname.endsWith(".data"),
    (route) =>
      route.request().method() === "POST"
        ? route.fulfill({ status: 503, contentType: "text/plain", body: "Service Unavailable" })
        : route.fallback(),
  );
  await page.getByRole("button", { name: "Neste" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Svarene er ikke lagret ennå" })).toBeVisible();
  await expect(page.getByText("Del 1 av 5", { exact: true })).toBeVisible();
  await expect(box).toHaveValue(text);
  expect(await kept(page)).toBeGreaterThan(0);
  await checkPage(page, testInfo, "form-page-post-failed");

  // The server takes posts again: "Neste" stores the answer and goes on, and only then is the copy forgotten.
  await page.unrouteAll({ behavior: "wait" });
  await page.getByRole("button", { name: "Neste" }).click();
  await expect(page.getByText("Del 2 av 5", { exact: true })).toBeVisible();
  await expect.poll(() => kept(page)).toBe(0);
  await page.getByRole("button", { name: "Forrige" }).click();
  await expect(page.getByText("Del 1 av 5", { exact: true })).toBeVisible();
  await expect(page.getByRole("textbox").first()).toHaveValue(text);
});

test("kept answers belong to their owner: another person at the same browser can neither read nor remove them, and they are sent when the owner is back", async ({
  page,
}, testInfo) => {
  test.skip(testInfo.project.name === "no-js", "nothing is kept in the browser without JavaScript");
  test.setTimeout(120_000);
  const text = "Student19s svar, skrevet før utlogging.";

  // Person A types while the server cannot store it, and logs out: told that it is kept, locked.
  await page.clock.install();
  await logIn(page, "student19@example.org");
  await openForm(page);
  await page.route("**/api/answers", (route) =>
    route.fulfill({ status: 503, contentType: "application/json", body: '{"error":"unavailable"}' }),
  );
  await page.getByRole("textbox").first().fill(text);
  await skipAutosavePause(page);
  await expect(status(page, /^Ikke lagret ennå/)).toBeVisible();
  await page.getByRole("button", { name: "Logg ut" }).first().click();
  await expect(page.getByRole("status").filter({ hasText: "Du er logget ut." })).toContainText(
    "Du er logget ut. 1 svar er ikke sendt ennå; det blir låst i denne nettleseren og sendes når du logger inn her igjen.",
  );
  await page.unrouteAll({ behavior: "wait" });
  const aKept = await store(page);
  expect(Object.keys(aKept)).toHaveLength(1);
  // Sealed: neither the text nor whose it is can be read from the browser's store.
  expect(JSON.stringify(aKept)).not.toContain("Student19");
  expect(JSON.stringify(aKept)).not.toMatch(/før utlogging/);

  // Person B logs in at the same browser and opens a form page: A's entry is left as it is, unread.
  await logIn(page, "student18@example.org");
  await openForm(page);
  await expect(page.getByRole("textbox").first()).not.toHaveValue(text);
  await page.getByRole("textbox").nth(1).fill("Student18 skriver også.");
  await skipAutosavePause(page);
  await expect(status(page, /^Lagret kl\./)).toBeVisible();
  expect(await store(page)).toEqual(aKept);
  // B logs out with nothing of theirs waiting: the plain message.
  await page.getByRole("button", { name: "Logg ut" }).first().click();
  const flash = page.getByRole("status").filter({ hasText: "Du er logget ut." });
  await expect(flash).toBeVisible();
  await expect(flash).not.toContainText("ikke sendt");
  expect(await store(page)).toEqual(aKept);

  // A is back: the form page puts the answer back and sends it; nothing is left kept.
  await logIn(page, "student19@example.org");
  await openForm(page);
  await expect(status(page, /^Lagret kl\./)).toBeVisible();
  await expect(page.getByRole("textbox").first()).toHaveValue(text);
  await expect.poll(() => kept(page)).toBe(0);
  await page.reload();
  await expect(page.getByRole("textbox").first()).toHaveValue(text);
});
