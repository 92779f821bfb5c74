import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

/**
 * One word per thing: the "Never" words and phrases of docs/glossary.md appear in no text of
 * app/locales/{nb,en}/*.json, except where the glossary's exceptions allow one by file and key.
 */

const glossary = fs.readFileSync(path.resolve("docs/glossary.md"), "utf8");

function section(name: string): string[] {
  const lines = glossary.split("\n");
  const start = lines.findIndex((line) => line.trim() === `## ${name}`);
  if (start < 0) throw new Error(`docs/glossary.md has no "## ${name}" section`);
  const end = lines.findIndex((line, i) => i > start && line.startsWith("## "));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** The never-words of the table's "nb: never" and "en: never" columns. */
export function neverWords(): string[] {
  const rows = section("Words").filter((line) => line.startsWith("|"));
  const header = rows[0].split("|").map((cell) => cell.trim());
  const columns = header.flatMap((cell, i) => (/never/i.test(cell) ? [i] : []));
  if (columns.length !== 2) throw new Error("the glossary's table needs an nb and an en never column");
  return rows
    .slice(2)
    .flatMap((row) => {
      const cells = row.split("|").map((cell) => cell.trim());
      return columns.flatMap((i) => (cells[i] ?? "").split(","));
    })
    .map((word) => word.trim())
    .filter(Boolean);
}

/** "nb/file.json key.path" of each exception. */
function exceptions(): Set<string> {
  return new Set(
    section("Exceptions").flatMap((line) => {
      const match = /^- ((?:nb|en)\/[\w-]+\.json) ([\w.-]+):/.exec(line.trim());
      return match ? [`${match[1]} ${match[2]}`] : [];
    }),
  );
}

function texts(value: unknown, key = ""): [string, string][] {
  if (typeof value === "string") return [[key, value]];
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => texts(v, key ? `${key}.${k}` : k));
  }
  return [];
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A word matches at its start (so "advarsel" finds "Advarselen"), whatever its case. */
const matcher = (word: string) => new RegExp(`(?<![\\p{L}\\p{N}])${escape(word).replace(/ /g, "\\s+")}`, "iu");

const localeFiles = ["nb", "en"].flatMap((language) =>
  fs
    .readdirSync(path.resolve("app/locales", language))
    .filter((file) => file.endsWith(".json"))
    .map((file) => `${language}/${file}`),
);

describe("the glossary (docs/glossary.md)", () => {
  test("has never-words to check, among them the ones the interface mixed up", () => {
    const words = neverWords().map((w) => w.toLowerCase());
    for (const word of ["uavhengighetsskala", "advarsel", "signerer vurderingsskjemaet"]) expect(words).toContain(word);
  });

  test("the matcher finds a word at its start in any case, never inside another word", () => {
    expect(matcher("advarsel").test("Advarselen er gitt")).toBe(true);
    expect(matcher("advarsel").test("forhåndsadvarsel")).toBe(false);
    expect(matcher("sign the assessment form").test("Sign the\nassessment form.")).toBe(true);
  });

  test.each(localeFiles)("%s uses no never-word", (file) => {
    const allowed = exceptions();
    const words = neverWords();
    const found: string[] = [];
    const data: unknown = JSON.parse(fs.readFileSync(path.resolve("app/locales", file), "utf8"));
    for (const [key, text] of texts(data)) {
      if (allowed.has(`${file} ${key}`)) continue;
      for (const word of words) if (matcher(word).test(text)) found.push(`${key}: "${word}" in "${text}"`);
    }
    expect(found, `${file}: use the glossary's word instead (docs/glossary.md)`).toEqual([]);
  });
});
