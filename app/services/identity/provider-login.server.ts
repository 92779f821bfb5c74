import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "~/services/platform/db/client.server";
import { userRoles, users } from "~/services/platform/db/schema";
import { audit } from "~/services/platform/audit.server";
import { logFor } from "~/services/platform/log.server";
import { completeLogin, findUserByEmail, type LoginUser } from "./auth.server";
import { env } from "~/services/platform/env.server";
import {
  type CourseMembership,
  fetchCourseMemberships,
  GroupsError,
  hasKnownStudentCourse,
  storeCourseMemberships,
} from "./memberships.server";
import { normaliseEmail } from "./otp.server";
import {
  KNOWN_PROVIDER_ERRORS,
  OidcError,
  OidcStrategy,
  clearStateCookies,
  providerConfig,
  type OidcIdentity,
  type ProviderConfig,
  type ProviderName,
  type StateCookieOptions,
} from "./oidc.server";
import { redirectWithFlash } from "~/services/platform/flash.server";
import { appCookies, publicOrigin, secureCookies } from "~/services/platform/request.server";
import { ROLE, safeRedirect } from "./roles";
import { appSecret } from "~/services/platform/secret.server";
import { osloDate } from "~/services/platform/semesters";

/**
 * What happens after Feide or Vipps has said who someone is: finding (or, for Feide students,
 * creating) the Praksis user, storing course memberships, and explaining every refusal.
 */

export type ProviderRefusal =
  | "no_account"
  | "no_email"
  | "deactivated"
  | "no_role"
  | "not_supervisor"
  | "linked_elsewhere"
  | "memberships_unavailable";

export class ProviderLoginRefused extends Error {
  constructor(readonly reason: ProviderRefusal) {
    super(reason);
  }
}

export const PROVIDER_LABEL: Record<ProviderName, string> = { feide: "Feide", vipps: "Vipps" };

// ─── Feide ───────────────────────────────────────────────────────────────────

const FEIDE_USERID_SEC = "https://n.feide.no/claims/userid_sec";
const FEIDE_PRINCIPAL = "https://n.feide.no/claims/eduPersonPrincipalName";

export interface FeideProfile {
  sub: string;
  /** The `feide:user@realm` identifiers (userid_sec), the stable Feide user id. */
  feideIds: string[];
  email: string | null;
  name: string | null;
}

function text(value: unknown, max = 254): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim().slice(0, max) : null;
}

function plausibleEmail(value: unknown): string | null {
  const email = text(value);
  return email && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? normaliseEmail(email) : null;
}

export function feideProfile(identity: Pick<OidcIdentity, "sub" | "claims">): FeideProfile {
  const raw = identity.claims[FEIDE_USERID_SEC];
  const list = Array.isArray(raw) ? raw : typeof raw === "string" ? [raw] : [];
  const feideIds = list.filter((v): v is string => typeof v === "string" && v.startsWith("feide:")).slice(0, 10);
  const principal = text(identity.claims[FEIDE_PRINCIPAL]);
  if (principal && !feideIds.includes(`feide:${principal}`)) feideIds.push(`feide:${principal}`);
  return {
    sub: identity.sub,
    feideIds,
    // Feide's e-mail comes from the institution's directory; it is trusted unless marked unverified.
    email: identity.claims.email_verified === false ? null : plausibleEmail(identity.claims.email),
    name: text(identity.claims.name, 200),
  };
}

/** What is kept in users.feide_user_id: the `feide:` id when Feide gives one, else the subject. */
export function feideUserIdOf(profile: FeideProfile): string {
  return profile.feideIds[0] ?? profile.sub;
}

async function rolesOf(db: Db, userId: number) {
  const rows = await db.select({ roleId: userRoles.roleId }).from(userRoles).where(eq(userRoles.userId, userId));
  return rows.map((r) => r.roleId as LoginUser["roles"][number]);
}

async function loginUser(db: Db, row: typeof users.$inferSelect): Promise<LoginUser> {
  return { id: row.id, displayName: row.displayName, email: row.email, isActive: row.isActive, roles: await rolesOf(db, row.id) };
}

function usable(user: LoginUser): LoginUser {
  if (!user.isActive) throw new ProviderLoginRefused("deactivated");
  if (user.roles.length === 0) throw new ProviderLoginRefused("no_role");
  return user;
}

/**
 * The Feide user, by Feide id, then by e-mail. Someone Feide knows but Praksis does not is created
 * as a student only when they have an active student membership of a subject Praksis has; everyone
 * else waits for an admin (ADR 0004). `memberships` is null when the groups API failed.
 */
