import { expect, type Page } from "@playwright/test";
import { checkPage, logIn, logInWithProvider, readMail, test } from "./support/fixtures";
import { calendar, currentYear, dateText, exactDate, movedSyk2002End } from "./support/calendar";

/** The invitation link in a raw MIME mail; quoted-printable breaks long lines and escapes "=". */
function invitationLinkIn(raw: string): string {
  const text = raw.replace(/=\r?\n/g, "").replace(/=3D/gi, "=");
  const match =
    /https?:\/\/\S+\/supervisor\/accept-invitation\?verificationGuid=[\w-]+&redirect_uri=%2Fsupervisor/.exec(text);
  if (!match) throw new Error(`no invitation link in the mail:\n${text}`);
  return match[0];
}

const flash = (page: Page) => page.getByRole("status").filter({ hasText: /\S/ }).first();

test("a student joins a class, invites a supervisor, and the supervisor accepts from the mail and logs in", async ({
  page,
  browser,
}, testInfo) => {
  // Two people, three log-ins and a dozen axe scans.
  test.setTimeout(120_000);
  const js = testInfo.project.name === "js";
  const baseURL = testInfo.project.use.baseURL;

  // student25 has no class, and a Feide membership that matches SYK2002.
  await logInWithProvider(page, "Feide", "student25");
  await expect(page).toHaveURL(/\/student$/);
  await expect(page.getByRole("heading", { level: 1, name: "Min praksis" })).toBeVisible();
  await expect(page.getByText("Hei, Amalie Vik!")).toBeVisible();
  await expect(page.getByRole("radio", { name: "SYK2002 Praksis i spesialisthelsetjenesten" })).toBeVisible();
  await checkPage(page, testInfo, "student-home-join");

  // Nothing chosen: the join page says so, linked from the summary.
  await page.getByRole("button", { name: "Bli med i klassen" }).click();
  await expect(page).toHaveURL(/\/student\/join-class$/);
  const summary = page.getByRole("alert").filter({ hasText: "Det er et problem" });
  await expect(summary.getByRole("link", { name: "Velg klassen du vil være med i" })).toBeVisible();
  await expect(page.getByText("Vi viser bare klasser dette semesteret i emner du er meldt opp i")).toBeVisible();
  await checkPage(page, testInfo, "student-join-class-error");

  await page.getByRole("radio", { name: "SYK2002 Praksis i spesialisthelsetjenesten" }).check();
  await page.getByRole("button", { name: "Bli med i klassen" }).click();
  await expect(page).toHaveURL(/\/student\/forms$/);
  await expect(flash(page)).toContainText("Du er nå med i SYK2002 Praksis i spesialisthelsetjenesten.");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    `${calendar.current.name} SYK2002 Praksis i spesialisthelsetjenesten`,
  );
  // The class's end date: as seeded, or a day earlier once admin-class.spec (running alongside) has moved it.
  const syk2002End = [calendar.classes.SYK2002.endSemesterDate, movedSyk2002End]
    .map((d) => dateText(d).replaceAll(".", "\\."))
    .join("|");
  await expect(page.getByText(new RegExp(`Frist for sluttvurdering: (${syk2002End})`))).toBeVisible();
  await expect(page.getByRole("heading", { level: 3, name: "Vurderingsskjema" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Start Vurdering av kliniske kompetanser" }).first()).toHaveAttribute(
    "href",
    /^\/student\/\d+\/form\/\d+\/class\/\d+\/assignment\/\d+$/,
  );
  await checkPage(page, testInfo, "student-forms-joined");

  // The join page is only for students without a class.
  await page.goto("/student/join-class");
  await expect(page).toHaveURL(/\/student\/forms$/);

  await page.getByRole("link", { name: "Inviter praksisveileder" }).click();
  await expect(page).toHaveURL(/\/student\/supervisor\/invite$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    "SYK2002 Praksis i spesialisthelsetjenesten Inviter praksisveileder",
  );
  await checkPage(page, testInfo, "student-invite");

  const supervisorEmail = `ny.pv.${testInfo.project.name}.${Date.now()}@example.org`;
  const since = Date.now() - 1;
  await page.getByLabel("E-postadressen til praksisveilederen").fill(supervisorEmail);
  await page.getByRole("button", { name: "Send invitasjon" }).click();
  await expect(flash(page)).toContainText(`Invitasjonen er sendt til ${supervisorEmail}.`);
  await expect(
    page.getByText(
      new RegExp(
        `Sendt til ${supervisorEmail.replaceAll(".", "\\.")}\\. Lenken er gyldig til \\d{1,2}\\.\\d{1,2}\\.\\d{4} kl\\. \\d{2}:\\d{2}\\.`,
      ),
    ),
  ).toBeVisible();
  await checkPage(page, testInfo, "student-invite-sent");

  // The supervisor opens the link from the mail in a browser of their own.
  const link = invitationLinkIn(await readMail(baseURL, supervisorEmail, since, /accept-invitation/));
  const context = await browser.newContext({ javaScriptEnabled: js, locale: "nb-NO", baseURL });
  // Playwright's clock, running as a real one until the test moves it on (the used link's 7 s, below).
  await context.clock.install();
  const supervisor = await context.newPage();
  await supervisor.goto(link);
  await expect(supervisor.getByRole("heading", { level: 1, name: "Bli praksisveileder" })).toBeVisible();
  await expect(supervisor.getByText("Amalie Vik har invitert deg til å være praksisveileder i SYK2002")).toBeVisible();
  await expect(supervisor.getByLabel("E-postadresse")).toHaveValue(supervisorEmail);
  await expect(supervisor.getByLabel("E-postadresse")).toHaveAttribute("readonly", "");
  await checkPage(supervisor, testInfo, "accept-invitation");

  const problems = supervisor.getByRole("alert").filter({ hasText: "Det er et problem" });
  await supervisor.getByRole("button", { name: "Bekreft og logg inn" }).click();
  await expect(problems.getByRole("link", { name: "Skriv inn navnet ditt" })).toBeVisible();
  await expect(problems.getByRole("link", { name: "Skriv inn mobilnummeret ditt" })).toBeVisible();
  await checkPage(supervisor, testInfo, "accept-invitation-errors");

  await supervisor.getByLabel("Fullt navn").fill("Nora Nyveileder");
  await supervisor.getByLabel("Mobilnummer").fill("ring meg");
  await supervisor.getByRole("button", { name: "Bekreft og logg inn" }).click();
  await expect(problems.getByRole("link", { name: /Skriv inn et telefonnummer med bare siffer/ })).toBeVisible();
  await expect(problems.getByRole("link", { name: "Skriv inn navnet ditt" })).toHaveCount(0);
  await expect(supervisor.getByLabel("Mobilnummer")).toHaveValue("ring meg");
  await expect(supervisor.getByLabel("Fullt navn")).toHaveValue("Nora Nyveileder");

  await supervisor.getByLabel("Mobilnummer").fill("912 34 567");
  await supervisor.getByRole("button", { name: "Bekreft og logg inn" }).click();
  await supervisor.waitForURL((url) => !url.pathname.startsWith("/supervisor/accept-invitation"));
  if (new URL(supervisor.url()).pathname === "/privacy-consent") {
    await supervisor.getByRole("button", { name: "Jeg godtar" }).click();
  }
  await expect(supervisor).toHaveURL(/\/supervisor$/);
  await expect(supervisor.getByText("Nora Nyveileder").first()).toBeVisible();
  await expect(supervisor.getByRole("region", { name: "Emner du veileder i dette semesteret" })).toContainText(
    "SYK2002 Praksis i spesialisthelsetjenesten",
  );

  // The link works once.
  await supervisor.goto(link);
  await expect(supervisor.getByRole("heading", { level: 1, name: "Invitasjonen er allerede brukt" })).toBeVisible();
  await expect(supervisor.getByRole("link", { name: "Gå til innloggingen" })).toHaveAttribute("href", "/");
  if (js) await expect(supervisor.getByText("Du blir sendt videre til innloggingssiden om 7 sekunder.")).toBeVisible();
  else await expect(supervisor.getByText("Du blir sendt videre")).toHaveCount(0);
  await checkPage(supervisor, testInfo, "accept-invitation-used");
  // With JS the page moves on by itself (to the log-in page, which sends a logged-in user home).
  if (js) {
    await supervisor.clock.fastForward(7_000);
    await expect(supervisor).not.toHaveURL(/accept-invitation/);
  }

  await supervisor.goto("/supervisor/accept-invitation?verificationGuid=finnes-ikke&redirect_uri=%2Fsupervisor");
  await expect(supervisor.getByRole("heading", { level: 1, name: "Ukjent invitasjonslenke" })).toBeVisible();
  await checkPage(supervisor, testInfo, "accept-invitation-unknown");
  await context.close();

  // The student now has a supervisor, and no invite button.
  await page.goto("/student/forms");
  await expect(page.getByRole("listitem").filter({ hasText: "Nora Nyveileder" })).toContainText("PV");
  await expect(page.getByRole("link", { name: "Inviter praksisveileder" })).toHaveCount(0);
  await page.goto("/student/supervisor/invite");
  // An accepted invitation is done with (docs/rules/placements.md): the page only says the student has a supervisor.
  await expect(page.getByText("Du har allerede praksisveileder, så du trenger ikke invitere noen.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Siste invitasjon" })).toHaveCount(0);
  await checkPage(page, testInfo, "student-invite-accepted");
});

