import { expect, type Locator, type Page, type Request } from "@playwright/test";
import { checkPage, logIn, test } from "./support/fixtures";

/**
 * A press made as soon as a page appears, before its script has started, is never lost: on a slow
 * machine (the CPU slowed 6× through Chromium's DevTools protocol) the teacher Ingrid Haugen
 * (laerer1) presses a button at DOMContentLoaded on the form page, the warning page and the signing
 * form of Ella Olsen (student07, SYK2001), and the server answers that post. Before, the page's
 * script added lines above the buttons as it started (the autosave status, the help texts' buttons,
 * the warning's hint), so the buttons moved down under the pointer and the press landed beside them:
 * nothing was sent and nothing shown. Only the teacher's own things change: her form's first page
 * (nothing typed), a draft warning (private to her) and nothing on the signing form (refused, empty).
 */
test.skip(
  ({ javaScriptEnabled }) => !javaScriptEnabled,
  "without JavaScript a page has no script to wait for: every press is a plain post, tested by the pages' own specs",
);

const STUDENT = "Ella Olsen";
const flash = (page: Page) => page.getByRole("status").filter({ hasText: /\S/ }).first();

/** The submit buttons of the page's main content and where each stands (from the document's top). */
function buttonPlaces(page: Page): Promise<string[]> {
  return page
    .locator("main button[type=submit]")
    .evaluateAll((buttons) =>
      buttons.map(
        (b) => `${b.textContent?.trim()} at ${Math.round(b.getBoundingClientRect().top + window.scrollY)} px`,
      ),
    );
}

/**
 * The page's buttons stand where the server's page put them once its script has run: measured with
 * the app's scripts blocked (what shows before they start), and then after hydration.
 */
async function expectButtonsStay(page: Page, url: string): Promise<void> {
  const scripts = /\/assets\/.*\.js$/;
  await page.route(scripts, (route) => route.abort());
  await page.goto(url);
  const before = await buttonPlaces(page);
  await page.unroute(scripts);
  await page.goto(url);
  // Hydrated: React has taken the buttons over (its props on the element); then a frame for what
  // renders only in the browser.
  await page.waitForFunction(() =>
    [...document.querySelectorAll("main button[type=submit]")].every((b) =>
      Object.keys(b).some((k) => k.startsWith("__reactProps")),
    ),
  );
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 200))));
  expect(before.length).toBeGreaterThan(0);
  // Polled: a busy machine may lay the page out once more; what counts is where the buttons stay.
  await expect
    .poll(() => buttonPlaces(page), { message: "the buttons move when the page's script starts", timeout: 5000 })
    .toEqual(before);
}

/**
 * With the CPU slowed 6×, loads `url` and presses the button the moment the document is parsed
 * (DOMContentLoaded: shown, its script not started); returns the POST that press made, if any.
 * `answeredWithoutPost`: what the page shows when its script answers the press itself, posting
 * nothing (its own check of the form); seen, there is no post to wait for.
 */
async function pressAtDomContentLoaded(
  page: Page,
  url: string,
  button: string | RegExp,
  answeredWithoutPost?: Locator,
): Promise<Request | null> {
  const cdp = await page.context().newCDPSession(page);
  let posted: Request | null = null;
  // The page's own post: to its address as a document, or as React Router's fetch of it (".data").
  const onRequest = (request: Request) => {
    const target = new URL(request.url()).pathname.replace(/\.data$/, "");
    if (request.method() === "POST" && target === new URL(url, page.url()).pathname) posted ??= request;
  };
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 6 });
  try {
    const parsed = page.waitForEvent("domcontentloaded");
    await page.goto(url, { waitUntil: "commit" });
    await parsed;
    page.on("request", onRequest);
    await page.getByRole("button", { name: button }).click();
    // The post, if the press made one, leaves within a moment (its answer may take longer).
    await expect
      .poll(async () => posted !== null || ((await answeredWithoutPost?.isVisible()) ?? false), { timeout: 10_000 })
      .toBe(true)
      .catch(() => undefined);
  } finally {
    page.off("request", onRequest);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
    await cdp.detach();
  }
  return posted;
}

