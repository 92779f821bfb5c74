// Forwarded headers, against the production build started with the README's production settings
// (scripts/ops/proxy.mjs reads them from "Going live") behind nginx with deploy/nginx/praksis.conf:
//  a. through nginx, a client that writes a new X-Forwarded-For of its own before every code
//     request is still counted by its real address (OTP_REQUESTS_PER_ADDRESS refuses it), and the
//     audit log and the rate limits hold that address, never one it wrote;
//  b. straight to the app, from an address that is not the proxy TRUST_PROXY names, X-Forwarded-
//     Proto, -Host and -For are ignored: the request stays http on the real host (React Router's
//     check refuses an https Origin), and the address is the socket's;
//  c. with TRUST_PROXY unset, the same headers from nginx's own address are ignored too.
// Each scenario comes from a loopback address of its own (127.0.0.x), as another machine would.
// Run: node --test scripts/ops/proxy.test.mjs (needs build/ and Debian's nginx).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import pg from "pg";
import { SMTPServer } from "smtp-server";
import { freePortRun, makeCertificate, productionSettings, request, siteConfig, startNginx } from "./proxy.mjs";
import { ensureBuild, sleep, startApp, startPostgres, tempDir } from "./support.mjs";

ensureBuild();
const PER_ADDRESS = 5;
let postgres;
let app;
let untrusting;
let nginx;
let smtp;
let dir;
let origin;
const mails = [];

