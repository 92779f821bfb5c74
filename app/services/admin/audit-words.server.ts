import { eq, inArray } from "drizzle-orm";
import type { Db } from "~/services/platform/db/client.server";
import { classes, forms, semesters, subjects, users } from "~/services/platform/db/schema";
import { isRoleId, ROLE_NAMES } from "~/services/identity";
import type { AuditEntry } from "./audit-log.server";

/**
 * The audit log in words, for the admin's page: each action code ("record.opened") as a phrase,
 * each detail under its name with its value in words (a yes, a half, a count of students, a form's,
 * semester's, class's or person's name instead of an id), and the class by name. The CSV export keeps
 * the codes and the details as stored (audit-csv.server.ts): a file for archives and scripts, the same
 * in both languages and from release to release.
 */

export type Translate = (key: string, values?: Record<string, unknown>) => string;

export interface DetailLine {
  label: string;
  value: string;
}

export interface EntryWords {
  action: string;
  className: string | null;
  details: DetailLine[];
}

/** Keys whose value is a user's id, and those whose value is a list of students (shown as their count). */
const USER_KEYS = new Set(["teacherUserId", "supervisorUserId", "holderUserId"]);
const STUDENT_LISTS = new Set(["studentUserIds", "releasedStudentUserIds"]);
/**
 * Keys not shown: the report's list of students (its count is), and a Vipps identity's opaque id.
 * The CSV export has them all.
 */
const HIDDEN = new Set(["sub", "studentUserIds"]);

interface Names {
  classes: Map<number, string>;
  semesters: Map<number, string>;
  forms: Map<number, string>;
  users: Map<number, string>;
}

function ids(value: unknown): number[] {
  if (typeof value === "number" && Number.isInteger(value)) return [value];
  if (Array.isArray(value)) return value.flatMap(ids);
  return [];
}

/** The names the entries' ids need, in four queries at most. */
async function namesFor(db: Db, entries: readonly AuditEntry[]): Promise<Names> {
  const classIds = new Set<number>();
  const semesterIds = new Set<number>();
  const formIds = new Set<number>();
  const userIds = new Set<number>();
  for (const entry of entries) {
    if (entry.classId !== null) classIds.add(entry.classId);
    const d = entry.details ?? {};
    for (const id of ids(d.fromClassId)) classIds.add(id);
    for (const id of ids(d.periodId)) semesterIds.add(id); // stored name
    for (const id of [...ids(d.formId), ...ids(d.formIds)]) formIds.add(id);
    if (Array.isArray(d.forms))
      for (const f of d.forms) for (const id of ids((f as { formId?: unknown })?.formId)) formIds.add(id);
    for (const key of USER_KEYS) for (const id of ids(d[key])) userIds.add(id);
  }
  const [classRows, semesterRows, formRows, userRows] = await Promise.all([
    classIds.size
      ? db
          .select({ id: classes.id, code: subjects.subjectCode, subject: subjects.name, semester: semesters.name })
          .from(classes)
          .innerJoin(subjects, eq(subjects.id, classes.subjectId))
          .innerJoin(semesters, eq(semesters.id, classes.semesterId))
          .where(inArray(classes.id, [...classIds]))
      : [],
    semesterIds.size
      ? db
          .select({ id: semesters.id, name: semesters.name })
          .from(semesters)
          .where(inArray(semesters.id, [...semesterIds]))
      : [],
    formIds.size
      ? db
          .select({ id: forms.id, name: forms.name })
          .from(forms)
          .where(inArray(forms.id, [...formIds]))
      : [],
    userIds.size
      ? db
          .select({ id: users.id, name: users.displayName })
          .from(users)
          .where(inArray(users.id, [...userIds]))
      : [],
  ]);
  return {
    classes: new Map(classRows.map((c) => [c.id, `${c.code} ${c.subject} (${c.semester})`])),
    semesters: new Map(semesterRows.map((p) => [p.id, p.name])),
    forms: new Map(formRows.map((f) => [f.id, f.name])),
    users: new Map(userRows.map((u) => [u.id, u.name])),
  };
}

/** One detail's value in words. */
export function detailValue(key: string, value: unknown, names: Names, t: Translate): string {
  const named = (map: Map<number, string>, id: unknown) =>
    typeof id === "number" ? (map.get(id) ?? `#${id}`) : plain(id);
  const plain = (v: unknown): string => {
    if (v === null || v === undefined || v === "") return t("audit.empty");
    if (typeof v === "boolean") return v ? t("audit.yes") : t("audit.no");
    if (typeof v === "string" || typeof v === "number") return String(v);
    if (Array.isArray(v)) return v.map(plain).join(", ");
    return JSON.stringify(v);
  };
  if (STUDENT_LISTS.has(key) && Array.isArray(value)) return t("audit.count", { count: value.length });
  if (key === "questions" && Array.isArray(value)) return t("audit.items", { count: value.length });
  if (key === "isMidSemester") return value ? t("audit.mid") : t("audit.end");
  if (key === "periodId") return named(names.semesters, value); // stored name
  if (key === "fromClassId") return named(names.classes, value);
  if (key === "formId") return named(names.forms, value);
  if (key === "formIds" && Array.isArray(value)) return value.map((id) => named(names.forms, id)).join(", ");
  if (key === "forms" && Array.isArray(value)) {
    return value
      .map((f: { formId?: unknown; isMidSemester?: unknown; questions?: unknown }) =>
        t("audit.copiedForm", {
          form: named(names.forms, f.formId),
          half: f.isMidSemester ? t("audit.mid") : t("audit.end"),
          count: f.questions,
        }),
      )
      .join("; ");
  }
  if (key === "phone" && typeof value === "string") return t(`audit.phoneChange.${value}`, { defaultValue: value });
  if (key === "report" && typeof value === "string") return t(`audit.reports.${value}`, { defaultValue: value });
  if (key === "page" && typeof value === "string") return t(`audit.openedPages.${value}`, { defaultValue: value });
  if ((key === "role" || key === "roleId") && typeof value === "number" && isRoleId(value))
    return t(`common:roles.${ROLE_NAMES[value]}.name`);
  if (key === "method" && typeof value === "string") return t(`audit.loginMethods.${value}`, { defaultValue: value });
  if (USER_KEYS.has(key)) return named(names.users, value);
  if (value && typeof value === "object" && !Array.isArray(value) && "from" in value && "to" in value) {
    const change = value;
    return `${plain(change.from)} → ${plain(change.to)}`;
  }
  return plain(value);
}

/** The entries in words, in the reader's language (t: the privacyData namespace). */
export async function auditInWords(db: Db, entries: readonly AuditEntry[], t: Translate): Promise<EntryWords[]> {
  const names = await namesFor(db, entries);
  return entries.map((entry) => {
    const details = Object.entries(entry.details ?? {})
      .filter(([key]) => !HIDDEN.has(key))
      .map(([key, value]) => ({
        label: t(`audit.detailKeys.${key}`, { defaultValue: key }),
        value: detailValue(key, value, names, t),
      }));
    return {
      action: t(`audit.actions.${entry.action.replaceAll(".", "_")}`, { defaultValue: entry.action }),
      className:
        entry.classId === null
          ? null
          : (names.classes.get(entry.classId) ?? t("audit.classUnknown", { id: entry.classId })),
      details,
    };
  });
}