test("a press at DOMContentLoaded on a slow machine posts: the form page, the warning page and the signing form", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await logIn(page, "laerer1@example.org");
  await page.goto("/teacher");
  await page.getByRole("link", { name: "SYK2001 Praksis i sykehjem" }).first().click();
  await page
    .getByRole("region", { name: "Studentene du er praksislærer for" })
    .getByRole("link", { name: STUDENT })
    .click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(STUDENT);
  const studentPage = new URL(page.url()).pathname;

  await test.step("the form page: Neste", async () => {
    await page
      .getByRole("link", { name: /\(midtveisvurdering\)$/ })
      .first()
      .click();
    await expect(page.getByRole("button", { name: "Neste" })).toBeVisible();
    const url = new URL(page.url());
    url.searchParams.set("group", "1");
    const first = url.pathname + url.search;
    await expectButtonsStay(page, first);
    const post = await pressAtDomContentLoaded(page, first, "Neste");
    expect(post, "the press on Neste made no post").not.toBeNull();
    await expect(page).toHaveURL(/[?&]group=2(&|$)/);
    await expect(page.getByText(/^Del 2 av \d+$/)).toBeVisible();
    await checkPage(page, testInfo, "no-tap-lost-form-page");
  });

  await test.step("the warning page: Lagre utkast", async () => {
    await page.goto(studentPage);
    await page
      .getByRole("link", { name: /^(Skriv varsel|Se varselet|Fortsett)/ })
      .first()
      .click();
    await expect(
      page.getByRole("heading", { level: 1, name: "Varsel om fare for ikke bestått praksis" }),
    ).toBeVisible();
    const url = new URL(page.url()).pathname;
    // A draft to save again (the first save at full speed): the press's post is the second.
    await page.getByLabel("Begrunnelse").fill("Kommer for sent til vakt.");
    await page.getByRole("button", { name: "Lagre utkast" }).click();
    await expect(flash(page)).toContainText("Utkastet er lagret.");
    await expectButtonsStay(page, url);
    const post = await pressAtDomContentLoaded(page, url, "Lagre utkast");
    expect(post, "the press on Lagre utkast made no post").not.toBeNull();
    await expect(flash(page)).toContainText("Utkastet er lagret.");
    await page.reload();
    await expect(page.getByLabel("Begrunnelse")).toHaveValue("Kommer for sent til vakt.");
    await checkPage(page, testInfo, "no-tap-lost-warning");
  });

  await test.step("the signing form: Lagre og bekreft midtveisvurderingen, refused as empty", async () => {
    await page.goto(studentPage);
    await page
      .getByRole("link", { name: /signeringsskjema/i })
      .first()
      .click();
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Signeringsskjema");
    const url = new URL(page.url()).pathname;
    await expectButtonsStay(page, url);
    const refused = page.getByRole("alert").filter({ hasText: "Klarte ikke lagre." });
    const post = await pressAtDomContentLoaded(page, url, /midtveisvurderingen/, refused);
    // The answer: the mid-semester part is not filled in. From the server when the press posted;
    // when the page's script had started by the press, from its own check of the form, which
    // posts nothing empty (a lost press would show nothing at all).
    await expect(refused).toBeVisible();
    if (post === null) {
      expect(
        await page.evaluate(() =>
          Object.keys(document.querySelector("main button[type=submit]")!).some((k) => k.startsWith("__reactProps")),
        ),
        "no post, and no script to answer",
      ).toBe(true);
    }
    await checkPage(page, testInfo, "no-tap-lost-signing-form");
  });
});

/** The teacher (laerer1) logs in and opens Ella Olsen's signing form from her class. */
async function teacherOpensSigningForm(page: Page): Promise<void> {
  await logIn(page, "laerer1@example.org");
  await page.goto("/teacher");
  await page.getByRole("link", { name: "SYK2001 Praksis i sykehjem" }).first().click();
  await page
    .getByRole("region", { name: "Studentene du er praksislærer for" })
    .getByRole("link", { name: STUDENT })
    .click();
  await page
    .getByRole("link", { name: /signeringsskjema/i })
    .first()
    .click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Signeringsskjema");
}

