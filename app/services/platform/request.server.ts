import crypto from "node:crypto";
import { createContext, createCookie, data, type MiddlewareFunction } from "react-router";
import { env, whenEnvResets } from "./env.server";
import { recordOfRequest, requestRecord } from "./log.server";
import { appSecrets } from "./secret.server";
import { CROSS_SITE_MESSAGE, isCrossSiteWrite } from "./security";

export const nonceContext = createContext<string>("");

/** Whether cookies are Secure (and `__Host-`): when the app is served over https. */
export function secureCookies(): boolean {
  return env().APP_URL?.startsWith("https://") ?? false;
}

/**
 * The app's address for OIDC redirect URIs: APP_URL, or the address the request came to. A forged
 * Host header gains nothing here, since the provider only redirects to registered addresses.
 */
export function publicOrigin(request: Request): string {
  return (env().APP_URL ?? new URL(request.url).origin).replace(/\/+$/, "");
}

/**
 * The app's address for links in mails: APP_URL, or the local address the demo listens on. Never
 * the request's Host header, which the sender chooses: an invitation link pointing elsewhere would
 * hand its secret to whoever runs that host. Production sets APP_URL (the app warns when not).
 */
export function mailOrigin(): string {
  const config = env();
  return (config.APP_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, "");
}

let cookies:
  | {
      session: ReturnType<typeof createCookie>;
      flash: ReturnType<typeof createCookie>;
      login: ReturnType<typeof createCookie>;
    }
  | undefined;
whenEnvResets(() => {
  cookies = undefined;
});

/**
 * The app's cookies, all HttpOnly and SameSite=Lax; Secure and `__Host-` when served over https.
 * The session cookie lives as long as the browser session; the server decides expiry. Signed with
 * the first of the app's secrets and read with any of them, so a new SESSION_SECRET put first
 * (the old one after it) logs nobody out.
 */
export function appCookies() {
  if (!cookies) {
    const secure = secureCookies();
    const prefix = secure ? "__Host-" : "";
    const base = { httpOnly: true, sameSite: "lax" as const, secure, path: "/", secrets: [...appSecrets()] };
    cookies = {
      session: createCookie(`${prefix}praksis_session`, base),
      flash: createCookie(`${prefix}praksis_flash`, { ...base, maxAge: 60 }),
      login: createCookie(`${prefix}praksis_login`, { ...base, maxAge: 15 * 60 }),
    };
  }
  return cookies;
}

/**
 * The client's address for rate limits and the audit log: what the HTTP server in front found (the
 * socket's peer, or the proxies' report when TRUST_PROXY names them), carried in the request's
 * record; "unknown" for a request that came another way (tests calling an action directly).
 */
export function clientAddress(request: Request): string {
  return recordOfRequest(request)?.clientAddress ?? "unknown";
}

/** The largest form body an action reads (the biggest real form, a long form in the editor, is far smaller). */
export const MAX_FORM_BYTES = 4 * 1024 * 1024;
/** The most fields a form may have, and the most times one name may repeat (no page has near as many). */
export const MAX_FORM_FIELDS = 5000;
export const MAX_FIELD_REPEATS = 1000;

