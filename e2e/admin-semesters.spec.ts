import fs from "node:fs";
import { expect } from "@playwright/test";
import { checkPage, logInAsAdmin, test } from "./support/fixtures";
import { calendar, semesterText } from "./support/calendar";

const { current, previous, next } = calendar;

// The steps build on each other: the semester created first gets its subjects next.
test.describe.configure({ mode: "serial" });

test("the admin creates the next semester and cannot create another", async ({ page }, testInfo) => {
  await logInAsAdmin(page);
  await page.getByRole("link", { name: "Semestre" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Semestre" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Nåværende semester" })).toBeVisible();
  await expect(page.getByRole("link", { name: current.name })).toBeVisible();
  await expect(page.getByRole("link", { name: previous.name })).toBeVisible();
  await expect(page.getByText(`Neste semester blir ${semesterText(next)}.`)).toBeVisible();
  await checkPage(page, testInfo, "admin-semesters");

  await page.getByRole("link", { name: "Opprett neste semester" }).click();
  await expect(page).toHaveURL(/\/admin\/semesters\?create=next$/);
  await expect(page.getByRole("heading", { level: 2, name: `Opprett ${next.name}` })).toBeVisible();
  await checkPage(page, testInfo, "admin-semesters-create");

  // A second tab with the same dialog open, to press "create" again once the first has done it.
  const stale = await page.context().newPage();
  await stale.goto("/admin/semesters?create=next");

  await page.getByRole("button", { name: `Opprett ${next.name}` }).click();
  await expect(page).toHaveURL(/\/admin\/semesters\/\d+$/);
  await expect(page.getByRole("heading", { level: 1, name: next.name })).toBeVisible();
  await expect(page.getByRole("status").getByText(`${next.name} er opprettet.`)).toBeVisible();
  await expect(page.getByText("Ingen emner er lagt til i semesteret ennå.")).toBeVisible();
  await expect(page.getByText("Fremtidig", { exact: true })).toBeVisible();
  await checkPage(page, testInfo, "admin-semester-new");

  await page.getByRole("link", { name: "Alle semestre" }).click();
  await expect(page.getByRole("link", { name: next.name })).toBeVisible();
  await expect(page.getByRole("link", { name: "Opprett neste semester" })).toHaveCount(0);
  await expect(page.getByText("Det neste semesteret er allerede opprettet.")).toBeVisible();
  await page.goto("/admin/semesters?create=next");
  await expect(page.getByRole("button", { name: /Opprett/ })).toHaveCount(0);

  // The stale tab's create is refused with a message, not an error page, and makes nothing.
  await stale.getByRole("button", { name: `Opprett ${next.name}` }).click();
  await expect(
    stale.getByRole("alert").getByText("Det neste semesteret er allerede opprettet, så et nytt kan ikke opprettes nå."),
  ).toBeVisible();
  await checkPage(stale, testInfo, "admin-semesters-refused");
  await expect(stale.getByRole("link", { name: next.name })).toHaveCount(1);
  await stale.close();
});

test("the admin adds SYK2001 and SYK2002 to the next semester; they cannot be removed", async ({ page }, testInfo) => {
  await logInAsAdmin(page);
  await page.goto("/admin/semesters");
  await page.getByRole("link", { name: next.name }).click();
  await expect(page.getByRole("heading", { level: 1, name: next.name })).toBeVisible();

  await page.getByRole("link", { name: "Legg til emner" }).click();
  await expect(page).toHaveURL(/\?add=subjects$/);
  await expect(page.getByRole("heading", { level: 2, name: `Legg til emner i ${next.name}` })).toBeVisible();
  await checkPage(page, testInfo, "admin-semester-add");

  // Nothing chosen: the error summary says so, linked to the checkboxes.
  await page.getByRole("button", { name: "Legg til valgte emner" }).click();
  await expect(page.getByRole("alert").getByRole("link", { name: "Velg minst ett emne å legge til." })).toBeVisible();
  await checkPage(page, testInfo, "admin-semester-add-error");

  await page.getByRole("checkbox", { name: "SYK2001 Praksis i sykehjem" }).check();
  await page.getByRole("checkbox", { name: "SYK2002 Praksis i spesialisthelsetjenesten" }).check();
  await page.getByRole("button", { name: "Legg til valgte emner" }).click();
  await expect(page).toHaveURL(/\/admin\/semesters\/\d+$/);
  await expect(page.getByRole("status").getByText("2 emner er lagt til: SYK2001, SYK2002.")).toBeVisible();
  const table = page.getByRole("table", { name: `Emnene i ${next.name}` });
  await expect(table.getByRole("link", { name: "SYK2001 Praksis i sykehjem" })).toHaveAttribute(
    "href",
    /\/admin\/class\/\d+$/,
  );
  await expect(table.getByRole("link", { name: "SYK2002 Praksis i spesialisthelsetjenesten" })).toBeVisible();
  await checkPage(page, testInfo, "admin-semester-with-classes");

  await page.getByRole("link", { name: "Legg til emner" }).click();
  const existing = page.getByRole("checkbox", { name: "SYK2001 Praksis i sykehjem" });
  await expect(existing).toBeChecked();
  await expect(existing).toBeDisabled();
});

test("the admin downloads the current semester's report: one row per student, æøå intact", async ({
  page,
}, testInfo) => {
  await logInAsAdmin(page);
  await page.goto("/admin/semesters");
  await page.getByRole("link", { name: current.name }).click();
  await expect(page.getByRole("heading", { level: 1, name: current.name })).toBeVisible();
  await expect(page.getByText("Nåværende", { exact: true })).toBeVisible();
  await checkPage(page, testInfo, "admin-semester-current");

  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: `Last ned semesterrapport for ${current.name} (CSV)` }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`Semesterrapport ${current.name}.csv`);
  const bytes = fs.readFileSync(await download.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = bytes.subarray(3).toString("utf8");
  const lines = text.split("\r\n");
  expect(lines.pop()).toBe("");
  expect(lines[0]).toBe(
    "Student;E-post;Emnekode;Emnenavn;Praksislærer;Praksisveileder(e);" +
      "Midtveis sendt av student;Midtveis sendt av praksisveileder;Midtveis sendt av praksislærer;" +
      "Slutt sendt av student;Slutt sendt av praksisveileder;Slutt sendt av praksislærer;" +
      "Varsel gitt;Varsel bekreftet av student;Signeringsskjema;Resultat",
  );
  const students = lines.slice(1);
  // The 24 seeded students, once each; another file may let a student join a class meanwhile.
  expect(students.filter((l) => /;student(0[1-9]|1\d|2[0-4])@example\.org;/.test(l))).toHaveLength(24);
  expect(students.filter((l) => l.includes(";SYK2001;Praksis i sykehjem;"))).toHaveLength(12);
  expect(students).toContain(
    "Emma Andersen;student01@example.org;SYK2001;Praksis i sykehjem;Ingrid Haugen;Marte Solberg;" +
      "Delvis (1 av 2);Delvis (1 av 2);Delvis (1 av 2);Nei;Nei;Nei;Nei;Nei;Ikke opprettet;Ikke avgjort",
  );
  expect(students.some((l) => l.startsWith("Ida Ødegård;student23@example.org;SYK2002;"))).toBe(true);

  // The download leaves the page as it was.
  await expect(page.getByRole("heading", { level: 1, name: current.name })).toBeVisible();
});