export async function resolveFeideUser(
  db: Db,
  profile: FeideProfile,
  memberships: CourseMembership[] | null,
  today = osloDate(new Date()),
): Promise<{ user: LoginUser; created: boolean }> {
  const ids = [...new Set([profile.sub, ...profile.feideIds])];
  const [byFeide] = await db.select().from(users).where(inArray(users.feideUserId, ids)).limit(1);
  if (byFeide) return { user: usable(await loginUser(db, byFeide)), created: false };

  if (!profile.email) throw new ProviderLoginRefused("no_email");
  const byEmail = await findUserByEmail(db, profile.email);
  if (byEmail) {
    const [row] = await db
      .update(users)
      .set({ feideUserId: feideUserIdOf(profile), updatedAt: new Date() })
      .where(and(eq(users.id, byEmail.id), isNull(users.feideUserId)))
      .returning({ id: users.id });
    // The address belongs to a user who is already linked to another Feide identity.
    if (!row) throw new ProviderLoginRefused("linked_elsewhere");
    return { user: usable(byEmail), created: false };
  }

  if (memberships === null) throw new ProviderLoginRefused("memberships_unavailable");
  if (!(await hasKnownStudentCourse(db, memberships, today))) throw new ProviderLoginRefused("no_account");
  const created = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(users)
      .values({
        displayName: profile.name ?? profile.email!,
        email: normaliseEmail(profile.email!),
        feideUserId: feideUserIdOf(profile),
      })
      .onConflictDoNothing()
      .returning();
    if (!row) return null;
    await tx.insert(userRoles).values({ userId: row.id, roleId: ROLE.Student });
    return row;
  });
  if (!created) {
    // Someone else made the same user a moment ago (a second tab, a second instance): use theirs.
    return resolveFeideUser(db, profile, memberships, today);
  }
  await audit(db, { action: "user.created", subjectUserId: created.id, details: { by: "feide", role: "Student" } });
  return { user: await loginUser(db, created), created: true };
}

async function feideLogin(db: Db, config: ProviderConfig, identity: OidcIdentity) {
  const profile = feideProfile(identity);
  let memberships: CourseMembership[] | null = null;
  let groupsError: string | null = null;
  try {
    memberships = await fetchCourseMemberships(config.groupsEndpoint!, identity.accessToken);
  } catch (error) {
    if (!(error instanceof GroupsError)) throw error;
    // Not fatal: the last known memberships stay as they are.
    groupsError = error.message;
    logFor("feide").warn(`course memberships not updated for ${feideUserIdOf(profile)}: ${error.message}`);
  }
  const { user, created } = await resolveFeideUser(db, profile, memberships);
  if (memberships) await storeCourseMemberships(db, user.id, memberships);
  return {
    user,
    details: {
      sub: profile.sub,
      feideIds: profile.feideIds,
      email: profile.email,
      name: profile.name,
      created,
      memberships: memberships ? memberships.length : null,
      groupsError,
    },
  };
}

// ─── Vipps ───────────────────────────────────────────────────────────────────

/** A phone number as digits with country code ("+47 987 65 432", "98765432" → "4798765432"). */
export function phoneDigits(value: string): string {
  let digits = value.replace(/\D/g, "");
  if (digits.startsWith("00")) digits = digits.slice(2);
  if (digits.length === 8) digits = `47${digits}`;
  return digits;
}

export interface VippsProfile {
  sub: string;
  phone: string | null;
  email: string | null;
  name: string | null;
}

/** Only what Vipps has verified is used: the phone number (unless marked unverified) and a verified e-mail. */
export function vippsProfile(identity: Pick<OidcIdentity, "sub" | "claims">): VippsProfile {
  const { claims } = identity;
  const phone = text(claims.phone_number, 32);
  return {
    sub: identity.sub,
    phone: phone && claims.phone_number_verified !== false && phoneDigits(phone).length >= 8 ? phoneDigits(phone) : null,
    email: claims.email_verified === true ? plausibleEmail(claims.email) : null,
    name: text(claims.name, 200),
  };
}

const storedPhoneDigits = sql`regexp_replace(coalesce(${users.phoneNumber}, ''), '[^0-9]', '', 'g')`;

