import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "~/services/platform/db/client.server";
import { auditEvents, roles, userRoles, users } from "~/services/platform/db/schema";
import { storedMemberships } from "./memberships.server";

/**
 * What /debug/fs shows about the signed-in user: the stored identity, what Feide said at the last
 * Feide log-in (from the audit log), the course memberships and the roles.
 */
export async function debugIdentity(db: Db, userId: number) {
  const [user] = await db
    .select({
      id: users.id,
      displayName: users.displayName,
      email: users.email,
      phoneNumber: users.phoneNumber,
      feideUserId: users.feideUserId,
      isActive: users.isActive,
    })
    .from(users)
    .where(eq(users.id, userId));
  const [lastFeideLogin] = await db
    .select({ at: auditEvents.at, details: auditEvents.details })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.actorUserId, userId),
        eq(auditEvents.action, "login"),
        sql`${auditEvents.details}->>'method' = 'feide'`,
      ),
    )
    .orderBy(desc(auditEvents.at))
    .limit(1);
  const memberships = await storedMemberships(db, userId);
  const roleRows = await db
    .select({ id: roles.id, name: roles.name })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(eq(userRoles.userId, userId))
    .orderBy(roles.id);
  return {
    user: user ?? null,
    lastFeideLogin: lastFeideLogin ? { at: lastFeideLogin.at.toISOString(), details: lastFeideLogin.details } : null,
    memberships: memberships.map((m) => ({
      groupId: m.groupId,
      groupType: m.groupType,
      subjectCode: m.subjectCode,
      subjectVersion: m.subjectVersion,
      displayName: m.displayName,
      active: m.active,
      notBefore: m.notBefore?.toISOString() ?? null,
      notAfter: m.notAfter?.toISOString() ?? null,
      fsRoles: m.fsRoles,
      fetchedAt: m.fetchedAt.toISOString(),
    })),
    roles: roleRows,
  };
}