test("a student without a supervisor invites one and sees the invitation as sent", async ({ page }, testInfo) => {
  await logIn(page, "student11@example.org");
  await page.goto("/student/forms");
  await expect(page.getByText("Du har ikke praksisveileder ennå.")).toBeVisible();
  await page.getByRole("link", { name: "Inviter praksisveileder" }).click();

  await page.getByLabel("E-postadressen til praksisveilederen").fill("student11@example.org");
  await page.getByRole("button", { name: "Send invitasjon" }).click();
  const summary = page.getByRole("alert").filter({ hasText: "Det er et problem" });
  await expect(summary.getByRole("link", { name: /Dette er din egen e-postadresse/ })).toBeVisible();
  await expect(page.getByLabel("E-postadressen til praksisveilederen")).toHaveValue("student11@example.org");
  await checkPage(page, testInfo, "student-invite-error");

  const address = `ny.pv.elleve.${testInfo.project.name}@example.org`;
  await page.getByLabel("E-postadressen til praksisveilederen").fill(address);
  await page.getByRole("button", { name: "Send invitasjon" }).click();
  await expect(flash(page)).toContainText(`Invitasjonen er sendt til ${address}.`);
  await expect(page.getByText("Sendt", { exact: true })).toBeVisible();
  await expect(page.getByText(`Sendt til ${address}. Lenken er gyldig til`)).toBeVisible();
  await expect(page.getByRole("button", { name: "Send ny invitasjon" })).toBeVisible();
});

