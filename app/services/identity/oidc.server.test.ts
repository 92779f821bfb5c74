import { OAuth2RequestError } from "remix-auth-oauth2";
import { describe, expect, test } from "vitest";
import { parseEnv } from "~/services/platform/env.server";
import {
  asOidcError,
  callbackProblem,
  cleanProviderText,
  clearStateCookies,
  nonceFor,
  OidcError,
  providerConfig,
  providerErrorCode,
} from "./oidc.server";

describe("providerConfig", () => {
  test("a provider without client id and secret is not configured", () => {
    const config = parseEnv({});
    expect(providerConfig(config, "feide")).toBeNull();
    expect(providerConfig(config, "vipps")).toBeNull();
    expect(providerConfig(parseEnv({ FEIDE_CLIENT_ID: "x" }), "feide")).toBeNull();
  });

  test("Feide defaults to its production endpoints and asks for groups-edu", () => {
    const config = providerConfig(parseEnv({ FEIDE_CLIENT_ID: "id", FEIDE_CLIENT_SECRET: "secret" }), "feide");
    expect(config).toEqual({
      name: "feide",
      clientId: "id",
      clientSecret: "secret",
      issuer: "https://auth.dataporten.no",
      authorizationEndpoint: "https://auth.dataporten.no/oauth/authorization",
      tokenEndpoint: "https://auth.dataporten.no/oauth/token",
      userinfoEndpoint: "https://auth.dataporten.no/openid/userinfo",
      jwksUri: "https://auth.dataporten.no/openid/jwks",
      scopes: ["openid", "userid", "userid-feide", "email", "profile", "groups-edu"],
      groupsEndpoint: "https://groups-api.dataporten.no/groups/me/groups",
    });
  });

  test("Vipps defaults to its production endpoints", () => {
    const config = providerConfig(parseEnv({ VIPPS_CLIENT_ID: "id", VIPPS_CLIENT_SECRET: "secret" }), "vipps");
    expect(config).toMatchObject({
      issuer: "https://api.vipps.no/access-management-1.0/access/",
      authorizationEndpoint: "https://api.vipps.no/access-management-1.0/access/oauth2/auth",
      tokenEndpoint: "https://api.vipps.no/access-management-1.0/access/oauth2/token",
      userinfoEndpoint: "https://api.vipps.no/vipps-userinfo-api/userinfo",
      jwksUri: "https://api.vipps.no/access-management-1.0/access/.well-known/jwks.json",
      scopes: ["openid", "name", "email", "phoneNumber"],
    });
  });

  test("the issuer moves every endpoint; each can also be set on its own", () => {
    const config = providerConfig(
      parseEnv({
        VIPPS_CLIENT_ID: "id",
        VIPPS_CLIENT_SECRET: "secret",
        VIPPS_ISSUER: "https://apitest.vipps.no/access-management-1.0/access",
        VIPPS_TOKEN_URL: "http://127.0.0.1:9/token",
      }),
      "vipps",
    );
    expect(config?.authorizationEndpoint).toBe("https://apitest.vipps.no/access-management-1.0/access/oauth2/auth");
    expect(config?.tokenEndpoint).toBe("http://127.0.0.1:9/token");
  });
});

describe("callbackProblem", () => {
  const at = (query: string) => callbackProblem(new URL(`https://praksis.example.org/vipps-success${query}`));

  test("a code and a state is a real answer", () => {
    expect(at("?code=abc&state=12345678")).toBeNull();
  });
  test("no code", () => {
    expect(at("?state=12345678")).toMatchObject({ reason: "missing_code" });
    expect(at("?code=&state=12345678")).toMatchObject({ reason: "missing_code" });
  });
  test("no state", () => {
    expect(at("?code=abc")).toMatchObject({ reason: "missing_state" });
  });
  test("a provider error, with its description", () => {
    expect(at("?error=outdated_app_version&error_description=Update%20the%20app&state=x")).toMatchObject({
      reason: "provider_error",
      providerCode: "outdated_app_version",
      providerDescription: "Update the app",
    });
  });
  test("an error code with odd characters is reported as unknown; control characters leave the description", () => {
    expect(at("?error=%3Cscript%3E&error_description=a%0Ab%00c")).toMatchObject({
      providerCode: "unknown",
      providerDescription: "a b c",
    });
  });
});

test("provider text is cut to length and to one line", () => {
  expect(cleanProviderText("x".repeat(500), 300)).toHaveLength(300);
  expect(cleanProviderText("  a\r\n\tb\u2028c  ", 50)).toBe("a b c");
  expect(cleanProviderText(null, 10)).toBe("");
  expect(providerErrorCode("access_denied")).toBe("access_denied");
  expect(providerErrorCode("")).toBe("unknown");
});

test("the nonce is bound to the state by the secret", () => {
  const a = nonceFor("state-1", "secret-1");
  expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(nonceFor("state-1", "secret-1")).toBe(a);
  expect(nonceFor("state-2", "secret-1")).not.toBe(a);
  expect(nonceFor("state-1", "secret-2")).not.toBe(a);
});

describe("asOidcError", () => {
  test("the library's state errors are a state mismatch", () => {
    expect(asOidcError(new ReferenceError("Missing state on cookie."))).toMatchObject({ reason: "state_mismatch" });
    expect(asOidcError(new RangeError("State in URL doesn't match state in cookie."))).toMatchObject({
      reason: "state_mismatch",
    });
  });
  test("a refused code at the token endpoint keeps the provider's code", () => {
    const error = asOidcError(new OAuth2RequestError("invalid_grant", "grant request is invalid", null, null));
    expect(error).toMatchObject({ reason: "token_failed", providerCode: "invalid_grant" });
  });
  test("our own errors pass through; anything else is 'unreachable'", () => {
    const own = new OidcError("invalid_token");
    expect(asOidcError(own)).toBe(own);
    expect(asOidcError(new TypeError("fetch failed"))).toMatchObject({ reason: "unreachable" });
  });
});

test("every state cookie of the provider is removed, and no other cookie", () => {
  const request = new Request("https://praksis.example.org/feide-success", {
    headers: { cookie: "praksis_feide:1=a; praksis_session=s; praksis_feide:2=b; praksis_vipps:3=c" },
  });
  expect(clearStateCookies(request, { name: "praksis_feide", secure: true })).toEqual([
    "praksis_feide:1=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure",
    "praksis_feide:2=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure",
  ]);
});
