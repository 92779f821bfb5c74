import crypto from "node:crypto";
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from "jose";
import { OAuth2RequestError, OAuth2Strategy } from "remix-auth-oauth2";
import type { Env } from "~/services/platform/env.server";

/**
 * Feide and Vipps log-in through remix-auth-oauth2 (authorization code with PKCE S256). What the
 * library leaves to us: the nonce, checking the ID token, reading userinfo, and turning every way a
 * callback can go wrong into one reason the log-in page can explain.
 */

export type ProviderName = "feide" | "vipps";
export const PROVIDERS: readonly ProviderName[] = ["feide", "vipps"];

export function isProviderName(value: unknown): value is ProviderName {
  return value === "feide" || value === "vipps";
}

export interface ProviderConfig {
  name: ProviderName;
  clientId: string;
  clientSecret: string;
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  userinfoEndpoint: string;
  jwksUri: string;
  scopes: string[];
  /** Feide only: the groups API that lists course memberships. */
  groupsEndpoint?: string;
}

/** Endpoint paths below the issuer, as the providers document them. */
const PATHS: Record<ProviderName, { authorization: string; token: string; userinfo: string; jwks: string }> = {
  feide: {
    authorization: "oauth/authorization",
    token: "oauth/token",
    userinfo: "openid/userinfo",
    jwks: "openid/jwks",
  },
  vipps: { authorization: "oauth2/auth", token: "oauth2/token", userinfo: "", jwks: ".well-known/jwks.json" },
};

function below(issuer: string, path: string): string {
  return new URL(path, issuer.endsWith("/") ? issuer : `${issuer}/`).toString();
}

type SettingKey =
  "CLIENT_ID" | "CLIENT_SECRET" | "ISSUER" | "AUTHORIZATION_URL" | "TOKEN_URL" | "USERINFO_URL" | "JWKS_URL" | "SCOPES";

/** FEIDE_… or VIPPS_… from the environment. */
function setting(config: Env, name: ProviderName, key: SettingKey): string | undefined {
  const prefix = name === "feide" ? "FEIDE" : "VIPPS";
  return config[`${prefix}_${key}`];
}

/** The provider's settings, or null when it is not configured (then it is not offered). */
export function providerConfig(config: Env, name: ProviderName): ProviderConfig | null {
  const clientId = setting(config, name, "CLIENT_ID");
  const clientSecret = setting(config, name, "CLIENT_SECRET");
  if (!clientId || !clientSecret) return null;
  const paths = PATHS[name];
  const issuer = setting(config, name, "ISSUER")!;
  return {
    name,
    clientId,
    clientSecret,
    issuer,
    authorizationEndpoint: setting(config, name, "AUTHORIZATION_URL") ?? below(issuer, paths.authorization),
    tokenEndpoint: setting(config, name, "TOKEN_URL") ?? below(issuer, paths.token),
    // Vipps's userinfo lives outside the issuer's path; its default is in env.server.ts.
    userinfoEndpoint: setting(config, name, "USERINFO_URL") ?? below(issuer, paths.userinfo),
    jwksUri: setting(config, name, "JWKS_URL") ?? below(issuer, paths.jwks),
    scopes: setting(config, name, "SCOPES")!.split(/\s+/).filter(Boolean),
    ...(name === "feide" ? { groupsEndpoint: config.FEIDE_GROUPS_URL } : {}),
  };
}

/** Why a provider log-in did not give a user; each has a message on the log-in page. */
export type OidcFailure =
  | "missing_code"
  | "missing_state"
  | "state_expired"
  | "state_mismatch"
  | "provider_error"
  | "token_failed"
  | "invalid_token"
  | "userinfo_failed"
  | "unreachable";

export class OidcError extends Error {
  constructor(
    readonly reason: OidcFailure,
    readonly providerCode?: string,
    readonly providerDescription?: string,
  ) {
    super(providerCode ? `${reason}: ${providerCode}` : reason);
  }
}

