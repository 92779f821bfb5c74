import fs from "node:fs";
import { createRequire } from "node:module";
const require = createRequire("/work/main/package.json");
const { chromium } = require("@playwright/test");
const AXE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const args = ["--headless","--no-sandbox","--disable-gpu","--disable-quic","--no-first-run","--disable-background-networking","--disable-component-update","--disable-sync", ...(process.env.EXTRA ?? "").split(" ").filter(Boolean)];
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args });
const base = "http://127.0.0.1:3100";
const t = {};
const time = async (k, f) => { const s = performance.now(); const r = await f(); t[k] = (t[k] ?? 0) + performance.now() - s; return r; };
const N = 15;
for (let i = 0; i < N; i++) {
  const context = await time("newContext", () => browser.newContext({ baseURL: base, locale: "nb-NO" }));
  if (process.env.TRACE) await context.tracing.start({ screenshots: false, snapshots: true, sources: true });
  const page = await time("newPage", () => context.newPage());
  await time("goto /privacy-policy", () => page.goto("/privacy-policy"));
  await time("goto /", () => page.goto("/"));
  await time("goto /login", () => page.goto("/login"));
  await time("fill+click", async () => { await page.getByLabel("E-postadresse").fill("x@example.org"); });
  await time("axe inject", () => page.evaluate(AXE));
  await time("axe run", () => page.evaluate(async () => (await window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a","wcag2aa","wcag21a","wcag21aa","wcag22aa"] }, resultTypes: ["violations"] })).violations.length));
  await time("reflow", async () => { for (const w of [320, 390]) { await page.setViewportSize({ width: w, height: 720 }); await page.evaluate(() => document.documentElement.scrollWidth); } await page.setViewportSize({ width: 1280, height: 720 }); });
  if (process.env.TRACE) await time("trace stop", () => context.tracing.stop());
  await time("close", () => context.close());
}
await browser.close();
for (const [k, v] of Object.entries(t)) console.log(`${(v / N).toFixed(0).padStart(6)} ms  ${k}`);
