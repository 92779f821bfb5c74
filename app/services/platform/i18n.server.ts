import "i18next";
import { initReactI18next } from "react-i18next";
import { createCookie } from "react-router";
import { createI18nextMiddleware } from "remix-i18next/middleware";
import resources, { DEFAULT_LANGUAGE, LANGUAGES, type Language } from "~/locales";

/** The language chosen in settings; a year, so the choice outlives the session. */
export const localeCookie = createCookie("lng", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: 365 * 24 * 60 * 60,
});

/**
 * Without a choice, a browser that prefers English over any Norwegian gets English; everyone
 * else Norwegian bokmål (nb, nn and no all read bokmål better than English).
 */
export function languageFromHeader(header: string | null): Language {
  if (!header) return DEFAULT_LANGUAGE;
  const tags = header
    .split(",")
    .map((part) => {
      const [tag, ...params] = part.trim().split(";");
      const q = params.find((p) => p.trim().startsWith("q="));
      return { tag: tag.trim().toLowerCase(), q: q ? Number(q.trim().slice(2)) || 0 : 1 };
    })
    .filter((t) => t.tag)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of tags) {
    const primary = tag.split("-")[0];
    if (primary === "nb" || primary === "nn" || primary === "no") return "nb";
    if (primary === "en") return "en";
  }
  return DEFAULT_LANGUAGE;
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

export const [i18nextMiddleware, getLocale, getInstance] = createI18nextMiddleware({
  detection: {
    supportedLanguages: [...LANGUAGES],
    fallbackLanguage: DEFAULT_LANGUAGE,
    cookie: localeCookie,
    order: ["cookie", "custom"],
    findLocale: async (request) => languageFromHeader(request.headers.get("accept-language")),
  },
  i18next: {
    resources,
    defaultNS: "common",
    fallbackNS: ["common", "ui"],
    interpolation: { escapeValue: false },
  },
  plugins: [initReactI18next],
});

export function getLanguage(context: Parameters<typeof getLocale>[0]): Language {
  const locale = getLocale(context);
  return isLanguage(locale) ? locale : DEFAULT_LANGUAGE;
}
