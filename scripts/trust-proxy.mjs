// TRUST_PROXY: which proxies in front of the app are believed about the request's protocol, host and
// client address (their X-Forwarded-Proto, X-Forwarded-Host and X-Forwarded-For). Shared by the
// configuration check (app/services/platform/env.server.ts) and the HTTP server (scripts/http-app.mjs),
// which hands the value to Express's "trust proxy" setting.
//
//   unset, "", "false", "0"   no proxy: the socket's peer is the client; forwarded headers are ignored
//   "1", "2", …               that many proxies in front: the client address is that many hops from
//                             the right of X-Forwarded-For (the entries a client wrote itself are left of it)
//   "true"                    the same as "1" (one proxy in front)
//   "127.0.0.1, 10.0.0.0/8"   the proxies' addresses or subnets (also "loopback", "uniquelocal"): the
//                             client is the rightmost address that is not one of them; a request whose
//                             socket peer is not one of them is taken as it is (nothing forwarded believed)
import net from "node:net";

const NAMED = new Set(["loopback", "linklocal", "uniquelocal"]);

export class TrustProxyError extends Error {
  name = "TrustProxyError";
}

/** The setting for Express: false, a hop count, or a list of addresses and subnets. Throws TrustProxyError. */
export function parseTrustProxy(value) {
  const text = (value ?? "").trim();
  if (text === "" || text === "false" || text === "0") return false;
  if (text === "true") return 1;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 10)
      throw new TrustProxyError("a hop count above 10 is not a real set-up: name the proxies in front (1 for one)");
    return hops;
  }
  const entries = text
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if (NAMED.has(entry)) continue;
    const [address, bits, extra] = entry.split("/");
    const family = net.isIP(address);
    const maxBits = family === 6 ? 128 : 32;
    const validBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= maxBits);
    if (!family || !validBits || extra !== undefined) {
      throw new TrustProxyError(
        `"${entry}" is not an address or subnet: use a hop count (1 for one proxy in front), or the proxies' addresses (127.0.0.1, 10.0.0.0/8, loopback)`,
      );
    }
  }
  if (entries.length === 0) throw new TrustProxyError("names no proxy");
  return entries;
}

/** For the start-up line: what the setting means, in words. */
export function describeTrustProxy(setting) {
  if (setting === false) return "no proxy in front";
  if (typeof setting === "number") return `${setting} prox${setting === 1 ? "y" : "ies"} in front (hop count)`;
  return `proxies at ${setting.join(", ")}`;
}
