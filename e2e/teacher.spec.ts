import { expect } from "@playwright/test";
import { checkPage, logIn, readMail, test } from "./support/fixtures";
import { calendar } from "./support/calendar";

/**
 * A practice teacher's day, as laerer2 (Lars Bakken, teacher of SYK2001): joins SYK2002, takes its
 * two students without a teacher (23 and 24), adds a new supervisor, sorts the progress overview,
 * looks at a supervisor's students in SYK2001, and leaves SYK2002 again. Only that data changes.
 */
test("a teacher joins a class, takes students, adds a supervisor, and leaves again", async ({
  page,
  baseURL,
}, testInfo) => {
  // One long walk through several pages, each scanned twice without JavaScript.
  test.setTimeout(120_000);
  await logIn(page, "laerer2@example.org");
  await expect(page).toHaveURL(/\/teacher$/);
  await expect(page.getByRole("heading", { level: 1, name: "Mine emner" })).toBeVisible();
  const own = page.getByRole("region", { name: "Dine emner dette semesteret" });
  await expect(own.getByRole("link", { name: "SYK2001 Praksis i sykehjem" })).toBeVisible();
  const others = page.getByRole("region", { name: "Andre emner dette semesteret" });
  const syk2002Link = others.getByRole("link", { name: "SYK2002 Praksis i spesialisthelsetjenesten" });
  await expect(syk2002Link).toBeVisible();
  await checkPage(page, testInfo, "teacher-home");
  const classPath = (await syk2002Link.getAttribute("href"))!;
  expect(classPath).toMatch(/^\/teacher\/class\/\d+$/);

  // Before joining, the class's student picker does not exist for this teacher.
  const closed = await page.goto(`${classPath}/students/add`);
  expect(closed?.status()).toBe(404);

  // The class as an outsider: header and schemes, no students.
  await page.goto("/teacher");
  await syk2002Link.click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    `${calendar.current.name} SYK2002 Praksis i spesialisthelsetjenesten`,
  );
  await expect(page.getByRole("heading", { name: "Du er ikke med i dette emnet" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Svarordninger" })).toBeVisible();
  await expect(page.getByText("Leah Strand")).toHaveCount(0);
  await checkPage(page, testInfo, "teacher-class-outsider");

  await page.getByRole("button", { name: "Bli med i emnet" }).click();
  await expect(
    page.getByRole("status").getByText("Du er med i SYK2002 Praksis i spesialisthelsetjenesten."),
  ).toBeVisible();
  await expect(page.getByRole("heading", { name: "Mine studenter (0)" })).toBeVisible();
  await checkPage(page, testInfo, "teacher-class-member");

  // Take students 23 and 24; nothing chosen is refused first.
  await page.getByRole("link", { name: "Legg til studenter" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/Legg til studenter$/);
  await expect(page.getByRole("checkbox", { name: "Leah Strand" })).toBeDisabled();
  await checkPage(page, testInfo, "teacher-add-students");
  await page.getByRole("button", { name: "Legg til valgte studenter" }).click();
  await expect(page.getByRole("alert").getByRole("link", { name: "Velg minst én student." })).toBeVisible();
  await checkPage(page, testInfo, "teacher-add-students-error");

  await page.getByLabel("Søk etter navn eller e-post").fill("ødegård");
  await page.getByRole("button", { name: "Søk", exact: true }).click();
  await expect(page.getByRole("checkbox")).toHaveCount(1);
  await page.getByRole("link", { name: "Vis alle" }).click();
  await page.getByRole("checkbox", { name: "Ida Ødegård" }).check();
  await page.getByRole("checkbox", { name: "Magnus Knutsen" }).check();
  await page.getByRole("button", { name: "Legg til valgte studenter" }).click();
  await expect(
    page.getByRole("status").getByText("2 studenter er lagt til som dine: Ida Ødegård, Magnus Knutsen."),
  ).toBeVisible();
  const mine = page.getByRole("region", { name: "Studentene du er praksislærer for" });
  await expect(mine.getByRole("link", { name: "Ida Ødegård" })).toHaveAttribute(
    "href",
    /^\/teacher\/class\/\d+\/student\/\d+$/,
  );
  await expect(mine.getByRole("link", { name: "Magnus Knutsen" })).toBeVisible();

  // Add a new supervisor; missing fields are named first.
  await page.getByRole("link", { name: "Legg til praksisveileder" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/Legg til praksisveileder$/);
  await checkPage(page, testInfo, "teacher-add-supervisor");
  await page.getByRole("button", { name: "Legg til praksisveileder" }).click();
  const summary = page.getByRole("alert").filter({ hasText: "Det er et problem" });
  await expect(summary.getByRole("link", { name: "Skriv inn navnet til praksisveilederen." })).toBeVisible();
  await expect(summary.getByRole("link", { name: "Skriv inn e-postadressen til praksisveilederen." })).toBeVisible();
  await checkPage(page, testInfo, "teacher-add-supervisor-errors");
  const since = Date.now() - 1;
  await page.getByLabel("Navn").fill("Nina Nyveileder");
  await page.getByLabel("E-postadresse").fill("ny.pv.laerer2@example.org");
  await page.getByLabel("Mobilnummer").fill("912 34 567");
  await page.getByRole("button", { name: "Legg til praksisveileder" }).click();
  await expect(page.getByRole("status").getByText(/Nina Nyveileder er lagt til som praksisveileder/)).toBeVisible();
  const supervisors = page.getByRole("region", { name: "Praksisveiledere i emnet" });
  await expect(supervisors.getByRole("link", { name: "Nina Nyveileder" })).toHaveAttribute(
    "href",
    /^\/teacher\/class\/\d+\/supervisor\/\d+$/,
  );
  const mail = (await readMail(baseURL, "ny.pv.laerer2@example.org", since)).replace(/=\r?\n/g, "");
  expect(mail).toContain(`${baseURL}/login`);
  expect(mail).toContain("ny.pv.laerer2@example.org");
  expect(mail).toContain("Vipps");

  // The progress overview, sorted by teacher with a link in its header.
  const overview = page.getByRole("region", {
    name: /^Fremdrift for studentene i emnet, sortert etter Student, stigende/,
  });
  await expect(overview.getByRole("row").filter({ hasText: "Ida Ødegård" })).toContainText("Lars Bakken");
  await overview.getByRole("link", { name: "Praksislærer" }).click();
  await expect(page).toHaveURL(/\?sort=teacher&dir=asc/);
  const sorted = page.getByRole("region", { name: /sortert etter Praksislærer, stigende/ });
  await expect(sorted.getByRole("columnheader", { name: "Praksislærer" })).toHaveAttribute("aria-sort", "ascending");
  await checkPage(page, testInfo, "teacher-class-sorted");

  // A supervisor's students in the teacher's own class.
  await page.goto("/teacher");
  await own.getByRole("link", { name: "SYK2001 Praksis i sykehjem" }).click();
  await page
    .getByRole("region", { name: "Praksisveiledere i emnet" })
    .getByRole("link", { name: "Marte Solberg" })
    .click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/Studentene til Marte Solberg$/);
  const theirs = page.getByRole("region", { name: "Studentene til Marte Solberg i emnet" });
  await expect(theirs.getByRole("link", { name: "Emma Andersen" })).toHaveAttribute(
    "href",
    /^\/teacher\/class\/\d+\/student\/\d+$/,
  );
  await checkPage(page, testInfo, "teacher-supervisor");

  // Leave SYK2002 again: the page says who loses their teacher, and the class is "other" once more.
  await page.goto(classPath);
  await expect(
    page.getByText("Du er praksislærer for 2 studenter i emnet: Ida Ødegård, Magnus Knutsen."),
  ).toBeVisible();
  // It asks first, naming the students who lose their teacher; "no" leaves nothing.
  await page.getByRole("link", { name: "Forlat emnet" }).click();
  await expect(
    page.getByRole("heading", { level: 1, name: "Vil du forlate SYK2002 Praksis i spesialisthelsetjenesten?" }),
  ).toBeVisible();
  const losing = page.getByRole("region", { name: "2 studenter mister praksislæreren sin" });
  await expect(losing.getByRole("listitem")).toHaveText(["Ida Ødegård", "Magnus Knutsen"]);
  await checkPage(page, testInfo, "teacher-leave-confirm");
  await page.getByRole("link", { name: "Nei, bli i emnet" }).click();
  await expect(page).toHaveURL(new RegExp(`${classPath}$`));
  await expect(
    page.getByText("Du er praksislærer for 2 studenter i emnet: Ida Ødegård, Magnus Knutsen."),
  ).toBeVisible();
  await page.getByRole("link", { name: "Forlat emnet" }).click();
  await page.getByRole("button", { name: "Ja, forlat emnet" }).click();
  await expect(page).toHaveURL(/\/teacher$/);
  await expect(
    page
      .getByRole("status")
      .getByText(
        "Du har forlatt SYK2002 Praksis i spesialisthelsetjenesten. 2 studenter har ikke lenger praksislærer: Ida Ødegård, Magnus Knutsen.",
      ),
  ).toBeVisible();
  await expect(others.getByRole("link", { name: "SYK2002 Praksis i spesialisthelsetjenesten" })).toBeVisible();
  const after = await page.goto(`${classPath}/students/add`);
  expect(after?.status()).toBe(404);
});
