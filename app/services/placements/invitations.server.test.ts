import crypto from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import type { Database, Db } from "~/services/platform/db/client.server";
import { seedDemo } from "~/services/demo/index.server";
import {
  supervisorInvitations,
  auditEvents,
  classSupervisors,
  studentExtraSupervisors,
  studentReferences,
  userRoles,
  users,
} from "~/services/platform/db/schema";
import type { Mail } from "~/services/platform/email.server";
import { openTestDatabase } from "~/test/db";
import {
  acceptInvitation,
  createInvitation,
  hashInvitationSecret,
  INVITATION_TTL_MS,
  invitationLink,
  invitationStatus,
  isExpired,
  lookUpInvitation,
  normalisePhone,
} from "./invitations.server";
import { ROLE } from "~/services/identity";
import { isAttachedSupervisor } from "./supervision.server";
import { currentReferenceOf } from "./student-placement.server";
import { userIdOf } from "~/test/app";

const sent: Mail[] = [];
let mailFails = false;
vi.mock("~/services/platform/email.server", async (importOriginal) => ({
  ...(await importOriginal<typeof import("~/services/platform/email.server")>()),
  sendMail: async (mail: Mail) => {
    // What the real sendMail throws when the server refuses, times out or is unreachable.
    if (mailFails)
      throw new (await importOriginal<typeof import("~/services/platform/email.server")>()).MailNotSent("unreachable", {
        cause: new Error("SMTP down"),
      });
    sent.push(mail);
  },
}));

const NOW = new Date("2026-11-22T12:00:00Z");
const ORIGIN = "https://praksis.example.org";
let database: Database;
let db: Db;

beforeAll(async () => {
  database = await openTestDatabase();
  db = database.db;
  await seedDemo(db, NOW);
});

afterAll(async () => {
  await database.close();
});

beforeEach(() => {
  sent.length = 0;
});

async function userByEmail(email: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  return row;
}

async function referenceOf(studentEmail: string) {
  const studentUserId = await userIdOf(db, studentEmail);
  const current = (await currentReferenceOf(db, studentUserId, "2026-11-22"))!;
  const [row] = await db.select().from(studentReferences).where(eq(studentReferences.id, current.referenceId));
  return { ...row, studentUserId };
}

/** Sends an invitation and returns the secret from the mail's link, as the supervisor gets it. */
async function invite(studentEmail: string, email: string, now = NOW): Promise<string> {
  const ref = await referenceOf(studentEmail);
  const outcome = await createInvitation(db, {
    referenceId: ref.id,
    studentUserId: ref.studentUserId,
    email,
    origin: ORIGIN,
    now,
  });
  if (!outcome.ok) throw new Error(`invitation refused: ${outcome.error}`);
  const link = /https:\/\/\S+/.exec(sent.at(-1)!.text)![0];
  return new URL(link).searchParams.get("verificationGuid")!;
}

/** Makes a seeded student one without a supervisor, who may invite one. */
async function withoutSupervisor(studentEmail: string): Promise<void> {
  const ref = await referenceOf(studentEmail);
  await db.update(studentReferences).set({ supervisorUserId: null }).where(eq(studentReferences.id, ref.id));
  await db.delete(studentExtraSupervisors).where(eq(studentExtraSupervisors.studentReferenceId, ref.id));
}

async function rolesOf(userId: number): Promise<number[]> {
  return (await db.select({ roleId: userRoles.roleId }).from(userRoles).where(eq(userRoles.userId, userId)))
    .map((r) => r.roleId)
    .sort();
}

