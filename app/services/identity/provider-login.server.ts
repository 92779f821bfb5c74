import { and, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import type { TFunction } from "i18next";
import { createCookie } from "react-router";
import type { MessageKey } from "~/locales/keys";
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
import { issueCode, normaliseEmail, OTP_TTL_MS, otpLimits, verifyCode } from "./otp.server";
import { MailNotSent, sendMail } from "~/services/platform/email.server";
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
import { appSecret, appSecrets } from "~/services/platform/secret.server";
import { osloDate } from "~/services/platform/semesters";
import { phoneDigits } from "./phone";

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
  | "memberships_unavailable"
  // Vipps: the number is another account's verified number, or the typed number of several accounts.
  | "phone_taken"
  | "phone_ambiguous"
  // Vipps: the e-mail code that proves the account could not be sent.
  | "code_rate_limited"
  | "code_not_sent";

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
  return {
    id: row.id,
    displayName: row.displayName,
    email: row.email,
    isActive: row.isActive,
    roles: await rolesOf(db, row.id),
  };
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

export { phoneDigits } from "./phone";

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
    phone:
      phone && claims.phone_number_verified !== false && phoneDigits(phone).length >= 8 ? phoneDigits(phone) : null,
    email: claims.email_verified === true ? plausibleEmail(claims.email) : null,
    name: text(claims.name, 200),
  };
}

const storedPhoneDigits = sql`regexp_replace(coalesce(${users.phoneNumber}, ''), '[^0-9]', '', 'g')`;

/** A refusal that concerns another account (the one holding the number): kept as the audit entry's subject. */
export class VippsNumberTaken extends ProviderLoginRefused {
  constructor(readonly holderUserId: number) {
    super("phone_taken");
  }
}

/**
 * What a Vipps log-in leads to: a user (found by the Vipps identity bound earlier, or bound now on
 * proof), or an account whose typed phone number matches and whose owner must first prove it with
 * the e-mail code sent to the account's address.
 */
export type VippsMatch =
  { kind: "user"; user: LoginUser; linked: VippsLinkProof | null } | { kind: "prove"; userId: number };

/**
 * How a Vipps identity came to be bound: the account's number was already verified (the demo
 * seed's own supervisors), the account's e-mail code, Vipps's verified e-mail equal to the
 * account's, or the invitation that created the account in this same browser a moment ago.
 */
export type VippsLinkProof = "verified_phone" | "email_code" | "email" | "invitation";

function isUniqueViolation(error: unknown): { constraint: string | null } | null {
  for (let e: unknown = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (code === "23505") return { constraint: typeof constraint === "string" ? constraint : null };
  }
  return null;
}

async function supervisorOf(db: Db, row: typeof users.$inferSelect): Promise<LoginUser> {
  const user = await loginUser(db, row);
  if (!user.roles.includes(ROLE.Supervisor)) throw new ProviderLoginRefused("not_supervisor");
  if (!user.isActive) throw new ProviderLoginRefused("deactivated");
  return user;
}

/**
 * Binds the Vipps identity to a supervisor who has proved the account: from now on Vipps finds them
 * by `sub`, and the number Vipps vouched for becomes the account's verified number, which no other
 * account may have (a clash is refused, and nothing is bound). The typed number is kept as it is
 * (filled in only when there was none). Only the caller knows the proof; this only binds.
 */
