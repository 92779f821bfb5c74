import { expect, type Page } from "@playwright/test";
import { checkPage, logInWithProvider, test } from "./support/fixtures";

// The student's own group of a form (the demo's self-assessment, marked "for the student" in the
// form editor): staff read the student's answers as text and answer nothing there.
// Marte Solberg (veileder1) follows Emma Andersen (student01), who has sent her mid-semester form.
const FORM = "Vurdering av kliniske kompetanser";

async function openEmmasMidForm(page: Page) {
  await logInWithProvider(page, "Vipps", "veileder1");
  await page
    .getByRole("link", { name: /^SYK2001 / })
    .first()
    .click();
  await page.getByRole("link", { name: "Emma Andersen" }).first().click();
  await page
    .getByRole("link", { name: `${FORM} (midtveisvurdering)` })
    .first()
    .click();
  await expect(page.getByRole("heading", { level: 1, name: FORM })).toBeVisible();
}

test("a supervisor's page 1 shows the student's self-assessment as text, with no answer box, and a post to it is refused", async ({
  page,
}, testInfo) => {
  await openEmmasMidForm(page);
  const group = page.getByRole("group", { name: "Studentens egenvurdering" });
  await expect(group).toBeVisible();
  await expect(group.getByRole("heading", { name: "1. Hva har du lært så langt i praksisperioden?" })).toBeVisible();
  await expect(group.getByText("Studentens svar")).toHaveCount(3);
  await expect(group.getByText(/^Jeg /).first()).toBeVisible();
  // Nothing to answer on this page: no text box, no grade, no comment.
  await expect(page.getByRole("textbox")).toHaveCount(0);
  await expect(page.getByRole("radio")).toHaveCount(0);
  await checkPage(page, testInfo, "form-page-student-group-supervisor");
  if (process.env.E2E_SCREENSHOTS) {
    // The same page on phones, for a person to look at.
    for (const width of [390, 320]) {
      await page.setViewportSize({ width, height: 800 });
      await page.screenshot({
        path: `test-results/screenshots/${testInfo.project.name}-form-page-student-group-supervisor-${width}.png`,
        fullPage: true,
      });
    }
    await page.setViewportSize({ width: 1280, height: 720 });
  }

  // A post of an answer to it, as a page without the read-only view would send it: refused, nothing stored.
  const questionId = (await group.locator(".answer-question").first().getAttribute("id"))!.replace("question-", "");
  const response = await page.request.post(page.url(), {
    headers: { Origin: new URL(page.url()).origin },
    form: { page: "1", intent: "next", [`b:${questionId}`]: "0.0.0", [`a:${questionId}`]: "Veilederens svar" },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(400);

  // "Neste" goes on to the first group the supervisor grades.
  await page.getByRole("button", { name: "Neste" }).click();
  await expect(page.getByRole("group", { name: "Pasientobservasjon og vurdering" })).toBeVisible();
  await expect(page.getByRole("radio").first()).toBeVisible();
});