describe("pure rules", () => {
  test("a link is valid through its expiry instant, and expired one millisecond after", () => {
    const expiresAt = new Date(NOW.getTime() + INVITATION_TTL_MS);
    expect(INVITATION_TTL_MS).toBe(3 * 24 * 60 * 60 * 1000);
    expect(isExpired(expiresAt, new Date(expiresAt.getTime() - 1))).toBe(false);
    expect(isExpired(expiresAt, expiresAt)).toBe(false);
    expect(isExpired(expiresAt, new Date(expiresAt.getTime() + 1))).toBe(true);
  });

  test("phone numbers: eight digits are Norwegian; others are kept; anything else is refused", () => {
    expect(normalisePhone("912 34 567")).toBe("+4791234567");
    expect(normalisePhone("91234567")).toBe("+4791234567");
    expect(normalisePhone("+47 912 34 567")).toBe("+4791234567");
    expect(normalisePhone("+46 70 123 45 67")).toBe("+46701234567");
    for (const bad of [
      "",
      "1234567",
      "12-34-56-78",
      "+47+91234567",
      "9123456a",
      "tel:91234567",
      "1".repeat(16),
      "91 23 45 6+7",
    ]) {
      expect(normalisePhone(bad), bad).toBeNull();
    }
  });

  test("the link goes to the accept page with the secret and a same-site landing", () => {
    const url = new URL(invitationLink(ORIGIN, "abc-_123"));
    expect(url.origin + url.pathname).toBe(`${ORIGIN}/supervisor/accept-invitation`);
    expect(url.searchParams.get("verificationGuid")).toBe("abc-_123");
    expect(url.searchParams.get("redirect_uri")).toBe("/supervisor");
    expect(url.search).toContain("redirect_uri=%2Fsupervisor");
  });
});

