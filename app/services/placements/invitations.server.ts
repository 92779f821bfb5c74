import crypto from "node:crypto";
import { and, desc, eq, gt, isNull, ne, sql } from "drizzle-orm";
import { audit } from "~/services/platform/audit.server";
import { findUserByEmail, type LoginUser, normaliseEmail } from "~/services/identity/index.server";
import type { Db } from "~/services/platform/db/client.server";
import {
  supervisorInvitations,
  classSupervisors,
  classes,
  studentExtraSupervisors,
  studentReferences,
  subjects,
  userRoles,
  users,
} from "~/services/platform/db/schema";
import { MailNotSent, sendMail } from "~/services/platform/email.server";
import { hitRateLimit } from "~/services/platform/rate-limit.server";
import { ROLE } from "~/services/identity";
import { placeConflict, studiesInClass, type PlaceConflict } from "./placement-roles.server";
import { formatDayTime } from "~/services/platform/semesters";

/**
 * A student invites a supervisor by e-mail (docs/rules/placements.md). The link carries a random secret;
 * only its SHA-256 is stored, so a leaked table yields no usable links. Following the link proves
 * control of the mailbox as an e-mail code does, so accepting logs in an account the link itself
 * creates — and no other (ADR 0006).
 */

export const INVITATION_TTL_MS = 3 * 24 * 60 * 60 * 1000;
/** Invitations a student may send per window: enough to fix a typo, too few to spam with. */
export const INVITATION_LIMIT = { limit: 5, windowMs: 24 * 60 * 60 * 1000 };

export function hashInvitationSecret(secret: string): string {
  return crypto.createHash("sha256").update(secret, "utf8").digest("hex");
}

export function newInvitationSecret(): string {
  return crypto.randomBytes(32).toString("base64url");
}

/** The link in the mail; `origin` is APP_URL, or the origin the student's request came to. */
export function invitationLink(origin: string, secret: string): string {
  const url = new URL("/supervisor/accept-invitation", origin);
  url.searchParams.set("verificationGuid", secret);
  url.searchParams.set("redirect_uri", "/supervisor");
  return url.toString();
}

/** Valid up to and including the instant it expires; expired once that instant has passed. */
export function isExpired(expiresAt: Date, now: Date): boolean {
  return now.getTime() > expiresAt.getTime();
}

/**
 * A phone number as people type it: digits, spaces and a leading +. Eight digits are a Norwegian
 * number and get +47; anything else is kept as typed, without spaces. null when it is not a number.
 */
export function normalisePhone(text: string): string | null {
  const compact = text.replace(/\s+/g, "");
  if (!/^\+?\d{8,15}$/.test(compact)) return null;
  return /^\d{8}$/.test(compact) ? `+47${compact}` : compact;
}

export type CreateInvitationOutcome =
  | { ok: true; invitationId: number; email: string; expiresAt: Date }
  | { ok: false; error: "hasSupervisor" | "ownAddress" | "notFound" | "mailFailed" }
  | { ok: false; error: "rateLimited"; retryAfterSeconds: number };

interface ReferenceFacts {
  referenceId: number;
  classId: number;
  studentUserId: number;
  supervisorUserId: number | null;
  studentName: string;
  studentEmail: string;
  subjectCode: string;
  subjectName: string;
  /** The assigned supervisor is an active user (a deactivated one supervises nobody). */
  supervisorIsActive: boolean;
  /** Active extra supervisors. */
  extraSupervisors: number;
}

