import { expect, type Page } from "@playwright/test";
import { checkPage, logInWithProvider, pressAndWaitForPost, test } from "./support/fixtures";

/**
 * The end of a semester for Sofie Nilsen (student05, SYK2001), her teacher Ingrid Haugen (laerer1)
 * and her supervisor Marte Solberg (veileder1): the teacher confirms the mid-semester part and
 * fills in the end, the three sign, the form is locked and the result submitted; then the teacher
 * cancels it, and a second form is signed without the supervisor. Only student05's signing form
 * changes. Each project (JS and no JS) has a database of its own, so both walk the whole way.
 */
test.describe.configure({ mode: "serial" });

const flash = (page: Page) => page.getByRole("status").filter({ hasText: /\S/ }).first();
const STUDENT = "Sofie Nilsen";
const MID = {
  begun: "Er arbeidet med de spesifikke kompetanseområdene påbegynt?",
  feedback: "Har studenten gitt tilbakemelding på praksisstudiet og veiledningen?",
};
const END = {
  attendance: "Er kravet til tilstedeværelse oppfylt?",
  work: "Er arbeidskravene godkjent?",
  specific: "Er de spesifikke kompetanseområdene bestått?",
  general: "Er de generelle kompetanseområdene bestått?",
};

/** A week ago, as the date field takes it. */
const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);

async function choose(page: Page, question: string, choice: string) {
  await page.getByRole("group", { name: question }).getByRole("radio", { name: choice, exact: true }).check();
}

async function teacherOpensForm(page: Page) {
  await logInWithProvider(page, "Feide", "laerer1");
  await expect(page).toHaveURL(/\/teacher$/);
  await page
    .getByRole("region", { name: "Dine emner dette semesteret" })
    .getByRole("link", { name: "SYK2001 Praksis i sykehjem" })
    .click();
  await page
    .getByRole("region", { name: "Studentene du er praksislærer for" })
    .getByRole("link", { name: STUDENT })
    .click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(STUDENT);
}

