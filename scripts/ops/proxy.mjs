// The README's way of going live, as the tests run it: the production example's settings (read from
// the README itself), a self-signed certificate, and nginx from Debian with the repository's site
// file (deploy/nginx/praksis.conf) ending TLS in front of the app. Used by the proxy tests
// (scripts/ops/proxy.test.mjs, and e2e/support/serve-proxied.mjs for the browser's end-to-end run).
// nginx runs as the user who runs the tests, on loopback ports, with everything it writes in a
// folder of its own.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import path from "node:path";
import { portIsFree, TEST_PORTS } from "./support.mjs";

const root = path.resolve(import.meta.dirname, "../..");
export const SITE_FILE = path.join(root, "deploy/nginx/praksis.conf");
const README = path.join(root, "README.md");

/**
 * The production example of the README's "Going live" section: the first ```sh block after the
 * heading "### The settings", one VARIABLE=value a line (comments skipped), in order.
 */
export function productionExample() {
  const text = fs.readFileSync(README, "utf8");
  const at = text.indexOf("\n### The settings");
  if (at === -1) throw new Error('README.md has no "### The settings" heading');
  const block = /```sh\n([\s\S]*?)```/.exec(text.slice(at));
  if (!block) throw new Error('README.md has no ```sh block under "### The settings"');
  const settings = {};
  for (const line of block[1].split("\n")) {
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#")) continue;
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(trimmed);
    if (!match) throw new Error(`README.md's production example has a line that is not VARIABLE=value: ${trimmed}`);
    settings[match[1]] = match[2];
  }
  return settings;
}

/**
 * The production example with what only a test can choose put in: the public address (its name and
 * port), the app's port, the database, the mail server, the secret and the institution's file. Every
 * other setting (HOST, TRUST_PROXY, …) is the README's own, as it stands.
 */
export function productionSettings({ publicOrigin, appPort, databaseUrl, smtpUrl, sessionSecret, institutionFile }) {
  const example = productionExample();
  for (const name of ["APP_URL", "HOST", "PORT", "TRUST_PROXY", "SESSION_SECRET", "SMTP_URL"]) {
    if (!(name in example)) throw new Error(`README.md's production example sets no ${name}`);
  }
  if (!example.APP_URL.startsWith("https://"))
    throw new Error(`README.md's production example has APP_URL=${example.APP_URL}, not https`);
  const settings = {
    ...example,
    APP_URL: publicOrigin,
    PORT: String(appPort),
    SESSION_SECRET: sessionSecret,
    SMTP_URL: smtpUrl,
  };
  if (databaseUrl === undefined) delete settings.DATABASE_URL;
  else settings.DATABASE_URL = databaseUrl;
  if ("INSTITUTION_FILE" in settings)
    settings.INSTITUTION_FILE = institutionFile ?? path.join(root, "app/institutions/fjordbyen.json");
  return settings;
}

/**
 * `count` consecutive free ports on 127.0.0.1 (an app in demo mode takes the two after its own for
 * the demo's Feide and Vipps), below Linux's ephemeral range (32768 and up), where the apps' own
 * outgoing connections would take one meanwhile.
 */
export async function freePortRun(count) {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = TEST_PORTS.from + Math.floor(Math.random() * (TEST_PORTS.to - TEST_PORTS.from - count));
    const ports = Array.from({ length: count }, (_, i) => base + i);
    if ((await Promise.all(ports.map(portIsFree))).every(Boolean)) return ports;
  }
  throw new Error(`no ${count} free ports in a row`);
}

/** A self-signed certificate for localhost and 127.0.0.1 (openssl), valid for two days. */
export function makeCertificate(dir) {
  const cert = path.join(dir, "localhost.crt");
  const key = path.join(dir, "localhost.key");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:P-256",
      "-nodes",
      "-days",
      "2",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=DNS:localhost,IP:127.0.0.1",
      "-keyout",
      key,
      "-out",
      cert,
    ],
    { stdio: "ignore" },
  );
  return { cert, key };
}

/**
 * The repository's site file with the test's ports, name and certificate: each replacement must
 * find what it replaces, so a change to the file that the tests would no longer run fails here.
 * Only loopback addresses are listened on.
 */
