import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import {
  auditEvents,
  studentExtraSupervisors,
  studentReferences,
  userAffiliations,
  users,
} from "~/services/platform/db/schema";
import { createInvitation, currentReferenceOf } from "~/services/placements/index.server";
import { osloDate } from "~/services/platform/semesters";
import { resetEnvForTests } from "~/services/platform/env.server";
import { ROLE } from "~/services/identity";
import { matchingClasses } from "~/services/identity/index.server";
import { codeIn, cookieActingAs, mailsTo, sessionCookieFor, startTestApp, stopTestApp, userIdOf } from "~/test/app";
import { CookieJar } from "~/test/cookie-jar";
import { logInAtProvider, startProviderPeers } from "~/test/oidc";
import { callAction, callLoader, getPage, postForm, flashOf } from "~/test/route";
import * as fs from "../debug/fs";
import * as home from "./home";
import * as callback from "./provider-callback";
import * as start from "./provider-start";
import * as acceptPage from "./accept-invitation";
import * as confirm from "./vipps-confirm";
import en from "~/locales/en/authPages.json";
import nb from "~/locales/nb/authPages.json";
import nbAuth from "~/locales/nb/auth.json";

let app: Awaited<ReturnType<typeof startTestApp>>;
let peers: Awaited<ReturnType<typeof startProviderPeers>>;

beforeAll(async () => {
  peers = await startProviderPeers();
  app = await startTestApp({ ...peers.env, DEBUG_FS: "true" });
});

afterAll(async () => {
  await stopTestApp(app);
  await peers.feide.close();
  await peers.vipps.close();
});

const db = () => app.database.db;

function sessionSet(response: Response): boolean {
  return response.headers.getSetCookie().some((c) => /praksis_session=[^;]+/.test(c) && !/Max-Age=0/i.test(c));
}

/** Presses the provider's button on the log-in page; the jar keeps the state cookie. */
async function begin(provider: "feide" | "vipps", jar = new CookieJar(), redirectTo = "") {
  const response = jar.take(await callAction(start, postForm(`/auth/${provider}`, { redirectTo }), { provider }));
  expect(response.status).toBe(303);
  return { jar, authorizationUrl: response.headers.get("location")!, response };
}

async function finish(jar: CookieJar, callbackUrl: URL) {
  return jar.take(
    await callLoader(callback, getPage(callbackUrl.pathname + callbackUrl.search, { cookie: jar.header() })),
  );
}

interface FailurePage {
  title: string;
  message: string;
  reason: string;
  loginHref: string;
  emailHref: string;
}

/** A callback that did not log in: a page (not a redirect) with its status, what happened, and the way back. */
async function failurePage(response: Response, status: number, reason: string): Promise<FailurePage> {
  expect(response.status).toBe(status);
  expect(response.headers.get("location")).toBeNull();
  expect(sessionSet(response)).toBe(false);
  const page = (await response.json()) as FailurePage;
  expect(page.reason).toBe(reason);
  expect(page.loginHref).toMatch(/^\/(\?redirectTo=.*)?$/);
  expect(page.emailHref).toMatch(/^\/login(\?redirectTo=.*)?$/);
  return page;
}

async function logIn(provider: "feide" | "vipps", login: string, redirectTo = "") {
  const { jar, authorizationUrl } = await begin(provider, new CookieJar(), redirectTo);
  const callbackUrl = await logInAtProvider(authorizationUrl, login);
  const response = await finish(jar, callbackUrl);
  return { jar, callbackUrl, response };
}

async function lastAudit(action: string) {
  const [row] = await db()
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.action, action))
    .orderBy(sql`${auditEvents.id} desc`)
    .limit(1);
  return row;
}

