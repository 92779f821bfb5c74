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
 * with PostgreSQL, where several instances must agree); for the embedded database a random key is
 * made once and kept beside the data, so restarts keep sessions and codes valid.
 */
export function appSecret(): string {
  if (secret) return secret;
  const config = env();
  if (config.SESSION_SECRET) {
    secret = config.SESSION_SECRET;
    return secret;
  }
  const file = path.resolve(path.dirname(path.resolve(config.PGLITE_DIR)), "secret");
  try {
    secret = fs.readFileSync(file, "utf8").trim();
  } catch {
    secret = crypto.randomBytes(32).toString("base64url");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, secret, { mode: 0o600 });
  }
  return secret;
}