/** A supervisor (Advisor role) with this verified phone number or e-mail; nobody else logs in with Vipps. */
export async function resolveVippsUser(db: Db, profile: VippsProfile): Promise<LoginUser> {
  const candidates: (typeof users.$inferSelect)[] = [];
  if (profile.phone) {
    const local = profile.phone.startsWith("47") && profile.phone.length === 10 ? profile.phone.slice(2) : profile.phone;
    const byPhone = await db
      .select()
      .from(users)
      .where(inArray(storedPhoneDigits, [profile.phone, local, `00${profile.phone}`]))
      .orderBy(users.id);
    candidates.push(...byPhone);
  }
  if (profile.email) {
    const [byEmail] = await db.select().from(users).where(eq(sql`lower(${users.email})`, profile.email)).limit(1);
    if (byEmail) candidates.push(byEmail);
  }
  if (candidates.length === 0) throw new ProviderLoginRefused("no_account");
  for (const row of candidates) {
    const user = await loginUser(db, row);
    if (!user.roles.includes(ROLE.Advisor)) continue;
    if (!user.isActive) throw new ProviderLoginRefused("deactivated");
    if (!row.phoneNumber && profile.phone) {
      await db.update(users).set({ phoneNumber: `+${profile.phone}`, updatedAt: new Date() }).where(eq(users.id, row.id));
    }
    return user;
  }
  throw new ProviderLoginRefused("not_supervisor");
}

async function vippsLogin(db: Db, identity: OidcIdentity) {
  const profile = vippsProfile(identity);
  const user = await resolveVippsUser(db, profile);
  return { user, details: { sub: profile.sub, phone: profile.phone, email: profile.email } };
}

// ─── The flow ────────────────────────────────────────────────────────────────

function stateCookie(provider: ProviderName): StateCookieOptions {
  const secure = secureCookies();
  return { name: `${secure ? "__Host-" : ""}praksis_${provider}`, secure };
}

export function redirectUri(provider: ProviderName, request: Request): string {
  return `${publicOrigin(request)}/${provider}-success`;
}

export function strategyFor(provider: ProviderName, request: Request): OidcStrategy | null {
  const config = providerConfig(env(), provider);
  if (!config) return null;
  return new OidcStrategy(config, redirectUri(provider, request), stateCookie(provider), appSecret());
}

export function offeredProviders(): Record<ProviderName, boolean> {
  const config = env();
  return { feide: providerConfig(config, "feide") !== null, vipps: providerConfig(config, "vipps") !== null };
}

/** Sends the browser to the provider; the page to come back to travels in the log-in cookie. */
export async function startProviderLogin(provider: ProviderName, request: Request, redirectTo: string | null): Promise<Response> {
  const strategy = strategyFor(provider, request);
  if (!strategy) {
    // A log-in page from before the provider was switched off: back to it, saying so.
    const key = provider === "feide" ? "auth:main.feideMissing" : "auth:main.vippsMissing";
    const target = safeRedirect(redirectTo, "");
    const back = target ? `/?redirectTo=${encodeURIComponent(target)}` : "/";
    return redirectWithFlash(back, { type: "error", key });
  }
  const loginCookie = await appCookies().login.serialize({ redirectTo: safeRedirect(redirectTo, "") });
  try {
    await strategy.authenticate(new Request(new URL(`/${provider}-start`, request.url), { headers: request.headers }));
  } catch (thrown) {
    if (thrown instanceof Response && thrown.status >= 300 && thrown.status < 400) {
      const headers = new Headers(thrown.headers);
      headers.append("Set-Cookie", loginCookie);
      return new Response(null, { status: 303, headers });
    }
    throw thrown;
  }
  throw new Error("the OAuth2 strategy did not redirect to the provider");
}

/** A translatable message: an i18n key ("ns:key") and its values. */
export interface ProviderMessage {
  key: string;
  values: Record<string, string>;
}

/** What the callback page says for a failed provider log-in. */
export function failureMessage(provider: ProviderName, error: OidcError | ProviderLoginRefused): ProviderMessage {
  const values = { provider: PROVIDER_LABEL[provider] };
  if (error instanceof ProviderLoginRefused) {
    return { key: `auth:provider.refused.${provider}.${error.reason}`, values };
  }
  if (error.reason === "provider_error") {
    const code = error.providerCode ?? "unknown";
    if ((KNOWN_PROVIDER_ERRORS as readonly string[]).includes(code)) {
      return { key: `auth:provider.codes.${code}`, values };
    }
    return { key: "auth:provider.codes.other", values: { ...values, code, description: error.providerDescription || "–" } };
  }
  return { key: `auth:provider.errors.${error.reason}`, values };
}

