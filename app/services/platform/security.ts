/**
 * Whether a state-changing request comes from another site (or cannot be shown not to). The Origin
 * header decides; without one, the Referer. Without either the request is refused too (fail
 * closed, as the OWASP CSRF cheat sheet recommends for ASVS V3.5/V4.2): every browser the app
 * supports (ADR 0003: Chrome 87, Firefox 78, Safari 13 and later) sends Origin on every POST,
 * form or fetch, and the app's `Referrer-Policy: same-origin` keeps it from being "null" on its
 * own pages; so only a non-browser client, or a browser stripping both headers, lacks them, and it
 * can send Origin. The SameSite=Lax session cookie is the second, independent layer.
 */
export function isCrossSiteWrite(input: {
  method: string;
  origin: string | null;
  referer: string | null;
  host: string | null;
  appUrl?: string;
}): boolean {
  const method = input.method.toUpperCase();
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return false;
  if (input.origin === "null") return true;
  const claimed = input.origin || input.referer;
  if (!claimed) return true;
  let host: string;
  try {
    host = new URL(claimed).host;
  } catch {
    return true;
  }
  if (input.appUrl && new URL(input.appUrl).host === host) return false;
  return host !== input.host;
}

export const CROSS_SITE_MESSAGE =
  "Forespørselen kom fra et annet nettsted og ble avvist. / The request came from another site and was refused.";
