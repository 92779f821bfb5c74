import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { watchFailedRequests } from "~/components/request-id";
// In the client build `react-i18next` is this module (vite.config.ts, ADR 0012): the pages' hooks and
// this provider are one module, typed by the small client it really is.
import { ClientI18n, I18nextProvider } from "~/i18n-client/react-i18next";
import { DEFAULT_LANGUAGE } from "~/locales/languages";

// A server error's request id, for the error page rendered here (components/request-id.tsx).
watchFailedRequests();

async function main() {
  // The server chose the language; the page says which in <html lang>. Only that language (and the
  // fallback, nb) is loaded, each language being one chunk.
  const i18n = await new ClientI18n({
    language: document.documentElement.lang || DEFAULT_LANGUAGE,
    fallbackLanguage: DEFAULT_LANGUAGE,
    defaultNS: "common",
    fallbackNS: ["common", "ui"],
    load: (language) => (language === "en" ? import("~/locales/en") : import("~/locales/nb")).then((m) => m.default),
  }).init();
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18n}>
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
