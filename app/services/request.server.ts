import crypto from "node:crypto";
import { createContext, createCookie, redirect, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { getDb } from "./db/index.server";
import { env, whenEnvResets } from "./env.server";
import { currentInstitution } from "./institution.server";
import { appSecret } from "./secret.server";
import { loadSession, type CurrentSession } from "./session.server";
import { ROLE_HOME, type RoleId } from "./roles";
import { CROSS_SITE_MESSAGE, isCrossSiteWrite } from "./security";

/** The header the app's own server sets from the socket (never trusted from the client). */
export const REMOTE_ADDRESS_HEADER = "x-praksis-remote-address";

export const sessionContext = createContext<CurrentSession | null>(null);
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
 * The session cookie lives as long as the browser session; the server decides expiry.
 */
export function appCookies() {
  if (!cookies) {
    const secure = secureCookies();
    const prefix = secure ? "__Host-" : "";
    const base = { httpOnly: true, sameSite: "lax" as const, secure, path: "/", secrets: [appSecret()] };
    cookies = {
      session: createCookie(`${prefix}praksis_session`, base),
      flash: createCookie(`${prefix}praksis_flash`, { ...base, maxAge: 60 }),
      login: createCookie(`${prefix}praksis_login`, { ...base, maxAge: 15 * 60 }),
    };
  }
  return cookies;
}

export function clientAddress(request: Request): string {
  const config = env();
  if (config.TRUST_PROXY) {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  return request.headers.get(REMOTE_ADDRESS_HEADER) ?? "unknown";
}

export function currentSession(context: Readonly<RouterContextProvider>): CurrentSession | null {
  return context.get(sessionContext);
}

function loginRedirect(request: Request): never {
  const url = new URL(request.url);
  const back = url.pathname + url.search;
  throw redirect(back === "/" ? "/" : `/?redirectTo=${encodeURIComponent(back)}`);
}

function backTo(request: Request): string {
  const url = new URL(request.url);
  return encodeURIComponent(url.pathname + url.search);
}

/**
 * Every protected loader and action starts here: no session → the login page, then back; a
 * policy not yet accepted → the privacy gate, then back.
 */
export function requireSession(
  request: Request,
  context: Readonly<RouterContextProvider>,
  options: { privacyGate?: boolean } = {},
): CurrentSession {
  const session = currentSession(context);
  if (!session) loginRedirect(request);
  if (options.privacyGate !== false && !session.privacyAccepted) {
    if (request.method !== "GET" && request.method !== "HEAD") throw new Response("Forbidden", { status: 403 });
    throw redirect(`/privacy-consent?redirectTo=${backTo(request)}`);
  }
  return session;
}

/**
 * The session must act in `role`. A user who holds the role but acts in another is switched by the
 * role chooser, not silently; a user without it is sent to the chooser.
 */
export function requireRole(
  request: Request,
  context: Readonly<RouterContextProvider>,
  role: RoleId,
): CurrentSession & { activeRole: RoleId } {
  const session = requireSession(request, context);
  if (session.activeRole !== role) {
    if (request.method !== "GET" && request.method !== "HEAD") {
      throw new Response("Forbidden", { status: 403 });
    }
    throw redirect(`/role?redirectTo=${backTo(request)}`);
  }
  return session as CurrentSession & { activeRole: RoleId };
}

/**
 * The largest body a form post may have. The biggest real one (a page of a form with long
 * comments, the form editor) is a few hundred KiB; a bigger body is refused before it is parsed,
 * so nobody can make the server hold megabytes in memory per request.
 */
export const MAX_FORM_BYTES = 4 * 1024 * 1024;

function tooLarge(): Response {
  return new Response("Payload Too Large: the form is larger than the app accepts.", {
    status: 413,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}

/** The body's bytes, refused with 413 as soon as it exceeds the limit (a Content-Length or a long chunked body). */
async function readBodyCapped(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = request.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > limit) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        throw tooLarge();
      }
      chunks.push(value);
    }
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
 * client's mistake: 400, not a server error; a body over MAX_FORM_BYTES is a 413.
 */
export async function readFormData(request: Request, limit = MAX_FORM_BYTES): Promise<FormData> {
  try {
    const bytes = await readBodyCapped(request, limit);
    const contentType = request.headers.get("content-type") ?? "";
    return withoutNul(await new Response(bytes, { headers: { "Content-Type": contentType } }).formData());
  } catch (error) {
    if (error instanceof Response) throw error;
    throw new Response("Bad Request: the form could not be read.", {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
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
  for (const [name, value] of form.entries()) clean.append(name, typeof value === "string" ? value.replaceAll("\0", "") : value);
  return clean;
}

export function homeOf(session: CurrentSession): string {
  return session.activeRole ? ROLE_HOME[session.activeRole] : "/role";
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

function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * First in the chain: refuses cross-site writes, makes the CSP nonce, and puts the security
 * headers on every response the app renders.
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
  if (!import.meta.env.DEV) headers.set("Content-Security-Policy", contentSecurityPolicy(nonce));
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "same-origin");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
  if (secureCookies()) headers.set("Strict-Transport-Security", "max-age=31536000");
  if (!headers.has("Cache-Control") || context.get(sessionContext)) headers.set("Cache-Control", "no-store");
  return response;
};

/** Loads the session behind the cookie once per request; a stale cookie is cleared. */
export const sessionMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const { session: cookie } = appCookies();
  const token = (await cookie.parse(request.headers.get("cookie"))) as unknown;
  let stale = false;
  if (typeof token === "string" && token.length > 0) {
    const session = await loadSession(await getDb(), token, currentInstitution().privacyPolicyVersion);
    context.set(sessionContext, session);
    stale = session === null;
  }
  const response = await next();
  const name = cookie.name;
  if (stale && !response.headers.getSetCookie().some((c) => c.startsWith(`${name}=`))) {
    response.headers.append("Set-Cookie", await cookie.serialize("", { maxAge: 0 }));
  }
  return response;
};
