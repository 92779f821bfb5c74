import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import type { AxeResults, RunOptions } from "axe-core";
import { HtmlValidate, StaticConfigLoader, type ConfigData } from "html-validate";
import { expect, test as base, type Browser, type Locator, type Page, type TestInfo } from "@playwright/test";
import { AUTOSAVE_DELAY_MS } from "../../app/components/app/autosaveDecision";

function portOf(baseURL: string | undefined): number {
  return Number(new URL(baseURL ?? "http://127.0.0.1:3100").port);
}

/** The newest mail to an address received since `since` (the SMTP peer of serve.mjs keeps each as a file). */
export async function readMail(
  baseURL: string | undefined,
  email: string,
  since: number,
  wanted = /^/,
): Promise<string> {
  const dir = path.join(os.tmpdir(), `praksis-e2e-${portOf(baseURL)}`, "mail");
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const files = fs
      .readdirSync(dir)
      .filter((f) => Number(f.split("-")[0]) >= since)
      .sort()
      .reverse();
    for (const file of files) {
      const mail = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as { to: string[]; raw: string };
      if (mail.to.includes(email.toLowerCase()) && wanted.test(mail.raw)) return mail.raw;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`No mail for ${email} matching ${wanted}`);
}

/** The code of the newest code mail to an address. */
export async function readCode(baseURL: string | undefined, email: string, since: number): Promise<string> {
  const subject = /^Subject: (\d{6}) /m;
  return subject.exec(await readMail(baseURL, email, since, subject))![1];
}

/** Asks for a code on /login and returns when the code page shows. */
export async function requestCode(page: Page, email: string): Promise<number> {
  const since = Date.now() - 1;
  await page.goto("/login");
  await page.getByLabel("E-postadresse").fill(email);
  await page.getByRole("button", { name: "Send kode" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Skriv inn koden" })).toBeVisible();
  return since;
}

/**
 * Logs in with an e-mail code, as the log-in pages do (the same posts), but through the browser
 * context's request API rather than its pages: the session cookie lands in the browser, and only
 * the page the log-in leads to is loaded. The pages themselves are tested in login.spec.ts.
 */
export async function logIn(page: Page, email: string, options: { acceptPrivacy?: boolean } = {}): Promise<void> {
  const baseURL = test.info().project.use.baseURL!;
  await oneLogInAtATime(baseURL, email, () => logInWithCode(page, baseURL, email, options));
}

/**
 * A new code voids the one before it, so two test files logging the same person in at once
 * would void each other's: code log-ins of one address on one app instance take turns. A lock left
 * by a worker that was stopped mid-log-in is taken over after 30 s.
 */
async function oneLogInAtATime(baseURL: string, email: string, logInNow: () => Promise<void>): Promise<void> {
  const lock = path.join(os.tmpdir(), `praksis-e2e-${portOf(baseURL)}`, `login-${email.toLowerCase()}.lock`);
  // A lock's age is counted on this worker's clock from when it first saw that lock, not from the
  // lock's mtime: under libfaketime (a run moved to another date) the file system keeps the real
  // time, so every lock would look months old and be taken over at once.
  let seen = null as { lock: string; at: number } | null;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      const held = fs.statSync(lock, { throwIfNoEntry: false });
      const which = held ? `${held.ino}:${held.mtimeMs}` : "";
      if (seen?.lock !== which) seen = { lock: which, at: Date.now() };
      if (held && Date.now() - seen.at > 30_000) fs.rmSync(lock, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, 50));
    }
  }
  try {
    await logInNow();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

async function logInWithCode(
  page: Page,
  baseURL: string,
  email: string,
  options: { acceptPrivacy?: boolean },
): Promise<void> {
  const since = Date.now() - 1;
  // As a browser's form post: the app refuses writes that do not say where they come from. The
  // redirects are read, not followed: only the page the log-in leads to is rendered, once, in the page.
  const post = async (url: string, form: Record<string, string>): Promise<URL> => {
    const response = await page.request.post(new URL(url, baseURL).href, {
      form,
      headers: { Origin: new URL(baseURL).origin },
      maxRedirects: 0,
    });
    expect(response.status(), `${url} answers with a redirect`).toBe(303);
    return new URL(response.headers().location, baseURL);
  };
  expect((await post("/login", { email })).pathname, "the code page").toBe("/otp");
  const code = await readCode(baseURL, email, since);
  const landing = await post("/otp", { code });
  expect(landing.pathname, "logged in").not.toBe("/otp");
  await page.goto(landing.pathname + landing.search);
  // The area's pages send someone who has not accepted the privacy policy to accept it first.
  const shown = new URL(page.url());
  if (options.acceptPrivacy !== false && shown.pathname === "/privacy-consent") {
    const target = await post(shown.pathname + shown.search, {
      intent: "accept",
      redirectTo: shown.searchParams.get("redirectTo") ?? "",
    });
    await page.goto(target.pathname + target.search);
  }
}

/** Starts a Feide or Vipps log-in on "/" and signs in as `login` at the local provider (oidc-peer.mjs). */
export async function signInAtProvider(page: Page, provider: "Feide" | "Vipps", login: string): Promise<void> {
  await page.goto("/");
  await page.getByRole("button", { name: `Logg inn med ${provider}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Test ${provider} login` })).toBeVisible();
  await page.getByLabel("Username").fill(login);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Logs in at the provider and comes back to the app, accepting the privacy policy when asked. */
export async function logInWithProvider(page: Page, provider: "Feide" | "Vipps", login: string): Promise<void> {
  await signInAtProvider(page, provider, login);
  await page.waitForURL((url) => url.port !== "" && !url.pathname.startsWith("/interaction"));
  if (new URL(page.url()).pathname === "/privacy-consent") {
    await page.getByRole("button", { name: "Jeg godtar" }).click();
    await page.waitForURL((url) => url.pathname !== "/privacy-consent");
  }
}

/** The admin, acting as admin (the admin is also a teacher, so the role chooser comes first). */
export async function logInAsAdmin(page: Page): Promise<void> {
  await logIn(page, "admin@example.org");
  if (new URL(page.url()).pathname === "/role") {
    await page.getByRole("button", { name: "Fortsett som Administrator" }).click();
  }
  await expect(page).toHaveURL(/\/admin$/);
}

const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/** axe-core itself (ADR 0016), read once per worker and put into each document scanned. */
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * The axe scan of the page's document: WCAG 2.0, 2.1 and 2.2 A and AA, and only the violations (axe
 * need not gather the details of passes and inapplicable rules). axe-core is put into the page's
 * window once (a page that moved on within its document, or the scanning page below, keeps it) and
 * run there with axe.run; the app has no frames.
 */
