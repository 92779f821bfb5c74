import { expect, type Page, type Response } from "@playwright/test";
import { checkPage, logInAsAdmin, logInWithProvider, test } from "./support/fixtures";
import { calendar, encodedSlug, fileSlug } from "./support/calendar";

/** The current semester as the record's file name writes it ("hoest-2026"). */
const slug = fileSlug(calendar.current.name);

/** Follows a link to a PDF as a person would, and returns the document's response. */
async function openPdf(page: Page, link: ReturnType<Page["getByRole"]>, path: RegExp): Promise<Response> {
  const [response] = await Promise.all([
    page.waitForResponse((r) => path.test(new URL(r.url()).pathname)),
    link.click(),
  ]);
  return response;
}

function expectInlinePdf(response: Response, asciiName: string): void {
  expect(response.status()).toBe(200);
  const headers = response.headers();
  expect(headers["content-type"]).toBe("application/pdf");
  expect(headers["cache-control"]).toBe("no-store");
  expect(headers["content-disposition"]).toMatch(
    new RegExp(`^inline; filename="${asciiName.replaceAll(".", "\\.")}"; filename\\*=UTF-8''`),
  );
}

test("a student opens their placement record from the forms page, or saves it", async ({ page }, testInfo) => {
  // student16: Henrik Johannessen, SYK2002.
  await logInWithProvider(page, "Feide", "student16");
  await page.goto("/student/forms");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    `${calendar.current.name} SYK2002 Praksis i spesialisthelsetjenesten`,
  );
  await checkPage(page, testInfo, "documents-student-forms");

  const link = page.getByRole("link", { name: "Last ned praksismappen (PDF)" });
  const href = (await link.getAttribute("href"))!;
  expect(href).toMatch(/^\/api\/classes\/\d+\/students\/\d+\/full\/pdf$/);
  const response = await openPdf(page, link, /\/full\/pdf$/);
  expectInlinePdf(response, `praksismappe-SYK2002-${slug}-henrik-johannessen.pdf`);

  const saved = await page.request.get(`${href}?download=1`);
  expect(saved.status()).toBe(200);
  expect((await saved.body()).subarray(0, 5).toString()).toBe("%PDF-");
  expect(saved.headers()["content-disposition"]).toBe(
    `attachment; filename="praksismappe-SYK2002-${slug}-henrik-johannessen.pdf"; filename*=UTF-8''praksismappe-SYK2002-${encodedSlug(calendar.current.name)}-henrik-johannessen.pdf`,
  );

  // Another student's record answers like a page that does not exist.
  const foreign = await page.request.get(href.replace(/students\/\d+/, "students/1"));
  expect(foreign.status()).toBe(404);
});

test("the admin prints an empty form from the forms list, and as teacher the record of a student", async ({
  page,
}, testInfo) => {
  await logInAsAdmin(page);
  await page.goto("/admin/forms");
  await checkPage(page, testInfo, "documents-admin-forms");
  const emptyForm = await openPdf(
    page,
    page.getByRole("link", { name: "Tomt skjema (PDF) for Vurdering av kliniske kompetanser" }),
    /^\/api\/forms\/\d+\/pdf$/,
  );
  expectInlinePdf(emptyForm, "skjema-vurdering-av-kliniske-kompetanser.pdf");

  // The admin teaches SYK2002 and follows Henrik Johannessen there.
  await page.goto("/admin");
  await page.getByRole("button", { name: "Bytt til Praksislærer" }).click();
  await expect(page).toHaveURL(/\/teacher$/);
  await page
    .getByRole("region", { name: "Dine emner dette semesteret" })
    .getByRole("link", { name: "SYK2002 Praksis i spesialisthelsetjenesten" })
    .click();
  await page.getByRole("link", { name: "Henrik Johannessen" }).first().click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Henrik Johannessen");
  await checkPage(page, testInfo, "documents-teacher-student");
  const record = await openPdf(page, page.getByRole("link", { name: "Last ned praksismappen (PDF)" }), /\/full\/pdf$/);
  expectInlinePdf(record, `praksismappe-SYK2002-${slug}-henrik-johannessen.pdf`);
});
