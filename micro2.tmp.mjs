import fs from "node:fs";
import { createRequire } from "node:module";
const require = createRequire("/work/main/package.json");
const { chromium } = require("@playwright/test");
const AXE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const args = ["--headless","--no-sandbox","--disable-gpu","--disable-quic","--no-first-run","--disable-background-networking","--disable-component-update","--disable-sync", ...(process.env.EXTRA ?? "").split(" ").filter(Boolean)];
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args });
const t = {};
const time = async (k, f) => { const s = performance.now(); const r = await f(); t[k] = (t[k] ?? 0) + performance.now() - s; return r; };
const N = 10;
for (let i = 0; i < N; i++) {
  const context = await browser.newContext({ baseURL: "http://127.0.0.1:3100", locale: "nb-NO" });
  const page = await context.newPage();
  await page.goto("/login");
  await time("transfer only (comment of same size)", () => page.evaluate("void 0;//" + "x".repeat(AXE.length)));
  await time("axe inject 1st", () => page.evaluate(AXE));
  await time("axe inject 2nd same page", () => page.evaluate(AXE));
  await page.goto("/privacy-policy");
  await time("axe inject after nav", () => page.evaluate(AXE));
  await time("axe run", () => page.evaluate(async () => (await window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a","wcag2aa","wcag21a","wcag21aa","wcag22aa"] }, resultTypes: ["violations"] })).violations.length));
  await time("axe run 2nd", () => page.evaluate(async () => (await window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a","wcag2aa","wcag21a","wcag21aa","wcag22aa"] }, resultTypes: ["violations"] })).violations.length));
  await context.close();
}
await browser.close();
for (const [k, v] of Object.entries(t)) console.log(`${(v / N).toFixed(0).padStart(6)} ms  ${k}`);