async function referenceFacts(db: Db, referenceId: number): Promise<ReferenceFacts | null> {
  const [row] = await db
    .select({
      referenceId: studentReferences.id,
      classId: studentReferences.classId,
      studentUserId: studentReferences.studentUserId,
      supervisorUserId: studentReferences.supervisorUserId,
      studentName: users.displayName,
      studentEmail: users.email,
      subjectCode: subjects.subjectCode,
      subjectName: subjects.name,
      supervisorIsActive: sql<boolean>`exists (select 1 from ${users} a where a.id = ${studentReferences.supervisorUserId} and a.is_active)`,
      extraSupervisors: sql<number>`(select count(*)::int from ${studentExtraSupervisors} join ${users} e on e.id = ${studentExtraSupervisors.userId} where ${studentExtraSupervisors.studentReferenceId} = ${studentReferences.id} and e.is_active)`,
    })
    .from(studentReferences)
    .innerJoin(users, eq(users.id, studentReferences.studentUserId))
    .innerJoin(classes, eq(classes.id, studentReferences.classId))
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .where(eq(studentReferences.id, referenceId));
  return row ? { ...row, extraSupervisors: Number(row.extraSupervisors) } : null;
}

/**
 * Sends an invitation for the student's reference. Refused when the student already has an active
 * supervisor, when the address is the student's own, and beyond INVITATION_LIMIT a day. Once the
 * mail is out, the student's earlier open invitations end: only the latest link works, so a
 * mistyped address sent first cannot become the supervisor later. A mail that cannot be sent
 * leaves no trace but the refusal, and the earlier link as it was.
 */
export async function createInvitation(
  db: Db,
  input: { referenceId: number; studentUserId: number; email: string; origin: string; ip?: string | null; now?: Date },
): Promise<CreateInvitationOutcome> {
  const now = input.now ?? new Date();
  const email = normaliseEmail(input.email);
  const facts = await referenceFacts(db, input.referenceId);
  if (!facts || facts.studentUserId !== input.studentUserId) return { ok: false, error: "notFound" };
  if (normaliseEmail(facts.studentEmail) === email) return { ok: false, error: "ownAddress" };
  const secret = newInvitationSecret();
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
  const created = await db.transaction(async (tx) => {
    // The reference row orders this against other invitations and acceptances for the same student.
    await tx
      .select({ id: studentReferences.id })
      .from(studentReferences)
      .where(eq(studentReferences.id, facts.referenceId))
      .for("update");
    const current = await referenceFacts(tx, facts.referenceId);
    if (!current || current.supervisorIsActive || current.extraSupervisors > 0)
      return { ok: false as const, error: "hasSupervisor" as const };
    const limit = await hitRateLimit(tx, `invitation:student:${input.studentUserId}`, INVITATION_LIMIT, now);
    if (!limit.allowed)
      return { ok: false as const, error: "rateLimited" as const, retryAfterSeconds: limit.retryAfterSeconds };
    const [row] = await tx
      .insert(supervisorInvitations)
      .values({
        studentReferenceId: facts.referenceId,
        invitedByUserId: input.studentUserId,
        email,
        tokenHash: hashInvitationSecret(secret),
        expiresAt,
        createdAt: now,
      })
      .returning({ id: supervisorInvitations.id });
    return { ok: true as const, invitationId: row.id };
  });
  if (!created.ok) return created;

  try {
    await sendMail(
      {
        to: email,
        subject: `${facts.studentName} inviterer deg som praksisveileder i ${facts.subjectCode}`,
        text: invitationMailText({
          studentName: facts.studentName,
          subject: `${facts.subjectCode} ${facts.subjectName}`,
          link: invitationLink(input.origin, secret),
          validUntil: formatDayTime(expiresAt, "nb"),
        }),
      },
      { purpose: "invitation" },
    );
  } catch (error) {
    if (!(error instanceof MailNotSent)) throw error;
    // Nobody got the link (the mail service logged why): the student is told to try again, and the invitation is gone.
    await db.delete(supervisorInvitations).where(eq(supervisorInvitations.id, created.invitationId));
    return { ok: false, error: "mailFailed" };
  }

  await db.transaction(async (tx) => {
    await tx
      .select({ id: studentReferences.id })
      .from(studentReferences)
      .where(eq(studentReferences.id, facts.referenceId))
      .for("update");
    // Ended as of just before each was sent, so an acceptance that read the clock a moment ago cannot slip through.
    await tx
      .update(supervisorInvitations)
      .set({ expiresAt: sql`${supervisorInvitations.createdAt} - interval '1 millisecond'` })
      .where(
        and(
          eq(supervisorInvitations.studentReferenceId, facts.referenceId),
          ne(supervisorInvitations.id, created.invitationId),
          isNull(supervisorInvitations.acceptedAt),
          gt(supervisorInvitations.expiresAt, supervisorInvitations.createdAt),
        ),
      );
    await audit(tx, {
      action: "invitation.sent",
      actorUserId: input.studentUserId,
      subjectUserId: input.studentUserId,
      classId: facts.classId,
      ip: input.ip ?? null,
      details: { invitationId: created.invitationId, email },
    });
  });
  return { ok: true, invitationId: created.invitationId, email, expiresAt };
}

