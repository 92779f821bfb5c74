import { createInstance, type i18n as I18n } from "i18next";
import { initReactI18next } from "react-i18next";
import type { FlashMessage } from "~/components/ui";
import resources from "~/locales";
import type { Flash } from "~/services/platform/flash.server";
import { flashOf } from "~/test/route";

/** The texts as the server has them, nb unless told: what a person reads of a key and its values. */
export type Language = "nb" | "en";

export async function testI18n(language: Language = "nb"): Promise<I18n> {
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({
    lng: language,
    resources,
    fallbackLng: false,
    defaultNS: "common",
    // As the server's (i18n.server.ts).
    fallbackNS: ["common", "ui"],
    interpolation: { escapeValue: false },
  });
  return i18n;
}

/** A flash as the root loader gives it to the page: its key translated with its values. */
export function flashMessage(i18n: I18n, flash: Flash): FlashMessage {
  return { type: flash.type, message: i18n.t(flash.key, flash.values) };
}

/** The text a person reads of the flash message a response sets (nb unless told), or null. */
export async function flashTextOf(response: Response, language: Language = "nb"): Promise<string | null> {
  const flash = await flashOf(response);
  return flash ? flashMessage(await testI18n(language), flash).message : null;
}