export async function linkVippsIdentity(
  db: Db,
  userId: number,
  profile: Pick<VippsProfile, "sub" | "phone">,
): Promise<LoginUser> {
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  if (!row) throw new ProviderLoginRefused("no_account");
  const user = await supervisorOf(db, row);
  if (row.vippsSub === profile.sub) return user;
  if (row.vippsSub) throw new ProviderLoginRefused("linked_elsewhere");
  if (profile.phone) {
    const [holder] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.verifiedPhone, profile.phone), ne(users.id, userId)));
    if (holder) throw new VippsNumberTaken(holder.id);
  }
  try {
    const [bound] = await db
      .update(users)
      .set({
        vippsSub: profile.sub,
        ...(profile.phone ? { verifiedPhone: profile.phone, phoneNumber: row.phoneNumber ?? `+${profile.phone}` } : {}),
        updatedAt: new Date(),
      })
      .where(and(eq(users.id, userId), isNull(users.vippsSub)))
      .returning({ id: users.id });
    // Bound to some Vipps identity a moment ago (another tab): that one stands.
    if (!bound) throw new ProviderLoginRefused("linked_elsewhere");
  } catch (error) {
    const violation = isUniqueViolation(error);
    if (!violation) throw error;
    if (violation.constraint === "users_verified_phone_unique" && profile.phone) {
      const [holder] = await db.select({ id: users.id }).from(users).where(eq(users.verifiedPhone, profile.phone));
      throw new VippsNumberTaken(holder?.id ?? 0);
    }
    throw new ProviderLoginRefused("linked_elsewhere");
  }
  return user;
}

/**
 * Who a Vipps log-in is. Only what someone has proved logs in: the Vipps identity bound earlier;
 * a number Vipps verified that is the account's verified number (bound now); the account an
 * invitation created in this browser (`invitedUserId`); an e-mail Vipps has verified that is the
 * account's (proof of the address). A typed number alone only names the account whose e-mail code
 * must be given first (`prove`); when several unproved accounts have it, none is guessed at.
 * Nobody but a supervisor (Advisor role) logs in with Vipps.
 */
export async function resolveVippsUser(
  db: Db,
  profile: VippsProfile,
  proof: { invitedUserId?: number | null } = {},
): Promise<VippsMatch> {
  const [bySub] = await db.select().from(users).where(eq(users.vippsSub, profile.sub));
  if (bySub) return { kind: "user", user: await supervisorOf(db, bySub), linked: null };

  if (profile.phone) {
    const [byVerified] = await db.select().from(users).where(eq(users.verifiedPhone, profile.phone));
    if (byVerified) {
      // Proved by another Vipps identity: a number passed on to someone else, or a second Vipps account.
      if (byVerified.vippsSub) throw new VippsNumberTaken(byVerified.id);
      return { kind: "user", user: await linkVippsIdentity(db, byVerified.id, profile), linked: "verified_phone" };
    }
  }

  if (proof.invitedUserId) {
    return { kind: "user", user: await linkVippsIdentity(db, proof.invitedUserId, profile), linked: "invitation" };
  }

  let notSupervisor = false;
  if (profile.email) {
    const [byEmail] = await db
      .select()
      .from(users)
      .where(eq(sql`lower(${users.email})`, profile.email))
      .limit(1);
    if (byEmail) {
      if ((await rolesOf(db, byEmail.id)).includes(ROLE.Supervisor)) {
        return { kind: "user", user: await linkVippsIdentity(db, byEmail.id, profile), linked: "email" };
      }
      notSupervisor = true;
    }
  }

  if (profile.phone) {
    const local =
      profile.phone.startsWith("47") && profile.phone.length === 10 ? profile.phone.slice(2) : profile.phone;
    const byTyped = await db
      .select()
      .from(users)
      .where(inArray(storedPhoneDigits, [profile.phone, local, `00${profile.phone}`]))
      .orderBy(users.id);
    const supervisors: (typeof users.$inferSelect)[] = [];
    for (const row of byTyped) {
      if ((await rolesOf(db, row.id)).includes(ROLE.Supervisor)) supervisors.push(row);
      else notSupervisor = true;
    }
    const open = supervisors.filter((row) => row.isActive && row.vippsSub === null);
    if (open.length === 1) return { kind: "prove", userId: open[0].id };
    if (open.length > 1) throw new ProviderLoginRefused("phone_ambiguous");
    if (supervisors.some((row) => !row.isActive)) throw new ProviderLoginRefused("deactivated");
    if (supervisors.length > 0) throw new ProviderLoginRefused("linked_elsewhere");
  }
  throw new ProviderLoginRefused(notSupervisor ? "not_supervisor" : "no_account");
}