describe("createInvitation", () => {
  test("stores only the hash of a 32-byte random secret, mails the link, and audits", async () => {
    const ref = await referenceOf("student10@example.org");
    const outcome = await createInvitation(db, {
      referenceId: ref.id,
      studentUserId: ref.studentUserId,
      email: "  Ny.Veileder@Example.org ",
      origin: ORIGIN,
      ip: "192.0.2.7",
      now: NOW,
    });
    expect(outcome).toMatchObject({ ok: true, email: "ny.veileder@example.org" });
    expect(outcome.ok && outcome.expiresAt.getTime()).toBe(NOW.getTime() + INVITATION_TTL_MS);

    expect(sent).toHaveLength(1);
    const [mail] = sent;
    expect(mail.to).toBe("ny.veileder@example.org");
    expect(mail.text).toContain("SYK2001 Praksis i sykehjem");
    expect(mail.text).toContain("25.11.2026");
    const link = /https:\/\/\S+/.exec(mail.text)![0];
    expect(link).toMatch(
      /^https:\/\/praksis\.example\.org\/supervisor\/accept-invitation\?verificationGuid=[A-Za-z0-9_-]{43}&redirect_uri=%2Fsupervisor$/,
    );
    const secret = new URL(link).searchParams.get("verificationGuid")!;
    expect(Buffer.from(secret, "base64url")).toHaveLength(32);

    const [row] = await db
      .select()
      .from(supervisorInvitations)
      .where(eq(supervisorInvitations.studentReferenceId, ref.id));
    expect(row.tokenHash).toBe(crypto.createHash("sha256").update(secret).digest("hex"));
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(row).toMatchObject({
      email: "ny.veileder@example.org",
      invitedByUserId: ref.studentUserId,
      acceptedAt: null,
    });

    const [event] = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "invitation.sent"), eq(auditEvents.actorUserId, ref.studentUserId)));
    expect(event).toMatchObject({ classId: ref.classId, ip: "192.0.2.7" });
  });

  test("each invitation gets its own secret", async () => {
    const a = await invite("student12@example.org", "a.veileder@example.org");
    const b = await invite("student12@example.org", "b.veileder@example.org");
    expect(a).not.toBe(b);
  });

  test("refused when the student has a supervisor, assigned or extra", async () => {
    const withSupervisor = await referenceOf("student01@example.org");
    expect(
      await createInvitation(db, {
        referenceId: withSupervisor.id,
        studentUserId: withSupervisor.studentUserId,
        email: "x@example.org",
        origin: ORIGIN,
      }),
    ).toEqual({ ok: false, error: "hasSupervisor" });
    const withExtraOnly = await referenceOf("student24@example.org");
    await db
      .insert(studentExtraSupervisors)
      .values({ studentReferenceId: withExtraOnly.id, userId: await userIdOf(db, "veileder3@example.org") });
    expect(
      await createInvitation(db, {
        referenceId: withExtraOnly.id,
        studentUserId: withExtraOnly.studentUserId,
        email: "x@example.org",
        origin: ORIGIN,
      }),
    ).toEqual({ ok: false, error: "hasSupervisor" });
    await db.delete(studentExtraSupervisors).where(eq(studentExtraSupervisors.studentReferenceId, withExtraOnly.id));
    expect(sent).toEqual([]);
  });

  test("refused for the student's own address, in any case, and for someone else's reference", async () => {
    const ref = await referenceOf("student11@example.org");
    expect(
      await createInvitation(db, {
        referenceId: ref.id,
        studentUserId: ref.studentUserId,
        email: "STUDENT11@example.org",
        origin: ORIGIN,
      }),
    ).toEqual({ ok: false, error: "ownAddress" });
    const other = await userIdOf(db, "student12@example.org");
    expect(
      await createInvitation(db, { referenceId: ref.id, studentUserId: other, email: "x@example.org", origin: ORIGIN }),
    ).toEqual({
      ok: false,
      error: "notFound",
    });
    expect(sent).toEqual([]);
  });

  test("a deactivated supervisor supervises nobody: the student may invite someone else", async () => {
    const ref = await referenceOf("student19@example.org");
    const [gone] = await db
      .insert(users)
      .values({ displayName: "Borte Veileder", email: "borte@example.org", isActive: false })
      .returning();
    await db.update(studentReferences).set({ supervisorUserId: gone.id }).where(eq(studentReferences.id, ref.id));
    await db.insert(studentExtraSupervisors).values({ studentReferenceId: ref.id, userId: gone.id });
    const outcome = await createInvitation(db, {
      referenceId: ref.id,
      studentUserId: ref.studentUserId,
      email: "ny19@example.org",
      origin: ORIGIN,
      now: NOW,
    });
    expect(outcome).toMatchObject({ ok: true });
  });

  test("when the mail cannot be sent, the student is told, nothing is stored, and the earlier link still works", async () => {
    const earlier = await invite("student10@example.org", "forrige10@example.org");
    const ref = await referenceOf("student10@example.org");
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    mailFails = true;
    try {
      const outcome = await createInvitation(db, {
        referenceId: ref.id,
        studentUserId: ref.studentUserId,
        email: "borte.post@example.org",
        origin: ORIGIN,
        now: NOW,
      });
      expect(outcome).toEqual({ ok: false, error: "mailFailed" });
      // Logged once, by the mail service (email.server.test.ts), not again here.
      expect(logged).not.toHaveBeenCalled();
    } finally {
      mailFails = false;
      logged.mockRestore();
    }
    expect(
      await db.select().from(supervisorInvitations).where(eq(supervisorInvitations.email, "borte.post@example.org")),
    ).toEqual([]);
    expect(await invitationStatus(db, ref.id, NOW)).toMatchObject({ email: "forrige10@example.org", state: "sent" });
    expect((await lookUpInvitation(db, earlier, NOW)).state).toBe("valid");
  });

  test("at most five a day per student", async () => {
    const ref = await referenceOf("student11@example.org");
    const day = new Date("2026-11-10T08:00:00Z");
    for (let i = 0; i < 5; i++) {
      const outcome = await createInvitation(db, {
        referenceId: ref.id,
        studentUserId: ref.studentUserId,
        email: `v${i}@example.org`,
        origin: ORIGIN,
        now: day,
      });
      expect(outcome.ok, String(i)).toBe(true);
    }
    const sixth = await createInvitation(db, {
      referenceId: ref.id,
      studentUserId: ref.studentUserId,
      email: "v6@example.org",
      origin: ORIGIN,
      now: day,
    });
    expect(sixth).toMatchObject({ ok: false, error: "rateLimited" });
    expect(sent).toHaveLength(5);
  });
});