describe("starting", () => {
  test("the button sends the browser to Feide with PKCE S256, a state, a nonce and the groups scope", async () => {
    const { authorizationUrl, response } = await begin("feide");
    const url = new URL(authorizationUrl);
    expect(url.origin + url.pathname).toBe(`${peers.feide.issuer}/oauth/authorization`);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get("state")!.length).toBeGreaterThanOrEqual(8);
    expect(url.searchParams.get("nonce")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get("scope")).toContain("groups-edu");
    expect(url.searchParams.get("redirect_uri")).toBe("http://localhost/feide-success");
    const stateCookie = response.headers.getSetCookie().find((c) => c.startsWith("praksis_feide:"));
    expect(stateCookie).toMatch(/HttpOnly/i);
    expect(stateCookie).toMatch(/SameSite=Lax/i);
  });

  test("Vipps gets a state of at least 8 characters too", async () => {
    const url = new URL((await begin("vipps")).authorizationUrl);
    expect(url.origin + url.pathname).toBe(`${peers.vipps.issuer}/oauth2/auth`);
    expect(url.searchParams.get("state")!.length).toBeGreaterThanOrEqual(8);
  });

  test("a GET of the start address does not start anything; an unknown provider is 404", async () => {
    const get = await callLoader(start, getPage("/auth/feide"), { provider: "feide" });
    expect(get.status).toBe(302);
    expect(get.headers.getSetCookie()).toEqual([]);
    const unknown = await callAction(start, postForm("/auth/google", {}), { provider: "google" });
    expect(unknown.status).toBe(303);
    expect(unknown.headers.get("location")).toBe("/");
  });

  test("a start from another site is refused", async () => {
    const response = await callAction(start, postForm("/auth/feide", {}, { origin: "https://evil.example" }), {
      provider: "feide",
    });
    expect(response.status).toBe(403);
  });

  test("the log-in page offers both configured providers", async () => {
    const response = await callLoader(home, getPage("/"));
    expect(await response.json()).toMatchObject({ providers: { feide: true, vipps: true } });
  });
});