async function axeViolations(page: Page): Promise<AxeResults["violations"]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const options: RunOptions = { runOnly: { type: "tag", values: AXE_TAGS }, resultTypes: ["violations"] };
  return page.evaluate(
    async (options) =>
      (
        await (
          window as unknown as { axe: { run: (context: Document, options: RunOptions) => Promise<AxeResults> } }
        ).axe.run(document, options)
      ).violations,
    options,
  );
}

/** One scanning page per worker and browser for the no-JS project (see checkPage). */
let scanner: { browser: Browser; page: Page } | undefined;

/**
 * The scanning page: JavaScript on (axe needs it), at the app's origin, so that the document written
 * into it loads its stylesheets, fonts and images from the app (once: the browser's cache keeps them,
 * as nothing is routed). The app's Content-Security-Policy is not applied there: its nonces belong to
 * the response the no-JS page had, and the scanning page's own address answered with other ones.
 */
async function noJsScanner(browser: Browser, baseURL: string | undefined): Promise<Page> {
  if (scanner?.browser === browser && !scanner.page.isClosed()) return scanner.page;
  const context = await browser.newContext({ javaScriptEnabled: true, locale: "nb-NO", baseURL, bypassCSP: true });
  const page = await context.newPage();
  await page.goto("/healthz");
  scanner = { browser, page };
  return page;
}

/**
 * The document the no-JS page shows, without its scripts (and their preloads): with JavaScript off
 * they never run, and in the scanning page they must not. Nothing else is changed: scripts are not
 * rendered, and axe and the reflow check read only what is.
 */
function withoutScripts(html: string): string {
  return html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "")
    .replace(/<link\b[^>]*\brel="modulepreload"[^>]*>/gi, "");
}

