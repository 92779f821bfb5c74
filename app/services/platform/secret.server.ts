import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { env, whenEnvResets } from "./env.server";

let secrets: string[] | undefined;
whenEnvResets(() => {
  secrets = undefined;
});

/** A list of secrets as SESSION_SECRET (or the secret file) holds it: comma-separated, the first signs. */
export function secretList(text: string): string[] {
  return text
    .split(",")
    .map((one) => one.trim())
    .filter(Boolean);
}

/**
 * The keys that sign cookies and key the one-time-code hashes, the one that signs first. From
 * SESSION_SECRET when set (required with a PostgreSQL of one's own, where several instances must
 * agree): a comma-separated list, so a new secret can go first while the old one still verifies
 * what it signed, and a rotation logs nobody out. For the embedded database a random key is made
 * once and kept in DATA_DIR, so restarts (and every app process) share it.
 */
export function appSecrets(): readonly string[] {
  if (secrets) return secrets;
  const config = env();
  if (config.SESSION_SECRET) {
    secrets = secretList(config.SESSION_SECRET);
    return secrets;
  }
  const file = path.resolve(config.DATA_DIR, "secret");
  try {
    secrets = secretList(fs.readFileSync(file, "utf8"));
  } catch {
    const made = crypto.randomBytes(32).toString("base64url");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    try {
      // Created only if no other app process made it meanwhile: every process uses the same key.
      fs.writeFileSync(file, made, { mode: 0o600, flag: "wx" });
      secrets = [made];
    } catch {
      secrets = secretList(fs.readFileSync(file, "utf8"));
    }
  }
  return secrets;
}

/** The secret that signs and keys what is made now: the first of appSecrets(). */
export function appSecret(): string {
  return appSecrets()[0];
}
