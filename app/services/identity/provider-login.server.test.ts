import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { eq } from "drizzle-orm";
import type { Database } from "~/services/platform/db/client.server";
import { auditEvents, userRoles, users } from "~/services/platform/db/schema";
import { seedDemo } from "~/services/demo/index.server";
import { OidcError } from "./oidc.server";
import {
  failureMessage,
  failureStatus,
  feideProfile,
  linkVippsIdentity,
  phoneDigits,
  ProviderLoginRefused,
  resolveFeideUser,
  resolveVippsUser,
  vippsProfile,
  type VippsMatch,
} from "./provider-login.server";
import { ROLE } from "./roles";
import { openTestDatabase } from "~/test/db";
import { courseMembership } from "~/test/memberships";

const USERID_SEC = "https://n.feide.no/claims/userid_sec";

test("phone numbers become digits with the country code", () => {
  expect(phoneDigits("+47 987 65 432")).toBe("4798765432");
  expect(phoneDigits("98765432")).toBe("4798765432");
  expect(phoneDigits("004798765432")).toBe("4798765432");
  expect(phoneDigits("4798765432")).toBe("4798765432");
  expect(phoneDigits("+46701234567")).toBe("46701234567");
});

describe("profiles from userinfo", () => {
  test("Feide: the feide: ids, the e-mail in lower case, the name", () => {
    expect(
      feideProfile({
        sub: "abc",
        claims: {
          sub: "abc",
          [USERID_SEC]: ["feide:ola@uit.no", "nin:12345678901"],
          "https://n.feide.no/claims/eduPersonPrincipalName": "ola@uit.no",
          email: "Ola.Nordmann@UIT.no",
          name: " Ola Nordmann ",
        },
      }),
    ).toEqual({ sub: "abc", feideIds: ["feide:ola@uit.no"], email: "ola.nordmann@uit.no", name: "Ola Nordmann" });
  });
  test("Feide: a missing or malformed e-mail is no e-mail; an unverified one is not used", () => {
    expect(feideProfile({ sub: "a", claims: {} }).email).toBeNull();
    expect(feideProfile({ sub: "a", claims: { email: "not-an-address" } }).email).toBeNull();
    expect(feideProfile({ sub: "a", claims: { email: 42 } }).email).toBeNull();
    expect(feideProfile({ sub: "a", claims: { email: "a@b.no", email_verified: false } }).email).toBeNull();
  });
  test("Vipps: the phone number unless marked unverified, the e-mail only when verified", () => {
    expect(
      vippsProfile({ sub: "v", claims: { phone_number: "4798765432", email: "x@example.net", email_verified: true } }),
    ).toMatchObject({ phone: "4798765432", email: "x@example.net" });
    expect(
      vippsProfile({
        sub: "v",
        claims: { phone_number: "4798765432", phone_number_verified: false, email: "x@example.net" },
      }),
    ).toMatchObject({ phone: null, email: null });
  });
});

describe("messages", () => {
  test("each documented provider error has its own key; an unknown one carries code and description", () => {
    expect(failureMessage("vipps", new OidcError("provider_error", "outdated_app_version", "x"))).toEqual({
      key: "auth:provider.codes.outdated_app_version",
      values: { provider: "Vipps" },
    });
    expect(failureMessage("vipps", new OidcError("provider_error", "teapot", "I am a teapot"))).toEqual({
      key: "auth:provider.codes.other",
      values: { provider: "Vipps", code: "teapot", description: "I am a teapot" },
    });
    expect(failureMessage("feide", new OidcError("state_mismatch")).key).toBe("auth:provider.errors.state_mismatch");
    expect(failureMessage("feide", new OidcError("state_expired")).key).toBe("auth:provider.errors.state_expired");
    expect(failureMessage("feide", new ProviderLoginRefused("no_account")).key).toBe(
      "auth:provider.refused.feide.no_account",
    );
    // A refusal about a Vipps number has no Feide text: a key that is in the texts, never one that is not.
    expect(failureMessage("feide", new ProviderLoginRefused("phone_taken")).key).toBe(
      "auth:provider.refused.feide.no_account",
    );
    expect(failureMessage("vipps", new ProviderLoginRefused("phone_taken")).key).toBe(
      "auth:provider.refused.vipps.phone_taken",
    );
  });

  test.each([
    [new OidcError("provider_error", "access_denied"), 403],
    [new OidcError("provider_error", "wrong_challenge"), 403],
    [new OidcError("provider_error", "server_error"), 502],
    [new OidcError("provider_error", "temporarily_unavailable"), 503],
    [new OidcError("provider_error", "invalid_scope"), 400],
    [new OidcError("provider_error", "teapot"), 400],
    [new OidcError("missing_code"), 400],
    [new OidcError("missing_state"), 400],
    [new OidcError("state_expired"), 400],
    [new OidcError("state_mismatch"), 400],
    [new OidcError("token_failed", "invalid_grant"), 400],
    [new OidcError("token_failed"), 502],
    [new OidcError("invalid_token"), 502],
    [new OidcError("userinfo_failed"), 502],
    [new OidcError("unreachable"), 503],
    [new ProviderLoginRefused("no_account"), 403],
    [new ProviderLoginRefused("not_supervisor"), 403],
    [new ProviderLoginRefused("deactivated"), 403],
    [new ProviderLoginRefused("memberships_unavailable"), 503],
    [new ProviderLoginRefused("phone_taken"), 403],
    [new ProviderLoginRefused("phone_ambiguous"), 403],
    [new ProviderLoginRefused("code_rate_limited"), 429],
    [new ProviderLoginRefused("code_not_sent"), 503],
  ])("%s answers %i", (error, status) => {
    expect(failureStatus(error)).toBe(status);
  });
});

