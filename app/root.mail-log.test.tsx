// MAIL_TRANSPORT=log (a trial outside demo mode): no mail is sent, and every page says so in a
// strip like the demo's, in the page's language.
import { createInstance } from "i18next";
import { renderToString } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import resources from "~/locales";
import { resetEnvForTests } from "~/services/platform/env.server";
import { startTestApp, stopTestApp } from "~/test/app";
import { callLoader } from "~/test/route";
import * as root from "./root";

let app: Awaited<ReturnType<typeof startTestApp>>;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await stopTestApp(app);
});
afterEach(() => {
  for (const name of ["MAIL_TRANSPORT", "SMTP_URL", "DEMO_MODE"]) delete process.env[name];
  resetEnvForTests();
});

async function pageData(settings: Record<string, string>): Promise<{ mailLog: boolean; demo: boolean }> {
  Object.assign(process.env, settings);
  resetEnvForTests();
  return (await callLoader(root, new Request("http://localhost/"))).json();
}

test("every page's data says whether mail is sent: the warning with MAIL_TRANSPORT=log, none with SMTP or the demo's outbox", async () => {
  expect(await pageData({ MAIL_TRANSPORT: "log" })).toMatchObject({ mailLog: true, demo: false });
  expect(await pageData({ MAIL_TRANSPORT: "log", DEMO_MODE: "true" })).toMatchObject({ mailLog: true, demo: true });
  delete process.env.MAIL_TRANSPORT;
  expect(await pageData({ SMTP_URL: "smtp://mail.hogskolen.no" })).toMatchObject({ mailLog: false });
  delete process.env.SMTP_URL;
  expect(await pageData({ DEMO_MODE: "true" })).toMatchObject({ mailLog: false, demo: true });
});

test.each([
  ["nb", "Ingen e-post", "Denne installasjonen sender ikke e-post"],
  ["en", "No e-mail", "This installation does not send e-mail"],
])("the warning in %s: a labelled strip with what it means", async (language, title, text) => {
  const i18n = createInstance().use(initReactI18next);
  await i18n.init({ resources, lng: language, fallbackLng: "nb", defaultNS: "common", ns: ["common"] });
  const html = renderToString(
    <I18nextProvider i18n={i18n}>
      <root.MailLogBanner />
    </I18nextProvider>,
  );
  expect(html).toContain(`<aside class="app-demo" aria-label="${title}">`);
  expect(html).toContain(`<strong>${title}<!-- -->:</strong>`);
  expect(html).toContain(text);
});
