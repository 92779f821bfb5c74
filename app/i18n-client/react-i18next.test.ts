import { createInstance, type i18n as I18n } from "i18next";
import { beforeAll, describe, expect, test } from "vitest";
import resources, { DEFAULT_LANGUAGE, LANGUAGES } from "~/locales";
import clientEn from "~/locales/en";
import clientNb from "~/locales/nb";
import type { Namespace } from "~/locales/keys";
import enMail from "~/locales/en/mail.json";
import nbMail from "~/locales/nb/mail.json";
import enAuthPages from "~/locales/en/authPages.json";
import nbAuthPages from "~/locales/nb/authPages.json";
import { provideNamespace } from "./page-namespaces";
import { ClientI18n } from "./react-i18next";

// The browser's `t` (ADR 0012) against i18next with the server's options: the same text for every
// key of every namespace in both languages, so the page the server rendered is the page the
// browser hydrates.

type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ""): [string, string][] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === "string" ? [[prefix + k, v] as [string, string]] : leaves(v, `${prefix}${k}.`),
  );
}

const SERVER_OPTIONS = { defaultNS: "common", fallbackNS: ["common", "ui"], interpolation: { escapeValue: false } };
let server: I18n;
const clients: Record<string, ClientI18n> = {};

beforeAll(async () => {
  server = createInstance();
  await server.init({ ...SERVER_OPTIONS, resources, lng: DEFAULT_LANGUAGE, fallbackLng: DEFAULT_LANGUAGE });
  // What the pages provide themselves (page-namespaces.ts): every namespace not in the chunks.
  for (const namespace of Object.keys(resources.nb)) {
    if (!(namespace in clientNb))
      provideNamespace(namespace, {
        nb: resources.nb[namespace as Namespace],
        en: resources.en[namespace as Namespace],
      });
  }
  // And the part of auth that the log-in providers' pages and /debug/fs provide.
  provideNamespace("auth", { nb: nbAuthPages, en: enAuthPages });
  for (const language of LANGUAGES) {
    clients[language] = await new ClientI18n({
      language,
      fallbackLanguage: DEFAULT_LANGUAGE,
      defaultNS: "common",
      fallbackNS: ["common", "ui"],
      load: async (l) => (l === "en" ? clientEn : clientNb),
    }).init();
  }
});

// The mails' texts are the server's alone (locales/index.ts): no page shows them.
const MAIL = { nb: nbMail, en: enMail } as const;
const mailKeys = (language: keyof typeof MAIL) =>
  new Set(
    Object.entries(MAIL[language]).flatMap(([namespace, tree]) =>
      leaves(tree as Tree, `${namespace}:`).map(([key]) => key),
    ),
  );

describe.each(LANGUAGES)("the browser's t in %s", (language) => {
  test("the mails' texts are not in the browser's language chunk", () => {
    const client = (language === "en" ? clientEn : clientNb) as Record<string, Tree>;
    const inClient = new Set(
      Object.entries(client).flatMap(([namespace, tree]) => leaves(tree, `${namespace}:`).map(([key]) => key)),
    );
    const keys = [...mailKeys(language)];
    expect(keys.length).toBeGreaterThan(10);
    expect(keys.filter((key) => inClient.has(key))).toEqual([]);
  });

  test("gives i18next's text for every key, by its namespace and prefixed from another", () => {
    let compared = 0;
    const serverOnly = mailKeys(language);
    for (const [namespace, tree] of Object.entries(resources[language])) {
      for (const [key, text] of leaves(tree)) {
        if (serverOnly.has(`${namespace}:${key}`)) continue;
        const plural = /_(zero|one|two|few|many|other)$/.exec(key);
        const base = plural ? key.slice(0, plural.index) : key;
        const values = Object.fromEntries([...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((m, i) => [m[1], `v${i}`]));
        const variants: Record<string, unknown>[] = plural
          ? [0, 1, 2, 5].map((count) => ({ ...values, count }))
          : [values, {}];
        for (const options of variants) {
          const expected = server.getFixedT(language, namespace)(base, options);
          expect(clients[language].getFixedT(language, namespace)(base, options), `${namespace}:${base}`).toBe(
            expected,
          );
          const prefixed = server.getFixedT(language, "ui")(`${namespace}:${base}`, options);
          expect(clients[language].getFixedT(language, "ui")(`${namespace}:${base}`, options)).toBe(prefixed);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(500);
  });

  test("falls back to common and ui, and answers a missing key, a default value and a key list as i18next does", () => {
    const cases: [string, string | string[], Record<string, unknown>?][] = [
      ["auth", "menu.home"],
      ["auth", "ui:nonexistent.key"],
      ["answers", "nonexistent.key"],
      ["answers", "nonexistent.key", { defaultValue: "Standard {{x}}", x: 1 }],
      ["common", ["nonexistent.key", "menu.home"]],
    ];
    for (const [namespace, key, options] of cases) {
      expect(clients[language].getFixedT(language, namespace)(key, options)).toBe(
        server.getFixedT(language, namespace)(key, options),
      );
    }
  });
});