/** The page at 1280, 390 and 320 px wide (E2E_SCREENSHOTS=1), for a person to look at. */
export async function screenshots(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  if (!process.env.E2E_SCREENSHOTS) return;
  const viewport = page.viewportSize() ?? { width: 1280, height: 720 };
  fs.mkdirSync(path.join("test-results", "screenshots"), { recursive: true });
  for (const width of [1280, 390, 320]) {
    await page.setViewportSize({ width, height: viewport.height });
    await page.screenshot({
      path: path.join("test-results", "screenshots", `${testInfo.project.name}-${name}-${width}.jpeg`),
      fullPage: true,
      type: "jpeg",
      quality: 70,
    });
  }
  await page.setViewportSize(viewport);
}

/**
 * The axe scan (zero violations), valid HTML (checkHtml: no html-validate error in the document the
 * page shows) and the reflow check at phone widths (checkReflow); with
 * E2E_SCREENSHOTS=1 a screenshot for a person to look at (1280 px unless the test says otherwise;
 * with E2E_PHONE_SCREENSHOTS=1 also one at 390 px). axe needs script in the page, so the no-JS
 * project scans the exact document its page shows (the served HTML, after a post too) in a scanning
 * page, with the page's own size, where the app's scripts are left out. With E2E_CHECK_TIMES=<file>
 * each check appends a JSON line with the milliseconds of its parts (to see where a run's time goes).
 */
export async function checkPage(
  page: Page,
  testInfo: TestInfo,
  name: string,
  options: ReflowOptions = {},
): Promise<void> {
  const html = await page.content();
  const shots = path.join("test-results", "screenshots");
  if (process.env.E2E_SCREENSHOTS || process.env.E2E_PHONE_SCREENSHOTS) fs.mkdirSync(shots, { recursive: true });
  // Not by default: a full-page screenshot costs about 0.2 s, 300 times a run, for pictures nobody
  // opens in CI (a failed test's retry records a trace, with the DOM at every step).
  if (process.env.E2E_SCREENSHOTS) {
    await page.screenshot({
      path: path.join(shots, `${testInfo.project.name}-${name}.jpeg`),
      fullPage: true,
      type: "jpeg",
      quality: 80,
    });
  }

  const times = [Date.now()];
  let scanned: Page = page;
  if (testInfo.project.name !== "js") {
    scanned = await noJsScanner(page.context().browser()!, testInfo.project.use.baseURL);
    const size = page.viewportSize();
    if (size) await scanned.setViewportSize(size);
    await scanned.setContent(withoutScripts(html));
  }
  times.push(Date.now());
  const violations = await axeViolations(scanned);
  expect(violations, JSON.stringify(violations.map((v) => [v.id, v.nodes.map((n) => n.target)]))).toEqual([]);
  times.push(Date.now());
  await checkHtml(html, page.url(), testInfo, name);
  times.push(Date.now());
  const phoneShot =
    process.env.E2E_PHONE_SCREENSHOTS && testInfo.project.name === "js"
      ? path.join(shots, `js-${name}-390.jpeg`)
      : undefined;
  // The no-JS scanning page is given the checked page's size before every scan: it is left as the check leaves it.
  await checkReflow(scanned, name, phoneShot, options, scanned === page);
  times.push(Date.now());
  if (process.env.E2E_CHECK_TIMES) {
    const [load, axe, valid, reflow] = times.slice(1).map((t, i) => t - times[i]);
    const entry = {
      project: testInfo.project.name,
      name,
      path: new URL(page.url()).pathname,
      load,
      axe,
      valid,
      reflow,
    };
    fs.appendFileSync(process.env.E2E_CHECK_TIMES, `${JSON.stringify(entry)}\n`);
  }
}