test("a student in a class sees their subject, people, deadline, forms by half and documents", async ({
  page,
}, testInfo) => {
  // student03 has sent the mid-semester form; only read here.
  await logIn(page, "student03@example.org");
  await expect(page).toHaveURL(/\/student$/);
  const card = page
    .locator(".ui-card")
    .filter({ has: page.getByRole("heading", { name: "SYK2001 Praksis i sykehjem" }) });
  await expect(card).toContainText(calendar.current.name);
  await expect(
    card.getByRole("definition").filter({ hasText: exactDate(calendar.classes.SYK2001.endSemesterDate) }),
  ).toBeVisible();
  await expect(card.getByRole("term").filter({ hasText: "Frist for sluttvurdering" })).toBeVisible();
  const earlier = page.getByRole("region", { name: "Tidligere emner" });
  await expect(earlier).toContainText("SYK1002 Praksis i hjemmesykepleien");
  await expect(
    earlier.getByRole("link", { name: `Last ned praksismappen (PDF) for SYK1002, ${calendar.previous.name}` }),
  ).toHaveAttribute("href", /^\/api\/classes\/\d+\/students\/\d+\/full\/pdf$/);
  await expect(
    earlier.getByRole("link", { name: `Last ned signeringsskjemaet (PDF) for SYK1002, ${calendar.previous.name}` }),
  ).toHaveAttribute("href", /^\/api\/classes\/\d+\/students\/\d+\/signingform\/pdf$/);
  await checkPage(page, testInfo, "student-home");

  await page.getByRole("link", { name: "Gå til skjemaene dine" }).click();
  await expect(page).toHaveURL(/\/student\/forms$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    `${calendar.current.name} SYK2001 Praksis i sykehjem`,
  );
  await expect(page.getByRole("link", { name: "Last ned praksismappen (PDF)" })).toHaveAttribute(
    "href",
    /\/full\/pdf$/,
  );
  // No signing form in this class yet, so no button for its document.
  await expect(page.getByRole("link", { name: "Last ned signeringsskjemaet (PDF)" })).toHaveCount(0);
  await expect(page.getByRole("listitem").filter({ hasText: "Ingrid Haugen" })).toContainText("PL");
  await expect(page.getByRole("listitem").filter({ hasText: "praksisveileder" }).first()).toContainText("PV");
  await expect(
    page.getByText(`Frist for sluttvurdering: ${dateText(calendar.classes.SYK2001.endSemesterDate)}`),
  ).toBeVisible();
  await expect(page.getByRole("heading", { level: 3, name: "Vurderingsskjema" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 3, name: "Spesifikke kompetanser" })).toBeVisible();
  const mid = page.getByRole("region", { name: "Midtveisvurdering (fristen er ute)" });
  await expect(mid.getByRole("row").filter({ hasText: "Vurdering av kliniske kompetanser" })).toContainText(
    new RegExp(`Sendt \\d{1,2}\\.\\d{1,2}\\.${currentYear}`),
  );
  await expect(mid.getByRole("link", { name: "Åpne Vurdering av kliniske kompetanser" })).toHaveAttribute(
    "href",
    /^\/student\/\d+\/form\/\d+\/class\/\d+\/assignment\/\d+$/,
  );
  await checkPage(page, testInfo, "student-forms");
});