/** Error codes the providers document for the callback; each has its own translated message. */
export const KNOWN_PROVIDER_ERRORS = [
  "access_denied",
  "server_error",
  "login_required",
  "invalid_app_callback_uri",
  "app_callback_uri_not_registered",
  "outdated_app_version",
  "wrong_challenge",
  "unknown_reject_reason",
  "invalid_request",
  "invalid_scope",
  "unauthorized_client",
  "unsupported_response_type",
  "temporarily_unavailable",
  "consent_required",
  "interaction_required",
] as const;

/** What a provider put in a query string, made safe to show: a short code and a short single line. */
export function cleanProviderText(value: string | null, max: number): string {
  return (
    (value ?? "")
      // eslint-disable-next-line no-control-regex -- control characters are what this removes
      .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ")
      .trim()
      .slice(0, max)
  );
}

export function providerErrorCode(raw: string | null): string {
  const code = cleanProviderText(raw, 64);
  return /^[A-Za-z0-9_.-]+$/.test(code) ? code : "unknown";
}

/**
 * What the callback URL itself says before any cookie is read: a provider error, or a missing
 * code or state. Null when it looks like a real answer.
 */
export function callbackProblem(url: URL): OidcError | null {
  const error = url.searchParams.get("error");
  if (error !== null) {
    return new OidcError(
      "provider_error",
      providerErrorCode(error),
      cleanProviderText(url.searchParams.get("error_description"), 300),
    );
  }
  if (!url.searchParams.get("code")) return new OidcError("missing_code");
  if (!url.searchParams.get("state")) return new OidcError("missing_state");
  return null;
}

/**
 * The nonce is derived from the state with the app's secret, so it is bound to the same browser
 * cookie as the state and PKCE verifier without storing anything else.
 */
export function nonceFor(state: string, secret: string): string {
  return crypto.createHmac("sha256", secret).update(`oidc-nonce:${state}`).digest("base64url");
}

export interface OidcIdentity {
  provider: ProviderName;
  sub: string;
  /** The userinfo claims (sub included). */
  claims: Record<string, unknown>;
  accessToken: string;
}

const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

function keySet(uri: string) {
  let set = keySets.get(uri);
  if (!set) {
    set = createRemoteJWKSet(new URL(uri), { timeoutDuration: 10_000, cooldownDuration: 30_000 });
    keySets.set(uri, set);
  }
  return set;
}

/** Signature (the provider's published keys), issuer, audience, expiry and nonce. */
export async function verifyIdToken(config: ProviderConfig, idToken: string, nonce: string): Promise<JWTPayload> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, keySet(config.jwksUri), {
      issuer: config.issuer,
      audience: config.clientId,
      clockTolerance: 60,
    }));
  } catch (error) {
    if (error instanceof joseErrors.JOSEError && !(error instanceof joseErrors.JWKSTimeout)) {
      throw new OidcError("invalid_token", undefined, error.code);
    }
    throw new OidcError("unreachable");
  }
  if (typeof payload.sub !== "string" || payload.sub === "") throw new OidcError("invalid_token", undefined, "sub");
  if (typeof payload.nonce !== "string" || !safeEqual(payload.nonce, nonce)) {
    throw new OidcError("invalid_token", undefined, "nonce");
  }
  return payload;
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

export async function fetchUserinfo(config: ProviderConfig, accessToken: string): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(config.userinfoEndpoint, {
      headers: { Authorization: `Bearer ${accessToken}`, Accept: "application/json" },
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    throw new OidcError("unreachable");
  }
  if (!response.ok) throw new OidcError("userinfo_failed", undefined, `HTTP ${response.status}`);
  const body = (await response.json().catch(() => null)) as unknown;
  if (!body || typeof body !== "object" || Array.isArray(body))
    throw new OidcError("userinfo_failed", undefined, "body");
  return body as Record<string, unknown>;
}

export interface StateCookieOptions {
  name: string;
  secure: boolean;
}