/**
 * The HTML checker: html-validate with the repository's .htmlvalidate.json, read once per worker.
 * It extends "html-validate:recommended" (the HTML standard's content models, permitted attributes
 * and ARIA in HTML's rules, close to what the Nu Html Checker enforces, and its WCAG techniques)
 * and "html-validate:browser", which switches off only the rules about how the source is written:
 * the document checked is the browser's serialization of its DOM (page.content()), so how an
 * attribute, a boolean or a void element is spelled, trailing spaces and the doctype line are the
 * browser's doing, not the app's, and inline style is what React writes for a style prop (the Nu
 * checker does not judge any of these either). No rule that the Nu checker enforces is off. Four
 * rules are set to what the HTML standard allows rather than the preset's stricter taste:
 * - valid-id relaxed: an id may start with any character but a space (React's useId makes "_r_1_");
 *   the strict form only spares CSS selectors an escape.
 * - aria-label-misuse allowAnyNamable: a list or a region may be named by its heading
 *   (aria-labelledby), as ARIA allows; the rule still refuses a name on an element that cannot take one.
 * - form-dup-name with checkboxes shared: a group of checkboxes with one name sends a list of values
 *   (the server reads them with getAll), as HTML means it; two other controls with one name still fail.
 * - prefer-native-element except for region: a table's or a chart's scrolling wrapper is a div with
 *   role="region", named by the table's caption or the chart's title. A <section> would be the same
 *   region, but the Nu checker warns about a section without a heading of its own; the div is what
 *   both checkers accept without a word. Every other role that has a native element still fails.
 * Validating a page takes about 15–60 ms (300 ms for a worker's first page, which loads the rules).
 */
const htmlValidator = new HtmlValidate(
  new StaticConfigLoader(
    JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "../../.htmlvalidate.json"), "utf8")) as ConfigData,
  ),
);

/**
 * The page's HTML is valid: html-validate finds no error in the document as the page shows it (for
 * the JS project the live DOM after hydration, for the no-JS project the served document). A
 * failure names the page, and for each error its rule, line and the line's text around it. With
 * E2E_HTML_COUNT=<file> the errors are appended to that file (one JSON line a page) instead of
 * failing, to count them.
 */
async function checkHtml(html: string, url: string, testInfo: TestInfo, name: string): Promise<void> {
  const report = await htmlValidator.validateString(html, new URL(url).pathname);
  const lines = html.split("\n");
  const errors = report.results
    .flatMap((result) => result.messages)
    .filter((message) => message.severity === 2)
    .map((message) => {
      const line = lines[message.line - 1] ?? "";
      const from = Math.max(0, message.column - 1 - 40);
      return `${message.ruleId} at ${message.line}:${message.column}: ${message.message} — ${line.slice(from, message.column - 1 + 80).trim()}`;
    });
  if (process.env.E2E_HTML_COUNT) {
    if (errors.length > 0) {
      const entry = { project: testInfo.project.name, name, path: new URL(url).pathname, errors };
      fs.appendFileSync(process.env.E2E_HTML_COUNT, `${JSON.stringify(entry)}\n`);
    }
    return;
  }
  expect(errors, `"${name}" (${new URL(url).pathname}) is not valid HTML`).toEqual([]);
}

/**
 * The widths every checked page is measured at: WCAG 2.1 1.4.10's 320 CSS px, a common phone, and an
 * old screen (1024 CSS px: an old PC, or 1280 px at 125 %).
 */
const REFLOW_WIDTHS = [320, 390, 1024];
const OLD_SCREEN = 1024;

export type ReflowOptions = {
  /**
   * At 1024 px no table or chart scrolls inside its own region either: none is cut off at the
   * region's edge. On for every page; `false` only with the reason beside it.
   */
  wholeAt1024?: boolean;
};

/**
 * Reflow (WCAG 2.1 1.4.10): at 320, 390 and 1024 CSS px wide the document is no wider than the
 * viewport, so nothing scrolls sideways (a wide table may scroll inside its own region at 320 and
 * 390 px, but not at 1024 px: there it would be cut off at an everyday size). Measured in the page
 * axe scanned (for the no-JS project the served document, its scripts off), then the viewport is
 * put back. On failure the message names the page, the width and the outermost elements that stick
 * out (those inside a region that scrolls or clips on its own do not widen the page), or the regions
 * whose content is wider than they are.
 */