/** The mail is in Norwegian: the supervisor has no account yet, so no language choice to go by. */
function invitationMailText(values: {
  studentName: string;
  subject: string;
  link: string;
  validUntil: string;
}): string {
  return [
    "Hei!",
    "",
    `${values.studentName} har invitert deg til å være praksisveileder i emnet ${values.subject}.`,
    "",
    "Åpne lenken under for å godta invitasjonen. Er du ny i Praksis, bekrefter du også navn og mobilnummer:",
    values.link,
    "",
    `Lenken kan brukes én gang og er gyldig til ${values.validUntil}.`,
    "Senere logger du inn med Vipps eller med en engangskode sendt til denne e-postadressen.",
    "",
    "Kjenner du ikke til dette, kan du se bort fra e-posten.",
  ].join("\n");
}

export type InvitationState = "sent" | "expired" | "accepted";

export interface InvitationStatus {
  email: string;
  state: InvitationState;
  expiresAt: Date;
  acceptedAt: Date | null;
  acceptedByName: string | null;
}

/** The latest invitation of the student's reference and how it stands; null when none was sent. */
export async function invitationStatus(
  db: Db,
  referenceId: number,
  now = new Date(),
): Promise<InvitationStatus | null> {
  const [row] = await db
    .select({
      email: supervisorInvitations.email,
      expiresAt: supervisorInvitations.expiresAt,
      acceptedAt: supervisorInvitations.acceptedAt,
      acceptedByName: users.displayName,
    })
    .from(supervisorInvitations)
    .leftJoin(users, eq(users.id, supervisorInvitations.acceptedUserId))
    .where(eq(supervisorInvitations.studentReferenceId, referenceId))
    .orderBy(desc(supervisorInvitations.createdAt), desc(supervisorInvitations.id))
    .limit(1);
  if (!row) return null;
  const state: InvitationState = row.acceptedAt ? "accepted" : isExpired(row.expiresAt, now) ? "expired" : "sent";
  return { ...row, state };
}

/**
 * Who the invited address belongs to: nobody yet (the acceptance creates the supervisor), a
 * supervisor (linked as they are), or someone the link may not make a supervisor.
 */
export type InvitedAccount = "new" | "supervisor" | "notSupervisor" | "deactivated";

export type InvitationLookup =
  | {
      state: "valid";
      invitationId: number;
      email: string;
      expiresAt: Date;
      studentName: string;
      subjectCode: string;
      subjectName: string;
      account: InvitedAccount;
    }
  | { state: "unknown" | "expired" | "used" };

async function accountOf(db: Db, email: string): Promise<{ userId: number; account: InvitedAccount } | null> {
  const [row] = await db
    .select({
      userId: users.id,
      isActive: users.isActive,
      isSupervisor: sql<boolean>`exists (select 1 from ${userRoles} where ${userRoles.userId} = ${users.id} and ${userRoles.roleId} = ${ROLE.Supervisor})`,
    })
    .from(users)
    .where(eq(sql`lower(${users.email})`, normaliseEmail(email)));
  if (!row) return null;
  return {
    userId: row.userId,
    account: !row.isActive ? "deactivated" : row.isSupervisor ? "supervisor" : "notSupervisor",
  };
}

