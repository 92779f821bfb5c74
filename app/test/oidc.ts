import { startOidcPeer, type Peer } from "../../e2e/support/oidc-peer.mjs";
import { TEST_ORIGIN } from "./route";

/**
 * Real OpenID providers on 127.0.0.1 standing in for Feide and Vipps (e2e/support/oidc-peer.mjs),
 * and the environment that points the app at them.
 */
export async function startProviderPeers(): Promise<{ feide: Peer; vipps: Peer; env: Record<string, string> }> {
  const feide = await startOidcPeer({ kind: "feide", redirectUris: [`${TEST_ORIGIN}/feide-success`] });
  const vipps = await startOidcPeer({ kind: "vipps", redirectUris: [`${TEST_ORIGIN}/vipps-success`] });
  return {
    feide,
    vipps,
    env: {
      FEIDE_CLIENT_ID: "praksis-feide",
      FEIDE_CLIENT_SECRET: "feide-secret-for-tests",
      FEIDE_ISSUER: feide.issuer,
      FEIDE_GROUPS_URL: feide.groupsUrl!,
      VIPPS_CLIENT_ID: "praksis-vipps",
      VIPPS_CLIENT_SECRET: "vipps-secret-for-tests",
      VIPPS_ISSUER: vipps.issuer,
      VIPPS_USERINFO_URL: vipps.userinfoUrl,
    },
  };
}

/**
 * Plays the browser at the provider: follows the authorization URL, fills the log-in form with
 * `login`, and returns the URL the provider sends the browser back to (the app's callback).
 */
export async function logInAtProvider(authorizationUrl: string, login: string): Promise<URL> {
  const cookies = new Map<string, string>();
  let url = new URL(authorizationUrl);
  let init: RequestInit = {};
  for (let hop = 0; hop < 10; hop++) {
    const headers = new Headers(init.headers);
    headers.set("cookie", [...cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    const response = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair.indexOf("=");
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      const next = new URL(location, url);
      if (next.origin === TEST_ORIGIN) return next;
      url = next;
      init = {};
      continue;
    }
    const html = await response.text();
    const action =
      /<form[^>]*method="post"[^>]*action="([^"]*\/login)"/i.exec(html)?.[1] ??
      /action="([^"]*\/login)"/.exec(html)?.[1];
    if (!action) throw new Error(`no log-in form at ${url}: HTTP ${response.status}\n${html.slice(0, 500)}`);
    url = new URL(action, url);
    init = {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ login }).toString(),
    };
  }
  throw new Error("the provider did not send the browser back");
}
