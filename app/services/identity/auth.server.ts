import { eq, sql } from "drizzle-orm";
import type { TFunction } from "i18next";
import { redirect } from "react-router";
import { Authenticator } from "remix-auth";
import { Strategy } from "remix-auth/strategy";
import { audit } from "~/services/platform/audit.server";
import type { Db } from "~/services/platform/db/client.server";
import { privacyAcceptances, userRoles, users } from "~/services/platform/db/schema";
import { MailNotSent, sendMail, type Mail } from "~/services/platform/email.server";
import { env } from "~/services/platform/env.server";
import { issueCode, normaliseEmail, OTP_TTL_MS, otpLimits, verifyCode } from "./otp.server";
import { appCookies, readFormData } from "~/services/platform/request.server";
import { ROLE_HOME, ROLE_NAMES, safeRedirect, type RoleId } from "./roles";
import { appSecret, appSecrets } from "~/services/platform/secret.server";
import { createSession, destroySession, sessionIdOf } from "./session.server";

export interface LoginUser {
  id: number;
  displayName: string;
  email: string;
  isActive: boolean;
  roles: RoleId[];
}

export async function findUserByEmail(db: Db, email: string): Promise<LoginUser | null> {
  const [user] = await db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, normaliseEmail(email)))
    .limit(1);
  if (!user) return null;
  const roles = await db.select({ roleId: userRoles.roleId }).from(userRoles).where(eq(userRoles.userId, user.id));
  return {
    id: user.id,
    displayName: user.displayName,
    email: user.email,
    isActive: user.isActive,
    roles: roles.map((r) => r.roleId as RoleId),
  };
}

/** Whether the e-mail code is a log-in method for this user (OTP_LOGIN_ROLES; docs/rules/identity.md). */
export function mayUseEmailCode(roles: readonly RoleId[], allowed: readonly string[]): boolean {
  return roles.some((r) => allowed.includes(ROLE_NAMES[r]));
}

export type CodeRequestOutcome =
  | { ok: true }
  // With `pausedUntil` when wrong codes have paused codes for the address (whether or not it has a user).
  | { ok: false; reason: "rate_limited"; retryAfterSeconds: number; pausedUntil?: Date }
  // The mail server refused, timed out or could not be reached (logged by the mail service).
  | { ok: false; reason: "mail_not_sent" };

/** Sends a log-in mail; false when it did not go out (MailNotSent), anything else is a bug and thrown. */
async function sendLoginMail(mail: Mail, purpose: string): Promise<boolean> {
  try {
    await sendMail(mail, { purpose });
    return true;
  } catch (error) {
    if (error instanceof MailNotSent) return false;
    throw error;
  }
}

/**
 * Sends the log-in mail. The page says the same for every address (no account enumeration); the
 * mail itself tells the owner of the address what happened: the code, or why there is none.
 */
export async function requestLoginCode(
  db: Db,
  input: { email: string; ip: string; t: TFunction; appName: string; now?: Date },
): Promise<CodeRequestOutcome> {
  const email = normaliseEmail(input.email);
  const user = await findUserByEmail(db, email);
  const allowed = user?.isActive && mayUseEmailCode(user.roles, env().OTP_LOGIN_ROLES);
  const { t } = input;
  const mailT = (key: string, values: Record<string, unknown> = {}) =>
    t(key, { ns: "auth", appName: input.appName, ...values });

  const limits = otpLimits(env());
  if (user && allowed) {
    const issued = await issueCode(db, {
      email,
      userId: user.id,
      ip: input.ip,
      secret: appSecret(),
      limits,
      now: input.now,
    });
    if (!issued.ok) return issued;
    const sent = await sendLoginMail(
      {
        to: email,
        subject: mailT("mail.code.subject", { code: issued.code }),
        text: mailT("mail.code.body", { name: user.displayName, code: issued.code, minutes: OTP_TTL_MS / 60_000 }),
      },
      "log-in code",
    );
    // The code nobody got stays unusable to anyone; the request still counts toward the limits.
    if (!sent) return { ok: false, reason: "mail_not_sent" };
    await audit(db, { action: "otp.requested", actorUserId: user.id, ip: input.ip });
    return { ok: true };
  }

  // The same limits as for a real request, so the explanatory mail cannot be used to flood a mailbox.
  // A code is stored as for a real request, though nobody receives it: the code page then answers a
  // guess for this address exactly as for an address with an account ("wrong code", then "too many
  // tries"), and says nothing about which addresses have one. Guessed, it still lets nobody in.
  const decoy = await issueCode(db, { email, userId: null, ip: input.ip, secret: appSecret(), limits, now: input.now });
  if (!decoy.ok) return decoy;
  const kind = !user ? "unknown" : !user.isActive ? "deactivated" : "method";
  // The page answers as for a real code, mail or no mail: the same message when the server is down.
  const sent = await sendLoginMail(
    {
      to: email,
      subject: mailT(`mail.${kind}.subject`),
      text: mailT(`mail.${kind}.body`, { name: user?.displayName ?? "" }),
    },
    "log-in explanation",
  );
  return sent ? { ok: true } : { ok: false, reason: "mail_not_sent" };
}