// ─── Proving a typed number with the account's e-mail code ──────────────────

/** What the browser holds between the Vipps callback and the e-mail code: signed, so it cannot be changed. */
interface PendingVippsLink {
  userId: number;
  sub: string;
  phone: string | null;
  redirectTo: string;
  /** Epoch milliseconds after which the code page sends the person back to log in. */
  until: number;
}

function vippsLinkCookie() {
  const secure = secureCookies();
  return createCookie(`${secure ? "__Host-" : ""}praksis_vipps_link`, {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    maxAge: OTP_TTL_MS / 1000,
    secrets: [...appSecrets()],
  });
}

export async function pendingVippsLink(request: Request, now = new Date()): Promise<PendingVippsLink | null> {
  const value = (await vippsLinkCookie().parse(request.headers.get("cookie"))) as unknown;
  if (!value || typeof value !== "object") return null;
  const { userId, sub, phone, redirectTo, until } = value as Record<string, unknown>;
  if (typeof userId !== "number" || typeof sub !== "string" || typeof until !== "number" || until < now.getTime())
    return null;
  return {
    userId,
    sub,
    phone: typeof phone === "string" ? phone : null,
    redirectTo: typeof redirectTo === "string" ? redirectTo : "",
    until,
  };
}

/** The mail's texts are in the language of the person at the browser; the app's name as the log-in mail's. */
export interface MailWording {
  t: TFunction;
  appName: string;
}

/**
 * Sends the account's e-mail code for binding a Vipps identity. The mail says what happened and
 * not to pass the code on: the one reading it may not be the one who logged in with Vipps.
 */
async function sendLinkCode(
  db: Db,
  input: { userId: number; ip: string; wording: MailWording; now?: Date },
): Promise<null | "code_rate_limited" | "code_not_sent"> {
  const [row] = await db.select().from(users).where(eq(users.id, input.userId));
  if (!row) return "code_not_sent";
  const issued = await issueCode(db, {
    email: row.email,
    userId: row.id,
    ip: input.ip,
    secret: appSecret(),
    limits: otpLimits(env()),
    now: input.now,
  });
  if (!issued.ok) return "code_rate_limited";
  const mailT = (key: string, values: Record<string, unknown> = {}) =>
    input.wording.t(key, { ns: "auth", appName: input.wording.appName, ...values }) as string;
  try {
    await sendMail(
      {
        to: row.email,
        subject: mailT("mail.vippsLink.subject", { code: issued.code }),
        text: mailT("mail.vippsLink.body", { name: row.displayName, code: issued.code, minutes: OTP_TTL_MS / 60_000 }),
      },
      { purpose: "vipps link code" },
    );
  } catch (error) {
    if (error instanceof MailNotSent) return "code_not_sent";
    throw error;
  }
  await audit(db, { action: "otp.requested", subjectUserId: row.id, ip: input.ip, details: { purpose: "vipps-link" } });
  return null;
}

/** Starts the proof: the code goes to the account's address, and the browser is sent to the page that asks for it. */
async function askForLinkCode(
  db: Db,
  input: { userId: number; profile: VippsProfile; redirectTo: string | null; ip: string; wording: MailWording },
): Promise<Response | ProviderLoginRefused> {
  const failed = await sendLinkCode(db, { userId: input.userId, ip: input.ip, wording: input.wording });
  if (failed) return new ProviderLoginRefused(failed);
  const pending: PendingVippsLink = {
    userId: input.userId,
    sub: input.profile.sub,
    phone: input.profile.phone,
    redirectTo: input.redirectTo ?? "",
    until: Date.now() + OTP_TTL_MS,
  };
  const headers = new Headers({ Location: VIPPS_CONFIRM_PATH });
  headers.append("Set-Cookie", await vippsLinkCookie().serialize(pending));
  return new Response(null, { status: 302, headers });
}

export const VIPPS_CONFIRM_PATH = "/vipps-confirm";