describe("Feide", () => {
  test("a student logs in, is linked by e-mail, and their course memberships are stored", async () => {
    const { response, jar } = await logIn("feide", "student09", "/student");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/student");
    expect(sessionSet(response)).toBe(true);
    // The state cookie is gone, so the same callback cannot be used again in this browser.
    expect(jar.header()).not.toContain("praksis_feide:");

    const userId = await userIdOf(db(), "student09@example.org");
    const [user] = await db().select().from(users).where(eq(users.id, userId));
    expect(user.feideUserId).toBe("feide:student09@fjordbyen.no");
    const memberships = await db().select().from(userAffiliations).where(eq(userAffiliations.userId, userId));
    expect(memberships.map((m) => [m.groupId, m.subjectCode, m.subjectVersion, m.active, m.fsRoles])).toEqual([
      ["fc:fs:fs:emne:fjordbyen.no:SYK2001:1", "SYK2001", "1", true, ["student"]],
    ]);
    const audit = await lastAudit("login");
    expect(audit).toMatchObject({
      actorUserId: userId,
      details: { method: "feide", sub: "feide-student09", memberships: 1 },
    });
  });

  test("the callback cannot be replayed: not in a fresh browser, and not with the old state cookie", async () => {
    const { jar, authorizationUrl } = await begin("feide");
    const before = jar.header();
    const callbackUrl = await logInAtProvider(authorizationUrl, "student10");
    expect(sessionSet(await finish(jar, callbackUrl))).toBe(true);

    const fresh = await failurePage(await finish(new CookieJar(), callbackUrl), 400, "state_expired");
    expect(fresh.message).toContain("tok for lang tid, svaret er allerede brukt");

    // Someone who kept the state cookie: the provider refuses the used code.
    const oldJar = new CookieJar();
    oldJar.take(new Response(null, { headers: before.split("; ").map((c) => ["Set-Cookie", c] as [string, string]) }));
    const replay = await failurePage(await finish(oldJar, callbackUrl), 400, "token_failed");
    expect(replay.message).toContain("Feide godtok ikke innloggingskoden");
    expect(await lastAudit("login.failed")).toMatchObject({
      details: { method: "feide", reason: "token_failed", providerCode: "invalid_grant" },
    });
  });

  test("an ID token for another nonce is refused: the nonce is checked against the one bound to this browser's state", async () => {
    const { jar, authorizationUrl } = await begin("feide");
    const url = new URL(authorizationUrl);
    // The provider signs whatever nonce it was sent; the app must notice it is not the one it made.
    url.searchParams.set("nonce", "A".repeat(43));
    await failurePage(await finish(jar, await logInAtProvider(url.href, "student10")), 502, "invalid_token");
    expect(await lastAudit("login.failed")).toMatchObject({ details: { method: "feide", reason: "invalid_token" } });
  });

  test("a code issued for another PKCE challenge is refused at the token endpoint (S256 verifier in this browser only)", async () => {
    const { jar, authorizationUrl } = await begin("feide");
    const url = new URL(authorizationUrl);
    // An attacker's code, bound to a challenge whose verifier this browser does not hold.
    url.searchParams.set("code_challenge", "B".repeat(43));
    await failurePage(await finish(jar, await logInAtProvider(url.href, "student10")), 400, "token_failed");
    expect(await lastAudit("login.failed")).toMatchObject({
      details: { method: "feide", reason: "token_failed", providerCode: "invalid_grant" },
    });
  });

  test("a tampered state is refused", async () => {
    const { jar, authorizationUrl } = await begin("feide");
    const callbackUrl = await logInAtProvider(authorizationUrl, "student10");
    callbackUrl.searchParams.set("state", `${callbackUrl.searchParams.get("state")}x`);
    const page = await failurePage(await finish(jar, callbackUrl), 400, "state_mismatch");
    expect(page.message).toContain("kontrollverdien (state) stemte ikke");
  });

  test.each(["student11", "student12"])(
    "the groups API failing (%s) does not block the log-in, and the last known memberships stay",
    async (login) => {
      const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
      const userId = await userIdOf(db(), `${login}@example.org`);
      const before = await db().select().from(userAffiliations).where(eq(userAffiliations.userId, userId));
      expect(before.length).toBeGreaterThan(0);
      const { response } = await logIn("feide", login);
      expect(sessionSet(response)).toBe(true);
      const after = await db().select().from(userAffiliations).where(eq(userAffiliations.userId, userId));
      expect(after).toEqual(before);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining("course memberships not updated"));
      expect(await lastAudit("login")).toMatchObject({ actorUserId: userId, details: { memberships: null } });
      warn.mockRestore();
    },
  );

  test("a first-time student with an active membership is created and matches the class", async () => {
    const { response } = await logIn("feide", "ny.student");
    expect(sessionSet(response)).toBe(true);
    const userId = await userIdOf(db(), "ny.student@example.org");
    const [user] = await db().select().from(users).where(eq(users.id, userId));
    expect(user).toMatchObject({ displayName: "Nina Ny", feideUserId: "feide:ny.student@fjordbyen.no" });
    expect((await matchingClasses(db(), userId)).map((c) => c.subjectCode)).toEqual(["SYK2002"]);
  });

  test.each([
    ["ukjent.ansatt", "no_account"],
    ["uten.epost", "no_email"],
    ["deaktivert", "deactivated"],
  ])("%s is refused with a clear reason and gets no session", async (login, reason) => {
    const { response } = await logIn("feide", login);
    const page = await failurePage(response, 403, reason);
    expect(page.title).toBe("Innloggingen med Feide ble ikke fullført");
    expect(page.message).toBe(nb.provider.refused.feide[reason as keyof typeof nb.provider.refused.feide]);
    expect(await lastAudit("login.failed")).toMatchObject({ details: { method: "feide", reason } });
    const nobody = await db().select().from(users).where(eq(users.email, "ukjent.ansatt@example.org"));
    expect(nobody).toEqual([]);
  });

  test("the user cancelling at Feide is a page that says so, with the way back to log-in", async () => {
    const { response } = await logIn("feide", "error:access_denied", "/student");
    const page = await failurePage(response, 403, "provider_error");
    expect(page.title).toBe("Du avbrøt innloggingen med Feide");
    expect(page.message).toContain("Du avbrøt innloggingen i Feide");
    expect(page.loginHref).toBe("/?redirectTo=%2Fstudent");
    expect(page.emailHref).toBe("/login?redirectTo=%2Fstudent");
  });

  test("the groups API down for a first-time student: 503, try again later", async () => {
    peers.feide.addAccount("ny.student3", {
      sub: "feide-ny-student3",
      claims: { name: "Nils Nyere", email: "ny.student3@example.org", email_verified: true },
      groups: "down",
    });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const page = await failurePage((await logIn("feide", "ny.student3")).response, 503, "memberships_unavailable");
    warn.mockRestore();
    expect(page.message).toContain("Praksis fikk ikke hentet emnene dine fra Feide");
  });
});

