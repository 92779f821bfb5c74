// A real, local OpenID Connect provider (oidc-provider v9) that stands in for Feide or for Vipps:
// in the tests (e2e/support/oidc-peer.mjs adds the test accounts) and in the demo that `npm start`
// runs (scripts/demo-providers.mjs adds the demo's people). Plain ESM JavaScript, no build step.
//
//   const peer = await startOidcPeer({ kind: "feide", redirectUris: ["http://127.0.0.1:3100/feide-success"], accounts });
//   // peer.issuer, peer.userinfoUrl, peer.groupsUrl, peer.addAccount(login, account), await peer.close()
//
// Endpoint paths are the real providers' paths below the issuer. The log-in page is a plain HTML
// form (works with JavaScript off): type a username from the account table (any other name gets a
// fallback account), or `error:<code>` to send the browser back to the client with that error; or
// press one of the `choices` (the demo's people). Every authorization request shows the log-in
// page: the provider's own session cookie is never passed on to oidc-provider, so no earlier log-in
// is silently reused.
//
// By hand: node scripts/oidc-peer.mjs feide 5100 http://127.0.0.1:3000/feide-success

import crypto from "node:crypto";
import http from "node:http";
import { pathToFileURL } from "node:url";
import { exportJWK, generateKeyPair } from "jose";

// ---------------------------------------------------------------------------------------------
// Feide groups

const ROLE_NAMES = { STUDENT: "Student", UNDERVISER: "Underviser" };

/** One Feide "fc:fs:emne" group membership, shaped like the real Feide groups API answer. */
export function courseGroup({
  org,
  code,
  name,
  active = true,
  fsroles = ["STUDENT"],
  notBefore,
  notAfter,
  version = "1",
}) {
  const membership = {
    basic: "member",
    active,
    fsroles: [...fsroles],
    displayName: ROLE_NAMES[fsroles[0]] ?? fsroles[0] ?? "Member",
  };
  if (notBefore) membership.notBefore = notBefore;
  if (notAfter) membership.notAfter = notAfter;
  return {
    id: `fc:fs:fs:emne:${org}:${code}:${version}`,
    type: "fc:fs:emne",
    displayName: name ?? code,
    parent: `fc:org:${org}`,
    membership,
  };
}

/** A group that is not a subject (the institution): the app must filter groups by type. */
export function orgGroup(org, name) {
  return {
    id: `fc:org:${org}`,
    type: "fc:org",
    displayName: name,
    membership: { basic: "member", affiliation: ["student"] },
  };
}

function fallbackAccount(login) {
  return {
    sub: `sub-${login}`,
    claims: { name: login, email: `${login}@example.org`, email_verified: true },
    groups: [],
  };
}

// ---------------------------------------------------------------------------------------------
// Per-kind settings

const KINDS = {
  feide: {
    title: "Feide",
    clientId: "praksis-feide",
    clientSecret: "feide-secret-for-tests",
    routes: {
      authorization: "/oauth/authorization",
      token: "/oauth/token",
      userinfo: "/openid/userinfo",
      jwks: "/openid/jwks",
    },
    scopes: ["openid", "userid", "userid-feide", "email", "profile", "groups-edu"],
    claims: {
      openid: ["sub"],
      userid: ["https://n.feide.no/claims/userid_sec"],
      "userid-feide": ["https://n.feide.no/claims/eduPersonPrincipalName"],
      email: ["email", "email_verified"],
      profile: ["name"],
    },
    groupsPath: "/groups/me/groups",
  },
  vipps: {
    title: "Vipps",
    clientId: "praksis-vipps",
    clientSecret: "vipps-secret-for-tests",
    routes: {
      authorization: "/oauth2/auth",
      token: "/oauth2/token",
      userinfo: "/vipps-userinfo-api/userinfo",
      jwks: "/.well-known/jwks.json",
    },
    scopes: ["openid", "name", "email", "phoneNumber"],
    claims: {
      openid: ["sub"],
      name: ["name"],
      email: ["email", "email_verified"],
      phoneNumber: ["phone_number", "phone_number_verified"],
    },
    groupsPath: undefined,
  },
};

