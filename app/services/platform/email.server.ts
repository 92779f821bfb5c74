import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { env, whenEnvResets } from "./env.server";
import { logFor } from "./log.server";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** An HTML alternative to `text` (the reminders); the plain text stays the mail's main part. */
  html?: string;
}

export interface StoredMail extends Mail {
  id: string;
  from: string;
  sentAt: string;
}

/**
 * Why a mail was not sent: the server said no (`refused`: a rejected recipient, sender or
 * message, failed authentication), it did not answer in time (`timeout`), or it could not be
 * reached at all (`unreachable`: a closed port, an unknown host, a broken connection; also a
 * local outbox that cannot be written).
 */
export type MailFailureKind = "refused" | "timeout" | "unreachable";

/**
 * The one error `sendMail` throws when a mail did not go out. Callers catch it (and only it) to
 * tell the user; it has already been logged once, as a warning with its cause.
 * `permanent`: the server refused with a 5xx reply (trying again will not help); `responseCode`
 * is the server's reply code when there was one.
 */
export class MailNotSent extends Error {
  override name = "MailNotSent";
  readonly kind: MailFailureKind;
  readonly responseCode: number | undefined;
  readonly permanent: boolean;

  constructor(kind: MailFailureKind, options: { cause?: unknown; responseCode?: number; message?: string } = {}) {
    // The server's own words (e.g. "421 … try again later") are kept: the reminders' list of failures shows them.
    const because = options.cause instanceof Error ? `: ${options.cause.message}` : "";
    super(options.message ?? `mail not sent (${kind})${because}`, { cause: options.cause });
    this.kind = kind;
    this.responseCode = options.responseCode;
    this.permanent = kind === "refused" && (options.responseCode ?? 0) >= 500;
  }
}

/**
 * How long the SMTP server may take, in milliseconds: to accept the connection, to greet, and to
 * answer any later command. Short, so a server that hangs cannot hold a request (a log-in waits on
 * its code mail). Parameters of the same names in SMTP_URL (`?greetingTimeout=…`) take precedence.
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 10_000 } as const;

/** The kind of failure behind an error from nodemailer (its `code`, see nodemailer's smtp-connection). */
export function mailFailureKind(error: unknown): MailFailureKind {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  if (code === "ETIMEDOUT") return "timeout";
  if (typeof responseCode === "number" && responseCode >= 400) return "refused";
  if (code === "EENVELOPE" || code === "EMESSAGE" || code === "EAUTH" || code === "ENOAUTH" || code === "EPROTOCOL") return "refused";
  return "unreachable";
}

/**
 * The one place a mail failure is logged (a warning: the caller tells the user, nothing crashed).
 * Never the subject or the text: a log-in mail carries the code.
 */
function warnNotSent(failure: MailNotSent, purpose: string | undefined): void {
  const cause = failure.cause instanceof Error ? failure.cause.message : String(failure.cause);
  logFor("mail").warn(`not sent${purpose ? ` (${purpose})` : ""}: ${failure.kind}: ${cause}`);
}

let transport: Transporter | undefined;
whenEnvResets(() => {
  transport?.close();
  transport = undefined;
});

/**
 * Sends through SMTP_URL; without one, the mail is written to the local outbox (and the console)
 * so a newcomer running the demo can still log in. A mail that does not go out throws
 * `MailNotSent` (logged here once as a warning); `purpose` names the mail in that log line.
 */
export async function sendMail(mail: Mail, options: { purpose?: string } = {}): Promise<void> {
  try {
    await deliver(mail);
  } catch (error) {
    const failure =
      error instanceof MailNotSent
        ? error
        : new MailNotSent(mailFailureKind(error), {
            cause: error,
            responseCode: typeof (error as { responseCode?: unknown })?.responseCode === "number" ? (error as { responseCode: number }).responseCode : undefined,
          });
    warnNotSent(failure, options.purpose);
    throw failure;
  }
}

async function deliver(mail: Mail): Promise<void> {
  const config = env();
  if (config.SMTP_URL) {
    transport ??= nodemailer.createTransport({ url: config.SMTP_URL, ...SMTP_TIMEOUTS });
    await transport.sendMail({ from: config.MAIL_FROM, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    return;
  }
  const sentAt = new Date().toISOString();
  const id = `${sentAt.replace(/[:.]/g, "-")}-${crypto.randomBytes(4).toString("hex")}`;
  const stored: StoredMail = { id, from: config.MAIL_FROM, sentAt, ...mail };
  await fs.mkdir(path.resolve(config.OUTBOX_DIR), { recursive: true });
  await fs.writeFile(path.join(path.resolve(config.OUTBOX_DIR), `${id}.json`), JSON.stringify(stored, null, 2));
  console.info(`[mail] to ${mail.to}: ${mail.subject}\n${mail.text}\n`);
}

/** The newest mails of the local outbox, newest first. */
export async function readOutbox(limit = 50): Promise<StoredMail[]> {
  const dir = path.resolve(env().OUTBOX_DIR);
  let names: string[];
  try {
    names = (await fs.readdir(dir)).filter((n) => n.endsWith(".json"));
  } catch {
    return [];
  }
  names.sort().reverse();
  const mails = await Promise.all(
    names.slice(0, limit).map(async (n) => JSON.parse(await fs.readFile(path.join(dir, n), "utf8")) as StoredMail),
  );
  return mails;
}