describe("Vipps", () => {
  test("a supervisor is matched by phone number and lands in the supervisor area", async () => {
    const { response } = await logIn("vipps", "veileder3");
    expect(sessionSet(response)).toBe(true);
    expect(response.headers.get("location")).toBe("/supervisor");
    expect(await lastAudit("login")).toMatchObject({
      actorUserId: await userIdOf(db(), "veileder3@example.org"),
      details: { method: "vipps", phone: "4798765432" },
    });
  });

  test("matched by verified e-mail; an unverified e-mail is not enough", async () => {
    expect(sessionSet((await logIn("vipps", "veileder4")).response)).toBe(true);
    await failurePage((await logIn("vipps", "veileder4-unverified")).response, 403, "no_account");
  });

  test("a number typed on an account (nobody proved it) does not log in: the account's e-mail code is asked for, and a wrong one gets nothing", async () => {
    // Frida's Vipps number is the one a teacher typed on Ole Kristiansen's account.
    const ole = await userIdOf(db(), "veileder2@example.org");
    const { response, jar } = await logIn("vipps", "fremmed", "/supervisor");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/vipps-confirm");
    expect(sessionSet(response)).toBe(false);
    // The code went to the account's address, which the page does not show.
    const [mail] = await mailsTo("veileder2@example.org");
    expect(mail.text).toContain("Vipps");
    const code = codeIn(mail);
    const page = await callLoader(confirm, getPage("/vipps-confirm", { cookie: jar.header() }));
    expect(page.status).toBe(200);
    expect(await page.text()).not.toMatch(/veileder2|Ole/);

    const wrong = jar.take(
      await callAction(
        confirm,
        postForm("/vipps-confirm", { code: code === "111111" ? "222222" : "111111" }, { cookie: jar.header() }),
      ),
    );
    expect(wrong.status).toBe(400);
    expect(sessionSet(wrong)).toBe(false);
    expect(await lastAudit("login.failed")).toMatchObject({
      subjectUserId: ole,
      details: { method: "vipps", reason: "link_wrong_code" },
    });
    const [row] = await db().select().from(users).where(eq(users.id, ole));
    expect(row).toMatchObject({ vippsSub: null, verifiedPhone: null });
    // Without the pending log-in (another browser), the page and its form go back to log in.
    expect((await callLoader(confirm, getPage("/vipps-confirm"))).headers.get("location")).toBe("/");
    const stray = await callAction(confirm, postForm("/vipps-confirm", { code }));
    expect([stray.status, stray.headers.get("location"), sessionSet(stray)]).toEqual([303, "/", false]);
  });

  test("proved with the account's e-mail code, the Vipps identity is bound; the next Vipps log-in goes straight in", async () => {
    const ole = await userIdOf(db(), "veileder2@example.org");
    const { response, jar } = await logIn("vipps", "veileder2", "/supervisor");
    expect(response.headers.get("location")).toBe("/vipps-confirm");
    const [mail] = await mailsTo("veileder2@example.org");
    // Plain form post, as without JS; spaces in the code are fine.
    const done = jar.take(
      await callAction(
        confirm,
        postForm("/vipps-confirm", { code: codeIn(mail).replace(/^(\d{3})/, "$1 ") }, { cookie: jar.header() }),
      ),
    );
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe("/supervisor");
    expect(sessionSet(done)).toBe(true);
    expect(jar.has("praksis_vipps_link")).toBe(false);
    expect(await lastAudit("login")).toMatchObject({
      actorUserId: ole,
      details: { method: "vipps", sub: "vipps-veileder2", linked: "email_code" },
    });
    const [row] = await db().select().from(users).where(eq(users.id, ole));
    expect(row).toMatchObject({ vippsSub: "vipps-veileder2", verifiedPhone: "4792345678" });

    const again = await logIn("vipps", "veileder2");
    expect(sessionSet(again.response)).toBe(true);
    expect(again.response.headers.get("location")).toBe("/supervisor");
    expect(await lastAudit("login")).toMatchObject({ actorUserId: ole, details: { method: "vipps", linked: null } });
  });

  test("a second Vipps identity with a number already verified on an account is refused, with a page and an audit entry", async () => {
    const ole = await userIdOf(db(), "veileder2@example.org");
    const spies = (["debug", "info", "warn", "error"] as const).map((level) => vi.spyOn(console, level));
    const page = await failurePage((await logIn("vipps", "fremmed")).response, 403, "phone_taken");
    expect(page.message).toBe(nb.provider.refused.vipps.phone_taken);
    expect(await lastAudit("login.failed")).toMatchObject({
      subjectUserId: ole,
      details: { method: "vipps", reason: "phone_taken" },
    });
    // The app's own log names no number, address or name.
    const lines = spies.flatMap((spy) => spy.mock.calls.map((call) => call.join(" "))).join("\n");
    for (const spy of spies) spy.mockRestore();
    expect(lines).not.toMatch(/4792345678|92345678|veileder2@|fremmed@|Kristiansen|Fremmed/);
  });

  test("the invitation that creates the account binds the Vipps log-in that follows it in the same browser", async () => {
    const studentUserId = await userIdOf(db(), "student16@example.org");
    const reference = (await currentReferenceOf(db(), studentUserId, osloDate(new Date())))!;
    await db()
      .update(studentReferences)
      .set({ supervisorUserId: null })
      .where(eq(studentReferences.id, reference.referenceId));
    await db()
      .delete(studentExtraSupervisors)
      .where(eq(studentExtraSupervisors.studentReferenceId, reference.referenceId));
    const invited = await createInvitation(db(), {
      referenceId: reference.referenceId,
      studentUserId,
      email: "ivar@example.org",
      origin: "http://localhost",
    });
    if (!invited.ok) throw new Error(invited.error);
    const [mail] = await mailsTo("ivar@example.org");
    const secret = new URL(/http:\/\/\S+/.exec(mail.text)![0]).searchParams.get("verificationGuid")!;
    const path = `/supervisor/accept-invitation?${new URLSearchParams({ verificationGuid: secret, redirect_uri: "/supervisor" })}`;
    const opened = (await (await callLoader(acceptPage, getPage(path))).json()) as { isNew: boolean; vipps: boolean };
    expect(opened).toMatchObject({ isNew: true, vipps: true });

    // A number typed with a slip: the invitation, not the number, is the proof.
    const jar = new CookieJar();
    const fields = {
      intent: "accept-vipps",
      verificationGuid: secret,
      redirect_uri: "/supervisor",
      fullName: "Ivar Invitert",
      phone: "45 45 45 44",
    };
    const accepted = jar.take(await callAction(acceptPage, postForm(path, fields)));
    expect(accepted.status).toBe(303);
    expect(accepted.headers.get("location")).toMatch(new RegExp(`^${peers.vipps.issuer}/oauth2/auth`));
    expect(sessionSet(accepted)).toBe(false);
    const response = await finish(jar, await logInAtProvider(accepted.headers.get("location")!, "invitert"));
    expect(sessionSet(response)).toBe(true);
    expect(response.headers.get("location")).toBe("/supervisor");
    const ivar = await userIdOf(db(), "ivar@example.org");
    expect(await lastAudit("login")).toMatchObject({
      actorUserId: ivar,
      details: { method: "vipps", linked: "invitation" },
    });
    const [row] = await db().select().from(users).where(eq(users.id, ivar));
    expect(row).toMatchObject({ vippsSub: "vipps-invitert", verifiedPhone: "4745454545", phoneNumber: "+4745454544" });
  });

  test("an invitation to an existing account does not bind Vipps: a link can be forwarded", async () => {
    const studentUserId = await userIdOf(db(), "student15@example.org");
    const reference = (await currentReferenceOf(db(), studentUserId, osloDate(new Date())))!;
    await db()
      .update(studentReferences)
      .set({ supervisorUserId: null })
      .where(eq(studentReferences.id, reference.referenceId));
    await db()
      .delete(studentExtraSupervisors)
      .where(eq(studentExtraSupervisors.studentReferenceId, reference.referenceId));
    // Sent to Jonas Eriksen's address; opened by whoever the mail was forwarded to.
    const invited = await createInvitation(db(), {
      referenceId: reference.referenceId,
      studentUserId,
      email: "veileder4@example.org",
      origin: "http://localhost",
    });
    if (!invited.ok) throw new Error(invited.error);
    const [mail] = await mailsTo("veileder4@example.org");
    const secret = new URL(/http:\/\/\S+/.exec(mail.text)![0]).searchParams.get("verificationGuid")!;
    const path = `/supervisor/accept-invitation?${new URLSearchParams({ verificationGuid: secret, redirect_uri: "/supervisor" })}`;
    expect(await (await callLoader(acceptPage, getPage(path))).json()).toMatchObject({ isNew: false, vipps: false });
    const jar = new CookieJar();
    const accepted = jar.take(
      await callAction(
        acceptPage,
        postForm(path, { intent: "accept-vipps", verificationGuid: secret, redirect_uri: "/supervisor" }),
      ),
    );
    expect(accepted.status).toBe(303);
    expect(accepted.headers.get("location")).toBe(`/?${new URLSearchParams({ redirectTo: "/supervisor" })}`);
    // The one who opened it logs in with Vipps in that browser with the number typed on Jonas's account: asked for his code.
    const jonas = await userIdOf(db(), "veileder4@example.org");
    await db()
      .update(users)
      .set({ phoneNumber: "+4711111111", vippsSub: null, verifiedPhone: null })
      .where(eq(users.id, jonas));
    const { authorizationUrl } = await begin("vipps", jar);
    const response = await finish(jar, await logInAtProvider(authorizationUrl, "ukjent"));
    expect(response.headers.get("location")).toBe("/vipps-confirm");
    expect(sessionSet(response)).toBe(false);
  });

  test("a student cannot log in with Vipps", async () => {
    const page = await failurePage((await logIn("vipps", "student13")).response, 403, "not_supervisor");
    expect(page.message).toBe(nb.provider.refused.vipps.not_supervisor);
  });

  test.each([
    ["access_denied", 403],
    ["server_error", 502],
    ["login_required", 403],
    ["invalid_app_callback_uri", 400],
    ["app_callback_uri_not_registered", 400],
    ["outdated_app_version", 400],
    ["wrong_challenge", 403],
    ["unknown_reject_reason", 403],
    ["temporarily_unavailable", 503],
  ] as const)("the documented error %s has its own message (%i)", async (code, status) => {
    const page = await failurePage((await logIn("vipps", `error:${code}`)).response, status, "provider_error");
    expect(page.message).toBe(nb.provider.codes[code].replace("{{provider}}", "Vipps"));
  });

  test("an unknown error is shown with its description", async () => {
    const page = await failurePage((await logIn("vipps", "error:teapot_error")).response, 400, "provider_error");
    expect(page.message).toBe("Vipps svarte med en feil (teapot_error): Test error teapot_error");
  });

  test.each([
    ["?state=abcdefgh", "missing_code"],
    ["?code=abc", "missing_state"],
    ["?code=abc&state=abcdefgh", "state_mismatch"],
  ])("a callback %s is explained (%s) without a session", async (query, reason) => {
    const jar = new CookieJar();
    await begin("vipps", jar);
    const page = await failurePage(await finish(jar, new URL(`http://localhost/vipps-success${query}`)), 400, reason);
    expect(page.message).toBe(
      nb.provider.errors[reason as keyof typeof nb.provider.errors].replace("{{provider}}", "Vipps"),
    );
  });

  test("the page is in the user's language", async () => {
    const response = await callLoader(
      callback,
      getPage("/vipps-success?error=access_denied&state=abcdefgh", { headers: { "Accept-Language": "en" } }),
    );
    const page = await failurePage(response, 403, "provider_error");
    expect(page.title).toBe("You cancelled the log-in with Vipps");
    expect(page.message).toBe(en.provider.codes.access_denied.replace("{{provider}}", "Vipps"));
  });

  test("the provider down: 503 and a page that says so", async () => {
    const { jar, authorizationUrl } = await begin("vipps");
    const callbackUrl = await logInAtProvider(authorizationUrl, "veileder3");
    const saved = process.env.VIPPS_TOKEN_URL;
    // Nothing listens on port 9 of the loopback address: the token request cannot connect.
    process.env.VIPPS_TOKEN_URL = "http://127.0.0.1:9/oauth2/token";
    resetEnvForTests();
    try {
      const page = await failurePage(await finish(jar, callbackUrl), 503, "unreachable");
      expect(page.message).toContain("Praksis fikk ikke kontakt med Vipps");
    } finally {
      if (saved === undefined) delete process.env.VIPPS_TOKEN_URL;
      else process.env.VIPPS_TOKEN_URL = saved;
      resetEnvForTests();
    }
  });
});

