import fs from "node:fs";
import { createRequire } from "node:module";
const require = createRequire("/work/main/package.json");
const { chromium } = require("@playwright/test");
const AXE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
console.log("axe bytes", AXE.length);
const args = ["--headless","--no-sandbox","--disable-gpu","--disable-quic","--no-first-run","--disable-background-networking","--disable-component-update","--disable-sync"];
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args });
const t = {};
const time = async (k, f) => { const s = performance.now(); const r = await f(); t[k] = (t[k] ?? 0) + performance.now() - s; return r; };
const N = 10;
for (let i = 0; i < N; i++) {
  const context = await browser.newContext({ baseURL: "http://127.0.0.1:3100", locale: "nb-NO" });
  const page = await context.newPage();
  await page.goto("/login");
  const cdp = await context.newCDPSession(page);
  await time("cdp transfer only", () => cdp.send("Runtime.evaluate", { expression: "void 0;//" + "x".repeat(AXE.length) }));
  await time("pw transfer only", () => page.evaluate("void 0;//" + "x".repeat(AXE.length)));
  await time("cdp axe inject 1st", () => cdp.send("Runtime.evaluate", { expression: AXE }));
  await time("cdp axe inject 2nd", () => cdp.send("Runtime.evaluate", { expression: AXE }));
  await page.goto("/privacy-policy");
  await time("pw axe inject after nav", () => page.evaluate(AXE));
  await context.close();
}
await browser.close();
for (const [k, v] of Object.entries(t)) console.log(`${(v / N).toFixed(0).padStart(6)} ms  ${k}`);
