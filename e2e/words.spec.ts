import { expect } from "@playwright/test";
import { checkPage, logInWithProvider, test } from "./support/fixtures";

// One word per thing (docs/glossary.md), where a page showed the wrong one: a link to a form of a
// finished half says "Se", not "Start"; the scale is the selvstendighetsskala on the form page too.
// Astrid Brekke (student19, SYK2002): her teacher has confirmed the mid-semester part.
// Magnus Knutsen (student24, SYK2002): no supervisor or teacher, the mid-semester date passed.
const FORM = "Vurdering av kliniske kompetanser";

test("a confirmed mid-semester half is 'avsluttet' and its forms are to be seen ('Se'); a late one is past the deadline and still offers 'Start'", async ({
  page,
}, testInfo) => {
  await logInWithProvider(page, "Feide", "student19");
  await page.goto("/student/forms");
  const closed = page.getByRole("region", { name: "Midtveisvurdering (avsluttet)" });
  await expect(closed.getByRole("link", { name: `Se ${FORM}` })).toBeVisible();
  await expect(closed.getByRole("link", { name: /^(Start|Fortsett|Åpne) / })).toHaveCount(0);
  await checkPage(page, testInfo, "student-forms-mid-confirmed");

  await closed.getByRole("link", { name: `Se ${FORM}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: FORM })).toBeVisible();
  await expect(page.getByRole("link", { name: /^Se selvstendighetsskalaen/ })).toBeVisible();
  await expect(page.getByText(/uavhengighetsskala/i)).toHaveCount(0);
});

test("a mid-semester half whose date has passed without confirmation says so, and its forms can still be started", async ({
  page,
}) => {
  await logInWithProvider(page, "Feide", "student24");
  await page.goto("/student/forms");
  await expect(page.getByRole("region", { name: "Midtveisvurdering (avsluttet)" })).toHaveCount(0);
  const late = page.getByRole("region", { name: "Midtveisvurdering (fristen er ute)" });
  await expect(late.getByRole("link", { name: new RegExp(`^(Start|Fortsett|Åpne) ${FORM}$`) })).toBeVisible();
});
