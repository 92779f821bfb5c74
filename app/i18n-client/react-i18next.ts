/**
 * The browser's "react-i18next" (ADR 0012): the client build resolves `react-i18next` to this
 * module (vite.config.ts), so pages do not ship i18next (≈18 KiB gzipped of a 150 KiB budget).
 * The server renders with the real i18next; this module implements the part of its `t` the app
 * uses, and i18n-client.test.ts checks that both give the same text for every key of every
 * namespace in both languages (nested keys, "ns:key", fallback namespaces and language,
 * {{value}} interpolation, _one/_other plurals, defaultValue).
 *
 * One language's resources are in memory at a time; changeLanguage loads the other one.
 */
import { providedNamespace } from "./page-namespaces";
import { createContext, createElement, useContext, useMemo, useSyncExternalStore, type ReactNode } from "react";

type Tree = { [key: string]: string | Tree };
type Resources = Record<string, Tree>; // namespace -> tree
type Options = Record<string, unknown> & { count?: number; defaultValue?: string };
export type TFunction = (key: string | string[], options?: Options) => string;

export interface ClientI18nOptions {
  language: string;
  fallbackLanguage: string;
  defaultNS: string;
  fallbackNS: string[];
  /** The namespaces of one language (a dynamic import, so each language is its own chunk). */
  load: (language: string) => Promise<Resources>;
}

function lookup(tree: Tree | undefined, path: string): string | Tree | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of path.split(".")) {
    if (node === undefined || typeof node === "string") return undefined;
    node = node[part];
  }
  return node;
}

function interpolate(text: string, options: Options | undefined): string {
  return text.replace(/\{\{([^{}]+)\}\}/g, (match, name: string) => {
    let value: unknown = options;
    for (const part of name.trim().split(".")) value = (value as Record<string, unknown> | undefined)?.[part];
    if (value === undefined || value === null) return match;
    if (typeof value === "string") return value;
    if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return value.toString();
    return JSON.stringify(value) ?? match;
  });
}

export class ClientI18n {
  language: string;
  private resources = new Map<string, Resources>();
  private listeners = new Set<() => void>();
  private revision = 0;
  private fixed = new Map<string, TFunction>();

  constructor(private options: ClientI18nOptions) {
    this.language = options.language;
  }

  /**
   * Loads the page's language only: every key exists in both languages (locales.test.ts), so the
   * fallback language is consulted only if it happens to be loaded already.
   */
  async init(): Promise<this> {
    await this.ensure(this.language);
    return this;
  }

  private async ensure(language: string): Promise<void> {
    if (!this.resources.has(language)) this.resources.set(language, await this.options.load(language));
  }

  addResources(language: string, resources: Resources): void {
    this.resources.set(language, resources);
  }

  async changeLanguage(language: string): Promise<TFunction> {
    if (language !== this.language) {
      await this.ensure(language);
      this.language = language;
      this.fixed.clear();
      this.revision++;
      for (const listener of this.listeners) listener();
    }
    return this.getFixedT(this.language, this.options.defaultNS);
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  snapshot = () => this.revision;

  private find(language: string, namespace: string, key: string, options: Options | undefined): string | undefined {
    let ns = namespace;
    let path = key;
    const colon = key.indexOf(":");
    if (colon > 0) {
      ns = key.slice(0, colon);
      path = key.slice(colon + 1);
    }
    const count = options?.count;
    const languages = [language, this.options.fallbackLanguage].filter((l, i, all) => all.indexOf(l) === i);
    const namespaces = [ns, ...this.options.fallbackNS].filter((n, i, all) => all.indexOf(n) === i);
    // i18next's order: each namespace in every language before the next namespace.
    for (const n of namespaces) {
      for (const l of languages) {
        // The chunk's part of the namespace, then what a page provides of it (a whole namespace, or
        // the part of one that only a few pages use).
        for (const tree of [this.resources.get(l)?.[n], providedNamespace(l, n)]) {
          if (tree === undefined) continue;
          if (typeof count === "number") {
            const suffix =
              count === 0 && typeof lookup(tree, `${path}_zero`) === "string"
                ? "zero"
                : new Intl.PluralRules(l).select(count);
            const plural = lookup(tree, `${path}_${suffix}`);
            if (typeof plural === "string") return plural;
          }
          const value = lookup(tree, path);
          if (typeof value === "string") return value;
        }
      }
    }
    return undefined;
  }

  getFixedT(language: string, namespace: string): TFunction {
    const id = `${language}|${namespace}`;
    let t = this.fixed.get(id);
    if (!t) {
      t = (key, options) => {
        const keys = Array.isArray(key) ? key : [key];
        for (const k of keys) {
          const found = this.find(language, namespace, k, options);
          if (found !== undefined) return interpolate(found, options);
        }
        if (typeof options?.defaultValue === "string") return interpolate(options.defaultValue, options);
        const last = keys[keys.length - 1];
        const colon = last.indexOf(":");
        return colon > 0 ? last.slice(colon + 1) : last;
      };
      this.fixed.set(id, t);
    }
    return t;
  }

  get defaultNS() {
    return this.options.defaultNS;
  }
}

const I18nContext = createContext<ClientI18n | null>(null);

export function I18nextProvider({ i18n, children }: { i18n: ClientI18n; children?: ReactNode }) {
  return createElement(I18nContext.Provider, { value: i18n }, children);
}

export function useTranslation(ns?: string | string[]) {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error("useTranslation outside I18nextProvider");
  const revision = useSyncExternalStore(i18n.subscribe, i18n.snapshot, i18n.snapshot);
  const namespace = (Array.isArray(ns) ? ns[0] : ns) ?? i18n.defaultNS;
  const language = i18n.language;
  return useMemo(() => {
    const t = i18n.getFixedT(language, namespace);
    return Object.assign([t, i18n, true] as const, { t, i18n, ready: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- revision is the store's change count: a new t() when texts arrive
  }, [i18n, language, namespace, revision]);
}

/** Not a plugin here: kept so code written for react-i18next imports the same names. */
export const initReactI18next = { type: "3rdParty" as const, init() {} };
