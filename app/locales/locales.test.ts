import { expect, test } from "vitest";
import resources, { LANGUAGES } from ".";

type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ""): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      for (const [k, v] of leaves(value, path)) out.set(k, v);
    } else {
      out.set(path, value);
    }
  }
  return out;
}

const namespaces = [
  "common",
  "auth",
  "ui",
  "adminSemesters",
  "adminUsers",
  "adminForms",
  "adminClass",
  "student",
  "teacher",
  "supervisor",
  "placement",
  "answers",
  "scale",
  "signing",
  "documents",
  "warnings",
  "privacyData",
  "accessibility",
  "reminders",
  "todo",
  "signingCheck",
  "confirmSteps",
  "records",
  "admin",
] as const;

test("both languages have the same namespaces", () => {
  expect(LANGUAGES).toEqual(["nb", "en"]);
  expect(Object.keys(resources.nb).sort()).toEqual([...namespaces].sort());
  expect(Object.keys(resources.en).sort()).toEqual([...namespaces].sort());
});

test.each(namespaces)("nb and en have exactly the same keys in %s", (ns) => {
  const nb = [...leaves(resources.nb[ns]).keys()].sort();
  const en = [...leaves(resources.en[ns]).keys()].sort();
  expect(
    nb.filter((k) => !en.includes(k)),
    "keys only in nb",
  ).toEqual([]);
  expect(
    en.filter((k) => !nb.includes(k)),
    "keys only in en",
  ).toEqual([]);
});

test.each(namespaces.flatMap((ns) => LANGUAGES.map((lng) => [lng, ns] as const)))(
  "every %s %s value is a non-empty string",
  (lng, ns) => {
    const bad = [...leaves(resources[lng][ns] as Tree)].filter(([, v]) => typeof v !== "string" || v.trim() === "");
    expect(bad.map(([k]) => k)).toEqual([]);
  },
);

test.each(namespaces)("interpolation placeholders match between nb and en in %s", (ns) => {
  const nb = leaves(resources.nb[ns]);
  const en = leaves(resources.en[ns]);
  const placeholders = (s: unknown) => [...String(s).matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]).sort();
  const mismatched = [...nb.keys()].filter(
    (k) => en.has(k) && JSON.stringify(placeholders(nb.get(k))) !== JSON.stringify(placeholders(en.get(k))),
  );
  expect(mismatched).toEqual([]);
});
