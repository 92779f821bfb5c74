import crypto from "node:crypto";
import { appSecret } from "./secret.server";

/**
 * The key a person's pages seal what they keep in the browser with (ADR 0011,
 * app/components/app/unsentStore.ts): derived from the app's secret and the user id, so it is the
 * same on every visit and every app instance, and handed only to that person's own pages (their
 * loaders, behind the session; never kept by the service worker, which keeps no page with personal
 * data). `keyId` names their entries without saying whose they are: a truncated HMAC of its own.
 */
export function unsentKeyFor(userId: number): { keyId: string; key: string } {
  const mac = (purpose: string) =>
    crypto.createHmac("sha256", appSecret()).update(`praksis:unsent:${purpose}:${userId}`).digest();
  return { key: mac("key").toString("base64url"), keyId: mac("id").subarray(0, 9).toString("base64url") };
}