// ---------------------------------------------------------------------------------------------
// Keeping oidc-provider quiet: its one-time start-up notices (unsupported runtime on Node 20,
// in-memory adapter) are dropped while the module loads and the Provider is built. Reference
// counted, so peers started in parallel restore the real console exactly once.

let quietDepth = 0;
let realConsole;

async function quietly(fn) {
  if (quietDepth++ === 0) {
    realConsole = { warn: console.warn, info: console.info };
    const filter =
      (real) =>
      (...args) => {
        if (typeof args[0] === "string" && /oidc-provider (WARNING|NOTICE)/.test(args[0])) return;
        real.apply(console, args);
      };
    console.warn = filter(realConsole.warn);
    console.info = filter(realConsole.info);
  }
  try {
    return await fn();
  } finally {
    if (--quietDepth === 0) {
      console.warn = realConsole.warn;
      console.info = realConsole.info;
    }
  }
}

let providerModule;
function loadOidcProvider() {
  providerModule ??= quietly(() => import("oidc-provider"));
  return providerModule;
}

// ---------------------------------------------------------------------------------------------
// Small HTTP helpers

function escapeHtml(value) {
  return String(value).replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c],
  );
}

function send(res, status, body, type = "text/plain; charset=utf-8") {
  res.statusCode = status;
  res.setHeader("content-type", type);
  res.setHeader("cache-control", "no-store");
  res.setHeader("content-length", Buffer.byteLength(body));
  res.end(body);
}

function sendJson(res, status, value) {
  send(res, status, JSON.stringify(value), "application/json; charset=utf-8");
}

