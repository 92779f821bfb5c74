import { expect } from "@playwright/test";
import { checkPage, logInWithProvider, signInAtProvider, test } from "./support/fixtures";

/**
 * Feide and Vipps through the local OpenID providers that serve.mjs starts (e2e/support/oidc-peer.mjs).
 * Each project has its own app and providers, so the same test users serve both.
 */

test("the log-in page offers Feide, Vipps for supervisors, and the e-mail code", async ({ page }, testInfo) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 2, name: "Studenter og ansatte" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Logg inn med Feide" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Praksisveiledere" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Logg inn med Vipps" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Logg inn med e-post" })).toBeVisible();
  await checkPage(page, testInfo, "login-main");
});

test("a student logs in with Feide and lands in the student area", async ({ page }, testInfo) => {
  await logInWithProvider(page, "Feide", "student09");
  await expect(page).toHaveURL(/\/student$/);
  await expect(page.getByText("Ingrid Jensen").first()).toBeVisible();
  await checkPage(page, testInfo, "feide-student-home");
});

test("a first-time Feide student with a course membership gets a user", async ({ page }) => {
  await logInWithProvider(page, "Feide", "ny.student");
  await expect(page).toHaveURL(/\/student$/);
  await expect(page.getByText("Nina Ny").first()).toBeVisible();
});

test("someone Feide knows but Praksis does not is told why, and is not logged in", async ({ page }, testInfo) => {
  await signInAtProvider(page, "Feide", "ukjent.ansatt");
  await expect(page).toHaveURL(/\/feide-success\?/);
  await expect(page.getByRole("heading", { level: 1, name: "Innloggingen med Feide ble ikke fullført" })).toBeVisible();
  await expect(
    page.getByText("Du er logget inn i Feide, men har ingen bruker i Praksis ennå.", { exact: false }),
  ).toBeVisible();
  await checkPage(page, testInfo, "feide-refused");
  await page.getByRole("link", { name: "Tilbake til innloggingen" }).click();
  await expect(page.getByRole("button", { name: "Logg inn med Feide" })).toBeVisible();
  await page.goto("/student");
  await expect(page).toHaveURL(/\/\?redirectTo=%2Fstudent$/);
});

test("a deactivated user cannot log in with Feide", async ({ page }) => {
  await signInAtProvider(page, "Feide", "deaktivert");
  await expect(page.getByText("Brukeren din i Praksis er deaktivert.", { exact: false })).toBeVisible();
});

test("a supervisor logs in with Vipps by phone number", async ({ page }, testInfo) => {
  await logInWithProvider(page, "Vipps", "veileder3");
  await expect(page).toHaveURL(/\/supervisor$/);
  await expect(page.getByText("Hanne Berg").first()).toBeVisible();
  await checkPage(page, testInfo, "vipps-supervisor-home");
});

