import { and, asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { normaliseEmail } from "~/services/identity/index.server";
import { audit } from "~/services/platform/audit.server";
import type { Db } from "~/services/platform/db/client.server";
import { ROLE } from "~/services/platform/db/role-ids";
import { userRoles, users } from "~/services/platform/db/schema";
import { DISPLAY_NAME_MAX_LENGTH } from "./limits";

// The operator's command for administrators (`npm run admin`, scripts/admin.mjs): the first one of a
// new installation, and any later one, without the app's pages. Every change is audited with no actor
// (the trail says it came from the command); adding twice, or removing twice, changes nothing the
// second time.

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

const emailSchema = z.email();

export interface Administrator {
  id: number;
  email: string;
  displayName: string;
  isActive: boolean;
}

export type AddResult =
  | { ok: true; outcome: "created" | "granted" | "activated" | "already"; user: Administrator }
  | { ok: false; error: "badEmail" | "nameRequired" | "nameTooLong" };

async function userByEmail(tx: Tx, email: string): Promise<Administrator | undefined> {
  const [user] = await tx
    .select({ id: users.id, email: users.email, displayName: users.displayName, isActive: users.isActive })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email))
    .for("update");
  return user;
}

async function isAdmin(tx: Tx, userId: number): Promise<boolean> {
  const [row] = await tx
    .select({ userId: userRoles.userId })
    .from(userRoles)
    .where(and(eq(userRoles.userId, userId), eq(userRoles.roleId, ROLE.Admin)));
  return row !== undefined;
}

/**
 * Makes the address an active administrator: a new user with the Administrator role (the name is
 * needed then), the role added to an existing user (who keeps their name and other roles), or a
 * deactivated administrator active again. Already one: nothing changes, nothing is audited.
 */
export async function addAdministrator(
  db: Db,
  input: { email: string; displayName?: string | null },
): Promise<AddResult> {
  const email = normaliseEmail(input.email);
  if (!emailSchema.safeParse(email).success || email.length > 254) return { ok: false, error: "badEmail" };
  const displayName = input.displayName?.trim() ?? "";
  if (displayName.length > DISPLAY_NAME_MAX_LENGTH) return { ok: false, error: "nameTooLong" };
  return db.transaction(async (tx) => {
    let user = await userByEmail(tx, email);
    if (!user) {
      if (!displayName) return { ok: false, error: "nameRequired" } as const;
      // Another command adding the same address at this moment: its user is taken as found.
      const [created] = await tx
        .insert(users)
        .values({ email, displayName })
        .onConflictDoNothing()
        .returning({ id: users.id });
      if (created) {
        await tx.insert(userRoles).values({ userId: created.id, roleId: ROLE.Admin });
        await audit(tx, {
          action: "admin.added_by_command",
          subjectUserId: created.id,
          details: { by: "command", created: true },
        });
        return { ok: true, outcome: "created", user: { id: created.id, email, displayName, isActive: true } } as const;
      }
      user = (await userByEmail(tx, email))!;
    }
    const admin = await isAdmin(tx, user.id);
    if (admin && user.isActive) return { ok: true, outcome: "already", user } as const;
    if (!admin) await tx.insert(userRoles).values({ userId: user.id, roleId: ROLE.Admin }).onConflictDoNothing();
    const activated = !user.isActive;
    if (activated) await tx.update(users).set({ isActive: true }).where(eq(users.id, user.id));
    await audit(tx, {
      action: "admin.added_by_command",
      subjectUserId: user.id,
      details: { by: "command", created: false, activated },
    });
    return { ok: true, outcome: admin ? "activated" : "granted", user: { ...user, isActive: true } } as const;
  });
}

/** Everyone with the Administrator role, active or not, by address. */
export async function listAdministrators(db: Db): Promise<Administrator[]> {
  return db
    .select({ id: users.id, email: users.email, displayName: users.displayName, isActive: users.isActive })
    .from(users)
    .innerJoin(userRoles, and(eq(userRoles.userId, users.id), eq(userRoles.roleId, ROLE.Admin)))
    .orderBy(asc(sql`lower(${users.email})`));
}

export type RemoveResult =
  | { ok: true; outcome: "removed"; user: Administrator; rolesLeft: number }
  | { ok: true; outcome: "notAdmin"; user: Administrator }
  | { ok: false; error: "unknown" | "last" };

/**
 * Takes the Administrator role from the address (the user and their other roles stay). Never from
 * the last active administrator: someone must be left to run the institution's pages.
 */