/**
 * One provider's remix-auth-oauth2 strategy. The library keeps state and PKCE verifier in an
 * HttpOnly cookie (`<name>:<uuid>`, 10 minutes); we add the nonce and check what comes back.
 */
export class OidcStrategy extends OAuth2Strategy<OidcIdentity> {
  override name: ProviderName;

  constructor(
    readonly config: ProviderConfig,
    redirectURI: string,
    private readonly stateCookie: StateCookieOptions,
    private readonly secret: string,
  ) {
    super(
      {
        clientId: config.clientId,
        clientSecret: config.clientSecret,
        authorizationEndpoint: config.authorizationEndpoint,
        tokenEndpoint: config.tokenEndpoint,
        redirectURI,
        scopes: config.scopes,
        cookie: {
          name: stateCookie.name,
          ...(stateCookie.secure ? { secure: true } : {}),
          sameSite: "Lax",
          httpOnly: true,
          path: "/",
          maxAge: 600,
        },
      },
      async ({ request, tokens }) => {
        const state = new URL(request.url).searchParams.get("state") ?? "";
        let idToken: string;
        try {
          idToken = tokens.idToken();
        } catch {
          throw new OidcError("invalid_token", undefined, "no id_token");
        }
        const payload = await verifyIdToken(config, idToken, nonceFor(state, secret));
        const accessToken = tokens.accessToken();
        const claims = await fetchUserinfo(config, accessToken);
        if (claims.sub !== payload.sub) throw new OidcError("invalid_token", undefined, "userinfo sub");
        return { provider: config.name, sub: payload.sub as string, claims, accessToken };
      },
    );
    this.name = config.name;
  }

  protected override authorizationParams(params: URLSearchParams): URLSearchParams {
    const out = new URLSearchParams(params);
    out.set("nonce", nonceFor(out.get("state") ?? "", this.secret));
    return out;
  }

  /** Runs the callback and turns the library's errors into an OidcError. */
  async callback(request: Request): Promise<OidcIdentity> {
    const problem = callbackProblem(new URL(request.url));
    if (problem) throw problem;
    // No state cookie at all: it expired (10 minutes), was removed by an earlier use of a callback,
    // or the log-in was started in another browser. A cookie with other states is a mismatch.
    if (stateCookieNames(request, this.stateCookie).length === 0) throw new OidcError("state_expired");
    try {
      return await this.authenticate(request);
    } catch (error) {
      throw asOidcError(error);
    }
  }
}

export function asOidcError(error: unknown): OidcError {
  if (error instanceof OidcError) return error;
  // The library: no state cookie (ReferenceError) or a state that is not in it (RangeError).
  if (error instanceof RangeError || error instanceof ReferenceError) return new OidcError("state_mismatch");
  if (error instanceof OAuth2RequestError) {
    return new OidcError("token_failed", providerErrorCode(error.code), cleanProviderText(error.description, 300));
  }
  if (error instanceof Error && error.name === "UnexpectedResponseError") return new OidcError("token_failed");
  if (error instanceof Error && error.name === "UnexpectedErrorResponseBodyError") return new OidcError("token_failed");
  return new OidcError("unreachable");
}

/** The names of this strategy's state cookies that the request carries. */
function stateCookieNames(request: Request, cookie: StateCookieOptions): string[] {
  const header = request.headers.get("cookie") ?? "";
  const names = header
    .split(";")
    .map((part) => part.split("=")[0]?.trim() ?? "")
    .filter((name) => name.startsWith(`${cookie.name}:`) || name === cookie.name);
  return [...new Set(names)];
}

/** Set-Cookie values that remove every state cookie of this strategy, so a callback cannot be replayed. */
export function clearStateCookies(request: Request, cookie: StateCookieOptions): string[] {
  const flags = `Path=/; Max-Age=0; HttpOnly; SameSite=Lax${cookie.secure ? "; Secure" : ""}`;
  return stateCookieNames(request, cookie).map((name) => `${name}=; ${flags}`);
}
