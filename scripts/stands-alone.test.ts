import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";

// The repository stands alone: a clone has no documents beside it and no issue tracker, so no
// comment, doc, test or test name may send its reader to a file outside the repository (the first
// functional description, the first design notes, anything under ../shared) or to an issue number.
// It says the reason itself, or links to docs/rules/ or docs/decisions/ where the reason is kept.

const root = path.resolve(import.meta.dirname, "..");

// Each pattern, and what it catches.
const outside: Array<[RegExp, string]> = [
  [/\bspec\.md\b/i, "a file outside the repository (the first functional description)"],
  [/\bdesign\.md\b/i, "a file outside the repository (the first design notes)"],
  // Not an import of the app's own routes/shared folder ("../shared/form-page"): a path with no
  // module after it, or one to a document.
  [/\.\.\/shared\b(?!\/[\w-]+["'])|\/work\/shared\b/, "a folder outside the repository (../shared)"],
  [/\b(?:spec|design)(?:'s)?\s*§/i, "a section of a document outside the repository"],
  [/§\s?\d/, "a numbered section of a document outside the repository"],
  [/\bthe spec\b(?!\s+files?\b)/i, 'a document outside the repository ("the spec")'],
  [/\bDESIGN\b/, 'a document outside the repository ("DESIGN")'],
  [/\bissues?\s+#?\d+/i, "an issue number"],
  [/\(#\d+\)/, "an issue number"],
];

// Lock files and generated snapshots quote other projects' texts, not ours.
const skipped = [/^package-lock\.json$/, /^drizzle\/meta\//];
const self = path
  .relative(root, import.meta.filename)
  .split(path.sep)
  .join("/");

function trackedTextFiles(): string[] {
  const files = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" }).split("\0").filter(Boolean);
  return files.filter((file) => {
    if (file === self || skipped.some((re) => re.test(file))) return false;
    const full = path.join(root, file);
    if (!fs.existsSync(full) || !fs.statSync(full).isFile()) return false;
    const bytes = fs.readFileSync(full);
    return !bytes.subarray(0, 8000).includes(0);
  });
}

/** Every line of the given files that points outside, as "file:line: what — the line". */
export function pointersOutside(files: string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const lines = fs.readFileSync(path.join(root, file), "utf8").split("\n");
    lines.forEach((line, i) => {
      for (const [re, what] of outside) {
        if (re.test(line)) {
          found.push(`${file}:${i + 1}: ${what} — ${line.trim().slice(0, 160)}`);
          break;
        }
      }
    });
  }
  return found;
}

test("no tracked file points to a document outside the repository or to an issue number", () => {
  const files = trackedTextFiles();
  expect(files.length).toBeGreaterThan(100);
  expect(pointersOutside(files)).toEqual([]);
});

/** GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces to dashes. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

test("every relative link in the Markdown files leads to a file of the repository, and to a heading there", () => {
  const markdown = trackedTextFiles().filter((file) => file.endsWith(".md"));
  const broken: string[] = [];
  for (const file of markdown) {
    const text = fs.readFileSync(path.join(root, file), "utf8").replace(/```[\s\S]*?```/g, "");
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target) || target.startsWith("#")) continue;
      const [linkPath, anchor] = target.split("#");
      const full = path.resolve(path.dirname(path.join(root, file)), decodeURIComponent(linkPath));
      if (!fs.existsSync(full)) {
        broken.push(`${file}: ${target} (no such file)`);
        continue;
      }
      if (anchor && full.endsWith(".md")) {
        const anchors = fs
          .readFileSync(full, "utf8")
          .split("\n")
          .filter((line) => /^#{1,6} /.test(line))
          .map((line) => anchorOf(line.replace(/^#+ /, "")));
        if (!anchors.includes(anchor)) broken.push(`${file}: ${target} (no such heading)`);
      }
    }
  }
  expect(markdown.length).toBeGreaterThan(10);
  expect(broken).toEqual([]);
});

test("the check finds each kind of pointer", () => {
  const probe = "scripts/.stands-alone-probe.txt";
  const full = path.join(root, probe);
  // Written in pieces, so that this file itself holds none of them whole.
  const kinds = [
    ["see spec", ".md"],
    ["as DESIGN", ".md says"],
    ["in ../sha", "red/perf-baseline.md"],
    ["(spec", " §", "5)"],
    ["Spec", " §", "9 defaults"],
    ["the sp", "ec's id"],
    ["(DESIGN", " §", "3)"],
    ["since is", "sue 22"],
    ["Iss", "ue 7 item 8"],
    ["fixed in (", "#12)"],
  ].map((parts) => parts.join(""));
  fs.writeFileSync(
    full,
    [...kinds, "e2e/login.spec.ts: spec files share the demo's people", "the Advisor role"].join("\n"),
  );
  try {
    const found = pointersOutside([probe]);
    expect(found.map((f) => Number(f.split(":")[1]))).toEqual(kinds.map((_, i) => i + 1));
  } finally {
    fs.rmSync(full);
  }
});