before(async () => {
  dir = tempDir("praksis-proxy-");
  fs.chmodSync(dir, 0o755);
  // Each app in demo mode takes the two ports after its own (the demo's Feide and Vipps).
  const [httpsPort, httpPort, smtpPort, appPort, , , otherPort] = await freePortRun(9);
  origin = `https://localhost:${httpsPort}`;
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks = [];
      stream.on("data", (chunk) => chunks.push(chunk));
      stream.on("end", () => {
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise((resolve) => smtp.listen(smtpPort, "127.0.0.1", resolve));
  postgres = await startPostgres();
  const settings = productionSettings({
    publicOrigin: origin,
    appPort,
    databaseUrl: postgres.url,
    smtpUrl: `smtp://127.0.0.1:${smtpPort}?ignoreTLS=true`,
    sessionSecret: "proxy-test-session-secret-0123456789abcdef",
  });
  assert.equal(settings.TRUST_PROXY, "127.0.0.1", "the README's production example names nginx on this machine");
  // The demo's people to log in (the example institution file needs demo mode too); one app process.
  const env = {
    MAIL_TRANSPORT: "",
    ...settings,
    DEMO_MODE: "true",
    WEB_CONCURRENCY: "1",
    OTP_REQUESTS_PER_ADDRESS: String(PER_ADDRESS),
    OTP_REQUESTS_PER_EMAIL: "1000",
  };
  app = await startApp({ port: appPort, dir: path.join(dir, "app"), databaseUrl: postgres.url, env });
  // The same settings without TRUST_PROXY, on the same database (migrated and seeded by now).
  untrusting = await startApp({
    port: otherPort,
    dir: path.join(dir, "untrusting"),
    databaseUrl: postgres.url,
    env: { ...env, PORT: String(otherPort), TRUST_PROXY: "" },
  });
  const { cert, key } = makeCertificate(dir);
  nginx = await startNginx({
    dir: path.join(dir, "nginx"),
    site: siteConfig({ httpsPort, httpPort, appPort, cert, key }),
    httpsPort,
  });
});

after(async () => {
  await nginx?.stop();
  await Promise.all([app?.stop(), untrusting?.stop()]);
  await postgres?.destroy();
  await new Promise((resolve) => (smtp ? smtp.close(resolve) : resolve()));
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** A code request as a browser's form post, from `localAddress`, to `base` (nginx or an app). */
function requestCode(base, { email, from, headers = {}, originHeader = origin }) {
  return request(`${base}/login`, {
    method: "POST",
    localAddress: from,
    headers: { Origin: originHeader, "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams({ email }).toString(),
  });
}

async function query(sql, params = []) {
  const client = new pg.Client({ connectionString: postgres.url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** The client addresses the code limits and the audit log hold for code requests. */
async function addressesSeen() {
  const limited = await query("select distinct key from rate_limits where key like 'otp:request:ip:%' order by key");
  const audited = await query("select distinct ip from audit_events where action = 'otp.requested' order by ip");
  return {
    limited: limited.map((row) => row.key.slice("otp:request:ip:".length)),
    audited: audited.map((row) => row.ip),
  };
}

async function codeFor(email) {
  for (let i = 0; i < 100; i++) {
    const mail = mails.findLast((m) => m.to.includes(email) && /^Subject: \d{6} /m.test(m.raw));
    if (mail) return /^Subject: (\d{6}) /m.exec(mail.raw)[1];
    await sleep(50);
  }
  throw new Error(`no code mailed to ${email}`);
}

test("a: through nginx, a forged leftmost X-Forwarded-For changes nothing: the real address is counted, refused, audited", async () => {
  const statuses = [];
  for (let i = 1; i <= PER_ADDRESS + 1; i++) {
    const answer = await requestCode(origin, {
      email: `student${String(i).padStart(2, "0")}@example.org`,
      from: "127.0.0.3",
      headers: { "X-Forwarded-For": `198.51.100.${i}` },
    });
    statuses.push(answer.status);
  }
  assert.deepEqual(
    statuses,
    [...Array(PER_ADDRESS).fill(303), 429],
    "the sixth request from one address is refused, whatever it wrote",
  );
  assert.deepEqual(await addressesSeen(), { limited: ["127.0.0.3"], audited: ["127.0.0.3"] });

  // A log-in through nginx with a forged address: the session and the audit log have the real one.
  const email = "laerer2@example.org";
  const asked = await requestCode(origin, { email, from: "127.0.0.4", headers: { "X-Forwarded-For": "203.0.113.77" } });
  assert.equal(asked.status, 303);
  const cookie = asked.headers["set-cookie"].map((line) => line.split(";")[0]).join("; ");
  const verified = await request(`${origin}/otp`, {
    method: "POST",
    localAddress: "127.0.0.4",
    headers: {
      Origin: origin,
      "Content-Type": "application/x-www-form-urlencoded",
      Cookie: cookie,
      "X-Forwarded-For": "203.0.113.78",
    },
    body: new URLSearchParams({ code: await codeFor(email) }).toString(),
  });
  assert.equal(verified.status, 303, "logged in through the proxy with an https Origin");
  assert.match(
    verified.headers["set-cookie"].join("\n"),
    /__Host-[^=]+=[^;]+;.*Secure/i,
    "a Secure __Host- session cookie",
  );
  const logins = await query(
    "select a.ip from audit_events a join users u on u.id = a.actor_user_id where a.action = 'login' and u.email = $1",
    [email],
  );
  assert.deepEqual(logins, [{ ip: "127.0.0.4" }]);
  const sessions = await query("select s.ip from sessions s join users u on u.id = s.user_id where u.email = $1", [
    email,
  ]);
  assert.deepEqual(sessions, [{ ip: "127.0.0.4" }]);
});

test("b: straight to the app, not from nginx, X-Forwarded-Proto, -Host and -For are ignored", async () => {
  const forged = {
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": new URL(origin).host,
    "X-Forwarded-For": "198.51.100.200",
  };
  // Believed, they would make the request https://localhost:<nginx's port>, the Origin's: it stays
  // http on the app's own address, and React Router refuses the post.
  const refused = await requestCode(app.base, { email: "student07@example.org", from: "127.0.0.5", headers: forged });
  assert.equal(refused.status, 400, "the https Origin does not match the request, which stays http");
  // The same post through nginx is the browser's, and goes.
  assert.equal((await requestCode(origin, { email: "student07@example.org", from: "127.0.0.6" })).status, 303);
  // A post whose Origin is the app's real address goes, counted by the socket's address.
  const direct = await requestCode(app.base, {
    email: "student08@example.org",
    from: "127.0.0.5",
    headers: forged,
    originHeader: app.base,
  });
  assert.equal(direct.status, 303);
  const seen = await addressesSeen();
  assert.ok(seen.limited.includes("127.0.0.5") && seen.audited.includes("127.0.0.5"), JSON.stringify(seen));
  assert.ok(!seen.limited.includes("198.51.100.200") && !seen.audited.includes("198.51.100.200"), JSON.stringify(seen));
});

test("c: with TRUST_PROXY unset, forwarded headers from nginx's own address are ignored too", async () => {
  const forged = {
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": new URL(origin).host,
    "X-Forwarded-For": "198.51.100.201",
  };
  const refused = await requestCode(untrusting.base, {
    email: "student09@example.org",
    from: "127.0.0.1",
    headers: forged,
  });
  assert.equal(refused.status, 400, "the request stays http: the https Origin does not match");
  const direct = await requestCode(untrusting.base, {
    email: "student10@example.org",
    from: "127.0.0.1",
    headers: forged,
    originHeader: untrusting.base,
  });
  assert.equal(direct.status, 303);
  const seen = await addressesSeen();
  assert.ok(seen.limited.includes("127.0.0.1") && seen.audited.includes("127.0.0.1"), JSON.stringify(seen));
  assert.ok(!seen.limited.includes("198.51.100.201") && !seen.audited.includes("198.51.100.201"), JSON.stringify(seen));
});