describe("finding the user", () => {
  let database: Database;
  const now = new Date("2026-11-22T12:00:00Z");
  const today = "2026-11-22";
  beforeAll(async () => {
    database = await openTestDatabase();
    await seedDemo(database.db, now);
  });
  afterAll(() => database.close());

  const refusal = async (promise: Promise<unknown>) => {
    try {
      await promise;
    } catch (error) {
      if (error instanceof ProviderLoginRefused) return error.reason;
      throw error;
    }
    return "logged in";
  };
  const refusalOf = async (promise: Promise<unknown>) => {
    try {
      await promise;
    } catch (error) {
      if (error instanceof ProviderLoginRefused) return error;
      throw error;
    }
    return null;
  };
  const feide = (sub: string, email: string | null, feideIds: string[] = []) => ({
    sub,
    email,
    feideIds,
    name: "Test Person",
  });

  test("Feide: found by e-mail the first time, linked, then found by the Feide id", async () => {
    const first = await resolveFeideUser(
      database.db,
      feide("sub-s14", "student14@example.org", ["feide:s14@fjordbyen.no"]),
      null,
      today,
    );
    expect(first).toMatchObject({ created: false, user: { email: "student14@example.org", roles: [ROLE.Student] } });
    const [row] = await database.db.select().from(users).where(eq(users.id, first.user.id));
    expect(row.feideUserId).toBe("feide:s14@fjordbyen.no");
    // Later log-ins match on the id even if the e-mail has changed at the institution.
    const again = await resolveFeideUser(
      database.db,
      feide("sub-s14", "new-address@example.org", ["feide:s14@fjordbyen.no"]),
      null,
      today,
    );
    expect(again.user.id).toBe(first.user.id);
  });

  test("Feide: an address already linked to another Feide identity is refused", async () => {
    await resolveFeideUser(database.db, feide("sub-s15", "student15@example.org"), null, today);
    expect(
      await refusal(resolveFeideUser(database.db, feide("sub-intruder", "student15@example.org"), null, today)),
    ).toBe("linked_elsewhere");
  });

  test("Feide: a first-time student with an active membership of a known subject is created as a student", async () => {
    const { user, created } = await resolveFeideUser(
      database.db,
      feide("sub-new", "Ny.Person@Example.org", ["feide:ny@fjordbyen.no"]),
      [courseMembership("SYK2002")],
      today,
    );
    expect(created).toBe(true);
    expect(user).toMatchObject({
      email: "ny.person@example.org",
      displayName: "Test Person",
      roles: [ROLE.Student],
      isActive: true,
    });
    const audits = await database.db.select().from(auditEvents).where(eq(auditEvents.subjectUserId, user.id));
    expect(audits.map((a) => a.action)).toContain("user.created");
    // The second log-in finds the same user.
    const again = await resolveFeideUser(
      database.db,
      feide("sub-new", "ny.person@example.org", ["feide:ny@fjordbyen.no"]),
      [],
      today,
    );
    expect(again).toMatchObject({ created: false, user: { id: user.id } });
  });

  test("Feide: nobody else is created", async () => {
    const count = async () => (await database.db.select().from(users)).length;
    const before = await count();
    expect(
      await refusal(
        resolveFeideUser(
          database.db,
          feide("s1", "teacher@example.org"),
          [courseMembership("SYK2001", { fsRoles: ["underviser"] })],
          today,
        ),
      ),
    ).toBe("no_account");
    expect(
      await refusal(
        resolveFeideUser(database.db, feide("s2", "other@example.org"), [courseMembership("XYZ1000")], today),
      ),
    ).toBe("no_account");
    expect(await refusal(resolveFeideUser(database.db, feide("s3", "none@example.org"), [], today))).toBe("no_account");
    expect(await refusal(resolveFeideUser(database.db, feide("s4", "down@example.org"), null, today))).toBe(
      "memberships_unavailable",
    );
    expect(await refusal(resolveFeideUser(database.db, feide("s5", null), [courseMembership("SYK2002")], today))).toBe(
      "no_email",
    );
    expect(await count()).toBe(before);
  });

  test("Feide: a deactivated user is refused, and so is a user without a role", async () => {
    expect(await refusal(resolveFeideUser(database.db, feide("sub-d", "deaktivert@example.org"), [], today))).toBe(
      "deactivated",
    );
    const [bare] = await database.db
      .insert(users)
      .values({ displayName: "No Role", email: "norole@example.org" })
      .returning();
    expect(await refusal(resolveFeideUser(database.db, feide("sub-norole", "norole@example.org"), [], today))).toBe(
      "no_role",
    );
    await database.db.delete(users).where(eq(users.id, bare.id));
  });

  let subs = 0;
  /** A Vipps profile; each call is another Vipps identity unless `sub` is given. */
  const vipps = (phone: string | null, email: string | null, sub = `vipps-${++subs}`) => ({
    sub,
    phone,
    email,
    name: null,
  });
  const userRow = async (email: string) => (await database.db.select().from(users).where(eq(users.email, email)))[0];
  const loggedIn = async (promise: Promise<VippsMatch>) => {
    const match = await promise;
    if (match.kind !== "user") throw new Error(`expected a log-in, got ${JSON.stringify(match)}`);
    return match;
  };

  test("Vipps: a typed number nobody has proved does not log in; the account's e-mail code is asked for first", async () => {
    // Ole Kristiansen's number was typed by a teacher; whoever holds it at Vipps is not yet proved to be him.
    const [row] = await database.db.select().from(users).where(eq(users.email, "veileder2@example.org"));
    const outcome = await resolveVippsUser(database.db, {
      sub: "vipps-typo",
      phone: "4792345678",
      email: null,
      name: null,
    });
    expect(outcome).toEqual({ kind: "prove", userId: row.id });
    // In any stored format; and nothing is bound by asking.
    await database.db.update(users).set({ phoneNumber: "923 45 678" }).where(eq(users.id, row.id));
    expect(await resolveVippsUser(database.db, vipps("4792345678", null))).toEqual({ kind: "prove", userId: row.id });
    expect(await userRow("veileder2@example.org")).toMatchObject({
      vippsSub: null,
      verifiedPhone: null,
      phoneNumber: "923 45 678",
    });
  });

  test("Vipps: proved, the identity is bound and the number verified; the next log-in goes straight in by the identity", async () => {
    const row = await userRow("veileder2@example.org");
    const user = await linkVippsIdentity(database.db, row.id, { sub: "vipps-ole", phone: "4792345678" });
    expect(user.id).toBe(row.id);
    // The typed number stays as typed; the verified one is kept beside it.
    expect(await userRow("veileder2@example.org")).toMatchObject({
      vippsSub: "vipps-ole",
      verifiedPhone: "4792345678",
      phoneNumber: "923 45 678",
    });
    // Found by the identity, even after a change of number at Vipps.
    const again = await loggedIn(resolveVippsUser(database.db, vipps("4700001111", null, "vipps-ole")));
    expect(again).toMatchObject({ user: { id: row.id }, linked: null });
  });

  test("Vipps: a second account with the same verified number is refused, and nothing is bound", async () => {
    const ole = await userRow("veileder2@example.org");
    // Another Vipps identity with Ole's verified number (a number passed on to someone else).
    let refused = await refusalOf(resolveVippsUser(database.db, vipps("4792345678", null)));
    expect(refused).toMatchObject({ reason: "phone_taken", holderUserId: ole.id });
    // Jonas proves his own account by a verified e-mail, but Vipps gives Ole's verified number.
    refused = await refusalOf(resolveVippsUser(database.db, vipps("4792345678", "veileder4@example.org")));
    expect(refused).toMatchObject({ reason: "phone_taken", holderUserId: ole.id });
    expect(await userRow("veileder4@example.org")).toMatchObject({ vippsSub: null, verifiedPhone: null });
    const jonas = await userRow("veileder4@example.org");
    expect(
      (await refusalOf(linkVippsIdentity(database.db, jonas.id, { sub: "vipps-jonas-2", phone: "4792345678" })))
        ?.reason,
    ).toBe("phone_taken");
    // And the database holds the rule too.
    await expect(
      database.db.update(users).set({ verifiedPhone: "4792345678" }).where(eq(users.id, jonas.id)),
    ).rejects.toThrow();
  });

  test("Vipps: a verified number (the demo's supervisors) logs in and binds the identity", async () => {
    const first = await loggedIn(resolveVippsUser(database.db, vipps("4798765432", null, "vipps-hanne")));
    expect(first).toMatchObject({ user: { email: "veileder3@example.org" }, linked: "verified_phone" });
    expect(await userRow("veileder3@example.org")).toMatchObject({
      vippsSub: "vipps-hanne",
      verifiedPhone: "4798765432",
    });
  });

  test("Vipps: found by verified e-mail (proof of the address): bound, and a missing phone number is stored", async () => {
    const row = await userRow("veileder4@example.org");
    await database.db.update(users).set({ phoneNumber: null }).where(eq(users.id, row.id));
    const { user, linked } = await loggedIn(
      resolveVippsUser(database.db, vipps("4799999999", "veileder4@example.org", "vipps-jonas")),
    );
    expect([user.id, linked]).toEqual([row.id, "email"]);
    expect(await userRow("veileder4@example.org")).toMatchObject({
      phoneNumber: "+4799999999",
      verifiedPhone: "4799999999",
      vippsSub: "vipps-jonas",
    });
    // The address does not let a second Vipps identity in.
    expect(await refusal(resolveVippsUser(database.db, vipps("4788888888", "veileder4@example.org")))).toBe(
      "linked_elsewhere",
    );
  });

  test("Vipps: the account an invitation just created is bound whatever number was typed on it", async () => {
    const [row] = await database.db
      .insert(users)
      .values({
        displayName: "Invited Supervisor",
        email: "invited.supervisor@example.org",
        phoneNumber: "+4755555555",
      })
      .returning();
    await database.db.insert(userRoles).values({ userId: row.id, roleId: ROLE.Supervisor });
    const { user, linked } = await loggedIn(
      resolveVippsUser(database.db, vipps("4755555556", null, "vipps-invited"), { invitedUserId: row.id }),
    );
    expect([user.id, linked]).toEqual([row.id, "invitation"]);
    expect(await userRow("invited.supervisor@example.org")).toMatchObject({
      vippsSub: "vipps-invited",
      verifiedPhone: "4755555556",
    });
  });

  test("Vipps: several unproved accounts with the typed number: none is guessed at", async () => {
    const make = async (email: string) => {
      const [row] = await database.db
        .insert(users)
        .values({ displayName: "Same Number", email, phoneNumber: "+4766666666" })
        .returning();
      await database.db.insert(userRoles).values({ userId: row.id, roleId: ROLE.Supervisor });
    };
    await make("same.number1@example.org");
    await make("same.number2@example.org");
    expect(await refusal(resolveVippsUser(database.db, vipps("4766666666", null)))).toBe("phone_ambiguous");
  });

  test("Vipps: someone who is not a supervisor, or not known, is refused", async () => {
    expect(await refusal(resolveVippsUser(database.db, vipps("4700000001", "student13@example.org")))).toBe(
      "not_supervisor",
    );
    expect(await refusal(resolveVippsUser(database.db, vipps("4711111111", "ukjent@example.net")))).toBe("no_account");
    expect(await refusal(resolveVippsUser(database.db, vipps(null, null)))).toBe("no_account");
  });

  test("Vipps: a deactivated supervisor is refused", async () => {
    const [row] = await database.db
      .insert(users)
      .values({
        displayName: "Old Supervisor",
        email: "old.supervisor@example.org",
        phoneNumber: "+4733333333",
        isActive: false,
      })
      .returning();
    await database.db.insert(userRoles).values({ userId: row.id, roleId: ROLE.Supervisor });
    expect(await refusal(resolveVippsUser(database.db, vipps("4733333333", null)))).toBe("deactivated");
  });
});