test("an invited supervisor who already has an account accepts without typing anything, then logs in as usual", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(90_000);
  const baseURL = testInfo.project.use.baseURL;
  // student24 (Magnus Knutsen, SYK2002) has no supervisor; veileder3 (Hanne Berg) supervises in SYK2002.
  await logIn(page, "student24@example.org");
  await page.goto("/student/supervisor/invite");
  const since = Date.now() - 1;
  await page.getByLabel("E-postadressen til praksisveilederen").fill("veileder3@example.org");
  await page.getByRole("button", { name: "Send invitasjon" }).click();
  await expect(flash(page)).toContainText("Invitasjonen er sendt til veileder3@example.org.");

  const link = invitationLinkIn(await readMail(baseURL, "veileder3@example.org", since, /accept-invitation/));
  const context = await browser.newContext({
    javaScriptEnabled: testInfo.project.name === "js",
    locale: "nb-NO",
    baseURL,
  });
  const supervisor = await context.newPage();
  await supervisor.goto(link);
  await expect(supervisor.getByRole("heading", { level: 1, name: "Bli praksisveileder" })).toBeVisible();
  await expect(
    supervisor.getByText("Du har allerede en bruker i Praksis med e-postadressen veileder3@example.org."),
  ).toBeVisible();
  await expect(supervisor.getByLabel("Fullt navn")).toHaveCount(0);
  await expect(supervisor.getByLabel("Mobilnummer")).toHaveCount(0);
  await checkPage(supervisor, testInfo, "accept-invitation-existing");

  await supervisor.getByRole("button", { name: "Godta invitasjonen" }).click();
  await expect(supervisor).toHaveURL(/\/\?redirectTo=%2Fsupervisor$/);
  await expect(flash(supervisor)).toContainText(
    "Invitasjonen er godtatt, og du er nå praksisveileder for Magnus Knutsen. Logg inn for å se studenten.",
  );
  await checkPage(supervisor, testInfo, "accept-invitation-existing-accepted");

  await logIn(supervisor, "veileder3@example.org");
  await expect(supervisor).toHaveURL(/\/supervisor$/);
  await supervisor.getByRole("link", { name: "SYK2002 Praksis i spesialisthelsetjenesten" }).click();
  const own = supervisor.getByRole("region", { name: "Mine studenter i emnet" });
  await expect(own.getByRole("row").filter({ hasText: "Magnus Knutsen" })).toContainText("Fast praksisveileder");
  await context.close();
});