describe("/debug/fs", () => {
  const adminCookie = () => cookieActingAs(db(), "admin@example.org", ROLE.Admin);

  test("an admin sees their identity, memberships and roles", async () => {
    expect(sessionSet((await logIn("feide", "admin")).response)).toBe(true);
    const response = await callLoader(fs, getPage("/debug/fs", { cookie: await adminCookie() }));
    expect(response.headers.get("location")).toBeNull();
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.user).toMatchObject({ email: "admin@example.org", feideUserId: "feide:admin@fjordbyen.no" });
    expect(body.roles.map((r: { name: string }) => r.name)).toEqual(["Admin", "Teacher"]);
    expect(body.memberships).toMatchObject([{ subjectCode: "SYK2001", fsRoles: ["underviser"], active: true }]);
    expect(body.lastFeideLogin.details).toMatchObject({ method: "feide", sub: "feide-admin" });
  });

  test("anyone else gets 404", async () => {
    const cookie = await sessionCookieFor(db(), "student01@example.org");
    expect((await callLoader(fs, getPage("/debug/fs", { cookie }))).status).toBe(404);
  });

  test("switched off, it is 404 for admins too", async () => {
    process.env.DEBUG_FS = "false";
    resetEnvForTests();
    try {
      const cookie = await adminCookie();
      expect((await callLoader(fs, getPage("/debug/fs", { cookie }))).status).toBe(404);
    } finally {
      process.env.DEBUG_FS = "true";
      resetEnvForTests();
    }
  });
});

test("without configuration, neither provider is offered; its button goes back to log-in, its callback is a 404 page", async () => {
  const saved = { ...process.env };
  for (const key of Object.keys(peers.env)) delete process.env[key];
  resetEnvForTests();
  try {
    expect(await (await callLoader(home, getPage("/"))).json()).toMatchObject({
      providers: { feide: false, vipps: false },
    });
    const started = await callAction(start, postForm("/auth/feide", {}), { provider: "feide" });
    expect(started.status).toBe(303);
    expect(started.headers.get("location")).toBe("/");
    expect(await flashOf(started)).toMatchObject({ key: "auth:main.feideMissing" });
    const page = await failurePage(
      await callLoader(callback, getPage("/vipps-success?error=access_denied&state=b")),
      404,
      "not_configured",
    );
    expect(page.title).toBe("Vipps-innlogging er ikke satt opp");
    expect(page.message).toBe(nbAuth.main.vippsMissing);
  } finally {
    Object.assign(process.env, saved);
    resetEnvForTests();
  }
});