async function readForm(req, limit = 64 * 1024) {
  let size = 0;
  const chunks = [];
  for await (const chunk of req) {
    size += chunk.length;
    if (size > limit) throw Object.assign(new Error("request body too large"), { status: 413 });
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

/** Removes the provider's session cookie(s) from a request, so every log-in shows the form. */
function stripCookies(req, prefix) {
  const header = req.headers.cookie;
  if (!header) return;
  const kept = header
    .split(";")
    .map((part) => part.trim())
    .filter((part) => part && !part.startsWith(prefix));
  if (kept.length) req.headers.cookie = kept.join("; ");
  else delete req.headers.cookie;
}

function page(title, heading, body) {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:28rem;padding:0 1rem;line-height:1.4}label,input,button{display:block;margin:.4rem 0}input{padding:.4rem;width:100%;box-sizing:border-box}button{padding:.4rem 1rem;font:inherit}.note{border-left:4px solid #8a5a00;background:#fff4dc;padding:.5rem .75rem}.choices{list-style:none;padding:0}.choices button{width:100%;text-align:left;padding:.5rem .75rem}.choices small{display:block;color:#333}</style>
</head>
<body>
<main>
<h1>${escapeHtml(heading)}</h1>
${body}
</main>
</body>
</html>
`;
}

// ---------------------------------------------------------------------------------------------
// The peer

/**
 * Starts a local OpenID Connect provider standing in for Feide or Vipps.
 * @param {{ kind: "feide" | "vipps", port?: number, host?: string, clientId?: string,
 *   clientSecret?: string, redirectUris: string[], accounts?: Record<string, object>, name?: string,
 *   intro?: string[], choices?: { login: string, label: string, description?: string }[] }} options
 *   `name` heads the provider's pages ("Test Feide"); `intro` paragraphs and `choices` (people to
 *   log in as with one press) are shown above the username form.
 */
// eslint-disable-next-line max-lines-per-function -- one closure over the provider, its accounts and its server: the configuration, the log-in pages, the groups API and the routing, each a short inner function
export async function startOidcPeer(options = {}) {
  const {
    kind,
    port = 0,
    host = "127.0.0.1",
    redirectUris,
    accounts: initialAccounts = {},
    intro = [],
    choices = [],
  } = options;
  const settings = KINDS[kind];
  if (!settings) throw new TypeError(`startOidcPeer: kind must be "feide" or "vipps", got ${JSON.stringify(kind)}`);
  if (!Array.isArray(redirectUris) || redirectUris.length === 0) {
    throw new TypeError("startOidcPeer: redirectUris must be a non-empty array of the app's callback URLs");
  }
  const clientId = options.clientId ?? settings.clientId;
  const clientSecret = options.clientSecret ?? settings.clientSecret;

  // Accounts by log-in name; the provider's accountId is the account's sub (oidc-provider always
  // answers sub = accountId), so a reverse map finds the log-in name again.
  const accounts = new Map();
  const loginBySub = new Map();
  function addAccount(login, account) {
    if (typeof login !== "string" || !login) throw new TypeError("addAccount: login must be a non-empty string");
    if (!account || typeof account.sub !== "string" || !account.sub) {
      throw new TypeError("addAccount: account.sub must be a non-empty string");
    }
    const stored = { sub: account.sub, claims: { ...(account.claims ?? {}) }, groups: account.groups ?? [] };
    accounts.set(login, stored);
    loginBySub.set(stored.sub, login);
  }
  for (const [login, account] of Object.entries(initialAccounts)) addAccount(login, account);
  const name = options.name ?? `Test ${settings.title}`;

  function accountForLogin(login) {
    const account = accounts.get(login);
    if (account) return account;
    const fallback = fallbackAccount(login);
    if (!loginBySub.has(fallback.sub)) loginBySub.set(fallback.sub, login);
    return fallback;
  }

  function accountForSub(sub) {
    const login = loginBySub.get(sub);
    if (login === undefined) return undefined;
    const account = accountForLogin(login);
    return account.sub === sub ? account : undefined;
  }

  const server = http.createServer();
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });

  try {
    const realPort = server.address().port;
    const issuer = `http://${host.includes(":") ? `[${host}]` : host}:${realPort}`;
    const cookiePrefix = `_${kind}${realPort}`;
    const sessionCookie = `${cookiePrefix}_session`;

    const { privateKey } = await generateKeyPair("RS256", { extractable: true });
    const jwk = { ...(await exportJWK(privateKey)), kid: crypto.randomUUID(), alg: "RS256", use: "sig" };

    const { default: Provider } = await loadOidcProvider();

    const configuration = {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: [...redirectUris],
          grant_types: ["authorization_code"],
          response_types: ["code"],
          token_endpoint_auth_method: "client_secret_basic",
        },
      ],
      jwks: { keys: [jwk] },
      cookies: {
        keys: [crypto.randomBytes(24).toString("base64url"), crypto.randomBytes(24).toString("base64url")],
        names: {
          session: sessionCookie,
          interaction: `${cookiePrefix}_interaction`,
          resume: `${cookiePrefix}_interaction_resume`,
        },
      },
      routes: settings.routes,
      responseTypes: ["code"],
      pkce: { required: () => true },
      scopes: settings.scopes,
      claims: settings.claims,
      features: {
        devInteractions: { enabled: false },
        userinfo: { enabled: true },
      },
      interactions: {
        url: (ctx, interaction) => `/interaction/${interaction.uid}`,
      },
      async findAccount(ctx, id) {
        const account = accountForSub(id);
        if (!account) return undefined;
        return {
          accountId: id,
          claims: () => ({ sub: account.sub, ...account.claims }),
        };
      },
      // Own values for everything whose default prints a "you SHOULD change this" notice.
      ttl: {
        AccessToken: 3600,
        AuthorizationCode: 60,
        IdToken: 3600,
        Interaction: 3600,
        Session: 3600,
        Grant: 3600,
        RefreshToken: 3600,
        ClientCredentials: 600,
      },
      clientBasedCORS: () => true,
      async renderError(ctx, out) {
        ctx.type = "html";
        ctx.body = page(
          `${name} error`,
          `${name} error`,
          Object.entries(out)
            .map(([key, value]) => `<p><strong>${escapeHtml(key)}</strong>: ${escapeHtml(value)}</p>`)
            .join("\n"),
        );
      },
    };

    const provider = await quietly(async () => new Provider(issuer, configuration));
    provider.on("server_error", (ctx, error) => {
      console.error(`[oidc-peer ${kind}] server_error on ${ctx?.method} ${ctx?.path}:`, error);
    });
    const providerCallback = provider.callback();

    // --- interactions ---------------------------------------------------------------------

    function loginPage(uid, message) {
      const action = `/interaction/${encodeURIComponent(uid)}`;
      const about = intro.map((text) => `<p class="note">${escapeHtml(text)}</p>\n`).join("");
      const list = choices.length
        ? `<h2>Choose who to log in as</h2>
<form method="post" action="${escapeHtml(action)}/login">
<ul class="choices">
${choices
  .map(
    (c) =>
      `<li><button type="submit" name="login" value="${escapeHtml(c.login)}"><strong>${escapeHtml(c.label)}</strong>${c.description ? `<small>${escapeHtml(c.description)}</small>` : ""}</button></li>`,
  )
  .join("\n")}
</ul>
</form>
<h2>Or type a username</h2>
`
        : "";
      return page(
        `${name} login`,
        `${name} login`,
        `${message ? `<p role="alert">${escapeHtml(message)}</p>\n` : ""}${about}${list}<form method="post" action="${escapeHtml(action)}/login">
<label for="login">Username</label>
<input id="login" name="login" autocomplete="username">
<button type="submit">Sign in</button>
</form>
<form method="post" action="${escapeHtml(action)}/abort">
<button type="submit">Cancel</button>
</form>`,
      );
    }

    /** A new grant for everything the authorization request asked for (so no consent prompt). */
    async function grantFor(details, accountId) {
      const grant = new provider.Grant({ accountId, clientId });
      grant.addOIDCScope(String(details.params.scope ?? "openid"));
      if (details.params.claims) {
        try {
          const requested = JSON.parse(details.params.claims);
          const names = new Set([...Object.keys(requested?.userinfo ?? {}), ...Object.keys(requested?.id_token ?? {})]);
          if (names.size) grant.addOIDCClaims([...names]);
        } catch {
          // oidc-provider already rejected malformed claims parameters
        }
      }
      return grant.save();
    }

    async function handleInteraction(req, res, uid, action) {
      if (action === "" && req.method === "GET") {
        const details = await provider.interactionDetails(req, res);
        if (details.uid !== uid) return send(res, 400, "interaction mismatch");
        // Always the log-in form: there is no consent screen, the log-in grants what was asked.
        return send(res, 200, loginPage(uid), "text/html; charset=utf-8");
      }

      if (action === "login" && req.method === "POST") {
        const form = await readForm(req);
        const details = await provider.interactionDetails(req, res);
        if (details.uid !== uid) return send(res, 400, "interaction mismatch");
        const login = (form.get("login") ?? "").trim();
        if (!login) return send(res, 400, loginPage(uid, "Enter a username."), "text/html; charset=utf-8");

        if (login.startsWith("error:")) {
          const code = login.slice("error:".length).trim() || "server_error";
          return provider.interactionFinished(
            req,
            res,
            { error: code, error_description: `Test error ${code}` },
            { mergeWithLastSubmission: false },
          );
        }

        const account = accountForLogin(login);
        const accountId = account.sub;
        const grantId = await grantFor(details, accountId);
        return provider.interactionFinished(
          req,
          res,
          { login: { accountId, remember: false }, consent: { grantId } },
          { mergeWithLastSubmission: false },
        );
      }

      if (action === "abort" && req.method === "POST") {
        await readForm(req);
        return provider.interactionFinished(
          req,
          res,
          { error: "access_denied", error_description: "End-User aborted interaction" },
          { mergeWithLastSubmission: false },
        );
      }

      res.setHeader("allow", action === "" ? "GET" : "POST");
      return send(res, 405, "method not allowed");
    }

    // --- Feide groups API ---------------------------------------------------------------------

    async function handleGroups(req, res) {
      if (req.method !== "GET" && req.method !== "HEAD") {
        res.setHeader("allow", "GET");
        return send(res, 405, "method not allowed");
      }
      const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
      const unauthorized = (message) => {
        res.setHeader("www-authenticate", 'Bearer error="invalid_token"');
        return sendJson(res, 401, { message });
      };
      if (!match) return unauthorized("missing bearer token");
      const token = await provider.AccessToken.find(match[1]);
      if (!token || token.clientId !== clientId) return unauthorized("invalid or expired access token");
      if (token.grantId && !(await provider.Grant.find(token.grantId))) return unauthorized("grant revoked");
      const account = accountForSub(token.accountId);
      if (!account) return unauthorized("unknown account");
      if (account.groups === "down") return send(res, 503, "Groups API temporarily unavailable (test)");
      if (account.groups === "garbage") return send(res, 200, '{"not":"a list"', "application/json");
      return sendJson(res, 200, Array.isArray(account.groups) ? account.groups : []);
    }

    // --- routing --------------------------------------------------------------------------------

    server.on("request", async (req, res) => {
      const path = (req.url ?? "/").split("?")[0];
      try {
        if (settings.groupsPath && path === settings.groupsPath) {
          await handleGroups(req, res);
          return;
        }
        const interaction = /^\/interaction\/([^/]+)(?:\/(login|abort))?\/?$/.exec(path);
        if (interaction) {
          await handleInteraction(req, res, decodeURIComponent(interaction[1]), interaction[2] ?? "");
          return;
        }
        stripCookies(req, sessionCookie);
        providerCallback(req, res);
      } catch (error) {
        if (res.headersSent) {
          res.destroy();
          return;
        }
        if (error?.name === "SessionNotFound") {
          // Expired or unknown interaction (e.g. the form was posted twice).
          send(
            res,
            400,
            page(`${name} error`, `${name} error`, `<p>${escapeHtml(error.message)}</p>`),
            "text/html; charset=utf-8",
          );
          return;
        }
        console.error(`[oidc-peer ${kind}] ${req.method} ${path} failed:`, error);
        send(res, error?.status ?? 500, "internal error in the test OpenID Connect peer");
      }
    });

    return {
      issuer,
      port: realPort,
      clientId,
      clientSecret,
      userinfoUrl: `${issuer}${settings.routes.userinfo}`,
      groupsUrl: settings.groupsPath ? `${issuer}${settings.groupsPath}` : undefined,
      addAccount,
      close: () =>
        new Promise((resolve, reject) => {
          server.close((error) => (error ? reject(error) : resolve()));
          server.closeAllConnections();
        }),
    };
  } catch (error) {
    server.closeAllConnections();
    server.close();
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// CLI: node scripts/oidc-peer.mjs <feide|vipps> [port] [redirect-uri ...] (accounts: any username)

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [kind = "feide", portArg = "0", ...uris] = process.argv.slice(2);
  const redirectUris = uris.length
    ? uris.flatMap((u) => u.split(",")).filter(Boolean)
    : [`http://127.0.0.1:3000/${kind}-success`];
  const peer = await startOidcPeer({ kind, port: Number(portArg), redirectUris });
  console.log(`${kind} peer running`);
  console.log(`  issuer:        ${peer.issuer}`);
  console.log(`  discovery:     ${peer.issuer}/.well-known/openid-configuration`);
  console.log(`  userinfo:      ${peer.userinfoUrl}`);
  if (peer.groupsUrl) console.log(`  groups:        ${peer.groupsUrl}`);
  console.log(`  client:        ${kind === "feide" ? KINDS.feide.clientId : KINDS.vipps.clientId}`);
  console.log(`  redirect URIs: ${redirectUris.join(", ")}`);
  const stop = async () => {
    await peer.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
