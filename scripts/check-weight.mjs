// Page weight (ADR 0012): for every page of the production build, the JS and CSS its first load
// makes the browser fetch, gzipped, from the build's route manifest; fails when one exceeds the
// budget. Run by scripts/test.sh after `react-router build`.
//
// A page on a route loads what the server-rendered HTML names (React Router's <Links>,
// <Scripts>): the client entry and its imports, and for every route in
// the match chain (root, area layouts, pathless layouts, the leaf) its module, the module's static
// imports and its CSS. Stylesheets a route links itself (`import css from "./x.css?url"` in
// `links`) are not in the manifest's `css`; they appear as "/assets/….css" strings in the module
// or one of its imports, so those are counted too. Each file is gzipped on its own, as it goes
// over the wire. Before it hydrates, the entry also loads one language's texts (a dynamic import,
// not named in the HTML; ADR 0012): the heavier language is counted. scripts/bench.mjs measures
// /login from the real HTML plus that chunk, and Lighthouse's transfer figures cross-check it.
//
//   node scripts/check-weight.mjs [--budget KiB] [--build DIR] [--quiet]
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const budgetKiB = Number(option("--budget", "150"));
const buildDir = path.resolve(option("--build", "build"));
const quiet = args.includes("--quiet");

const serverBuild = path.join(buildDir, "server/index.js");
if (!fs.existsSync(serverBuild)) {
  console.error(`check-weight: ${serverBuild} not found; run \`npx react-router build\` first`);
  process.exit(2);
}
const { assets, routeDiscovery } = await import(pathToFileURL(serverBuild).href);
const clientDir = path.join(buildDir, "client");

const sizes = new Map();
function file(urlPath) {
  if (!sizes.has(urlPath)) {
    const body = fs.readFileSync(path.join(clientDir, urlPath));
    sizes.set(urlPath, { gzip: zlib.gzipSync(body, { level: 9 }).length, text: body.toString("utf8") });
  }
  return sizes.get(urlPath);
}
/** CSS files a JS file names as a URL (a `?url` stylesheet import). */
function linkedCss(jsPath) {
  return [...file(jsPath).text.matchAll(/\/assets\/[\w.-]+\.css/g)].map((m) => m[0]);
}

/** The chunks a JS file imports with import("./x.js") (relative to /assets/). */
function dynamicImports(jsPath) {
  const dir = path.posix.dirname(jsPath);
  return [...file(jsPath).text.matchAll(/import\((?:`|"|')(\.\/[\w.-]+\.js)(?:`|"|')\)/g)].map((m) =>
    path.posix.join(dir, m[1]),
  );
}

function firstLoad(routeId) {
  const chain = [];
  for (let id = routeId; id; id = assets.routes[id].parentId) chain.unshift(assets.routes[id]);
  // With lazy route discovery (the default) the HTML carries the matched routes' manifest inline;
  // otherwise it loads the whole manifest as a script.
  const js = new Set(routeDiscovery?.mode === "initial" ? [assets.url] : []);
  const css = new Set();
  for (const part of [assets.entry, ...chain]) {
    for (const m of [part.module, ...(part.imports ?? [])]) js.add(m);
    for (const c of part.css ?? []) css.add(c.replace(/#.*$/, "")); // React Router marks route CSS with a "#"
  }
  for (const m of js) for (const c of linkedCss(m)) css.add(c);
  // The entry awaits one language's texts (a dynamic import per language) before it hydrates:
  // count the heaviest.
  const languages = dynamicImports(assets.entry.module);
  if (languages.length > 0) js.add(languages.sort((a, b) => file(b).gzip - file(a).gzip)[0]);
  const sum = (set) => [...set].reduce((total, p) => total + file(p).gzip, 0);
  return { chain: chain.map((r) => r.id), js: sum(js), css: sum(css), files: [...js, ...css] };
}

// Pages: routes that render (a default export) and have no child routes; a layout is weighed as
// part of the pages below it.
const parents = new Set(
  Object.values(assets.routes)
    .map((r) => r.parentId)
    .filter(Boolean),
);
const pages = Object.values(assets.routes).filter((r) => r.hasDefaultExport && !parents.has(r.id));

const rows = pages
  .map((r) => {
    const chain = [];
    for (let p = r; p; p = assets.routes[p.parentId]) if (p.path) chain.unshift(p.path);
    return { id: r.id, url: "/" + chain.join("/").replace(/^\/+/, ""), ...firstLoad(r.id) };
  })
  .sort((a, b) => b.js + b.css - (a.js + a.css));

const kib = (bytes) => (bytes / 1024).toFixed(1).padStart(6);
const over = rows.filter((r) => r.js + r.css > budgetKiB * 1024);
if (!quiet) {
  console.log(
    `${"page (route id)".padEnd(36)} ${"JS".padStart(6)} ${"CSS".padStart(6)} ${"total".padStart(6)}  KiB gzip  URL`,
  );
  for (const r of rows) {
    const flag = r.js + r.css > budgetKiB * 1024 ? "  OVER" : "";
    console.log(`${r.id.padEnd(36)} ${kib(r.js)} ${kib(r.css)} ${kib(r.js + r.css)}  ${r.url}${flag}`);
  }
}
console.log(
  `page weight: ${rows.length} pages, heaviest ${rows[0].id} ${kib(rows[0].js + rows[0].css).trim()} KiB, budget ${budgetKiB} KiB`,
);
if (over.length > 0) {
  console.error(
    `page weight: ${over.length} page(s) over ${budgetKiB} KiB of gzipped JS+CSS: ${over.map((r) => r.id).join(", ")}`,
  );
  process.exit(1);
}