/** What a link leads to. Anything that is not a secret we issued is simply unknown. */
export async function lookUpInvitation(db: Db, secret: string | null, now = new Date()): Promise<InvitationLookup> {
  if (!secret || secret.length > 200) return { state: "unknown" };
  const [row] = await db
    .select({
      invitationId: supervisorInvitations.id,
      email: supervisorInvitations.email,
      expiresAt: supervisorInvitations.expiresAt,
      acceptedAt: supervisorInvitations.acceptedAt,
      studentName: users.displayName,
      subjectCode: subjects.subjectCode,
      subjectName: subjects.name,
    })
    .from(supervisorInvitations)
    .innerJoin(studentReferences, eq(studentReferences.id, supervisorInvitations.studentReferenceId))
    .innerJoin(users, eq(users.id, studentReferences.studentUserId))
    .innerJoin(classes, eq(classes.id, studentReferences.classId))
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .where(eq(supervisorInvitations.tokenHash, hashInvitationSecret(secret)));
  if (!row) return { state: "unknown" };
  if (row.acceptedAt) return { state: "used" };
  if (isExpired(row.expiresAt, now)) return { state: "expired" };
  const { acceptedAt: _acceptedAt, ...valid } = row;
  return { state: "valid", ...valid, account: (await accountOf(db, row.email))?.account ?? "new" };
}

export type AcceptRefusal =
  "unknown" | "expired" | "used" | "deactivated" | "notSupervisor" | "phoneInvalid" | "nameRequired" | PlaceConflict;

export type AcceptOutcome =
  | { ok: true; user: LoginUser; createdUser: boolean; assignedAs: "supervisor" | "extraSupervisor" | "already" }
  | { ok: false; error: AcceptRefusal };

class Refusal extends Error {
  constructor(readonly error: AcceptRefusal) {
    super(error);
  }
}

/**
 * The supervisor accepts: in one transaction with the invitation row locked (so a link is used
 * once, even by two clicks at once), finds the supervisor by the invited address or creates them
 * with the name and phone number given, makes them the student's supervisor (or an extra
 * supervisor when the student got one meanwhile), attaches them to the class, and marks the
 * invitation used. An existing account is linked as it is, never changed: a link can be forwarded,
 * so what is typed on its page must not rename someone, give them a role, or set the phone number
 * Vipps logs them in with. Who may follow the student is placement-roles.server.ts's rule.
 */
