// The import rules of docs/architecture.md, checked on the source: where a rule lives decides what it
// may import. Every import and re-export (static, `import type` and `import()` alike) of every file
// under app/, scripts/, bench/ and e2e/ is resolved and held against the rules below.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, test } from "vitest";

/** The domains, lowest first: a domain's code may import only domains before it (tests: any). */
const DOMAIN_ORDER = [
  "identity",
  "admin",
  "placements",
  "answering",
  "warnings",
  "signing",
  "documents",
  "reminders",
  "records",
  "demo",
] as const;
const SERVICES = "app/services";

interface Import {
  from: string;
  to: string;
  typeOnly: boolean;
  /** Gone from the output (`import type`, `export type`): no module is loaded at run time. */
  erased: boolean;
  line: number;
}

const root = path.resolve(import.meta.dirname, "../..");

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules" && !entry.name.startsWith(".") && entry.name !== "+types")
        out.push(...sourceFiles(rel));
    } else if (/\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(rel);
  }
  return out;
}

function resolveSpecifier(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("~/")) base = path.posix.join("app", specifier.slice(2));
  else if (specifier.startsWith(".")) base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`]) {
    if (fs.existsSync(path.join(root, candidate)) && fs.statSync(path.join(root, candidate)).isFile()) return candidate;
  }
  return null;
}

function importsOf(file: string): Import[] {
  const text = fs.readFileSync(path.join(root, file), "utf8");
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: Import[] = [];
  const add = (node: ts.Node, specifier: string, typeOnly: boolean, erased = false) => {
    const to = resolveSpecifier(file, specifier);
    if (to)
      found.push({
        from: file,
        to,
        typeOnly,
        erased,
        line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
      });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        !!clause &&
        (clause.isTypeOnly ||
          (!clause.name &&
            !!clause.namedBindings &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      // With verbatimModuleSyntax only `import type` disappears; `import { type X }` still loads the module.
      add(node, node.moduleSpecifier.text, typeOnly, !!clause?.isTypeOnly);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node, node.moduleSpecifier.text, node.isTypeOnly, node.isTypeOnly);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      add(node, node.arguments[0].text, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `platform`, a domain, or null for code outside app/services. */
function folderOf(file: string): string | null {
  if (!file.startsWith(`${SERVICES}/`)) return null;
  return file.slice(SERVICES.length + 1).split("/")[0] ?? null;
}

/** A domain's public surface: its entry files, and the form schemas pages load lazily (ADR 0012). */
function isEntry(file: string): boolean {
  return /^app\/services\/[^/]+\/index(\.server)?\.ts$/.test(file) || file.endsWith(".schema.ts");
}

/** Files that load each other at run time, directly or round a longer loop (tests left out). */
function cyclesOf(all: Import[]): string[][] {
  const edges = new Map<string, string[]>();
  for (const i of all) {
    if (i.erased || isTest(i.from) || isTest(i.to)) continue;
    edges.set(i.from, [...(edges.get(i.from) ?? []), i.to]);
  }
  const cycles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    path.push(file);
    for (const next of edges.get(file) ?? []) {
      if (state.get(next) === "open") cycles.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, "done");
  };
  for (const file of [...edges.keys()].sort()) if (!state.has(file)) visit(file);
  return cycles;
}

const isTest = (file: string) => /\.test\.tsx?$/.test(file);
const where = (i: Import) => `${i.from}:${i.line} imports ${i.to}`;

const files = ["app", "scripts", "bench", "e2e"].filter((d) => fs.existsSync(path.join(root, d))).flatMap(sourceFiles);
const imports = files.flatMap(importsOf);

function violations(all: Import[], serviceFiles: string[]) {
  const loose = serviceFiles.filter((f) => f.split("/").length === 3);
  const unknownFolders = [...new Set(serviceFiles.filter((f) => f.split("/").length > 3).map(folderOf))].filter(
    (f) => f && f !== "platform" && !(DOMAIN_ORDER as readonly string[]).includes(f),
  );
  const platformToDomain = all.filter(
    (i) => folderOf(i.from) === "platform" && folderOf(i.to) !== null && folderOf(i.to) !== "platform",
  );
  const intoInternals = all.filter((i) => {
    const target = folderOf(i.to);
    return target !== null && target !== "platform" && folderOf(i.from) !== target && !isEntry(i.to);
  });
  const upward = all.filter((i) => {
    const from = folderOf(i.from);
    const to = folderOf(i.to);
    if (!from || !to || from === "platform" || to === "platform" || from === to || isTest(i.from)) return false;
    return (
      DOMAIN_ORDER.indexOf(to as (typeof DOMAIN_ORDER)[number]) >
      DOMAIN_ORDER.indexOf(from as (typeof DOMAIN_ORDER)[number])
    );
  });
  // The browser-safe entry must not pull server-only code into a page's bundle.
  const serverInBrowserEntry = all.filter(
    (i) => /\/index\.ts$/.test(i.from) && folderOf(i.from) !== null && !i.typeOnly && /\.server\.tsx?$/.test(i.to),
  );
  return { loose, unknownFolders, platformToDomain, intoInternals, upward, serverInBrowserEntry };
}

describe("the import rules of docs/architecture.md", () => {
  const serviceFiles = files.filter((f) => f.startsWith(`${SERVICES}/`));
  const found = violations(imports, serviceFiles);

  test("the source is read: every folder has imports to check", () => {
    expect(files.length).toBeGreaterThan(300);
    expect(imports.filter((i) => folderOf(i.to) === "platform").length).toBeGreaterThan(100);
  });

  test("app/services holds folders only: platform/ and the domains", () => {
    expect(found.loose).toEqual([]);
    expect(found.unknownFolders).toEqual([]);
  });

  test("platform/ imports no domain", () => {
    expect(found.platformToDomain.map(where)).toEqual([]);
  });

  test("code outside a domain imports only its entry files (index.ts, index.server.ts, *.schema.ts)", () => {
    expect(found.intoInternals.map(where)).toEqual([]);
  });

  test("a domain imports only domains below it in DOMAIN_ORDER (no cycles between domains)", () => {
    expect(found.upward.map(where)).toEqual([]);
  });

  test("a domain's index.ts re-exports no server-only module", () => {
    expect(found.serverInBrowserEntry.map(where)).toEqual([]);
  });

  test("no two files load each other at run time, directly or round a loop", () => {
    expect(cyclesOf(imports).map((c) => c.join(" → "))).toEqual([]);
  });

  test("the loop check finds a loop, and passes one closed only by `import type`", () => {
    const at = (from: string, to: string, erased = false): Import => ({ from, to, typeOnly: erased, erased, line: 1 });
    expect(cyclesOf([at("a.ts", "b.ts"), at("b.ts", "c.ts"), at("c.ts", "a.ts")])).toEqual([
      ["a.ts", "b.ts", "c.ts", "a.ts"],
    ]);
    expect(cyclesOf([at("a.ts", "b.ts"), at("b.ts", "a.ts", true)])).toEqual([]);
  });

  test("each rule catches what it forbids", () => {
    const at = (from: string, to: string, typeOnly = false): Import => ({ from, to, typeOnly, erased: false, line: 1 });
    const made = violations(
      [
        at("app/services/platform/env.server.ts", "app/services/identity/index.server.ts"),
        at("app/routes/x.tsx", "app/services/answering/answers.server.ts"),
        at("app/services/identity/otp.server.ts", "app/services/placements/index.server.ts"),
        at("app/services/identity/index.ts", "app/services/identity/otp.server.ts"),
        // allowed: an entry, a schema, a test reaching up, a type-only import in index.ts
        at("app/routes/x.tsx", "app/services/signing/signing-form.schema.ts"),
        at("app/services/identity/otp.server.test.ts", "app/services/demo/index.server.ts"),
        at("app/services/identity/index.ts", "app/services/identity/otp.server.ts", true),
      ],
      ["app/services/loose.server.ts", "app/services/misc/x.ts", "app/services/identity/roles.ts"],
    );
    expect(made.loose).toEqual(["app/services/loose.server.ts"]);
    expect(made.unknownFolders).toEqual(["misc"]);
    expect(made.platformToDomain).toHaveLength(1);
    expect(made.intoInternals.map((i) => i.to)).toEqual(["app/services/answering/answers.server.ts"]);
    expect(made.upward.map((i) => i.to)).toEqual(["app/services/placements/index.server.ts"]);
    expect(made.serverInBrowserEntry).toHaveLength(1);
  });
});
