import type { TFunction } from "i18next";
import type { Language } from "~/locales";
import { formatDay } from "~/services/platform/semesters";

/**
 * A reminder's mail: plain text, and the same as simple HTML, in the recipient's language, signed
 * with the institution's name and ending with the link to Settings where it can be switched off.
 * Warnings never carry their text (it belongs behind the log-in).
 */

export type Party = "student" | "supervisor" | "teacher";

export type OccasionContent =
  | {
      kind: "deadline";
      half: "mid" | "end";
      deadline: string;
      subject: string;
      /** For a student: one item without a name, their own forms; for a supervisor: one per student. */
      items: { studentUserId: number; student: string | null; forms: string[] }[];
      path: string;
    }
  | {
      kind: "digest";
      half: "mid" | "end";
      deadline: string;
      subject: string;
      students: { userId: number; name: string; missing: Party[] }[];
      path: string;
    }
  | { kind: "warning"; subject: string; student: string; path: string }
  | { kind: "signing"; subject: string; student: string; self: boolean; round: number; path: string }
  | {
      kind: "admin";
      semester: string;
      end: string;
      classes: { name: string; noSchemes: boolean; noEndDate: boolean }[];
      path: string;
    };

/** Every content's kind is a reminder kind. */
export type ContentKind = OccasionContent["kind"];

export interface MailContext {
  t: TFunction;
  language: Language;
  /** APP_URL (or the demo's local address), without a trailing slash. */
  origin: string;
  appName: string;
  institutionName: string;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** A block of the mail: a paragraph, a list, or a link on a line of its own with a label. */
type Block = { p: string } | { list: string[] } | { label: string; href: string };

export function settingsLink(origin: string): string {
  return `${origin}/settings#reminders`;
}

export function renderReminder(content: OccasionContent, recipientName: string, ctx: MailContext): RenderedMail {
  const { t, language } = ctx;
  const day = (iso: string) => formatDay(iso, language);
  const blocks: Block[] = [{ p: t("reminders:mail.greeting", { name: recipientName }) }];
  let subject: string;
  switch (content.kind) {
    case "deadline": {
      const values = { subject: content.subject, deadline: day(content.deadline) };
      subject = t("reminders:mail.deadline.subject", values);
      blocks.push({ p: t(`reminders:mail.deadline.intro_${content.half}`, values) });
      const own = content.items.length === 1 && content.items[0].student === null;
      blocks.push({
        p: t(own ? "reminders:mail.deadline.studentForms" : "reminders:mail.deadline.supervisorStudents"),
      });
      blocks.push({
        list: content.items.map((i) =>
          i.student === null ? i.forms.join(", ") : `${i.student}: ${i.forms.join(", ")}`,
        ),
      });
      break;
    }
    case "digest": {
      const values = { subject: content.subject, deadline: day(content.deadline) };
      subject = t("reminders:mail.digest.subject", values);
      blocks.push({ p: t(`reminders:mail.digest.intro_${content.half}`, values) });
      blocks.push({
        list: content.students.map(
          (s) =>
            `${s.name}: ${t("reminders:mail.digest.missing", { parties: s.missing.map((p) => t(`reminders:mail.digest.party.${p}`)).join(", ") })}`,
        ),
      });
      break;
    }
    case "warning":
      subject = t("reminders:mail.warning.subject", { subject: content.subject });
      blocks.push({ p: t("reminders:mail.warning.body", { subject: content.subject, student: content.student }) });
      break;
    case "signing": {
      subject = t("reminders:mail.signing.subject", { subject: content.subject });
      blocks.push({
        p: t(content.self ? "reminders:mail.signing.body_student" : "reminders:mail.signing.body_other", content),
      });
      if (content.round > 0) blocks.push({ p: t("reminders:mail.signing.again", { round: content.round + 1 }) });
      break;
    }
    case "admin":
      subject = t("reminders:mail.admin.subject", { semester: content.semester });
      blocks.push({ p: t("reminders:mail.admin.intro", { semester: content.semester, end: day(content.end) }) });
      blocks.push({
        list: content.classes.map((c) =>
          [
            c.name,
            [
              c.noSchemes ? t("reminders:mail.admin.noSchemes") : null,
              c.noEndDate ? t("reminders:mail.admin.noEndDate") : null,
            ]
              .filter(Boolean)
              .join(", "),
          ].join(": "),
        ),
      });
      break;
  }
  blocks.push({ label: t("reminders:mail.logIn"), href: `${ctx.origin}${content.path}` });
  blocks.push({ p: t("reminders:mail.signature", { institution: ctx.institutionName }) });
  blocks.push({
    label: t("reminders:mail.footer", { appName: ctx.appName, institution: ctx.institutionName }),
    href: settingsLink(ctx.origin),
  });
  return { subject, text: asText(blocks), html: asHtml(blocks, subject, language) };
}

function asText(blocks: Block[]): string {
  return blocks
    .map((b) => ("p" in b ? b.p : "list" in b ? b.list.map((item) => `- ${item}`).join("\n") : `${b.label}\n${b.href}`))
    .join("\n\n")
    .concat("\n");
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

function asHtml(blocks: Block[], subject: string, language: Language): string {
  const body = blocks
    .map((b) =>
      "p" in b
        ? `<p>${escapeHtml(b.p)}</p>`
        : "list" in b
          ? `<ul>${b.list.map((item) => `<li>${escapeHtml(item)}</li>`).join("")}</ul>`
          : `<p>${escapeHtml(b.label)}<br><a href="${escapeHtml(b.href)}">${escapeHtml(b.href)}</a></p>`,
    )
    .join("\n");
  return `<!doctype html>\n<html lang="${language}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>\n<body style="font-family: sans-serif; line-height: 1.5">\n${body}\n</body></html>\n`;
}
