// The end-to-end run's app behind nginx (e2e/proxy.spec.ts, both projects): the production build
// started as README's "Going live" says (its production settings, scripts/ops/proxy.mjs), with
// nginx from Debian and deploy/nginx/praksis.conf ending TLS in front, on https://localhost:<port>.
// What only a test can choose: the name and ports, the embedded PostgreSQL in a folder of its own, a
// real SMTP server on 127.0.0.1 that keeps every mail as a file (e2e/support/fixtures.ts reads the
// codes), a secret, the example institution file, and DEMO_MODE=true for the demo's people.
// Ports: nginx on <port> (https) and <port>+1 (http), SMTP <port>+2, the app <port>+3 (its demo Feide
// and Vipps take the two after it).
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import "../../scripts/smtp-greeting.mjs";
import { makeCertificate, productionSettings, siteConfig, startNginx } from "../../scripts/ops/proxy.mjs";

const httpsPort = Number(process.argv[2] ?? 3150);
const [httpPort, smtpPort, appPort] = [httpsPort + 1, httpsPort + 2, httpsPort + 3];
const root = path.join(os.tmpdir(), `praksis-e2e-${httpsPort}`);
const mailDir = path.join(root, "mail");
fs.rmSync(root, { recursive: true, force: true });
fs.mkdirSync(mailDir, { recursive: true });
// Reachable by the unprivileged user the app processes and the embedded PostgreSQL run as under root.
fs.chmodSync(root, 0o755);

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS", "AUTH"],
  logger: false,
  onData(stream, session, callback) {
    const chunks = [];
    stream.on("data", (chunk) => chunks.push(chunk));
    stream.on("end", () => {
      const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
      const file = path.join(mailDir, `${Date.now()}-${Math.random().toString(16).slice(2)}.json`);
      fs.writeFileSync(file, JSON.stringify({ to, raw: Buffer.concat(chunks).toString("utf8") }));
      callback();
    });
  },
});
await new Promise((resolve) => smtp.listen(smtpPort, "127.0.0.1", resolve));

const settings = productionSettings({
  publicOrigin: `https://localhost:${httpsPort}`,
  appPort,
  databaseUrl: undefined,
  smtpUrl: `smtp://127.0.0.1:${smtpPort}?ignoreTLS=true`,
  sessionSecret: crypto.randomBytes(36).toString("base64"),
});
fs.mkdirSync(path.join(root, "data"), { recursive: true, mode: 0o755 });
const app = spawn(process.execPath, ["server.mjs"], {
  cwd: path.resolve(import.meta.dirname, "../.."),
  env: {
    ...process.env,
    NODE_ENV: "production",
    DATA_DIR: path.join(root, "data"),
    ...settings,
    DEMO_MODE: "true",
    WEB_CONCURRENCY: "1",
    // No reminder runs of the app's own; many log-ins from one address in one run (as serve.mjs).
    REMINDERS_INTERVAL_MINUTES: "0",
    OTP_REQUESTS_PER_ADDRESS: "10000",
    OTP_REQUESTS_PER_EMAIL: "1000",
  },
  stdio: ["ignore", "ignore", "inherit"],
});
const appExited = new Promise((resolve) => app.once("exit", resolve));
let nginx = null;
let stopping = false;
async function stop(code) {
  if (stopping) return;
  stopping = true;
  await nginx?.stop();
  if (app.exitCode === null && app.signalCode === null) app.kill("SIGTERM");
  const timer = setTimeout(() => app.kill("SIGKILL"), 15_000);
  await appExited;
  clearTimeout(timer);
  smtp.close();
  process.exit(code);
}
process.on("SIGTERM", () => stop(0));
process.on("SIGINT", () => stop(0));
app.once("exit", (code, signal) => {
  if (!stopping) {
    console.error(`[serve-proxied] the app stopped (${signal ?? `exit code ${code}`})`);
    stop(1);
  }
});

// nginx once the app answers (Playwright waits for https://localhost:<port>/healthz through it).
for (const deadline = Date.now() + 110_000; ;) {
  try {
    if ((await fetch(`http://127.0.0.1:${appPort}/healthz`)).ok) break;
  } catch {
    // not listening yet
  }
  if (Date.now() > deadline || stopping) {
    console.error("[serve-proxied] the app did not answer in time");
    await stop(1);
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
}
const { cert, key } = makeCertificate(root);
try {
  nginx = await startNginx({
    dir: path.join(root, "nginx"),
    site: siteConfig({ httpsPort, httpPort, appPort, cert, key }),
    httpsPort,
  });
} catch (error) {
  console.error(`[serve-proxied] ${error.message}`);
  await stop(1);
}