export type VippsConfirmOutcome =
  | { ok: false; reason: "no_pending" }
  | { ok: false; reason: "rate_limited"; retryAfterSeconds: number }
  | { ok: false; reason: "expired" | "too_many_attempts" }
  | { ok: false; reason: "wrong_code"; attemptsLeft: number }
  | { ok: false; reason: "refused"; message: ProviderMessage; status: number; cookies: string[] };

/**
 * The code page's post: the code is checked against the account's address (the e-mail code's own
 * rules: single use, ten minutes, a few tries); when it is right, the Vipps identity is bound and
 * the session starts. Every wrong or refused try is an audit entry.
 */
export async function confirmVippsLink(
  db: Db,
  input: { request: Request; code: string; ip: string },
): Promise<Response | VippsConfirmOutcome> {
  const pending = await pendingVippsLink(input.request);
  if (!pending) return { ok: false, reason: "no_pending" };
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, pending.userId));
  const failed = async (reason: string) =>
    audit(db, {
      action: "login.failed",
      subjectUserId: row ? pending.userId : null,
      ip: input.ip,
      details: { method: "vipps", reason },
    });
  if (!row) {
    await failed("no_account");
    return { ok: false, reason: "no_pending" };
  }
  const result = await verifyCode(db, {
    email: row.email,
    code: input.code,
    ip: input.ip,
    secret: appSecrets(),
    limits: otpLimits(env()),
  });
  if (!result.ok) {
    await failed(`link_${result.reason}`);
    return result;
  }
  const clear = await vippsLinkCookie().serialize("", { maxAge: 0 });
  let user: LoginUser;
  try {
    user = await linkVippsIdentity(db, pending.userId, pending);
  } catch (error) {
    if (!(error instanceof ProviderLoginRefused)) throw error;
    await audit(db, {
      action: "login.failed",
      subjectUserId: error instanceof VippsNumberTaken ? error.holderUserId || null : pending.userId,
      ip: input.ip,
      details: { method: "vipps", reason: error.reason },
    });
    return {
      ok: false,
      reason: "refused",
      message: failureMessage("vipps", error),
      status: failureStatus(error),
      cookies: [clear],
    };
  }
  const response = await completeLogin(db, {
    user,
    request: input.request,
    ip: input.ip,
    method: "vipps",
    redirectTo: pending.redirectTo,
    details: { sub: pending.sub, phone: pending.phone, linked: "email_code" satisfies VippsLinkProof },
  });
  response.headers.append("Set-Cookie", clear);
  return response;
}

