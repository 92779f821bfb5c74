import { createInstance, type i18n, type InitOptions } from "i18next";
import { initReactI18next } from "react-i18next";
import { createContext, createCookie, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { RemixI18Next } from "remix-i18next/server";
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

// Which language a request gets: the settings cookie, then the browser's preference.
const detector = new RemixI18Next({
  detection: {
    supportedLanguages: [...LANGUAGES],
    fallbackLanguage: DEFAULT_LANGUAGE,
    cookie: localeCookie,
    order: ["cookie", "custom"],
    findLocale: async (request) => languageFromHeader(request.headers.get("accept-language")),
  },
});

const options: InitOptions = {
  resources,
  defaultNS: "common",
  fallbackNS: ["common", "ui"],
  interpolation: { escapeValue: false },
};

// One i18next per language, made once per process: a request only reads from it (nothing on the
// server changes its language or adds resources). remix-i18next's own middleware made and
// initialised a new instance for every request, about a tenth of a page's CPU time (docs/performance.md).
const instances = new Map<string, Promise<i18n>>();
function instanceFor(language: string): Promise<i18n> {
  let instance = instances.get(language);
  if (!instance) {
    const made = createInstance().use(initReactI18next);
    instance = made.init({ ...options, lng: language }).then(() => made);
    instances.set(language, instance);
  }
  return instance;
}

const localeContext = createContext<string>();
const i18nextContext = createContext<i18n>();

export const i18nextMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const language = await detector.getLocale(request);
  context.set(localeContext, language);
  context.set(i18nextContext, await instanceFor(language));
  return next();
};

type ContextReader = Pick<RouterContextProvider, "get">;
export const getLocale = (context: ContextReader): string => context.get(localeContext);
export const getInstance = (context: ContextReader): i18n => context.get(i18nextContext);

export function getLanguage(context: Parameters<typeof getLocale>[0]): Language {
  const locale = getLocale(context);
  return isLanguage(locale) ? locale : DEFAULT_LANGUAGE;
}
