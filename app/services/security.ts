/**
 * Whether a state-changing request comes from another site. The Origin header decides; without
 * one, the Referer; without either, the request did not come from a form on another site (browsers
 * send Origin on cross-site posts) and the SameSite=Lax cookie covers the rest.
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
  const claimed = input.origin ?? input.referer;
  if (!claimed) return false;
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
