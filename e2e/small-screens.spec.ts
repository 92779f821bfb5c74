import type { Page } from "@playwright/test";
import { checkPage, expect, logInWithProvider, skipAutosavePause, test } from "./support/fixtures";

// Phones, screen readers and old screens: the menu after a choice, the form's pages told apart and
// announced, "Fortsett", the autosave's status while typing, the results as cards on a phone, and
// no table or chart cut off at 1024 px (checkPage measures every page there, inside the regions
// too). People log in through the local Feide and Vipps (no e-mail code another file could void).
// Data changed here: student21 answers part 1 of the current main form.
const FORM = "Vurdering av kliniske kompetanser";
const PHONE = { width: 390, height: 844 };
const heading = (page: Page) => page.getByRole("heading", { level: 1 });

test("on a phone the menu folds away after a page is chosen, and focus is on the new page's heading", async ({
  page,
}, testInfo) => {
  await page.setViewportSize(PHONE);
  await logInWithProvider(page, "Vipps", "veileder1");
  await expect(heading(page)).toHaveText("Mine emner");
  const menu = page.getByRole("navigation", { name: "Hovedmeny" });
  await menu.getByText("Meny", { exact: true }).click();
  await expect(menu.getByRole("link", { name: "Personvern" })).toBeVisible();
  await checkPage(page, testInfo, "menu-open");

  await menu.getByRole("link", { name: "Personvern" }).click();
  await expect(page).toHaveURL(/\/privacy-policy$/);
  // The menu is folded again, so the new page's top is on the screen…
  await expect(menu.getByRole("link", { name: "Personvern" })).toBeHidden();
  await expect(heading(page)).toBeInViewport();
  // …and a screen reader is told where it landed (without JavaScript the page loads afresh: the browser's own).
  if (testInfo.project.name === "js") await expect(heading(page)).toBeFocused();

  await menu.getByText("Meny", { exact: true }).click();
  await menu.getByRole("link", { name: "Startside" }).click();
  await expect(heading(page)).toHaveText("Mine emner");
  await expect(menu.getByRole("link", { name: "Startside" })).toBeHidden();
  if (testInfo.project.name === "js") await expect(heading(page)).toBeFocused();
});

test("each page of a form names its step in the title and the heading, and 'Fortsett' opens the first page left to answer", async ({
  page,
}, testInfo) => {
  await logInWithProvider(page, "Feide", "student21");
  await page.goto("/student/forms");
  await page
    .getByRole("link", { name: new RegExp(`^Start ${FORM}`) })
    .first()
    .click();
  await expect(page).toHaveTitle(new RegExp(`^Del 1 av 5 – ${FORM} – `));
  await expect(heading(page)).toHaveAccessibleName(new RegExp(`${FORM} – Del 1 av 5: \\S`));

  for (const box of await page.getByRole("textbox").all()) await box.fill("Jeg har lært å planlegge vakten bedre.");
  await page.getByRole("button", { name: "Neste" }).click();
  await expect(page).toHaveTitle(new RegExp(`^Del 2 av 5 – ${FORM} – `));
  await expect(heading(page)).toHaveAccessibleName(new RegExp(`${FORM} – Del 2 av 5: \\S`));
  // With JavaScript the page changes in place: focus goes to the heading, which names the step.
  if (testInfo.project.name === "js") await expect(heading(page)).toBeFocused();
  await checkPage(page, testInfo, "form-page-step-2");

  // Part 1 is answered: "Fortsett" goes on from part 2.
  await page.goto("/student/forms");
  await page
    .getByRole("link", { name: new RegExp(`^Fortsett ${FORM}`) })
    .first()
    .click();
  await expect(page).toHaveTitle(new RegExp(`^Del 2 av 5 – ${FORM} – `));
  await expect(page.getByText("Del 2 av 5", { exact: true })).toBeVisible();
  // The steps stay where they are asked for by number.
  await page.goto(`${new URL(page.url()).pathname}?group=1`);
  await expect(page).toHaveTitle(new RegExp(`^Del 1 av 5 – ${FORM} – `));
});

test("with JavaScript the autosave's status is in view while typing, far from the foot of the form", async ({
  page,
}, testInfo) => {
  test.skip(testInfo.project.name === "no-js", "autosave needs JavaScript");
  await page.setViewportSize(PHONE);
  await page.clock.install();
  await logInWithProvider(page, "Feide", "student21");
  await page.goto("/student/forms");
  await page
    .getByRole("link", { name: new RegExp(`^(Start|Fortsett) ${FORM}`) })
    .first()
    .click();
  await page.waitForURL(/\/assignment\/\d+/);
  await page.goto(`${new URL(page.url()).pathname}?group=2`);
  await expect(page.getByText("Del 2 av 5", { exact: true })).toBeVisible();
  const first = page.getByRole("group", { name: /^1\. / });
  await first.getByRole("radio", { name: "Veiledet", exact: true }).check();
  await expect(first).toBeInViewport();
  await skipAutosavePause(page);
  const status = page.locator(".answer-form__status");
  await expect(status).toHaveRole("status");
  await expect(status).toHaveText(/^Lagret kl\. \d{2}:\d{2}$/);
  await expect(status).toBeInViewport();
  // Beside the question, not over it: the field just answered is still in view above the status.
  const box = (await status.boundingBox())!;
  expect(box.y).toBeGreaterThanOrEqual(PHONE.height - box.height - 1);
  await checkPage(page, testInfo, "form-page-status-in-view");
});

test("on a phone the results are one card per question; on a screen the chart and the tables, none cut off at 1024 px", async ({
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
  await expect(heading(page)).toHaveText(new RegExp(`Resultater: ${FORM}`));
  const mid = page.getByRole("region", { name: "Midtveisvurdering" });
  const chart = mid.getByRole("img", { name: "Karakterer, midtveisvurdering" });
  await expect(chart).toBeVisible();
  const firstQuestion = (await mid.getByRole("table").first().getByRole("rowheader").first().textContent())!.trim();
  expect(firstQuestion).toMatch(/^1\. \S/);
  const cards = mid.getByRole("listitem").filter({ has: page.getByRole("heading", { level: 4 }) });
  await expect(cards.first()).toBeHidden();
  await checkPage(page, testInfo, "results-screen");

  await page.setViewportSize(PHONE);
  await expect(chart).toBeHidden();
  await expect(mid.getByRole("table")).toHaveCount(0);
  const card = cards.first();
  await expect(card.getByRole("heading", { level: 4 })).toHaveText(firstQuestion);
  for (const who of [/^S Emma Andersen/, /^PV Marte Solberg/, /^PL Ingrid Haugen/, /^Forventet nivå$/]) {
    await expect(card.getByRole("term").filter({ hasText: who })).toHaveCount(1);
  }
  await expect(card.getByRole("definition")).toHaveCount(4);
  await checkPage(page, testInfo, "results-cards");
});

// The admin's reminders at 1024 px: reminders.spec.ts, where the list has its rows.
test("at 1024 px the supervisor's list of students is not cut off", async ({ page }, testInfo) => {
  await logInWithProvider(page, "Vipps", "veileder1");
  await page.getByRole("link", { name: /^SYK2001 / }).click();
  await expect(page.getByRole("region", { name: "Mine studenter i emnet" })).toBeVisible();
  await checkPage(page, testInfo, "supervisor-class-1024");
});