export async function removeAdministrator(db: Db, input: { email: string }): Promise<RemoveResult> {
  const email = normaliseEmail(input.email);
  return db.transaction(async (tx) => {
    // The administrators' role rows, locked: two removals at once cannot both pass the count below.
    const admins = await tx
      .select({ userId: userRoles.userId, isActive: users.isActive })
      .from(userRoles)
      .innerJoin(users, eq(users.id, userRoles.userId))
      .where(eq(userRoles.roleId, ROLE.Admin))
      .for("update", { of: userRoles });
    const user = await userByEmail(tx, email);
    if (!user) return { ok: false, error: "unknown" } as const;
    if (!admins.some((a) => a.userId === user.id)) return { ok: true, outcome: "notAdmin", user } as const;
    const othersActive = admins.filter((a) => a.isActive && a.userId !== user.id).length;
    if (user.isActive && othersActive === 0) return { ok: false, error: "last" } as const;
    await tx.delete(userRoles).where(and(eq(userRoles.userId, user.id), eq(userRoles.roleId, ROLE.Admin)));
    await audit(tx, { action: "admin.removed_by_command", subjectUserId: user.id, details: { by: "command" } });
    const [{ left }] = await tx
      .select({ left: sql<number>`count(*)::int` })
      .from(userRoles)
      .where(eq(userRoles.userId, user.id));
    return { ok: true, outcome: "removed", user, rolesLeft: left } as const;
  });
}

export const ADMIN_COMMAND_USAGE = [
  "Usage:",
  '  npm run admin -- add EMAIL "NAME"   make EMAIL an administrator (a new user needs NAME)',
  "  npm run admin -- list               list the administrators",
  "  npm run admin -- remove EMAIL       take the administrator role from EMAIL",
];

export interface CommandResult {
  /** 0: done (or nothing to do); 1: refused; 2: the command was not understood. */
  exitCode: 0 | 1 | 2;
  lines: string[];
}

/** `npm run admin -- …`: the command's arguments in, the lines to print and its exit code out. */
export async function adminCommand(db: Db, args: readonly string[]): Promise<CommandResult> {
  const [verb, email, ...rest] = args;
  const usage = (why: string): CommandResult => ({ exitCode: 2, lines: [why, ...ADMIN_COMMAND_USAGE] });
  if (verb === "list" && args.length === 1) {
    const admins = await listAdministrators(db);
    if (admins.length === 0)
      return { exitCode: 0, lines: ['No administrators yet. Add the first: npm run admin -- add EMAIL "NAME"'] };
    const width = Math.max(...admins.map((a) => a.email.length));
    return {
      exitCode: 0,
      lines: [
        `${admins.length} administrator${admins.length === 1 ? "" : "s"}:`,
        ...admins.map((a) => `  ${a.email.padEnd(width)}  ${a.displayName}${a.isActive ? "" : " (deactivated)"}`),
      ],
    };
  }
  if (verb === "add" && email && rest.length <= 1) {
    const result = await addAdministrator(db, { email, displayName: rest[0] });
    if (!result.ok) {
      if (result.error === "badEmail") return usage(`"${email}" is not an e-mail address.`);
      if (result.error === "nameTooLong")
        return usage(`The name is longer than ${DISPLAY_NAME_MAX_LENGTH} characters.`);
      return usage(`No user has the address ${normaliseEmail(email)} yet: give the new administrator's name too.`);
    }
    const { user } = result;
    const line = {
      created: `${user.email} (${user.displayName}) is an administrator: a new user, who logs in with an e-mail code sent to that address.`,
      granted: `${user.email} (${user.displayName}, an existing user) is an administrator now, besides their other roles.`,
      activated: `${user.email} (${user.displayName}) was a deactivated administrator: active again.`,
      already: `${user.email} (${user.displayName}) is an administrator already: nothing changed.`,
    }[result.outcome];
    return { exitCode: 0, lines: [line] };
  }
  if (verb === "remove" && email && rest.length === 0) {
    const result = await removeAdministrator(db, { email });
    if (!result.ok) {
      if (result.error === "unknown")
        return { exitCode: 1, lines: [`No user has the address ${normaliseEmail(email)}: nothing changed.`] };
      return {
        exitCode: 1,
        lines: [
          `${normaliseEmail(email)} is the last active administrator: add another first (npm run admin -- add EMAIL "NAME"). Nothing changed.`,
        ],
      };
    }
    if (result.outcome === "notAdmin")
      return { exitCode: 0, lines: [`${result.user.email} is not an administrator: nothing changed.`] };
    return {
      exitCode: 0,
      lines: [
        `${result.user.email} is no longer an administrator.${result.rolesLeft === 0 ? " They have no other role: give them one on the Users page, or deactivate them there." : ""}`,
      ],
    };
  }
  return usage(verb ? `Not understood: ${args.join(" ")}` : "No command given.");
}