async function checkReflow(
  page: Page,
  name: string,
  shot: string | undefined,
  options: ReflowOptions,
  restore: boolean,
): Promise<void> {
  const viewport = page.viewportSize() ?? { width: 1280, height: 720 };
  const failures: string[] = [];
  try {
    for (const width of REFLOW_WIDTHS) {
      await page.setViewportSize({ width, height: viewport.height });
      const measured = await page.evaluate(measureReflow, width === OLD_SCREEN && options.wholeAt1024 !== false);
      // On request (E2E_PHONE_SCREENSHOTS=1), a phone-sized look for a person; its no-JS twin has the same styles.
      if (shot && width === 390) await page.screenshot({ path: shot, fullPage: true, type: "jpeg", quality: 70 });
      if (measured.scrollWidth > measured.clientWidth) {
        failures.push(
          `${width} px: the page is ${measured.scrollWidth} px wide; sticking out: ${measured.offenders.join(", ")}`,
        );
      }
      if (measured.cut.length > 0)
        failures.push(`${width} px: cut off, scrolling inside its region: ${measured.cut.join(", ")}`);
    }
  } finally {
    if (restore) await page.setViewportSize(viewport);
  }
  expect(failures, `"${name}" scrolls sideways on a phone or is cut off on an old screen`).toEqual([]);
}

/**
 * Runs in the page: the document's widths after layout, and the outermost elements that widen it;
 * with `whole` also the regions that scroll sideways (overflow auto or scroll) because what they
 * hold is wider than they are.
 */
function measureReflow(whole: boolean): {
  scrollWidth: number;
  clientWidth: number;
  offenders: string[];
  cut: string[];
} {
  const describe = (el: Element, extra: string) =>
    `${el.tagName.toLowerCase()}${Array.from(el.classList, (c) => `.${c}`).join("")} "${(el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40)}" (${extra})`;
  // Reading the widths lays the page out at the new size (no page re-lays itself out from script on a resize).
  const { scrollWidth, clientWidth } = document.documentElement;
  const cut = whole
    ? Array.from(document.body.querySelectorAll("*"))
        .filter(
          (el) =>
            /auto|scroll/.test(getComputedStyle(el).overflowX) &&
            el.clientWidth > 1 &&
            el.scrollWidth > el.clientWidth + 1,
        )
        .slice(0, 3)
        .map((el) => describe(el, `${el.scrollWidth} px in ${el.clientWidth} px`))
    : [];
  if (scrollWidth <= clientWidth) return { scrollWidth, clientWidth, offenders: [], cut };
  // Whether a region that scrolls or clips on its own holds the element: for an absolutely positioned
  // one only from its containing block (its nearest positioned ancestor) up, as a visually hidden text
  // in a scrolling table escapes the table's region unless the region is positioned.
  const contained = (element: Element): boolean => {
    for (let el: Element | null = element; el && el !== document.body;) {
      const position = getComputedStyle(el).position;
      if (position === "fixed") return true;
      let next: Element | null = el.parentElement;
      if (position === "absolute")
        while (next && next !== document.body && getComputedStyle(next).position === "static")
          next = next.parentElement;
      if (!next || next === document.body) return false;
      if (getComputedStyle(next).overflowX !== "visible") return true;
      el = next;
    }
    return false;
  };
  const sticking = new Set(
    Array.from(document.body.querySelectorAll("*")).filter(
      (el) => el.getBoundingClientRect().right > clientWidth && !contained(el),
    ),
  );
  const offenders = Array.from(sticking)
    .filter((el) => !sticking.has(el.parentElement!))
    .map((el) => {
      const right = Math.round(el.getBoundingClientRect().right);
      return { right, label: describe(el, `to ${right} px`) };
    })
    .sort((a, b) => b.right - a.right);
  return { scrollWidth, clientWidth, offenders: offenders.slice(0, 3).map((o) => o.label), cut };
}

/**
 * The autosave's pause after the last change, gone by at once: the page's clock (Playwright's, put in
 * with `page.clock.install()` before the page was opened; it runs on as a real one) jumps over it, so
 * the save goes now instead of 3 s later. For tests of what a save does (refused, kept, offline, a
 * conflict), not of when: the pause itself is answering.spec.ts's "save themselves 3 seconds after the
 * last change", with the clock stopped.
 */
export async function skipAutosavePause(page: Page): Promise<void> {
  await page.clock.fastForward(AUTOSAVE_DELAY_MS);
}

/**
 * Presses a button that posts its form and waits until the server has answered the post (with
 * JavaScript React Router's fetch, without it the document): a flash already on the page from an
 * earlier post with the same words is not taken for this one's, and what the post saves has landed
 * before the test goes on (or closes the page).
 */
export async function pressAndWaitForPost(page: Page, button: Locator): Promise<void> {
  const answered = page.waitForResponse((response) => response.request().method() === "POST");
  await button.click();
  await answered;
}

export const test = base;
export { expect };
