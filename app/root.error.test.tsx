// The root's error page, by status and in both languages: what a person reads, and the way home.
import i18next from "i18next";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { MemoryRouter, UNSAFE_ErrorResponseImpl as ErrorResponse } from "react-router";
import { describe, expect, test } from "vitest";
import resources from "~/locales";
import { ErrorBoundary } from "./root";

async function page(error: unknown, lng: "nb" | "en"): Promise<string> {
  const i18n = i18next.createInstance();
  await i18n
    .use(initReactI18next)
    .init({ resources, lng, ns: ["common"], defaultNS: "common", interpolation: { escapeValue: false } });
  const props = { error, params: {} } as unknown as Parameters<typeof ErrorBoundary>[0];
  const html = renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter>
        <ErrorBoundary {...props} />
      </MemoryRouter>
    </I18nextProvider>,
  );
  // The words, as a person reads them: tags out, one space between.
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

describe("the error page says what happened, by status, and leads home", () => {
  test.each([
    [404, "nb", "Fant ikke siden Siden du leter etter", "Gå til startsiden"],
    [404, "en", "Page not found The page you are looking for does not exist.", "Go to the home page"],
    [400, "en", "Bad request The address or the form that was sent could not be read.", "Go to the home page"],
    [418, "en", "Error HTTP status 418: An unexpected error occurred", "Go to the home page"],
  ] as const)("%i in %s", async (status, lng, says, home) => {
    const text = await page(new ErrorResponse(status, "", null), lng);
    expect(text).toContain(says);
    expect(text.endsWith(home)).toBe(true);
  });

  test("a fault in the app is a 500 in words, not its stack", async () => {
    const text = await page(new Error("secret stack detail"), "en");
    expect(text).toContain("Something went wrong Something went wrong, please try again.");
    expect(text).not.toContain("secret stack detail");
    expect(text.endsWith("Go to the home page")).toBe(true);
  });
});
