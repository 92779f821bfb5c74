import { expect, type Page } from "@playwright/test";
import { checkPage, logInAsAdmin, test } from "./support/fixtures";

const flash = (page: Page) => page.getByRole("status");

test("subjects: create one, a duplicate code is refused with a clear message, then edit it", async ({
  page,
}, testInfo) => {
  await logInAsAdmin(page);
  await page.getByRole("link", { name: "Emner" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Emner" })).toBeVisible();
  await expect(page.getByRole("rowheader", { name: "SYK2001" })).toBeVisible();
  await checkPage(page, testInfo, "admin-subjects");

  await page.getByLabel("Emnekode").fill(" e2e100 ");
  await page.getByLabel("Navn på emnet").fill("Praksis i ende-til-ende-testing");
  await page.getByRole("button", { name: "Opprett emne" }).click();
  await expect(flash(page)).toContainText("Emnet E2E100 er opprettet.");
  await expect(page.getByRole("row", { name: /E2E100 Praksis i ende-til-ende-testing/ })).toBeVisible();
  await expect(page.getByLabel("Emnekode")).toHaveValue("");

  await page.getByLabel("Emnekode").fill("e2e100");
  await page.getByLabel("Navn på emnet").fill("Et annet navn");
  await page.getByRole("button", { name: "Opprett emne" }).click();
  const summary = page.getByRole("alert").filter({ hasText: "Det er et problem" });
  await expect(summary.getByRole("link", { name: "Emnekoden finnes allerede." })).toBeVisible();
  await expect(page.getByLabel("Emnekode")).toHaveValue("e2e100");
  await expect(page.getByLabel("Navn på emnet")).toHaveValue("Et annet navn");
  await expect(page.getByLabel("Emnekode")).toHaveAttribute("aria-invalid", "true");
  await checkPage(page, testInfo, "admin-subjects-duplicate");

  await page.getByRole("link", { name: "Endre E2E100" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Endre emnet E2E100" })).toBeVisible();
  await expect(summary).toHaveCount(0);
  await expect(page.getByLabel("Navn på emnet")).toHaveValue("Praksis i ende-til-ende-testing");
  await checkPage(page, testInfo, "admin-subjects-edit");
  await page.getByLabel("Navn på emnet").fill("");
  await page.getByRole("button", { name: "Lagre endringer" }).click();
  await expect(page.getByRole("link", { name: "Skriv inn navnet på emnet." })).toBeVisible();
  await page.getByLabel("Navn på emnet").fill("Praksis i testing, endret");
  await page.getByRole("button", { name: "Lagre endringer" }).click();
  await expect(flash(page)).toContainText("Emnet E2E100 er lagret.");
  await expect(page.getByRole("row", { name: /E2E100 Praksis i testing, endret/ })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Nytt emne" })).toBeVisible();
});

test("users: 20 at a time with load more, role filter, search, deactivated users on request", async ({
  page,
}, testInfo) => {
  await logInAsAdmin(page);
  await page.getByRole("link", { name: "Brukere" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Brukere" })).toBeVisible();
  const table = page.getByRole("table", { name: "Brukere" });
  await expect(table.getByRole("row")).toHaveCount(21);
  // The demo's 33 users, and any that test files running beside this one have added since (a
  // supervisor accepting an invitation, a first log-in with Feide): the count is read, not assumed.
  const shown = page.getByText(/^Viser 20 av \d+ brukere\.$/);
  await expect(shown).toBeVisible();
  const total = Number(/av (\d+)/.exec((await shown.textContent())!)![1]);
  expect(total).toBeGreaterThanOrEqual(33);
  await checkPage(page, testInfo, "admin-users");

  await page.getByRole("link", { name: "Last inn flere" }).click();
  const all = page.getByText(/^Viser (\d+) av \1 brukere\.$/);
  await expect(all).toBeVisible();
  const loaded = Number(/Viser (\d+)/.exec((await all.textContent())!)![1]);
  expect(loaded).toBeGreaterThanOrEqual(total);
  await expect(table.getByRole("row")).toHaveCount(loaded + 1);
  await expect(page.getByRole("link", { name: "Last inn flere" })).toHaveCount(0);

  await page.getByLabel("Rolle").selectOption({ label: "Praksislærer" });
  await page.getByRole("button", { name: "Vis brukere" }).click();
  await expect(page).toHaveURL(/role=3/);
  await expect(table.getByRole("row")).toHaveCount(5);
  await expect(table.getByRole("rowheader", { name: "Siri Lunde" })).toBeVisible();

  await page.getByLabel("Rolle").selectOption({ label: "Alle roller" });
  await page.getByLabel("Søk etter navn eller e-post").fill("DINA");
  await page.getByRole("button", { name: "Vis brukere" }).click();
  await expect(page.getByText("Ingen brukere passer til søket.")).toBeVisible();
  await page.getByLabel("Vis også deaktiverte brukere").check();
  await page.getByRole("button", { name: "Vis brukere" }).click();
  const row = table.getByRole("row", { name: /Dina Deaktivert/ });
  await expect(row).toBeVisible();
  await expect(row.getByText("Deaktivert", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Søk etter navn eller e-post")).toHaveValue("DINA");
  await checkPage(page, testInfo, "admin-users-inactive");
});

test("user page: a student's roles and classes, a teacher's classes", async ({ page }, testInfo) => {
  await logInAsAdmin(page);
  await page.goto("/admin/users?search=student20%40example.org");
  await page.getByRole("link", { name: "Mathias Aas" }).click();
  await expect(page.getByRole("heading", { level: 1, name: /Mathias Aas/ })).toBeVisible();
  await expect(page.getByText("student20@example.org")).toBeVisible();
  await checkPage(page, testInfo, "admin-user");

  const roles = page.getByRole("group", { name: "Roller" });
  await roles.getByLabel("Student").uncheck();
  await page.getByRole("button", { name: "Lagre endringer" }).click();
  await expect(page.getByRole("link", { name: "Velg minst én rolle." })).toBeVisible();
  await checkPage(page, testInfo, "admin-user-error");

  await roles.getByLabel("Student").check();
  // Student 20 also took last semester's placement: earlier semesters sit folded away.
  await page.getByText("Tidligere semestre").click();
  const earlierClass = page.getByLabel(/^Klasse i (Vår|Høst) \d{4}$/);
  await earlierClass.selectOption({ label: "SYK1002 Praksis i hjemmesykepleien" });
  await page.getByRole("button", { name: "Lagre endringer" }).click();
  await expect(flash(page)).toContainText("Endringene for Mathias Aas er lagret.");
  await expect(earlierClass).toBeVisible();
  await expect(earlierClass.locator("option:checked")).toHaveText("SYK1002 Praksis i hjemmesykepleien");
  await expect(page.getByLabel(/^Klasse i .+ \(nå\)$/).locator("option:checked")).toHaveText(
    "SYK2002 Praksis i spesialisthelsetjenesten",
  );

  await page.goto("/admin/users?role=3&search=laerer3");
  await page.getByRole("link", { name: "Siri Lunde" }).click();
  const teaching = page.getByRole("group", { name: "Klasser som praksislærer" });
  const current = teaching.getByRole("group", { name: /\(nå\)$/ });
  await expect(current.getByLabel("SYK2002 Praksis i spesialisthelsetjenesten")).toBeChecked();
  await current.getByLabel("SYK2001 Praksis i sykehjem").check();
  await page.getByRole("button", { name: "Lagre endringer" }).click();
  await expect(flash(page)).toContainText("Endringene for Siri Lunde er lagret.");
  await expect(current.getByLabel("SYK2001 Praksis i sykehjem")).toBeChecked();
  await expect(current.getByLabel("SYK2002 Praksis i spesialisthelsetjenesten")).toBeChecked();
  await checkPage(page, testInfo, "admin-user-teacher");
});

test("user page: deactivate with a confirmation step, then activate again", async ({ page }, testInfo) => {
  await logInAsAdmin(page);
  await page.goto("/admin/users?search=student21%40example.org");
  await page.getByRole("link", { name: "Selma Holm" }).click();
  await page.getByRole("link", { name: "Deaktiver brukeren" }).click();
  await expect(page).toHaveURL(/confirm=deactivate/);
  await expect(page.getByRole("heading", { name: "Vil du deaktivere Selma Holm?" })).toBeVisible();
  await checkPage(page, testInfo, "admin-user-confirm-deactivate");

  await page.getByRole("button", { name: "Ja, deaktiver brukeren" }).click();
  await expect(flash(page)).toContainText("Selma Holm er deaktivert og logget ut.");
  await expect(page.getByText("Brukeren er deaktivert og kan ikke logge inn.")).toBeVisible();
  await checkPage(page, testInfo, "admin-user-inactive");

  await page.goto("/admin/users?search=selma");
  await expect(page.getByText("Ingen brukere passer til søket.")).toBeVisible();
  await page.goto("/admin/users?search=selma&includeInactive=1");
  await page.getByRole("link", { name: "Selma Holm" }).click();
  await page.getByRole("button", { name: "Aktiver brukeren" }).click();
  await expect(flash(page)).toContainText("Selma Holm er aktivert igjen.");
  await expect(page.getByRole("link", { name: "Deaktiver brukeren" })).toBeVisible();
});