describe("invitationStatus and lookUpInvitation", () => {
  test("none, then sent, then expired after three days; the latest invitation counts", async () => {
    const ref = await referenceOf("student23@example.org");
    expect(await invitationStatus(db, ref.id, NOW)).toBeNull();
    const old = await invite("student23@example.org", "gammel@example.org", new Date("2026-11-01T12:00:00Z"));
    expect(await invitationStatus(db, ref.id, NOW)).toMatchObject({ state: "expired", email: "gammel@example.org" });
    expect(await lookUpInvitation(db, old, NOW)).toEqual({ state: "expired" });

    const fresh = await invite("student23@example.org", "ny23@example.org", NOW);
    expect(await invitationStatus(db, ref.id, NOW)).toMatchObject({
      state: "sent",
      email: "ny23@example.org",
      acceptedAt: null,
    });
    expect(await lookUpInvitation(db, fresh, NOW)).toMatchObject({
      state: "valid",
      email: "ny23@example.org",
      subjectCode: "SYK2002",
      studentName: (await userByEmail("student23@example.org")).displayName,
    });
    const end = new Date(NOW.getTime() + INVITATION_TTL_MS);
    expect((await lookUpInvitation(db, fresh, end)).state).toBe("valid");
    expect((await lookUpInvitation(db, fresh, new Date(end.getTime() + 1))).state).toBe("expired");
  });

  test("anything that is not an issued secret is unknown, including the stored hash itself", async () => {
    const secret = await invite("student22@example.org", "lookup22@example.org");
    for (const guess of [null, "", "nope", hashInvitationSecret(secret), secret.slice(1), "x".repeat(500)]) {
      expect(await lookUpInvitation(db, guess, NOW), String(guess)).toEqual({ state: "unknown" });
    }
  });
});

