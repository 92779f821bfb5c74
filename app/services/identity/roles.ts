import type { KeyOf } from "~/locales/keys";
import { ROLE, type RoleId, type RoleName } from "~/services/platform/db/role-ids";

export { ROLE, type RoleId, type RoleName };

export const ROLE_NAMES: Record<RoleId, RoleName> = { 1: "Admin", 2: "Student", 3: "Teacher", 4: "Advisor" };

/** Each role's area. The Supervisor's area lives at /supervisor, the word the interface uses; /advisor redirects there. */
export const ROLE_HOME: Record<RoleId, string> = {
  1: "/admin",
  2: "/student",
  3: "/teacher",
  4: "/supervisor",
};

/** The pages of each area's side menu, after its home (labels are keys in the common namespace). */
export const ROLE_MENU: Record<RoleId, { href: string; labelKey: KeyOf<"common"> }[]> = {
  1: [
    { href: "/admin/semesters", labelKey: "menu.admin.semesters" },
    { href: "/admin/forms", labelKey: "menu.admin.forms" },
    { href: "/admin/subjects", labelKey: "menu.admin.subjects" },
    { href: "/admin/users", labelKey: "menu.admin.users" },
    { href: "/admin/audit", labelKey: "menu.admin.audit" },
    { href: "/admin/reminders", labelKey: "menu.admin.reminders" },
    { href: "/admin/retention", labelKey: "menu.admin.retention" },
  ],
  2: [
    { href: "/student/forms", labelKey: "menu.student.forms" },
    // Always there: a warning stays one click away after the student has confirmed it (the page says when there is none).
    { href: "/student/warning", labelKey: "menu.student.warning" },
    { href: "/student/my-data", labelKey: "menu.student.myData" },
  ],
  3: [],
  4: [],
};

export const AREA_ROLE: Record<string, RoleId> = {
  admin: ROLE.Admin,
  student: ROLE.Student,
  teacher: ROLE.Teacher,
  supervisor: ROLE.Supervisor,
};

export function isRoleId(value: number): value is RoleId {
  return value === 1 || value === 2 || value === 3 || value === 4;
}

export function roleIdFromName(name: string): RoleId | undefined {
  return (ROLE as Record<string, RoleId>)[name];
}

/**
 * The role a session acts in: the one chosen earlier while the user still holds it, else the only
 * role when there is exactly one, else none (the user chooses).
 */
export function resolveActiveRole(userRoles: readonly number[], chosen: number | null | undefined): RoleId | null {
  const held = [...new Set(userRoles)].filter(isRoleId).sort();
  if (chosen != null && held.includes(chosen as RoleId)) return chosen as RoleId;
  if (held.length === 1) return held[0];
  return null;
}

/** The area a path belongs to, if any: "/teacher/class/3" → Teacher. */
export function areaOfPath(pathname: string): RoleId | null {
  const first = pathname.split("/")[1]?.toLowerCase() ?? "";
  return AREA_ROLE[first] ?? null;
}

/**
 * Only a same-site path may be a redirect target: it starts with one "/", not "//" or "/\",
 * and has no scheme or control characters.
 */
export function safeRedirect(target: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof target !== "string" || target.length === 0 || target.length > 2000) return fallback;
  if (!target.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) return fallback;
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  if (/[\u0000-\u001f\u007f\\]/.test(target)) return fallback;
  try {
    const url = new URL(target, "http://praksis.invalid");
    // Checked after normalising too: "/.//evil.com" becomes "//evil.com", another site.
    const path = url.pathname + url.search + url.hash;
    if (url.origin !== "http://praksis.invalid" || path.startsWith("//") || path.startsWith("/\\")) return fallback;
    return path;
  } catch {
    return fallback;
  }
}

/** The `-simple` log-in pages keep their visitor in the narrow flow without other methods. */
export function isSimpleLogin(url: string): boolean {
  return new URL(url).pathname.endsWith("-simple");
}
