/**
 * Namespaces only a few pages use (the independence scale's texts, the PDF links) are not in the
 * language chunk every page loads (ADR 0012): those pages import the JSON themselves and provide
 * it here when their module is evaluated, which is before they render, on the first load and on
 * a client navigation alike. The browser's `t` (react-i18next.ts) looks here after the language
 * chunk. On the server this is unused: i18next there has every namespace.
 */
type Tree = { [key: string]: string | Tree };

const provided: Record<string, Record<string, Tree>> = {};

export function provideNamespace(namespace: string, byLanguage: Record<string, unknown>): void {
  for (const [language, tree] of Object.entries(byLanguage)) (provided[language] ??= {})[namespace] = tree as Tree;
}

export function providedNamespace(language: string, namespace: string): Tree | undefined {
  return provided[language]?.[namespace];
}