export function siteConfig({ httpsPort, httpPort, appPort, cert, key, serverName = "localhost" }) {
  let site = fs.readFileSync(SITE_FILE, "utf8");
  const replace = (pattern, by) => {
    if (!pattern.test(site)) throw new Error(`deploy/nginx/praksis.conf: ${pattern} not found`);
    site = site.replace(pattern, by);
  };
  replace(/listen 443 ssl/g, `listen 127.0.0.1:${httpsPort} ssl`);
  replace(/listen \[::\]:443 ssl/g, `listen [::1]:${httpsPort} ssl`);
  replace(/listen 80;/g, `listen 127.0.0.1:${httpPort};`);
  replace(/listen \[::\]:80;/g, `listen [::1]:${httpPort};`);
  replace(/server 127\.0\.0\.1:3000;/g, `server 127.0.0.1:${appPort};`);
  replace(/server_name praksis\.example\.org;/g, `server_name ${serverName};`);
  replace(/ssl_certificate +\S+;/g, `ssl_certificate ${cert};`);
  replace(/ssl_certificate_key +\S+;/g, `ssl_certificate_key ${key};`);
  return site;
}

/**
 * nginx (Debian's /usr/sbin/nginx) with `site` as its only site, run in the foreground with its
 * prefix, pid file, temporary files and logs in `dir`; ready when it answers https on `httpsPort`.
 */
export async function startNginx({ dir, site, httpsPort }) {
  const nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((file) => fs.existsSync(file));
  if (!nginx) throw new Error("nginx is not installed: apt-get install -y nginx");
  for (const sub of ["temp", "logs"]) fs.mkdirSync(path.join(dir, sub), { recursive: true });
  // Run as root, nginx's workers become an unprivileged user that must write its temporary files.
  if (process.getuid?.() === 0) fs.chmodSync(path.join(dir, "temp"), 0o777);
  fs.writeFileSync(path.join(dir, "site.conf"), site);
  const user =
    process.getuid?.() === 0 ? `user nobody ${execFileSync("id", ["-gn", "nobody"]).toString().trim()};\n` : "";
  const temp = (name) => `${name}_temp_path ${path.join(dir, "temp", name)};`;
  fs.writeFileSync(
    path.join(dir, "nginx.conf"),
    `${user}worker_processes 1;\nerror_log ${path.join(dir, "logs/error.log")} warn;\nevents { worker_connections 256; }\n` +
      `http {\n  access_log off;\n  ${["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map(temp).join("\n  ")}\n  include ${path.join(dir, "site.conf")};\n}\n`,
  );
  const output = [];
  const child = spawn(
    nginx,
    [
      "-p",
      dir,
      "-c",
      path.join(dir, "nginx.conf"),
      "-e",
      path.join(dir, "logs/error.log"),
      "-g",
      `daemon off; pid ${path.join(dir, "nginx.pid")};`,
    ],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  child.stdout.on("data", (chunk) => output.push(chunk.toString()));
  child.stderr.on("data", (chunk) => output.push(chunk.toString()));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const errors = () =>
    output.join("") +
    (fs.existsSync(path.join(dir, "logs/error.log")) ? fs.readFileSync(path.join(dir, "logs/error.log"), "utf8") : "");
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx stopped at start:\n${errors()}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`nginx did not answer in 10 s:\n${errors()}`);
    }
    // Any answer over TLS will do (the app behind may not be up yet: a 502 is an answer).
    const answered = await new Promise((resolve) => {
      const request = https.get(
        {
          host: "127.0.0.1",
          port: httpsPort,
          path: "/healthz",
          rejectUnauthorized: false,
          servername: "localhost",
          timeout: 1000,
        },
        (response) => {
          response.resume();
          resolve(true);
        },
      );
      request.on("error", () => resolve(false));
      request.on("timeout", () => request.destroy());
    });
    if (answered) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    child,
    errors,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        // SIGQUIT: a graceful stop (open connections finish); SIGKILL after 5 s.
        child.kill("SIGQUIT");
        const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

/**
 * One request over https (or http) to loopback from a chosen local address, as another machine's
 * client would connect (`localAddress` 127.0.0.3 is not the proxy's 127.0.0.1), with the URL's host
 * as its Host. Resolves with the status, headers and body.
 */
export function request(url, { method = "GET", headers = {}, body, localAddress } = {}) {
  const target = new URL(url);
  const secure = target.protocol === "https:";
  return new Promise((resolve, reject) => {
    const sent = (secure ? https : http).request(
      {
        host: "127.0.0.1",
        port: target.port,
        path: target.pathname + target.search,
        method,
        headers: { Host: target.host, ...headers, ...(body ? { "Content-Length": Buffer.byteLength(body) } : {}) },
        localAddress,
        agent: false,
        ...(secure
          ? { rejectUnauthorized: false, servername: net.isIP(target.hostname) ? undefined : target.hostname }
          : {}),
      },
      (response) => {
        const chunks = [];
        response.on("data", (chunk) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    sent.on("error", reject);
    sent.end(body);
  });
}