async function studentOpensForm(page: Page) {
  await logInWithProvider(page, "Feide", "student05");
  await page.goto("/student/forms");
  await page.getByRole("link", { name: "Signeringsskjema", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Signeringsskjema");
}

/** The mid-semester part's confirmation step (zz-final-steps.spec.ts): the demo's forms are not all sent, so the box too. */
async function confirmMid(page: Page) {
  await page
    .getByRole("checkbox", { name: "Jeg bekrefter midtveisvurderingen selv om ikke alle skjemaene er sendt" })
    .check();
  await page.getByRole("button", { name: "Ja, bekreft midtveisvurderingen" }).click();
}

async function fillMidAndEnd(page: Page) {
  await choose(page, MID.begun, "Ja");
  await choose(page, MID.feedback, "Ikke relevant");
  await page.getByLabel("Dato for midtveisvurderingen").fill(weekAgo);
  await page.getByRole("button", { name: "Lagre og bekreft midtveisvurderingen" }).click();
  await confirmMid(page);
  await expect(flash(page)).toContainText("Signeringsskjemaet er lagret.");
  await choose(page, END.attendance, "Ja");
  await choose(page, END.work, "Ikke relevant");
  await choose(page, END.specific, "Ja");
  await choose(page, END.general, "Ja");
  await pressAndWaitForPost(page, page.getByRole("button", { name: "Lagre sluttvurderingen" }));
  await expect(flash(page)).toContainText("Signeringsskjemaet er lagret.");
}

test("the teacher creates the form and confirms the mid-semester part; a missing answer is named first", async ({
  page,
}, testInfo) => {
  await teacherOpensForm(page);
  const card = page.getByRole("heading", { name: "Signeringsskjema", exact: true }).locator("xpath=..");
  await expect(card).toContainText("Ikke opprettet");
  await checkPage(page, testInfo, "signing-teacher-student");
  await page.getByRole("link", { name: "Opprett signeringsskjema" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Signeringsskjema");
  await expect(page.getByText("Signeringsskjemaet er ikke opprettet ennå.")).toBeVisible();
  await expect(page.getByText("Sluttvurderingen kan fylles ut når midtveisvurderingen er bekreftet.")).toBeVisible();
  await checkPage(page, testInfo, "signing-new");

  await choose(page, MID.begun, "Ja");
  await page.getByRole("button", { name: "Lagre og bekreft midtveisvurderingen" }).click();
  const summary = page.getByRole("alert").filter({ hasText: "Klarte ikke lagre." });
  await expect(summary.getByRole("link", { name: "Svar på om studenten har gitt tilbakemelding." })).toBeVisible();
  await expect(summary.getByRole("link", { name: "Skriv inn datoen for midtveisvurderingen." })).toBeVisible();
  await expect(
    page.getByRole("group", { name: MID.begun }).getByRole("radio", { name: "Ja", exact: true }),
  ).toBeChecked();
  await expect(page.getByLabel("Dato for midtveisvurderingen")).toHaveAttribute("aria-invalid", "true");
  await checkPage(page, testInfo, "signing-mid-errors");

  await choose(page, MID.feedback, "Ikke relevant");
  await page.getByLabel("Dato for midtveisvurderingen").fill(weekAgo);
  await page.getByRole("button", { name: "Lagre og bekreft midtveisvurderingen" }).click();
  await confirmMid(page);
  await expect(flash(page)).toContainText("Signeringsskjemaet er lagret.");
  const mid = page.getByRole("region", { name: "Midtveisvurdering" });
  await expect(mid.getByRole("definition").filter({ hasText: "Ikke relevant" })).toBeVisible();
  await expect(mid.getByRole("button")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Lagre sluttvurderingen" })).toBeVisible();
  await checkPage(page, testInfo, "signing-mid-confirmed");
});

test("the teacher fills in the end-semester part; signing waits for the student", async ({ page }, testInfo) => {
  await teacherOpensForm(page);
  await page.getByRole("link", { name: "Signeringsskjema", exact: true }).click();
  await choose(page, END.attendance, "Ja");
  await choose(page, END.work, "Ikke relevant");
  await choose(page, END.specific, "Ja");
  await choose(page, END.general, "Ja");
  await page.getByLabel("Kommentar fra praksislærer").fill("Sofie har arbeidet godt og nådd læringsutbyttet.");
  await pressAndWaitForPost(page, page.getByRole("button", { name: "Lagre sluttvurderingen" }));
  await expect(flash(page)).toContainText("Signeringsskjemaet er lagret.");
  await expect(page.getByText("Samlet resultat: Bestått")).toBeVisible();
  await expect(page.getByLabel("Dato for sluttvurderingen")).not.toHaveValue("");
  await expect(page.getByText("Studenten må signere før praksislæreren.")).toBeVisible();
  const check = page.getByRole("region", { name: "Kontroll før signering" });
  await expect(check.getByRole("row", { name: /Midtveisvurdering Vurderingsspørsmål/ })).toContainText(/\d+ av \d+/);
  await expect(check).toContainText("Resultat arkivert");
  await checkPage(page, testInfo, "signing-end-saved");
});

test("the student signs from the forms page", async ({ page }, testInfo) => {
  await logInWithProvider(page, "Feide", "student05");
  await page.goto("/student/forms");
  const card = page.getByRole("heading", { name: "Signeringsskjema", exact: true }).locator("xpath=..");
  await expect(card).toContainText("Sluttvurdering lagret, venter på signaturer");
  await checkPage(page, testInfo, "signing-student-forms");
  await page.getByRole("link", { name: "Signeringsskjema", exact: true }).click();
  await expect(page.getByRole("region", { name: "Sluttvurdering" })).toContainText("Sofie har arbeidet godt");
  await expect(page.getByRole("button", { name: "Lagre sluttvurderingen" })).toHaveCount(0);
  await checkPage(page, testInfo, "signing-student");
  await page.getByRole("button", { name: "Signer" }).click();
  await expect(flash(page)).toContainText("Du har signert signeringsskjemaet.");
  await expect(page.getByRole("heading", { name: "Du har signert" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Signer" })).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Signaturer" })).toContainText(`Signert av ${STUDENT}`);
  await checkPage(page, testInfo, "signing-student-signed");
});

test("the supervisor signs from their page of the student", async ({ page }, testInfo) => {
  await logInWithProvider(page, "Vipps", "veileder1");
  await expect(page).toHaveURL(/\/supervisor$/);
  await page.getByRole("link", { name: /^SYK2001 / }).click();
  await page.getByRole("region", { name: "Mine studenter i emnet" }).getByRole("link", { name: STUDENT }).click();
  await expect(page.getByRole("heading", { name: "Signeringsskjema", exact: true }).locator("xpath=..")).toContainText(
    "Signert av studenten",
  );
  await page.getByRole("link", { name: "Signeringsskjema", exact: true }).click();
  await expect(page.getByRole("region", { name: "Kontroll før signering" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Avbryt signeringsskjemaet" })).toHaveCount(0);
  await checkPage(page, testInfo, "signing-supervisor");
  await page.getByRole("button", { name: "Signer" }).click();
  await expect(flash(page)).toContainText("Du har signert signeringsskjemaet.");
  await expect(page.getByRole("region", { name: "Signaturer" })).toContainText("Signert av Marte Solberg");
});

test("the teacher signs last: signed by all, locked, and the result submitted", async ({ page }, testInfo) => {
  await teacherOpensForm(page);
  await page.getByRole("link", { name: "Signeringsskjema", exact: true }).click();
  await expect(page.getByRole("group", { name: "Praksisveilederen har ikke signert" })).toHaveCount(0);
  // Not every form is sent in the demo: the teacher signs all the same, saying so (zz-final-steps.spec.ts).
  await page.getByRole("checkbox", { name: "Jeg signerer selv om ikke alle skjemaene er sendt" }).check();
  await page.getByRole("button", { name: "Signer" }).click();
  await expect(flash(page)).toContainText(
    "Signeringsskjemaet er signert av alle, og resultatet er sendt til studieadministrativt system.",
  );
  const banner = page.getByRole("heading", { name: "Signert av alle" }).locator("xpath=..");
  await expect(banner).toContainText(/Sendt til studieadministrativt system \d{1,2}\.\d{1,2}\.\d{4}/);
  await expect(page.getByRole("button", { name: "Signer" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Lagre sluttvurderingen" })).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Signaturer" })).toContainText("Signert av Ingrid Haugen");
  await checkPage(page, testInfo, "signing-all-signed");

  await page.getByRole("link", { name: `Tilbake til ${STUDENT}` }).click();
  await expect(page.getByRole("heading", { name: "Signeringsskjema", exact: true }).locator("xpath=..")).toContainText(
    "Signert av alle, sendt til studieadministrativt system",
  );
});

test("the teacher cancels the form through its confirmation: archived, and the form is empty again", async ({
  page,
}, testInfo) => {
  await teacherOpensForm(page);
  await page.getByRole("link", { name: "Signeringsskjema", exact: true }).click();
  await page.getByRole("link", { name: "Avbryt signeringsskjemaet" }).click();
  await expect(page).toHaveURL(/confirm=cancel/);
  await expect(page.getByRole("heading", { name: `Vil du avbryte signeringsskjemaet for ${STUDENT}?` })).toBeVisible();
  await checkPage(page, testInfo, "signing-cancel-confirm");
  await page.getByRole("button", { name: "Ja, avbryt signeringsskjemaet" }).click();
  await expect(flash(page)).toContainText("Signeringsskjemaet er avbrutt.");
  await expect(page.getByText("Signeringsskjemaet er ikke opprettet ennå.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Lagre og bekreft midtveisvurderingen" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Kontroll før signering" })).toContainText(
    /Ja, 1 avbrutt signeringsskjema, sist \d/,
  );
  await checkPage(page, testInfo, "signing-cancelled");
});

test("a new form signed by the student and then by the teacher without the supervisor, once confirmed", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await teacherOpensForm(page);
  await page.getByRole("link", { name: "Opprett signeringsskjema" }).click();
  await fillMidAndEnd(page);

  const student = await page.context().browser()!.newContext({
    baseURL: testInfo.project.use.baseURL,
    locale: "nb-NO",
    javaScriptEnabled: testInfo.project.use.javaScriptEnabled,
  });
  const studentPage = await student.newPage();
  await studentOpensForm(studentPage);
  await studentPage.getByRole("button", { name: "Signer" }).click();
  await expect(flash(studentPage)).toContainText("Du har signert signeringsskjemaet.");
  await student.close();

  await page.reload();
  const confirm = page.getByRole("group", { name: "Praksisveilederen har ikke signert" });
  await expect(confirm).toBeVisible();
  const sign = page.getByRole("button", { name: "Signer" });
  if (testInfo.project.name === "js") {
    // With JavaScript the button waits for the box (docs/rules/signing.md).
    await expect(sign).toBeDisabled();
  } else {
    // Without, the server refuses an unticked box and says why.
    await sign.click();
    const summary = page.getByRole("alert").filter({ hasText: "Klarte ikke signere." });
    await expect(
      summary.getByRole("link", { name: "Kryss av for at du signerer uten praksisveileders signatur." }),
    ).toBeVisible();
    await checkPage(page, testInfo, "signing-without-supervisor-error");
  }
  await confirm.getByRole("checkbox", { name: "Jeg bekrefter at jeg signerer uten praksisveileders signatur" }).check();
  await page.getByRole("checkbox", { name: "Jeg signerer selv om ikke alle skjemaene er sendt" }).check();
  await expect(sign).toBeEnabled();
  await sign.click();
  await expect(flash(page)).toContainText("Signeringsskjemaet er signert av alle");
  await expect(page.getByRole("heading", { name: "Signert av alle" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Signaturer" })).toContainText(
    "Praksislæreren signerte uten praksisveileder",
  );
  await checkPage(page, testInfo, "signing-without-supervisor");
});
