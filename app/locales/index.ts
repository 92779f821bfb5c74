import type { Resource } from "i18next";
import enAuth from "./en/auth.json";
import enCommon from "./en/common.json";
import enUi from "./en/ui.json";
import nbAuth from "./nb/auth.json";
import nbCommon from "./nb/common.json";
import nbUi from "./nb/ui.json";

export const LANGUAGES = ["nb", "en"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "nb";

const resources = {
  nb: { common: nbCommon, auth: nbAuth, ui: nbUi },
  en: { common: enCommon, auth: enAuth, ui: enUi },
} satisfies Resource;

export default resources;

// Keys are checked by the locale-parity test (every key in both languages) rather than by types,
// because many keys are built at run time (role names, validation messages carried as keys).
declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "common";
  }
}
