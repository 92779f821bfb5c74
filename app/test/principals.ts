import type { Db } from "~/services/platform/db/client.server";
import { ROLE, type RoleId } from "~/services/identity";
import { cookieActingAs } from "~/test/app";

/**
 * The people the permission tests act as, from the demo data (seed.server.ts). The "own" four are
 * all entitled to student01 (Emma Andersen) in class A: the student herself, her teacher, her
 * supervisor and the admin. The "other" three hold the right role but are foreign to her: a
 * classmate, a teacher of another class, and a supervisor of her class who does not follow her.
 */
export const PRINCIPALS = {
  anon: null,
  admin: ["admin@example.org", ROLE.Admin],
  student: ["student01@example.org", ROLE.Student],
  teacher: ["laerer1@example.org", ROLE.Teacher],
  supervisor: ["veileder1@example.org", ROLE.Supervisor],
  otherStudent: ["student02@example.org", ROLE.Student],
  otherTeacher: ["laerer3@example.org", ROLE.Teacher],
  otherSupervisor: ["veileder2@example.org", ROLE.Supervisor],
} as const satisfies Record<string, readonly [string, RoleId] | null>;

export type Principal = keyof typeof PRINCIPALS;
export const PRINCIPAL_NAMES = Object.keys(PRINCIPALS) as Principal[];

/** What must never reach the "other" principals: student01's name and address. */
export const FOREIGN_MARKERS = ["Emma Andersen", "student01@example.org"];

/** A session cookie acting in the principal's role ("" when logged out); a fresh session each call. */
export async function cookieOf(db: Db, principal: Principal): Promise<string> {
  const who = PRINCIPALS[principal];
  return who ? cookieActingAs(db, who[0], who[1]) : "";
}

/** One cookie per principal, made once. */
export async function cookiesOf(
  db: Db,
  principals: readonly Principal[] = PRINCIPAL_NAMES,
): Promise<Record<Principal, string>> {
  const cookies = {} as Record<Principal, string>;
  for (const principal of principals) cookies[principal] = await cookieOf(db, principal);
  return cookies;
}