export class LoginError extends Error {
  constructor(
    readonly reason: "rate_limited" | "paused" | "expired" | "too_many_attempts" | "wrong_code" | "no_access",
    readonly status: number,
    readonly attemptsLeft?: number,
    /** For "paused": when codes for the address work again. */
    readonly pausedUntil?: Date,
  ) {
    super(reason);
  }
}

/** The e-mail code wrapped as a remix-auth strategy: form fields `email` and `code`. */
export class EmailCodeStrategy extends Strategy<LoginUser, { user: LoginUser }> {
  name = "email-code";

  constructor(
    private readonly db: () => Promise<Db>,
    private readonly ip: (request: Request) => string,
    verify: Strategy.VerifyFunction<LoginUser, { user: LoginUser }>,
  ) {
    super(verify);
  }

  async authenticate(request: Request): Promise<LoginUser> {
    const form = await readFormData(request.clone());
    const text = (value: FormDataEntryValue | null) => (typeof value === "string" ? value : "");
    const email = text(form.get("email"));
    const code = text(form.get("code")).replace(/\s/g, "");
    const db = await this.db();
    const ip = this.ip(request);
    try {
      return await this.verifyCode(db, email, code, ip);
    } catch (error) {
      if (error instanceof LoginError) {
        const user = await findUserByEmail(db, email);
        await audit(db, {
          action: "login.failed",
          actorUserId: user?.id ?? null,
          ip,
          details: { method: "email-code", reason: error.reason, email: normaliseEmail(email).slice(0, 254) },
        });
      }
      throw error;
    }
  }

  private async verifyCode(db: Db, email: string, code: string, ip: string): Promise<LoginUser> {
    const result = await verifyCode(db, { email, code, ip, secret: appSecrets(), limits: otpLimits(env()) });
    if (!result.ok) {
      if (result.reason === "rate_limited" && result.pausedUntil)
        throw new LoginError("paused", 429, undefined, result.pausedUntil);
      if (result.reason === "rate_limited") throw new LoginError("rate_limited", 429);
      if (result.reason === "too_many_attempts") throw new LoginError("too_many_attempts", 429);
      if (result.reason === "wrong_code") throw new LoginError("wrong_code", 400, result.attemptsLeft);
      throw new LoginError("expired", 400);
    }
    const user = await findUserByEmail(db, email);
    if (!user || !user.isActive || !mayUseEmailCode(user.roles, env().OTP_LOGIN_ROLES)) {
      throw new LoginError("no_access", 403);
    }
    return this.verify({ user });
  }
}

export function createAuthenticator(db: () => Promise<Db>, ip: (request: Request) => string): Authenticator<LoginUser> {
  const authenticator = new Authenticator<LoginUser>();
  authenticator.use(new EmailCodeStrategy(db, ip, async ({ user }) => user), "email-code");
  return authenticator;
}

/** Where a fresh session goes: the page it came for when the role allows, else the role's home or the chooser. */
export function landingAfterLogin(activeRole: RoleId | null, redirectTo: string | null): string {
  const target = safeRedirect(redirectTo, "/");
  if (target !== "/") return target;
  return activeRole ? ROLE_HOME[activeRole] : "/role";
}

/** Starts the session for a user who has proved who they are, and sends them on. */
export async function completeLogin(
  db: Db,
  input: {
    user: LoginUser;
    request: Request;
    ip: string;
    method: string;
    redirectTo: string | null;
    details?: Record<string, unknown>;
  },
): Promise<Response> {
  // Renewed at login: a session the browser already held (another user's, or its own) ends here,
  // so a planted or earlier session id never outlives a log-in.
  const previous = (await appCookies().session.parse(input.request.headers.get("cookie"))) as unknown;
  if (typeof previous === "string" && previous.length > 0) await destroySession(db, sessionIdOf(previous));
  const { token, activeRole } = await createSession(db, {
    userId: input.user.id,
    ip: input.ip,
    userAgent: input.request.headers.get("user-agent"),
  });
  // The records schedule counts a person's period from their last log-in (docs/rules/records.md).
  await db
    .update(users)
    .set({ lastLoginAt: sql`now()` })
    .where(eq(users.id, input.user.id));
  await audit(db, {
    action: "login",
    actorUserId: input.user.id,
    ip: input.ip,
    details: { method: input.method, ...input.details },
  });
  const headers = new Headers();
  headers.append("Set-Cookie", await appCookies().session.serialize(token));
  headers.append("Set-Cookie", await appCookies().login.serialize("", { maxAge: 0 }));
  // A form post is answered with 303, so the browser follows with a GET (a provider's callback is a GET).
  const status = input.request.method === "GET" || input.request.method === "HEAD" ? 302 : 303;
  return redirect(landingAfterLogin(activeRole, input.redirectTo), { status, headers });
}

export async function logout(db: Db, input: { sessionId: string; userId: number; ip: string }): Promise<string> {
  await destroySession(db, input.sessionId);
  await audit(db, { action: "logout", actorUserId: input.userId, ip: input.ip });
  return appCookies().session.serialize("", { maxAge: 0 });
}

export async function acceptPrivacyPolicy(db: Db, userId: number, version: string, ip: string): Promise<void> {
  await db.insert(privacyAcceptances).values({ userId, policyVersion: version }).onConflictDoNothing();
  await audit(db, { action: "privacy.accepted", actorUserId: userId, ip, details: { version } });
}
