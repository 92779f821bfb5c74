import { expect } from "@playwright/test";
import { checkPage, logIn, test } from "./support/fixtures";
import { calendar } from "./support/calendar";

// The tests hand ids on to each other (a supervisor's pages show the ids the teacher's URL needs),
// so they run in order. Data changed here: student22 gets veileder4 as supervisor; student12 gets
// veileder1, and veileder2 as an extra supervisor for a moment.
test.describe.configure({ mode: "serial" });

let classBStudentPath = "";
let classAId = "";
let filipId = "";

test("a supervisor opens a class from the start page and takes a student without a supervisor", async ({
  page,
}, testInfo) => {
  await logIn(page, "veileder4@example.org");
  await expect(page).toHaveURL(/\/supervisor$/);
  await expect(page.getByRole("heading", { level: 1, name: "Mine emner" })).toBeVisible();
  await checkPage(page, testInfo, "supervisor-home");

  await page.getByRole("link", { name: "SYK2002 Praksis i spesialisthelsetjenesten" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    `${calendar.current.name} SYK2002 Praksis i spesialisthelsetjenesten`,
  );
  const own = page.getByRole("region", { name: "Mine studenter i emnet" });
  await expect(own.getByRole("link", { name: "Lukas Iversen" })).toBeVisible();
  await expect(own.getByRole("row").filter({ hasText: "Lukas Iversen" })).toContainText("Fast praksisveileder");
  classBStudentPath = (await own.getByRole("link", { name: "Lukas Iversen" }).getAttribute("href")) ?? "";
  expect(classBStudentPath).toMatch(/^\/supervisor\/class\/\d+\/student\/\d+$/);
  await checkPage(page, testInfo, "supervisor-class");

  // Nothing ticked: a clear message, linked from the summary.
  await page.getByRole("button", { name: "Bli praksisveileder for de valgte" }).click();
  const summary = page.getByRole("alert").filter({ hasText: "Det er et problem" });
  await expect(summary.getByRole("link", { name: "Velg minst én student." })).toBeVisible();
  await checkPage(page, testInfo, "supervisor-class-error");

  await page.getByRole("checkbox", { name: "Tobias Myhre" }).check();
  await page.getByRole("button", { name: "Bli praksisveileder for de valgte" }).click();
  await expect(page.getByRole("status").getByText("Du er nå praksisveileder for Tobias Myhre.")).toBeVisible();
  await expect(page.getByRole("checkbox", { name: "Tobias Myhre" })).toHaveCount(0);
  await expect(own.getByRole("link", { name: "Tobias Myhre" })).toBeVisible();

  await own.getByRole("link", { name: "Tobias Myhre" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Tobias Myhre");
  await expect(page.getByText("Du er fast praksisveileder for studenten.")).toBeVisible();
  await expect(page.getByRole("definition").filter({ hasText: "Jonas Eriksen" })).toBeVisible();
  const midForms = page.getByRole("region", { name: "Skjemaer til midtveisvurdering" });
  await expect(
    midForms.getByRole("link", { name: "Vurdering av kliniske kompetanser (midtveisvurdering)" }),
  ).toHaveAttribute("href", /^\/supervisor\/class\/\d+\/student\/\d+\/form\/\d+\/assignment\/\d+$/);
  await checkPage(page, testInfo, "supervisor-student");
  await page.getByRole("link", { name: "Tilbake til SYK2002 Praksis i spesialisthelsetjenesten" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("SYK2002");
});

test("a supervisor sees their own students and cannot open another supervisor's student", async ({
  page,
}, testInfo) => {
  await logIn(page, "veileder1@example.org");
  await page.getByRole("link", { name: /^SYK2001 / }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("SYK2001");
  classAId = /\/supervisor\/class\/(\d+)$/.exec(page.url())![1];
  const own = page.getByRole("region", { name: "Mine studenter i emnet" });
  await expect(own.getByRole("row").filter({ hasText: "Noah Johansen" })).toContainText("Ekstra praksisveileder");
  // The students without a supervisor are listed by name only; the teacher's URL needs Filip's id.
  filipId = (await page.getByRole("checkbox", { name: "Filip Halvorsen" }).getAttribute("value")) ?? "";
  expect(filipId).toMatch(/^\d+$/);
  await checkPage(page, testInfo, "supervisor-class-a");

  expect(classBStudentPath).not.toBe("");
  const response = await page.goto(classBStudentPath);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Fant ikke siden" })).toBeVisible();
  await expect(page.getByText("Lukas Iversen")).toHaveCount(0);
  await checkPage(page, testInfo, "supervisor-student-404");
});

test("a teacher sets a student's supervisor, adds an extra supervisor and removes them again", async ({
  page,
}, testInfo) => {
  expect(filipId).not.toBe("");
  await logIn(page, "laerer1@example.org");
  await page.goto(`/teacher/class/${classAId}/student/${filipId}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Filip Halvorsen");
  await expect(page.getByRole("link", { name: "Tilbake til SYK2001 Praksis i sykehjem" })).toHaveAttribute(
    "href",
    `/teacher/class/${classAId}`,
  );
  await expect(page.getByRole("link", { name: "Vurdering av kliniske kompetanser (sluttvurdering)" })).toHaveAttribute(
    "href",
    new RegExp(`^/teacher/class/${classAId}/student/${filipId}/form/\\d+/assignment/\\d+$`),
  );
  await checkPage(page, testInfo, "teacher-student");

  const supervisor = page.getByLabel("Praksisveileder for Filip Halvorsen");
  await expect(supervisor).toHaveValue("none");
  await supervisor.selectOption({ label: "Marte Solberg (veileder1@example.org)" });
  await page.getByRole("button", { name: "Lagre praksisveileder" }).click();
  await expect(
    page.getByRole("status").getByText("Filip Halvorsen har nå Marte Solberg som praksisveileder."),
  ).toBeVisible();
  await expect(page.getByRole("definition").getByRole("link", { name: "Marte Solberg" })).toHaveAttribute(
    "href",
    new RegExp(`^/teacher/class/${classAId}/supervisor/\\d+$`),
  );

  // Adding an extra supervisor without choosing one: a clear message.
  await page.getByRole("button", { name: "Legg til ekstra praksisveileder" }).click();
  const summary = page.getByRole("alert").filter({ hasText: "Det er et problem" });
  await expect(
    summary.getByRole("link", { name: "Velg hvem som skal legges til som ekstra praksisveileder." }),
  ).toBeVisible();
  await checkPage(page, testInfo, "teacher-student-error");

  // The assigned supervisor is not offered as an extra one.
  const extra = page.getByLabel("Legg til ekstra praksisveileder");
  await expect(extra.getByRole("option", { name: /Marte Solberg/ })).toHaveCount(0);
  await extra.selectOption({ label: "Ole Kristiansen (veileder2@example.org)" });
  await page.getByRole("button", { name: "Legg til ekstra praksisveileder" }).click();
  await expect(
    page.getByRole("status").getByText("Ole Kristiansen er lagt til som ekstra praksisveileder."),
  ).toBeVisible();
  const extras = page.getByRole("region", { name: "Ekstra praksisveiledere for Filip Halvorsen" });
  await expect(extras.getByRole("link", { name: "Ole Kristiansen" })).toBeVisible();
  await checkPage(page, testInfo, "teacher-student-extra");

  await extras.getByRole("button", { name: "Fjern Ole Kristiansen som ekstra praksisveileder" }).click();
  await expect(
    page.getByRole("status").getByText("Ole Kristiansen er ikke lenger ekstra praksisveileder."),
  ).toBeVisible();
  await expect(page.getByText("Studenten har ingen ekstra praksisveiledere.")).toBeVisible();
  await expect(page.getByLabel("Praksisveileder for Filip Halvorsen")).toHaveValue(/^\d+$/);
});
