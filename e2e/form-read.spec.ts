import { expect } from "@playwright/test";
import { checkPage, logIn, logInAsAdmin, test } from "./support/fixtures";

/**
 * The read-only form views (docs/rules/documents.md, "A form to read"): a teacher and a supervisor open a form of their class's
 * schemes from the class page, read its groups, questions, help texts and grading labels, and
 * follow its PDF link; a teacher whose classes do not use the form gets "not found". Reads only.
 */
test("a teacher reads a form of the class's schemes, with its PDF", async ({ page }, testInfo) => {
  await logIn(page, "laerer1@example.org");
  await page
    .getByRole("region", { name: "Dine emner dette semesteret" })
    .getByRole("link", { name: "SYK2001 Praksis i sykehjem" })
    .click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("SYK2001");
  const classPath = new URL(page.url()).pathname;
  const schemes = page.getByRole("region", { name: "Svarordninger" });
  await schemes.getByRole("link", { name: "Legemiddelhåndtering" }).first().click();

  await expect(page).toHaveURL(/\/teacher\/form\/\d+\?from=/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Spesifikk kompetanse Legemiddelhåndtering");
  await expect(page.getByRole("heading", { level: 2, name: "Del 1: Legemiddelhåndtering" })).toBeVisible();
  await expect(
    page.getByRole("list", { name: "Svaralternativer i Legemiddelhåndtering" }).getByRole("listitem"),
  ).toHaveText(["Selvstendig", "Delvis selvstendig", "Veiledet", "Assistert", "Uselvstendig", "Ikke relevant"]);
  await expect(page.getByText("Beregner doser korrekt")).toBeVisible();
  await expect(page.getByText("Inkluderer omregning mellom enheter og infusjonshastighet.")).toBeVisible();
  const usedIn = page.getByRole("region", { name: "Brukes i" });
  await expect(usedIn.getByRole("link", { name: "SYK2001 Praksis i sykehjem" })).toHaveAttribute("href", classPath);
  await checkPage(page, testInfo, "teacher-form-read");

  const pdfLink = page.getByRole("link", { name: "Last ned skjemaet som PDF (Legemiddelhåndtering)" });
  const pdf = await page.request.get((await pdfLink.getAttribute("href"))!);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");

  await page.getByRole("link", { name: "Tilbake" }).click();
  await expect(page).toHaveURL(new RegExp(`${classPath}$`));
});

test("a supervisor reads the main form, text and grading groups alike", async ({ page }, testInfo) => {
  await logIn(page, "veileder1@example.org");
  await page.getByRole("link", { name: /^SYK2001 / }).click();
  await page
    .getByRole("region", { name: "Svarordninger" })
    .getByRole("link", { name: "Vurdering av kliniske kompetanser" })
    .first()
    .click();
  await expect(page).toHaveURL(/\/supervisor\/form\/\d+\?from=/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Hovedskjema Vurdering av kliniske kompetanser");
  await expect(page.getByRole("heading", { level: 2, name: "Del 1: Studentens egenvurdering" })).toBeVisible();
  await expect(page.getByText("Hvert spørsmål besvares med tekst.")).toBeVisible();
  await expect(page.getByText("Tenk på både den daglige veiledningen og veiledningssamtalene.")).toBeVisible();
  await checkPage(page, testInfo, "supervisor-form-read");
});

test("a teacher whose classes do not use the form: not found", async ({ page }, testInfo) => {
  // "Sårstell og infeksjonsforebygging" is in SYK2002's schemes only; Ingrid Haugen (laerer1) teaches
  // SYK2001 and last year's class, and no spec makes her join SYK2002 or adds the form to her classes.
  // (laerer3's first log-in belongs to login.spec.ts; admin-class.spec.ts adds forms to SYK2002.)
  await logInAsAdmin(page);
  await page.goto("/admin/forms");
  const editHref = (await page
    .getByRole("link", { name: "Sårstell og infeksjonsforebygging" })
    .first()
    .getAttribute("href"))!;
  const formId = editHref.match(/\/admin\/forms\/edit\/(\d+)$/)![1];
  await page.context().clearCookies();
  await logIn(page, "laerer1@example.org");
  const response = await page.goto(`/teacher/form/${formId}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Fant ikke siden" })).toBeVisible();
  await checkPage(page, testInfo, "teacher-form-read-not-found");
});
