import type { Db } from "./db/client.server";
import { auditEvents } from "./db/schema";

/** Every action the trail records; the admin's audit search offers them as its filter. */
export const AUDIT_ACTIONS = [
  "login",
  "login.failed",
  "login.paused",
  "logout",
  "role.selected",
  "privacy.accepted",
  "privacy.declined",
  "otp.requested",
  "user.created",
  "user.updated",
  "user.roles_changed",
  "user.phone_changed",
  "user.activated",
  "user.deactivated",
  "admin.added_by_command",
  "admin.removed_by_command",
  "subject.created",
  "subject.updated",
  "semester.created",
  "class.created",
  "class.updated",
  "scheme.created",
  "scheme.removed",
  "form.created",
  "form.updated",
  "form.deleted",
  "report.downloaded",
  "class.joined",
  "class.left",
  "student.joined_class",
  "student.teacher_assigned",
  "student.advisor_assigned",
  "student.extra_supervisor_added",
  "student.extra_supervisor_removed",
  "advisor.added_to_class",
  "invitation.sent",
  "invitation.accepted",
  "answers.sent",
  "expectations.saved",
  "expectations.copied",
  "signing_form.created",
  "signing_form.saved",
  "signing_form.signed",
  "signing_form.cancelled",
  "result.submitted",
  "result.submission_failed",
  "document.downloaded",
  "warning.created",
  "warning.submitted",
  "warning.deleted",
  "warning.confirmed",
  "my_data.downloaded",
  "audit.searched",
  "audit.exported",
  "reminders.settings_saved",
  "retention.run",
  "user.erased",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export async function audit(
  db: Db,
  event: {
    action: AuditAction;
    actorUserId?: number | null;
    subjectUserId?: number | null;
    classId?: number | null;
    details?: Record<string, unknown>;
    ip?: string | null;
  },
): Promise<void> {
  await db.insert(auditEvents).values({
    action: event.action,
    actorUserId: event.actorUserId ?? null,
    subjectUserId: event.subjectUserId ?? null,
    classId: event.classId ?? null,
    details: event.details ?? null,
    ip: event.ip ?? null,
  });
}