describe("acceptInvitation", () => {
  test("a new person becomes an Advisor user, the student's supervisor, and attached to the class", async () => {
    const secret = await invite("student10@example.org", "nina.ny@example.org");
    const outcome = await acceptInvitation(db, {
      secret,
      name: "  Nina Ny ",
      phone: "912 34 567",
      ip: "192.0.2.8",
      now: NOW,
    });
    expect(outcome).toMatchObject({ ok: true, createdUser: true, assignedAs: "supervisor" });
    const user = await userByEmail("nina.ny@example.org");
    expect(user).toMatchObject({ displayName: "Nina Ny", phoneNumber: "+4791234567", isActive: true });
    expect(outcome.ok && outcome.user).toMatchObject({
      id: user.id,
      email: "nina.ny@example.org",
      roles: [ROLE.Supervisor],
    });
    expect(await rolesOf(user.id)).toEqual([ROLE.Supervisor]);

    const ref = await referenceOf("student10@example.org");
    expect(ref.supervisorUserId).toBe(user.id);
    // Attached as invited: they follow this student, and may not take the class's other students.
    expect(
      await db
        .select()
        .from(classSupervisors)
        .where(and(eq(classSupervisors.classId, ref.classId), eq(classSupervisors.userId, user.id))),
    ).toEqual([{ classId: ref.classId, userId: user.id, viaInvitation: true }]);
    expect(await isAttachedSupervisor(db, ref.classId, user.id)).toBe(false);
    const [invitation] = await db
      .select()
      .from(supervisorInvitations)
      .where(eq(supervisorInvitations.tokenHash, hashInvitationSecret(secret)));
    expect(invitation.acceptedUserId).toBe(user.id);
    expect(invitation.acceptedAt?.getTime()).toBe(NOW.getTime());
    const [event] = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "invitation.accepted"), eq(auditEvents.actorUserId, user.id)));
    expect(event).toMatchObject({ subjectUserId: ref.studentUserId, classId: ref.classId, ip: "192.0.2.8" });
    // The audit row keeps the name it has always been stored under: the supervisor is "advisor" there.
    expect(event.details).toMatchObject({ assignedAs: "advisor" });
    expect(await invitationStatus(db, ref.id, NOW)).toMatchObject({ state: "accepted", acceptedByName: "Nina Ny" });

    // The same link again is refused, and changes nothing.
    expect(await acceptInvitation(db, { secret, name: "Noen Andre", phone: "98765432", now: NOW })).toEqual({
      ok: false,
      error: "used",
    });
    expect((await userByEmail("nina.ny@example.org")).displayName).toBe("Nina Ny");
  });

  test("an existing supervisor keeps their name and phone number and is linked to the student and class", async () => {
    const secret = await invite("student11@example.org", "VEILEDER3@example.org", new Date("2026-11-21T12:00:00Z"));
    const before = await userByEmail("veileder3@example.org");
    const outcome = await acceptInvitation(db, { secret, name: "Et annet navn", phone: "40000000", now: NOW });
    expect(outcome).toMatchObject({ ok: true, createdUser: false, assignedAs: "supervisor" });
    const after = await userByEmail("veileder3@example.org");
    expect(after).toMatchObject({ id: before.id, displayName: "Hanne Berg", phoneNumber: before.phoneNumber });
    expect(await rolesOf(after.id)).toEqual([ROLE.Supervisor]);
    const ref = await referenceOf("student11@example.org");
    expect(ref.supervisorUserId).toBe(after.id);
    expect(
      await db
        .select()
        .from(classSupervisors)
        .where(and(eq(classSupervisors.classId, ref.classId), eq(classSupervisors.userId, after.id))),
    ).toHaveLength(1);
  });

  test("an existing user who is not a supervisor is refused, and nothing of their account changes", async () => {
    const secret = await invite("student12@example.org", "laerer3@example.org");
    const before = await userByEmail("laerer3@example.org");
    expect(
      (await lookUpInvitation(db, secret, NOW)).state === "valid" && (await lookUpInvitation(db, secret, NOW)),
    ).toMatchObject({
      account: "notSupervisor",
    });
    const outcome = await acceptInvitation(db, { secret, name: "Ignored", phone: "+47 400 00 001", now: NOW });
    expect(outcome).toEqual({ ok: false, error: "notSupervisor" });
    expect(await userByEmail("laerer3@example.org")).toEqual(before);
    expect(await rolesOf(before.id)).toEqual([ROLE.Teacher]);
    expect((await referenceOf("student12@example.org")).supervisorUserId).toBeNull();
  });

  test("a supervisor who is a student of the class, or the student's own teacher, is refused", async () => {
    // Someone an admin made both student and supervisor, in the same class as the inviting student.
    const classmate = await userIdOf(db, "student13@example.org");
    await db.insert(userRoles).values({ userId: classmate, roleId: ROLE.Supervisor });
    await withoutSupervisor("student14@example.org");
    const fromClassmate = await invite("student14@example.org", "student13@example.org");
    expect(await acceptInvitation(db, { secret: fromClassmate, now: NOW })).toEqual({
      ok: false,
      error: "studentInClass",
    });

    await withoutSupervisor("student15@example.org");
    const ref = await referenceOf("student15@example.org");
    const teacher = await userIdOf(db, "laerer2@example.org");
    await db.insert(userRoles).values({ userId: teacher, roleId: ROLE.Supervisor });
    await db.update(studentReferences).set({ teacherUserId: teacher }).where(eq(studentReferences.id, ref.id));
    const toOwnTeacher = await invite("student15@example.org", "laerer2@example.org");
    expect(await acceptInvitation(db, { secret: toOwnTeacher, now: NOW })).toEqual({ ok: false, error: "isTeacher" });
    expect((await referenceOf("student14@example.org")).supervisorUserId).toBeNull();
    expect((await referenceOf("student15@example.org")).supervisorUserId).toBeNull();
  });

  test("when the teacher chose a supervisor meanwhile, the invited one becomes an extra supervisor, once", async () => {
    const secret = await invite("student22@example.org", "andre22@example.org");
    const ref = await referenceOf("student22@example.org");
    const chosen = await userIdOf(db, "veileder1@example.org");
    await db.update(studentReferences).set({ supervisorUserId: chosen }).where(eq(studentReferences.id, ref.id));
    const outcome = await acceptInvitation(db, { secret, name: "Andre", phone: "92222222", now: NOW });
    expect(outcome).toMatchObject({ ok: true, assignedAs: "extraSupervisor" });
    expect((await referenceOf("student22@example.org")).supervisorUserId).toBe(chosen);
    const extras = await db
      .select()
      .from(studentExtraSupervisors)
      .where(eq(studentExtraSupervisors.studentReferenceId, ref.id));
    expect(extras).toEqual([
      { studentReferenceId: ref.id, userId: await userIdOf(db, "andre22@example.org"), roleId: ROLE.Supervisor },
    ]);
  });

  test("a deactivated assigned supervisor is replaced by the invited one", async () => {
    await withoutSupervisor("student18@example.org");
    const ref = await referenceOf("student18@example.org");
    const [gone] = await db
      .insert(users)
      .values({ displayName: "Sluttet Veileder", email: "sluttet@example.org", isActive: false })
      .returning();
    await db.update(studentReferences).set({ supervisorUserId: gone.id }).where(eq(studentReferences.id, ref.id));
    const secret = await invite("student18@example.org", "etterfolger@example.org");
    expect(await acceptInvitation(db, { secret, name: "Etter Følger", phone: "94444444", now: NOW })).toMatchObject({
      ok: true,
      assignedAs: "supervisor",
    });
    expect((await referenceOf("student18@example.org")).supervisorUserId).toBe(
      await userIdOf(db, "etterfolger@example.org"),
    );
  });

  test("a new invitation ends the student's earlier open one: only the latest link works", async () => {
    await withoutSupervisor("student20@example.org");
    const typo = await invite("student20@example.org", "skrivefeil@exampel.org", new Date("2026-11-22T11:00:00Z"));
    const right = await invite("student20@example.org", "riktig@example.org");
    expect((await lookUpInvitation(db, typo, NOW)).state).toBe("expired");
    expect(await acceptInvitation(db, { secret: typo, name: "Feil Person", phone: "91234567", now: NOW })).toEqual({
      ok: false,
      error: "expired",
    });
    expect(await userByEmail("skrivefeil@exampel.org")).toBeUndefined();
    expect(
      await acceptInvitation(db, { secret: right, name: "Riktig Person", phone: "91234568", now: NOW }),
    ).toMatchObject({
      ok: true,
      assignedAs: "supervisor",
    });
  });

  test("two students' invitations to the same new address, accepted at once: one account, linked to both", async () => {
    await withoutSupervisor("student16@example.org");
    await withoutSupervisor("student17@example.org");
    const first = await invite("student16@example.org", "delt@example.org");
    const second = await invite("student17@example.org", "delt@example.org");
    const outcomes = await Promise.all([
      acceptInvitation(db, { secret: first, name: "Delt Veileder", phone: "93333333", now: NOW }),
      acceptInvitation(db, { secret: second, name: "Delt Veileder", phone: "93333333", now: NOW }),
    ]);
    expect(outcomes.map((o) => o.ok)).toEqual([true, true]);
    expect(outcomes.filter((o) => o.ok && o.createdUser)).toHaveLength(1);
    const rows = await db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = 'delt@example.org'`);
    expect(rows).toHaveLength(1);
    expect((await referenceOf("student16@example.org")).supervisorUserId).toBe(rows[0].id);
    expect((await referenceOf("student17@example.org")).supervisorUserId).toBe(rows[0].id);
  });

  test("a deactivated user is refused and the invitation stays open", async () => {
    const secret = await invite("student24@example.org", "deaktivert@example.org");
    expect(await acceptInvitation(db, { secret, name: "Dina", phone: "91234567", now: NOW })).toEqual({
      ok: false,
      error: "deactivated",
    });
    expect((await lookUpInvitation(db, secret, NOW)).state).toBe("valid");
    expect((await referenceOf("student24@example.org")).supervisorUserId).toBeNull();
    expect(await rolesOf(await userIdOf(db, "deaktivert@example.org"))).toEqual([ROLE.Student]);
  });

  test("an expired link is refused, also one millisecond after its expiry; at the instant itself it still works", async () => {
    const sentAt = new Date("2026-11-15T09:00:00Z");
    const late = await invite("student24@example.org", "sen24@example.org", sentAt);
    const expiry = new Date(sentAt.getTime() + INVITATION_TTL_MS);
    expect(
      await acceptInvitation(db, { secret: late, name: "Sen", phone: "91234567", now: new Date(expiry.getTime() + 1) }),
    ).toEqual({
      ok: false,
      error: "expired",
    });
    expect(await userByEmail("sen24@example.org")).toBeUndefined();
    expect(await acceptInvitation(db, { secret: late, name: "Sen", phone: "91234567", now: expiry })).toMatchObject({
      ok: true,
    });
  });

  test("a secret only ever opens its own invitation; a made-up one opens none", async () => {
    const classB = (await referenceOf("student13@example.org")).classId;
    const [newcomer] = await db
      .insert(users)
      .values({ displayName: "Ny Student", email: "ny.student@example.org" })
      .returning();
    await db.insert(userRoles).values({ userId: newcomer.id, roleId: ROLE.Student });
    await db.insert(studentReferences).values({ classId: classB, studentUserId: newcomer.id });
    const secret = await invite("ny.student@example.org", "egen@example.org");
    const refsBefore = await db.select().from(studentReferences);
    for (const wrong of [
      secret.slice(0, -2) + (secret.endsWith("AA") ? "BB" : "AA"),
      hashInvitationSecret(secret),
      `${secret} `,
    ]) {
      expect(await acceptInvitation(db, { secret: wrong, name: "X", phone: "91234567", now: NOW }), wrong).toEqual({
        ok: false,
        error: "unknown",
      });
    }
    expect(await db.select().from(studentReferences)).toEqual(refsBefore);
    expect(await userByEmail("egen@example.org")).toBeUndefined();

    expect(await acceptInvitation(db, { secret, name: "Egen", phone: "91234567", now: NOW })).toMatchObject({
      ok: true,
      assignedAs: "supervisor",
    });
    const changed = (await db.select().from(studentReferences)).filter(
      (after) => JSON.stringify(after) !== JSON.stringify(refsBefore.find((r) => r.id === after.id)),
    );
    expect(changed).toEqual([
      expect.objectContaining({ studentUserId: newcomer.id, supervisorUserId: await userIdOf(db, "egen@example.org") }),
    ]);
  });

  test("a phone number that is not one is refused before anything happens", async () => {
    const secret = await invite("student23@example.org", "tlf23@example.org");
    expect(await acceptInvitation(db, { secret, name: "Tlf", phone: "ring meg", now: NOW })).toEqual({
      ok: false,
      error: "phoneInvalid",
    });
    expect((await lookUpInvitation(db, secret, NOW)).state).toBe("valid");
  });

  test("two accepts of one link at once: exactly one wins, one user is created", async () => {
    const secret = await invite("student23@example.org", "samtidig@example.org");
    const outcomes = await Promise.all([
      acceptInvitation(db, { secret, name: "En", phone: "91234567", now: NOW }),
      acceptInvitation(db, { secret, name: "To", phone: "91234567", now: NOW }),
    ]);
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    expect(outcomes.filter((o) => !o.ok)).toEqual([{ ok: false, error: "used" }]);
    const rows = await db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = 'samtidig@example.org'`);
    expect(rows).toHaveLength(1);
  });
});