function badForm(status: 400 | 413, message: string): Response {
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

/** The body, read up to MAX_FORM_BYTES; a bigger one is refused before it is all in memory. */
async function limitedBody(request: Request): Promise<Uint8Array<ArrayBuffer> | null> {
  const tooLarge = () => badForm(413, "Payload Too Large: the form is too big.");
  if (Number(request.headers.get("content-length") ?? 0) > MAX_FORM_BYTES) throw tooLarge();
  if (!request.body) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_FORM_BYTES) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/**
 * The posted form. A body that is not a form (broken multipart, a wrong content type) is the
 * client's mistake: 400, not a server error. A body too big, or with more fields than any page
 * has, is refused (413) before the actions parse it: parsing a field repeated tens of thousands of
 * times takes the form library seconds (it grows quadratically), and /login is open to anyone.
 */
export async function readFormData(request: Request): Promise<FormData> {
  const bytes = await limitedBody(request);
  let form: FormData;
  try {
    form =
      bytes === null ? await request.formData() : await new Response(bytes, { headers: request.headers }).formData();
  } catch {
    throw badForm(400, "Bad Request: the form could not be read.");
  }
  const counts = new Map<string, number>();
  let fields = 0;
  for (const name of form.keys()) {
    const count = (counts.get(name) ?? 0) + 1;
    counts.set(name, count);
    if (++fields > MAX_FORM_FIELDS || count > MAX_FIELD_REPEATS)
      throw badForm(413, "Payload Too Large: the form has too many fields.");
  }
  return withoutNul(form);
}

/**
 * PostgreSQL text cannot hold NUL: a typed value with one would fail in the database. No field
 * means anything by it, so it is dropped once, here, for every action.
 */
function withoutNul(form: FormData): FormData {
  let found = false;
  for (const value of form.values()) if (typeof value === "string" && value.includes("\0")) found = true;
  if (!found) return form;
  const clean = new FormData();
  for (const [name, value] of form.entries())
    clean.append(name, typeof value === "string" ? value.replaceAll("\0", "") : value);
  return clean;
}

/** Whether a request is a write from another site (see security.ts). */
export function crossSite(request: Request): boolean {
  return isCrossSiteWrite({
    method: request.method,
    origin: request.headers.get("origin"),
    referer: request.headers.get("referer"),
    host: request.headers.get("host") ?? new URL(request.url).host,
    appUrl: env().APP_URL,
  });
}

/**
 * The Content-Security-Policy: with the page's nonce on pages; without one (no inline script or
 * style at all) on everything else the server sends (static files, refusals, its own error answers).
 */
function contentSecurityPolicy(nonce: string | null): string {
  const inline = nonce ? ` 'nonce-${nonce}'` : "";
  return [
    "default-src 'self'",
    `script-src 'self'${inline}`,
    `style-src 'self'${inline}`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    // The service worker (ADR 0011), /sw.js.
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * The security headers, the one place they are made (docs/security-review.md rules
 * 25–26): the app's middleware puts them on every answer the app makes (with the page's CSP
 * nonce), and the server in front (server.mjs) on every other answer (static files, the service
 * worker, refusals, its own error answers), without overwriting what the app set. HSTS when the
 * app is served over https (APP_URL). No CSP in the Vite development server (its client injects
 * inline scripts).
 */
export function securityHeaders(nonce: string | null = null): Record<string, string> {
  return {
    ...(import.meta.env.DEV ? {} : { "Content-Security-Policy": contentSecurityPolicy(nonce) }),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
    ...(secureCookies() ? { "Strict-Transport-Security": "max-age=31536000" } : {}),
  };
}

/**
 * First in the chain after the request log: refuses cross-site writes, makes the CSP nonce, and
 * puts the security headers on every response the app renders.
 */
export const securityMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const nonce = crypto.randomBytes(16).toString("base64");
  context.set(nonceContext, nonce);
  const response = crossSite(request)
    ? new Response(CROSS_SITE_MESSAGE, {
        status: 403,
        headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
      })
    : await next();
  const headers = response.headers;
  for (const [name, value] of Object.entries(securityHeaders(nonce))) headers.set(name, value);
  // Pages for a logged-in user are marked no-store by the session middleware (identity/guard).
  if (!headers.has("Cache-Control")) headers.set("Cache-Control", "no-store");
  return response;
};

/** Whether a path's percent-encoding decodes (`/%E0%A4%A` does not). */
export function decodablePath(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/**
 * A path with bad percent-encoding is the client's mistake: the app's own 400 page, in the user's
 * language (so after the language middleware), not a server error. The server in front hands such
 * a request on with its path escaped and the record marked (server.mjs); the check of the path
 * itself is for the development server and tests.
 */
export const malformedUrlMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const record = requestRecord(context);
  if (record?.malformedUrl || !decodablePath(new URL(request.url).pathname)) {
    if (record) record.route = undefined;
    throw data("Bad Request", { status: 400 });
  }
  return next();
};
