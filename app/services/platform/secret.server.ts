import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { env, whenEnvResets } from "./env.server";

let secret: string | undefined;
whenEnvResets(() => {
  secret = undefined;
});

/**
 * The key that signs cookies and keys the one-time-code hashes. SESSION_SECRET when set (required
 * with a PostgreSQL of one's own, where several instances must agree); for the embedded database a
 * random key is made once and kept in DATA_DIR, so restarts (and every app process) share it.
 */
export function appSecret(): string {
  if (secret) return secret;
  const config = env();
  if (config.SESSION_SECRET) {
    secret = config.SESSION_SECRET;
    return secret;
  }
  const file = path.resolve(config.DATA_DIR, "secret");
  try {
    secret = fs.readFileSync(file, "utf8").trim();
  } catch {
    const made = crypto.randomBytes(32).toString("base64url");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    try {
      // Created only if no other app process made it meanwhile: every process uses the same key.
      fs.writeFileSync(file, made, { mode: 0o600, flag: "wx" });
      secret = made;
    } catch {
      secret = fs.readFileSync(file, "utf8").trim();
    }
  }
  return secret;
}
