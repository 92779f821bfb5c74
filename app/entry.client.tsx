import i18next from "i18next";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { HydratedRouter } from "react-router/dom";
import resources, { DEFAULT_LANGUAGE } from "~/locales";

async function main() {
  // The server chose the language; the page says which in <html lang>.
  await i18next.use(initReactI18next).init({
    resources,
    lng: document.documentElement.lang || DEFAULT_LANGUAGE,
    fallbackLng: DEFAULT_LANGUAGE,
    defaultNS: "common",
    fallbackNS: ["common", "ui"],
    interpolation: { escapeValue: false },
  });
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <HydratedRouter />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

main().catch((error: unknown) => console.error(error));

// The service worker (ADR 0011): the production build only, where the browser has them (and only on
// a secure origin, which localhost counts as). A refused registration leaves the app as it was.
if (import.meta.env.PROD && "serviceWorker" in navigator && window.isSecureContext) {
  const register = () => void navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}
