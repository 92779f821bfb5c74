import { expect, type Locator, type Page } from "@playwright/test";
import { checkPage, logIn, test } from "./support/fixtures";

/**
 * What needs doing comes first on each role's home page, from the demo as seeded: a teacher's forms
 * to answer and students without a supervisor (laerer2), the admin as teacher with a warning the
 * student has not confirmed (Aksel Lie, SYK2002), a supervisor's forms (veileder4), and the student
 * Aksel Lie's own list with the warning, which he confirms last (this file's only change to the
 * data; the tests run in order). The class overview's warning and signing columns, "Henger etter"
 * only where a deadline has passed for the student, and the current assessment first on a student's page.
 * Spec files share the demo's people on one server per project, so this file checks only what no
 * other file changes (the admin's SYK2002 student without a supervisor, Tobias Myhre, is given one
 * by supervisor.spec.ts; laerer2's Oskar Dahl shows that list).
 */

const todo = (page: Page) => page.getByRole("region", { name: "Dette venter på deg", exact: true });
const row = (table: Page | Locator, name: string) => {
  const page = "page" in table && typeof table.page === "function" ? table.page() : (table as Page);
  return table.getByRole("row").filter({ has: page.getByRole("rowheader", { name, exact: true }) });
};

test("a teacher's home lists the forms to answer, overdue ones marked, and the students without a supervisor", async ({
  page,
}, testInfo) => {
  await logIn(page, "laerer2@example.org");
  await expect(page).toHaveURL(/\/teacher$/);
  const list = todo(page);
  await expect(list.getByRole("heading", { level: 2, name: "Dette venter på deg" })).toBeVisible();
  const forms = list.getByRole("region", { name: "Skjemaer du ikke har sendt" });
  // Noah Johansen's main form at mid-semester: the class's mid-semester date has passed.
  const noah = forms
    .getByRole("row")
    .filter({ hasText: "Noah Johansen" })
    .filter({ hasText: "(Midtveis)" })
    .filter({ hasText: "Vurdering av kliniske kompetanser" });
  await expect(noah).toContainText("Fristen er ute");
  await expect(
    noah.getByRole("link", { name: "Start Vurdering av kliniske kompetanser, Noah Johansen" }),
  ).toHaveAttribute("href", /^\/teacher\/class\/\d+\/student\/\d+\/form\/\d+\/assignment\/\d+$/);
  // The end-semester forms are open: their deadline is ahead.
  await expect(forms.getByRole("row").filter({ hasText: "(Slutt)" }).first()).not.toContainText("Fristen er ute");
  await expect(list.getByRole("heading", { level: 3, name: "Studenter uten praksisveileder" })).toBeVisible();
  await expect(list.getByRole("listitem").getByRole("link", { name: "Oskar Dahl" })).toHaveAttribute(
    "href",
    /^\/teacher\/class\/\d+\/student\/\d+$/,
  );
  await checkPage(page, testInfo, "todo-teacher-home");

  await noah.getByRole("link", { name: /^Start / }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Vurdering av kliniske kompetanser" })).toBeVisible();
});

test("the admin as teacher: the warning not confirmed first; the class overview's warning and signing columns, behind only where it is true; the assessment first on a student's page", async ({
  page,
}, testInfo) => {
  await logIn(page, "admin@example.org");
  await page.goto("/admin");
  await page.getByRole("button", { name: "Bytt til Praksislærer" }).click();
  await expect(page).toHaveURL(/\/teacher$/);
  const warnings = todo(page)
    .getByRole("list")
    .filter({ has: page.getByRole("link", { name: "Aksel Lie" }) });
  await expect(
    todo(page).getByRole("heading", { level: 3, name: "Varsler studenten ikke har bekreftet" }),
  ).toBeVisible();
  await expect(warnings.getByRole("link", { name: "Aksel Lie" })).toHaveAttribute(
    "href",
    /^\/teacher\/class\/\d+\/student\/\d+\/warning$/,
  );
  await checkPage(page, testInfo, "todo-admin-teacher-home");

  await page
    .getByRole("region", { name: "Dine emner dette semesteret" })
    .getByRole("link", { name: "SYK2002 Praksis i spesialisthelsetjenesten" })
    .click();
  const overview = page.getByRole("region", { name: /^Fremdrift for studentene i emnet/ });
  await expect(overview.getByRole("columnheader", { name: "Varsel" })).toBeVisible();
  await expect(overview.getByRole("columnheader", { name: "Signering" })).toBeVisible();
  await expect(row(overview, "Aksel Lie")).toContainText("Ikke bekreftet");
  await expect(row(overview, "Aksel Lie")).toContainText("Henger etter");
  // Mathias Aas: everything sent at mid-semester. Astrid Brekke: the mid-semester part confirmed.
  await expect(row(overview, "Mathias Aas").getByRole("cell").nth(2)).toContainText("Ferdig");
  await expect(row(overview, "Mathias Aas")).not.toContainText("Henger etter");
  await expect(row(overview, "Astrid Brekke").getByRole("cell").nth(2)).toContainText("Avsluttet");
  await expect(row(overview, "Astrid Brekke")).toContainText("Midtveis bekreftet");
  await expect(row(overview, "Astrid Brekke")).not.toContainText("Henger etter");
  await checkPage(page, testInfo, "todo-teacher-class");

  await row(overview, "Aksel Lie").getByRole("link", { name: "Aksel Lie" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Aksel Lie");
  const headings = await page.getByRole("main").getByRole("heading", { level: 2 }).allTextContents();
  const at = (text: RegExp) => headings.findIndex((h) => text.test(h));
  // The current half's forms first, then the signing form and the warning; the supervisor controls last.
  expect(at(/^Sluttvurdering/)).toBe(0);
  expect(at(/^Sluttvurdering/)).toBeLessThan(at(/^Oppfølging$/));
  expect(at(/^Oppfølging$/)).toBeLessThan(at(/^Midtveisvurdering/));
  expect(at(/^Midtveisvurdering/)).toBeLessThan(at(/^Velg praksisveileder$/));
  await checkPage(page, testInfo, "todo-teacher-student");
});

test("a supervisor's home lists their forms to answer; their list of students has warning and signing columns", async ({
  page,
}, testInfo) => {
  await logIn(page, "veileder4@example.org");
  await expect(page).toHaveURL(/\/supervisor$/);
  const forms = todo(page).getByRole("region", { name: "Skjemaer du ikke har sendt" });
  await expect(
    forms.getByRole("link", { name: "Start Vurdering av kliniske kompetanser, Aksel Lie" }).first(),
  ).toHaveAttribute("href", /^\/supervisor\/class\/\d+\/student\/\d+\/form\/\d+\/assignment\/\d+$/);
  await checkPage(page, testInfo, "todo-supervisor-home");

  await page.getByRole("link", { name: "SYK2002 Praksis i spesialisthelsetjenesten" }).click();
  await expect(page.getByRole("columnheader", { name: "Varsel" })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "Signering" })).toBeVisible();
  await expect(row(page, "Aksel Lie")).toContainText("Ikke bekreftet");
  await expect(row(page, "Henrik Johannessen")).toContainText("Ikke påbegynt");
  await checkPage(page, testInfo, "todo-supervisor-class");
});

test("a student's home: the warning to read first, the forms not sent with their deadlines; once confirmed, the warning keeps its card and menu entry", async ({
  page,
}, testInfo) => {
  await logIn(page, "student18@example.org");
  await expect(page).toHaveURL(/\/student$/);
  const list = todo(page);
  await expect(list.getByRole("heading", { level: 3, name: "Varsel" })).toBeVisible();
  await expect(list.getByText("Du har fått et varsel. Les det og bekreft at du har lest det.")).toBeVisible();
  const forms = list.getByRole("listitem").filter({ hasText: "Midtveis" });
  await expect(forms.first()).toContainText("Fristen er ute");
  await expect(
    list.getByRole("link", { name: /^(Start|Fortsett)\W+Sårstell og infeksjonsforebygging$/ }).first(),
  ).toHaveAttribute("href", /^\/student\/\d+\/form\/\d+\/class\/\d+\/assignment\/\d+$/);
  await expect(list.getByRole("listitem").filter({ hasText: "(Slutt)" }).first()).toContainText(
    /Frist \d{1,2}\.\d{1,2}\.\d{4}/,
  );
  await checkPage(page, testInfo, "todo-student-home");

  await list.getByRole("link", { name: "Les varselet" }).click();
  await expect(page).toHaveURL(/\/student\/warning$/);
  await page.getByRole("button", { name: "Jeg har lest og forstått varselet" }).click();
  await expect(page.getByRole("heading", { name: "Du har bekreftet varselet" })).toBeVisible();

  await page.goto("/student");
  await expect(todo(page).getByText("Du har bekreftet at du har lest varselet ditt.")).toBeVisible();
  await expect(todo(page).getByRole("link", { name: "Åpne varselet" })).toHaveAttribute("href", "/student/warning");
  // The menu keeps its entry for the warning.
  await expect(page.getByRole("link", { name: "Varsel", exact: true }).first()).toHaveAttribute(
    "href",
    "/student/warning",
  );
  await checkPage(page, testInfo, "todo-student-home-confirmed");
});