export async function acceptInvitation(
  db: Db,
  input: { secret: string; name?: string; phone?: string; ip?: string | null; now?: Date },
): Promise<AcceptOutcome> {
  const now = input.now ?? new Date();
  if (input.secret.length === 0 || input.secret.length > 200) return { ok: false, error: "unknown" };
  try {
    const result = await db.transaction(async (tx) => {
      const [issued] = await tx
        .select({ id: supervisorInvitations.id, studentReferenceId: supervisorInvitations.studentReferenceId })
        .from(supervisorInvitations)
        .where(eq(supervisorInvitations.tokenHash, hashInvitationSecret(input.secret)));
      if (!issued) throw new Refusal("unknown");
      // The student's reference first, then the invitation: the order createInvitation locks in too.
      const [reference] = await tx
        .select({
          id: studentReferences.id,
          classId: studentReferences.classId,
          studentUserId: studentReferences.studentUserId,
          teacherUserId: studentReferences.teacherUserId,
          supervisorUserId: studentReferences.supervisorUserId,
          supervisorIsActive: sql<boolean>`exists (select 1 from ${users} a where a.id = ${studentReferences.supervisorUserId} and a.is_active)`,
        })
        .from(studentReferences)
        .where(eq(studentReferences.id, issued.studentReferenceId))
        .for("update", { of: studentReferences });
      if (!reference) throw new Refusal("unknown");
      const [invitation] = await tx
        .select()
        .from(supervisorInvitations)
        .where(eq(supervisorInvitations.id, issued.id))
        .for("update");
      if (!invitation) throw new Refusal("unknown");
      if (invitation.acceptedAt) throw new Refusal("used");
      if (isExpired(invitation.expiresAt, now)) throw new Refusal("expired");

      let found = await accountOf(tx, invitation.email);
      let createdUser = false;
      if (!found) {
        const name = input.name?.trim() ?? "";
        if (name.length === 0) throw new Refusal("nameRequired");
        const phone = normalisePhone(input.phone ?? "");
        if (phone === null) throw new Refusal("phoneInvalid");
        const [created] = await tx
          .insert(users)
          .values({ displayName: name, email: invitation.email, phoneNumber: phone })
          .onConflictDoNothing()
          .returning({ id: users.id });
        if (created) {
          await tx.insert(userRoles).values({ userId: created.id, roleId: ROLE.Supervisor });
          found = { userId: created.id, account: "supervisor" };
          createdUser = true;
        } else {
          // Another acceptance created this address a moment ago; link that account as it is.
          found = await accountOf(tx, invitation.email);
        }
      }
      if (!found) throw new Refusal("unknown");
      if (found.account === "deactivated" || found.account === "notSupervisor") throw new Refusal(found.account);
      const userId = found.userId;
      const conflict = placeConflict(
        "supervisor",
        { userId, studiesInClass: await studiesInClass(tx, reference.classId, userId), isExtraSupervisor: false },
        reference,
      );
      if (conflict) throw new Refusal(conflict);

      let assignedAs: "supervisor" | "extraSupervisor" | "already";
      // A deactivated supervisor supervises nobody: the invited one takes their place.
      if (
        reference.supervisorUserId === null ||
        (!reference.supervisorIsActive && reference.supervisorUserId !== userId)
      ) {
        await tx
          .update(studentReferences)
          .set({ supervisorUserId: userId })
          .where(eq(studentReferences.id, reference.id));
        assignedAs = "supervisor";
      } else if (reference.supervisorUserId === userId) {
        assignedAs = "already";
      } else {
        const added = await tx
          .insert(studentExtraSupervisors)
          .values({ studentReferenceId: reference.id, userId, roleId: ROLE.Supervisor })
          .onConflictDoNothing()
          .returning({ userId: studentExtraSupervisors.userId });
        assignedAs = added.length > 0 ? "extraSupervisor" : "already";
      }
      // Attached, but as invited: they follow this student and may not take others (ADR 0006).
      await tx
        .insert(classSupervisors)
        .values({ classId: reference.classId, userId, viaInvitation: true })
        .onConflictDoNothing();
      await tx
        .update(supervisorInvitations)
        .set({ acceptedAt: now, acceptedUserId: userId })
        .where(eq(supervisorInvitations.id, invitation.id));
      await audit(tx, {
        action: "invitation.accepted",
        actorUserId: userId,
        subjectUserId: reference.studentUserId,
        classId: reference.classId,
        ip: input.ip ?? null,
        details: {
          invitationId: invitation.id,
          createdUser,
          assignedAs: assignedAs === "supervisor" ? "advisor" : assignedAs, // stored name
          replaced: assignedAs === "supervisor" ? reference.supervisorUserId : null,
        },
      });
      return { email: invitation.email, createdUser, assignedAs };
    });
    const user = await findUserByEmail(db, result.email);
    if (!user) throw new Error("acceptInvitation: the user vanished");
    return { ok: true, user, createdUser: result.createdUser, assignedAs: result.assignedAs };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, error: error.error };
    throw error;
  }
}
