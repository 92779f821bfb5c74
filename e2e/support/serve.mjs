// Starts one app instance for an end-to-end project: a fresh embedded PostgreSQL, a real SMTP server
// on 127.0.0.1 that keeps every mail it receives as a file, local OpenID providers for Feide
// (port + 2000) and Vipps (port + 3000), and the production build.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import "../../scripts/smtp-greeting.mjs";
import { startOidcPeer } from "./oidc-peer.mjs";

const port = Number(process.argv[2] ?? 3100);
const smtpPort = port + 1000;
const root = path.join(os.tmpdir(), `praksis-e2e-${port}`);
export const mailDir = path.join(root, "mail");

fs.rmSync(root, { recursive: true, force: true });
fs.mkdirSync(mailDir, { recursive: true });
// Reachable by the unprivileged user the embedded PostgreSQL runs as when the tests run as root.
fs.chmodSync(root, 0o755);

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS", "AUTH"],
  logger: false,
  // A mailbox that refuses (as a real server answers a dead address): the app's mail-failure message.
  onRcptTo(address, session, callback) {
    if (/^refused[.@]/i.test(address.address)) {
      return callback(
        Object.assign(new Error(`5.1.1 <${address.address}>: mailbox unavailable`), { responseCode: 550 }),
      );
    }
    callback();
  },
  onData(stream, session, callback) {
    const chunks = [];
    stream.on("data", (c) => chunks.push(c));
    stream.on("end", () => {
      const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
      const file = path.join(mailDir, `${Date.now()}-${Math.random().toString(16).slice(2)}.json`);
      fs.writeFileSync(file, JSON.stringify({ to, raw: Buffer.concat(chunks).toString("utf8") }));
      callback();
    });
  },
});
await new Promise((resolve) => smtp.listen(smtpPort, "127.0.0.1", resolve));

// Real OpenID providers standing in for Feide and Vipps, on ports of their own.
const appOrigin = `http://127.0.0.1:${port}`;
const feide = await startOidcPeer({ kind: "feide", port: port + 2000, redirectUris: [`${appOrigin}/feide-success`] });
const vipps = await startOidcPeer({ kind: "vipps", port: port + 3000, redirectUris: [`${appOrigin}/vipps-success`] });

Object.assign(process.env, {
  FEIDE_CLIENT_ID: "praksis-feide",
  FEIDE_CLIENT_SECRET: "feide-secret-for-tests",
  FEIDE_ISSUER: feide.issuer,
  FEIDE_GROUPS_URL: feide.groupsUrl,
  VIPPS_CLIENT_ID: "praksis-vipps",
  VIPPS_CLIENT_SECRET: "vipps-secret-for-tests",
  VIPPS_ISSUER: vipps.issuer,
  VIPPS_USERINFO_URL: vipps.userinfoUrl,
  DEBUG_FS: "true",
  NODE_ENV: "production",
  APP_URL: appOrigin,
  PORT: String(port),
  HOST: "127.0.0.1",
  // The embedded PostgreSQL, started by server.mjs in <root>/postgres; one app process (the
  // clustered start is tested by scripts/ops/faults.test.mjs; a second would only share the 2 cores).
  DATA_DIR: root,
  WEB_CONCURRENCY: "1",
  OUTBOX_DIR: path.join(root, "outbox"),
  SMTP_URL: `smtp://127.0.0.1:${smtpPort}?ignoreTLS=true`,
  // The demo's people, with SMTP_URL set: asked for (demo mode is never on by itself with SMTP).
  DEMO_MODE: "true",
  // No reminder runs of the app's own: they would mail demo users while other tests read their
  // mail. e2e/reminders.spec.ts runs `npm run reminders` against this server, with a mail server of its own.
  REMINDERS_INTERVAL_MINUTES: "0",
  // Many log-ins from one address in one run; the limits themselves are tested in the unit tests.
  OTP_REQUESTS_PER_ADDRESS: "10000",
  OTP_REQUESTS_PER_EMAIL: "1000",
});
// The service worker of the build being served (ADR 0011), written when missing or stale.
const { ensureServiceWorker } = await import("../../scripts/build-sw.mjs");
await ensureServiceWorker(path.resolve(process.env.BUILD_DIR ?? "build"));
await import("../../server.mjs");
