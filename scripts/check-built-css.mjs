// The grade-X CSS floor (ADR 0003) on the BUILT stylesheets (build/client/assets/*.css, after
// Lightning CSS), which is what browsers get: minifying may rewrite what the source lint passed.
// Uses .stylelintrc.built.json: the source rules, plus `css-sticky` ignored, because the one
// sticky element is reviewed in the source (a stylelint-disable comment with its reason) and the
// build strips comments. First it lints a canary of floor-breaking CSS and fails unless every
// feature in it is reported, so the check cannot silently stop working.
import fs from "node:fs";
import path from "node:path";
import stylelint from "stylelint";

const root = path.resolve(import.meta.dirname, "..");
const configFile = path.join(root, ".stylelintrc.built.json");

const canary = {
  "@layer": "@layer base{a{color:red}}",
  ":has(": ".a:has(b){color:red}",
  nesting: ".c{.d{color:red}}",
  "@container": "@container (min-width:1px){.e{color:red}}",
  "flex gap": ".f{display:flex;gap:1px}",
  inset: ".g{position:absolute;inset:0}",
  ":focus-visible": ".h:focus-visible{color:red}",
  ":is(": ":is(.i,.j){color:red}",
};
const missed = [];
for (const [feature, code] of Object.entries(canary)) {
  const result = await stylelint.lint({ code, configFile, codeFilename: path.join(root, "canary.css") });
  if (!result.errored) missed.push(feature);
}
if (missed.length > 0) {
  console.error(`built CSS check: the lint no longer reports ${missed.join(", ")}; fix .stylelintrc*.json`);
  process.exit(1);
}

const dir = path.join(root, "build/client/assets");
const files = fs.existsSync(dir)
  ? fs
      .readdirSync(dir)
      .filter((f) => f.endsWith(".css"))
      .map((f) => path.join(dir, f))
  : [];
if (files.length === 0) {
  console.error("built CSS check: no build/client/assets/*.css; run `npx react-router build` first");
  process.exit(2);
}
const result = await stylelint.lint({ files, configFile, formatter: "string" });
if (result.errored) {
  console.error(result.report);
  console.error("built CSS check: the built CSS uses what the grade-X browsers lack (ADR 0003)");
  process.exit(1);
}
console.log(
  `built CSS check: ${files.length} file(s) within the grade-X floor (canary: ${Object.keys(canary).length} features caught)`,
);