test("cancelling at Vipps is a page that says so, with the way back to log-in", async ({ page }, testInfo) => {
  await page.goto("/");
  await page.getByRole("button", { name: "Logg inn med Vipps" }).click();
  const answer = page.waitForResponse((response) => new URL(response.url()).pathname === "/vipps-success");
  await page.getByRole("button", { name: "Cancel" }).click();
  expect((await answer).status()).toBe(403);
  await expect(page).toHaveURL(/\/vipps-success\?error=access_denied/);
  await expect(page.getByRole("heading", { level: 1, name: "Du avbrøt innloggingen med Vipps" })).toBeVisible();
  await expect(page.getByText("Du avbrøt innloggingen i Vipps", { exact: false })).toBeVisible();
  await expect(page).toHaveTitle(/^Du avbrøt innloggingen med Vipps – /);
  await checkPage(page, testInfo, "vipps-cancelled");
  await page.getByRole("link", { name: "Tilbake til innloggingen" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("button", { name: "Logg inn med Vipps" })).toBeVisible();
});

test("Vipps errors are explained on the callback page", async ({ page }) => {
  await signInAtProvider(page, "Vipps", "error:outdated_app_version");
  await expect(page.getByText("Vipps-appen din er for gammel.", { exact: false })).toBeVisible();

  await signInAtProvider(page, "Vipps", "error:teapot_error");
  await expect(page.getByText("Vipps svarte med en feil (teapot_error): Test error teapot_error")).toBeVisible();

  await signInAtProvider(page, "Vipps", "student13");
  await expect(page.getByText("Vipps-innlogging er for praksisveiledere.", { exact: false })).toBeVisible();
});

test("a tampered or replayed callback gives a clear message and no session", async ({ page, browser }, testInfo) => {
  const seen: string[] = [];
  page.on("request", (request) => seen.push(request.url()));

  // A forged answer: the real state of a log-in this browser started, but a changed state or a made-up code.
  await page.goto("/");
  await page.getByRole("button", { name: "Logg inn med Feide" }).click();
  await expect(page.getByLabel("Username")).toBeVisible();
  const authorization = new URL(seen.find((u) => u.includes("/oauth/authorization?"))!);
  const state = authorization.searchParams.get("state")!;
  const mismatch = await page.goto(`/feide-success?code=made-up&state=${encodeURIComponent(`${state}-changed`)}`);
  expect(mismatch?.status()).toBe(400);
  await expect(page.getByText("kontrollverdien (state) stemte ikke", { exact: false })).toBeVisible();
  await checkPage(page, testInfo, "provider-state-mismatch");

  await page.getByRole("link", { name: "Tilbake til innloggingen" }).click();
  await page.getByRole("button", { name: "Logg inn med Feide" }).click();
  await expect(page.getByLabel("Username")).toBeVisible();
  const second = new URL(seen.filter((u) => u.includes("/oauth/authorization?")).at(-1)!);
  await page.goto(`/feide-success?code=made-up&state=${encodeURIComponent(second.searchParams.get("state")!)}`);
  await expect(page.getByText("Feide godtok ikke innloggingskoden", { exact: false })).toBeVisible();

  // A real answer, used, then replayed in another browser that never started a log-in.
  await logInWithProvider(page, "Feide", "student10");
  await expect(page).toHaveURL(/\/student$/);
  const callback = seen.find(
    (u) => new URL(u).pathname === "/feide-success" && new URL(u).searchParams.has("code") && !u.includes("made-up"),
  )!;
  expect(callback).toBeTruthy();
  const other = await browser.newContext({ javaScriptEnabled: testInfo.project.name === "js" });
  const otherPage = await other.newPage();
  expect((await otherPage.goto(callback))?.status()).toBe(400);
  await expect(otherPage.getByText("tok for lang tid, svaret er allerede brukt", { exact: false })).toBeVisible();
  await otherPage.goto("/student");
  await expect(otherPage).toHaveURL(/\/\?redirectTo=%2Fstudent$/);
  await other.close();
});

test("an admin logs in with Feide and reads /debug/fs", async ({ page }, testInfo) => {
  await logInWithProvider(page, "Feide", "admin");
  if (new URL(page.url()).pathname === "/role") {
    await page.getByRole("button", { name: "Fortsett som Administrator" }).click();
  }
  // The role is chosen once the admin page shows: going on before that cancelled the choice's post.
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto("/debug/fs");
  await expect(page.getByRole("heading", { level: 1, name: "Feide-data (feilsøking)" })).toBeVisible();
  await expect(page.getByText("feide:admin@fjordbyen.no").first()).toBeVisible();
  await expect(page.getByRole("cell", { name: "fc:fs:fs:emne:fjordbyen.no:SYK2001:1" })).toBeVisible();
  await expect(page.getByRole("cell", { name: "underviser" })).toBeVisible();
  // A developer's page of the raw FS rows (demo only), one column per field: it may scroll inside its region.
  await checkPage(page, testInfo, "debug-fs", { wholeAt1024: false });
});