/** The mid-semester part answered, dated a week ago. */
async function fillMidPart(page: Page): Promise<void> {
  for (const [question, choice] of [
    ["Er arbeidet med de spesifikke kompetanseområdene påbegynt?", "Ja"],
    ["Har studenten gitt tilbakemelding på praksisstudiet og veiledningen?", "Ikke relevant"],
  ]) {
    await page.getByRole("group", { name: question }).getByRole("radio", { name: choice, exact: true }).check();
  }
  await page
    .getByLabel("Dato for midtveisvurderingen")
    .fill(new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10));
}

test("what is ticked in a confirmation before the page's script starts stays ticked once it has", async ({
  page,
}, testInfo) => {
  test.setTimeout(60_000);
  await teacherOpensSigningForm(page);
  const url = new URL(page.url()).pathname;

  // The app's scripts wait until released: the pages stay as the server sent them, as on a slow machine.
  const scripts = /\/assets\/.*\.js$/;
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(scripts, async (route) => {
    await released;
    await route.continue();
  });
  await page.goto(url, { waitUntil: "domcontentloaded" });
  await fillMidPart(page);
  // A plain post: the server's page asks first, with the box for the forms not sent.
  await page.getByRole("button", { name: "Lagre og bekreft midtveisvurderingen" }).click();
  const box = page.getByRole("checkbox", {
    name: "Jeg bekrefter midtveisvurderingen selv om ikke alle skjemaene er sendt",
  });
  await box.check();

  release();
  await page.waitForFunction(() =>
    [...document.querySelectorAll("main button[type=submit]")].every((b) =>
      Object.keys(b).some((k) => k.startsWith("__reactProps")),
    ),
  );
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 200))));
  await expect(box, "the box ticked before the script started was cleared when it started").toBeChecked();
  await checkPage(page, testInfo, "no-tap-lost-confirmation");

  // Nothing confirmed: back to the form.
  await page.getByRole("button", { name: "Nei, gå tilbake" }).click();
  await expect(page.getByRole("button", { name: "Lagre og bekreft midtveisvurderingen" })).toBeVisible();
  await expect(page.getByText("Signeringsskjemaet er ikke opprettet ennå.")).toBeVisible();
});

test("what is ticked in a confirmation while the page's data is still on its way stays ticked, and is posted", async ({
  page,
}) => {
  await teacherOpensSigningForm(page);
  await page.waitForFunction(() =>
    Object.keys(document.querySelector("main button[type=submit]")!).some((k) => k.startsWith("__reactProps")),
  );

  // After a post's answer the page's data is read again; here it takes a second and a half, as it can
  // on a busy server. Before, the confirmation showed as soon as the post was answered and was made
  // anew when the data came: the box ticked in between was cleared.
  let reloaded = () => {};
  const reloadedOnce = new Promise<void>((resolve) => (reloaded = resolve));
  await page.route(/\/signingform\.data(\?|$)/, async (route) => {
    if (route.request().method() !== "GET") return route.continue();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.continue();
    reloaded();
  });
  await fillMidPart(page);
  await page.getByRole("button", { name: "Lagre og bekreft midtveisvurderingen" }).click();
  const box = page.getByRole("checkbox", {
    name: "Jeg bekrefter midtveisvurderingen selv om ikke alle skjemaene er sendt",
  });
  await box.check();
  await reloadedOnce;
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 200))));
  await expect(box, "the box was cleared when the page's data came").toBeChecked();
  await expect(page.getByRole("dialog")).toHaveCount(1);

  // What is posted is what is shown: going back posts the box too, and changes nothing.
  const posted = page.waitForRequest((request) => request.method() === "POST");
  await page.getByRole("button", { name: "Nei, gå tilbake" }).click();
  expect((await posted).postData()).toContain("unsentAcknowledged=yes");
  await expect(page.getByRole("button", { name: "Lagre og bekreft midtveisvurderingen" })).toBeVisible();
  await expect(page.getByText("Signeringsskjemaet er ikke opprettet ennå.")).toBeVisible();
});