/** Provider error codes that say the person (or the provider for them) said no: 403. */
const REFUSED_AT_PROVIDER = new Set([
  "access_denied",
  "consent_required",
  "login_required",
  "interaction_required",
  "wrong_challenge",
  "unknown_reject_reason",
]);

/**
 * The HTTP status of the callback page: 403 when someone said no (the person at the provider, or
 * Praksis to a person it does not let in), 400 for an answer that cannot be used (no code, a state
 * that does not match or has expired, a code the provider refuses), 502 when the provider reports
 * an error of its own or answers with something that does not verify, 503 when it (or Feide's groups
 * API, for a first-time student) cannot be reached or says it is unavailable.
 */
export function failureStatus(error: OidcError | ProviderLoginRefused): number {
  if (error instanceof ProviderLoginRefused) return error.reason === "memberships_unavailable" ? 503 : 403;
  switch (error.reason) {
    case "provider_error": {
      const code = error.providerCode ?? "";
      if (REFUSED_AT_PROVIDER.has(code)) return 403;
      if (code === "server_error") return 502;
      if (code === "temporarily_unavailable") return 503;
      return 400;
    }
    case "missing_code":
    case "missing_state":
    case "state_expired":
    case "state_mismatch":
      return 400;
    // With a code the provider said why (invalid_grant: used or expired); without, it answered nonsense.
    case "token_failed":
      return error.providerCode ? 400 : 502;
    case "invalid_token":
    case "userinfo_failed":
      return 502;
    case "unreachable":
      return 503;
  }
}

/** A callback that did not log anyone in: what the page shows, with its status. */
export interface ProviderFailure {
  provider: ProviderName;
  /** The reason, as in the audit entry; `not_configured` when the provider is not set up here. */
  reason: string;
  status: number;
  /** The page's heading: not completed, cancelled, or not set up. */
  title: ProviderMessage;
  message: ProviderMessage;
  /** Where the person was going, kept for the next try. */
  redirectTo: string | null;
  /** Set-Cookie values the page must send (the removed state cookies). */
  cookies: string[];
}

async function redirectToOf(request: Request): Promise<string | null> {
  const value = (await appCookies().login.parse(request.headers.get("cookie"))) as unknown;
  if (value && typeof value === "object" && "redirectTo" in value && typeof value.redirectTo === "string") {
    return value.redirectTo || null;
  }
  return null;
}

/**
 * The callback (/feide-success, /vipps-success): the provider's answer is checked, the user is
 * found, and the session starts (a redirect); anything else is a failure the callback page explains,
 * with its status. Either way the state cookies are removed, so the same callback cannot be used twice.
 */
export async function finishProviderLogin(
  db: Db,
  provider: ProviderName,
  request: Request,
  ip: string,
): Promise<Response | ProviderFailure> {
  const redirectTo = await redirectToOf(request);
  const strategy = strategyFor(provider, request);
  if (!strategy) {
    return {
      provider,
      reason: "not_configured",
      status: 404,
      title: { key: "auth:provider.callback.notConfiguredTitle", values: { provider: PROVIDER_LABEL[provider] } },
      message: { key: provider === "feide" ? "auth:main.feideMissing" : "auth:main.vippsMissing", values: {} },
      redirectTo,
      cookies: [],
    };
  }
  const cookies = clearStateCookies(request, stateCookie(provider));
  try {
    const identity = await strategy.callback(request);
    const { user, details } =
      provider === "feide" ? await feideLogin(db, strategy.config, identity) : await vippsLogin(db, identity);
    const response = await completeLogin(db, { user, request, ip, method: provider, redirectTo, details });
    for (const cookie of cookies) response.headers.append("Set-Cookie", cookie);
    return response;
  } catch (error) {
    if (!(error instanceof OidcError) && !(error instanceof ProviderLoginRefused)) throw error;
    const reason = error.reason;
    await audit(db, {
      action: "login.failed",
      ip,
      details: {
        method: provider,
        reason,
        ...(error instanceof OidcError && error.providerCode ? { providerCode: error.providerCode } : {}),
      },
    });
    const cancelled = error instanceof OidcError && error.reason === "provider_error" && error.providerCode === "access_denied";
    return {
      provider,
      reason,
      status: failureStatus(error),
      title: { key: `auth:provider.callback.${cancelled ? "cancelledTitle" : "title"}`, values: { provider: PROVIDER_LABEL[provider] } },
      message: failureMessage(provider, error),
      redirectTo,
      cookies,
    };
  }
}
