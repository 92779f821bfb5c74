// Lighthouse (from npm) against Debian's Chromium for the main pages, called by scripts/bench.mjs
// with its running production server: performance, accessibility and best-practices scores, LCP,
// TBT, and the JS+CSS the page really transferred (cross-checks scripts/check-weight.mjs).
// Logged-in pages get a session made through the e-mail code flow against that server (the code
// read from its outbox), passed to Lighthouse as a Cookie header. Loopback only; every page is
// bounded in time. Lighthouse's default mobile profile with simulated throttling.
import fs from "node:fs";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

function cookiesOf(response) {
  return response.headers.getSetCookie().map((c) => c.split(";")[0]);
}

function mergeCookies(jar, response) {
  for (const c of cookiesOf(response)) jar.set(c.split("=")[0], c);
  return [...jar.values()].join("; ");
}

/** A session cookie for `email`: /login, the code from the outbox, /otp, and the privacy consent if asked. */
async function logIn(base, outboxDir, email) {
  const jar = new Map();
  const post = async (pathname, form) => {
    const response = await fetch(base + pathname, {
      method: "POST",
      redirect: "manual",
      headers: {
        Origin: base,
        "Content-Type": "application/x-www-form-urlencoded",
        Cookie: [...jar.values()].join("; "),
      },
      body: new URLSearchParams(form),
    });
    mergeCookies(jar, response);
    return response;
  };
  const since = Date.now() - 1000;
  const requested = await post("/login", { email });
  if (requested.status !== 303) throw new Error(`log-in of ${email}: /login answered ${requested.status}`);
  let code;
  const deadline = Date.now() + 10_000;
  while (!code && Date.now() < deadline) {
    const dir = path.resolve(outboxDir);
    const mails = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith(".json")) : [];
    for (const file of mails.sort().reverse()) {
      const mail = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));
      if (mail.to === email && Date.parse(mail.sentAt) >= since) {
        code = /(\d{6})/.exec(mail.subject)?.[1];
        if (code) break;
      }
    }
    if (!code) await new Promise((r) => setTimeout(r, 100));
  }
  if (!code) throw new Error(`log-in of ${email}: no code mail`);
  const loggedIn = await post("/otp", { code });
  if (loggedIn.status !== 303) throw new Error(`log-in of ${email}: /otp answered ${loggedIn.status}`);
  // A first log-in asks for the privacy consent before any page of the area.
  const probe = await fetch(base + "/privacy-consent", {
    redirect: "manual",
    headers: { Cookie: [...jar.values()].join("; ") },
  });
  if (probe.status === 200) await post("/privacy-consent", { intent: "accept", redirectTo: "" });
  return [...jar.values()].join("; ");
}

async function firstLink(base, cookie, pathname, pattern) {
  const html = await (await fetch(base + pathname, { headers: { Cookie: cookie } })).text();
  const match = pattern.exec(html);
  if (!match) throw new Error(`no link matching ${pattern} on ${pathname}`);
  return match[0].replace(/&amp;/g, "&");
}

export async function runLighthouse({ base, outboxDir, pageTimeoutMs = 90_000 }) {
  const student = await logIn(base, outboxDir, "student01@example.org");
  const teacher = await logIn(base, outboxDir, "laerer1@example.org");
  const formPage = await firstLink(
    base,
    student,
    "/student/forms",
    /\/student\/\d+\/form\/\d+\/class\/\d+\/assignment\/\d+/,
  );
  const classPage = await firstLink(base, teacher, "/teacher", /\/teacher\/class\/\d+(?=")/);
  const pages = [
    { name: "log-in page", url: "/login" },
    { name: "independence scale", url: "/independence-scale" },
    { name: "student forms", url: "/student/forms", cookie: student },
    { name: "form page", url: formPage, cookie: student },
    { name: "teacher class page", url: classPage, cookie: teacher },
  ];

  const chrome = await chromeLauncher.launch({ chromePath: "/usr/bin/chromium", chromeFlags: CHROMIUM_FLAGS });
  const rows = [];
  try {
    for (const page of pages) {
      const run = lighthouse(base + page.url, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: ["performance", "accessibility", "best-practices"],
        maxWaitForLoad: 45_000,
        extraHeaders: page.cookie ? { Cookie: page.cookie } : undefined,
      });
      let timer;
      const result = await Promise.race([
        run,
        new Promise(
          (_, reject) =>
            (timer = setTimeout(
              () => reject(new Error(`${page.name}: Lighthouse over ${pageTimeoutMs / 1000} s`)),
              pageTimeoutMs,
            )),
        ),
      ]).finally(() => clearTimeout(timer));
      const lhr = result.lhr;
      if (new URL(lhr.finalDisplayedUrl).pathname !== new URL(base + page.url).pathname) {
        throw new Error(`${page.name}: ended on ${lhr.finalDisplayedUrl}, not ${page.url} (session?)`);
      }
      const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const requests = lhr.audits["network-requests"]?.details?.items ?? [];
      const transferred = (type) =>
        requests.filter((r) => r.resourceType === type).reduce((sum, r) => sum + (r.transferSize ?? 0), 0);
      rows.push({
        name: page.name,
        performance: score("performance"),
        accessibility: score("accessibility"),
        bestPractices: score("best-practices"),
        lcpMs: Math.round(lhr.audits["largest-contentful-paint"]?.numericValue ?? NaN),
        tbtMs: Math.round(lhr.audits["total-blocking-time"]?.numericValue ?? NaN),
        jsCssKiB: (transferred("Script") + transferred("Stylesheet")) / 1024,
        failed: ["accessibility", "best-practices"].flatMap((id) =>
          lhr.categories[id].auditRefs
            .filter((ref) => ref.weight > 0 && lhr.audits[ref.id].score !== null && lhr.audits[ref.id].score < 1)
            .map((ref) => ref.id),
        ),
      });
    }
  } finally {
    chrome.kill();
  }
  console.log(
    `\nLighthouse ${"(mobile, simulated throttling)".padEnd(22)}  perf  a11y  best   LCP ms  TBT ms  JS+CSS KiB`,
  );
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(33)} ${String(r.performance).padStart(5)} ${String(r.accessibility).padStart(5)} ${String(r.bestPractices).padStart(5)} ${String(r.lcpMs).padStart(8)} ${String(r.tbtMs).padStart(7)} ${r.jsCssKiB.toFixed(1).padStart(11)}`,
    );
  }
  for (const r of rows)
    if (r.failed.length > 0) console.log(`  ${r.name}: audits below full marks: ${r.failed.join(", ")}`);
  return rows;
}