async function vippsLogin(db: Db, identity: OidcIdentity, invitedUserId: number | null) {
  const profile = vippsProfile(identity);
  const match = await resolveVippsUser(db, profile, { invitedUserId });
  return { profile, match };
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
export async function startProviderLogin(
  provider: ProviderName,
  request: Request,
  redirectTo: string | null,
  /** The account an invitation created in this browser just now: a Vipps identity may be bound to it (ADR 0004). */
  invitedUserId: number | null = null,
): Promise<Response> {
  const strategy = strategyFor(provider, request);
  if (!strategy) {
    // A log-in page from before the provider was switched off: back to it, saying so.
    const key = provider === "feide" ? "auth:main.feideMissing" : "auth:main.vippsMissing";
    const target = safeRedirect(redirectTo, "");
    const back = target ? `/?redirectTo=${encodeURIComponent(target)}` : "/";
    return redirectWithFlash(back, { type: "error", key });
  }
  const loginCookie = await appCookies().login.serialize({
    redirectTo: safeRedirect(redirectTo, ""),
    ...(provider === "vipps" && invitedUserId !== null ? { invitedUserId } : {}),
  });
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
  key: MessageKey;
  values: Record<string, string>;
}

const VIPPS_ONLY_REFUSALS = ["phone_taken", "phone_ambiguous", "code_rate_limited", "code_not_sent"] as const;
function isVippsOnly(reason: ProviderRefusal): reason is (typeof VIPPS_ONLY_REFUSALS)[number] {
  return (VIPPS_ONLY_REFUSALS as readonly string[]).includes(reason);
}

function isKnownProviderError(code: string): code is (typeof KNOWN_PROVIDER_ERRORS)[number] {
  return (KNOWN_PROVIDER_ERRORS as readonly string[]).includes(code);
}

/** What the callback page says for a failed provider log-in. */
export function failureMessage(provider: ProviderName, error: OidcError | ProviderLoginRefused): ProviderMessage {
  const values = { provider: PROVIDER_LABEL[provider] };
  if (error instanceof ProviderLoginRefused) {
    const reason = error.reason;
    if (provider === "vipps") return { key: `auth:provider.refused.vipps.${reason}`, values };
    // The refusals about a Vipps number or its e-mail code have no Feide text: Feide never gives them.
    if (isVippsOnly(reason)) return { key: "auth:provider.refused.feide.no_account", values };
    return { key: `auth:provider.refused.feide.${reason}`, values };
  }
  if (error.reason === "provider_error") {
    const code = error.providerCode ?? "unknown";
    if (isKnownProviderError(code)) {
      return { key: `auth:provider.codes.${code}`, values };
    }
    return {
      key: "auth:provider.codes.other",
      values: { ...values, code, description: error.providerDescription || "–" },
    };
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
  if (error instanceof ProviderLoginRefused) {
    if (error.reason === "memberships_unavailable" || error.reason === "code_not_sent") return 503;
    if (error.reason === "code_rate_limited") return 429;
    return 403;
  }
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

async function loginCookieOf(request: Request): Promise<{ redirectTo: string | null; invitedUserId: number | null }> {
  const value = (await appCookies().login.parse(request.headers.get("cookie"))) as unknown;
  if (!value || typeof value !== "object") return { redirectTo: null, invitedUserId: null };
  const { redirectTo, invitedUserId } = value as Record<string, unknown>;
  return {
    redirectTo: typeof redirectTo === "string" && redirectTo ? redirectTo : null,
    invitedUserId: typeof invitedUserId === "number" ? invitedUserId : null,
  };
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
  wording: MailWording,
): Promise<Response | ProviderFailure> {
  const { redirectTo, invitedUserId } = await loginCookieOf(request);
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
    let login: { user: LoginUser; details: Record<string, unknown> };
    if (provider === "feide") {
      login = await feideLogin(db, strategy.config, identity);
    } else {
      const { profile, match } = await vippsLogin(db, identity, invitedUserId);
      if (match.kind === "prove") {
        const asked = await askForLinkCode(db, { userId: match.userId, profile, redirectTo, ip, wording });
        if (asked instanceof ProviderLoginRefused) throw asked;
        for (const cookie of cookies) asked.headers.append("Set-Cookie", cookie);
        return asked;
      }
      login = {
        user: match.user,
        details: { sub: profile.sub, phone: profile.phone, email: profile.email, linked: match.linked },
      };
    }
    const response = await completeLogin(db, {
      user: login.user,
      request,
      ip,
      method: provider,
      redirectTo,
      details: login.details,
    });
    for (const cookie of cookies) response.headers.append("Set-Cookie", cookie);
    return response;
  } catch (error) {
    if (!(error instanceof OidcError) && !(error instanceof ProviderLoginRefused)) throw error;
    const reason = error.reason;
    await audit(db, {
      action: "login.failed",
      // A clash names the account that holds the number, for the admin to look into.
      subjectUserId: error instanceof VippsNumberTaken && error.holderUserId ? error.holderUserId : null,
      ip,
      details: {
        method: provider,
        reason,
        ...(error instanceof OidcError && error.providerCode ? { providerCode: error.providerCode } : {}),
      },
    });
    const cancelled =
      error instanceof OidcError && error.reason === "provider_error" && error.providerCode === "access_denied";
    return {
      provider,
      reason,
      status: failureStatus(error),
      title: {
        key: `auth:provider.callback.${cancelled ? "cancelledTitle" : "title"}`,
        values: { provider: PROVIDER_LABEL[provider] },
      },
      message: failureMessage(provider, error),
      redirectTo,
      cookies,
    };
  }
}
