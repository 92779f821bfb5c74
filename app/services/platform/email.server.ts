import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { env, EnvError, whenEnvResets } from "./env.server";
import { mailFrom } from "./institution.server";
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

  constructor(
    kind: MailFailureKind,
    options: { cause?: unknown; responseCode?: number; message?: string; permanent?: boolean } = {},
  ) {
    // The server's own words (e.g. "421 … try again later") are kept: the reminders' list of failures shows them.
    const because = options.cause instanceof Error ? `: ${options.cause.message}` : "";
    super(options.message ?? `mail not sent (${kind})${because}`, { cause: options.cause });
    this.kind = kind;
    this.responseCode = options.responseCode;
    this.permanent = options.permanent ?? (kind === "refused" && (options.responseCode ?? 0) >= 500);
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
  if (code === "EENVELOPE" || code === "EMESSAGE" || code === "EAUTH" || code === "ENOAUTH" || code === "EPROTOCOL")
    return "refused";
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
 * How a mail went: `smtp`, accepted by the SMTP server (SMTP_URL); `outbox`, the demo's (demo mode
 * without SMTP_URL: written to the outbox folder, shown at /dev/outbox and in the console); `log`,
 * not sent at all (MAIL_TRANSPORT=log, a trial): written to the outbox folder, and the log says only
 * that a mail of its kind was written, with its id, never to whom or what it says.
 */
export type MailDelivery = "smtp" | "outbox" | "log";

/**
 * Sends through SMTP_URL; without one, the mail is written to the local outbox (see MailDelivery),
 * so a newcomer running the demo can still log in. A mail that does not go out throws
 * `MailNotSent` (logged here once as a warning); `purpose` names the mail in the log lines.
 */
export async function sendMail(mail: Mail, options: { purpose?: string } = {}): Promise<MailDelivery> {
  try {
    return await deliver(mail, options.purpose);
  } catch (error) {
    const failure =
      error instanceof MailNotSent
        ? error
        : new MailNotSent(mailFailureKind(error), {
            cause: error,
            responseCode:
              typeof (error as { responseCode?: unknown })?.responseCode === "number"
                ? (error as { responseCode: number }).responseCode
                : undefined,
          });
    warnNotSent(failure, options.purpose);
    throw failure;
  }
}

/**
 * Addresses under `.invalid` (a name reserved never to exist) are the placeholders of erased people
 * (docs/rules/records.md): no mail is ever written to one, by any transport.
 */
const NEVER_DELIVERED = /\.invalid>?\s*$/i;

async function deliver(mail: Mail, purpose: string | undefined): Promise<MailDelivery> {
  if (NEVER_DELIVERED.test(mail.to)) {
    throw new MailNotSent("refused", {
      permanent: true,
      message: "mail not sent (refused): an erased person's address",
    });
  }
  const config = env();
  const from = mailFrom().value;
  if (config.mailTransport === "smtp" && config.SMTP_URL) {
    transport ??= nodemailer.createTransport({ url: config.SMTP_URL, ...SMTP_TIMEOUTS });
    await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    return "smtp";
  }
  const sentAt = new Date().toISOString();
  const id = `${sentAt.replace(/[:.]/g, "-")}-${crypto.randomBytes(4).toString("hex")}`;
  const stored: StoredMail = { id, from, sentAt, ...mail };
  const dir = path.resolve(config.OUTBOX_DIR);
  // Only the app's user reads it: a log-in mail carries a code.
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  await fs.writeFile(path.join(dir, `${id}.json`), JSON.stringify(stored, null, 2), { mode: 0o600 });
  if (config.mailTransport === "outbox") {
    // The demo: its log-ins are public anyway, and a newcomer reads the code in the console.
    console.info(`[mail] to ${mail.to}: ${mail.subject}\n${mail.text}\n`);
    return "outbox";
  }
  // Outside demo mode nothing of a mail reaches the log: not whom it is to, not its subject or text
  // (a log-in mail carries the code). Its kind and the outbox file's id say that one was written.
  logFor("mail").info({ kind: purpose ?? "mail", id }, "not sent (MAIL_TRANSPORT=log): written to the outbox folder");
  return "log";
}

/**
 * Start-up: outside demo mode, mail must go through SMTP (log-in codes are mailed) unless a trial
 * says MAIL_TRANSPORT=log; then the log says so once (and every page carries a warning).
 */
export function checkMailTransport(): void {
  const config = env();
  if (!config.mailTransportChosen) {
    throw new EnvError(
      "Invalid configuration (environment variables):\n  SMTP_URL: required outside demo mode (log-in codes are mailed): SMTP_URL=smtp://mail.example.org:587, or MAIL_TRANSPORT=log for a trial that sends no mail",
    );
  }
  if (config.mailTransport === "log") {
    logFor("mail").warn(
      `MAIL_TRANSPORT=log: no mail is sent; each is written to ${path.resolve(config.OUTBOX_DIR)} and every page says that mail is not sent. Set SMTP_URL to send mail.`,
    );
  }
}

/** The mail transport for the start-up line: the SMTP server's host and port (never its user or password), `log`, or `outbox (demo)`. */
export function mailTransportSummary(): string {
  const config = env();
  if (config.mailTransport === "smtp" && config.SMTP_URL) {
    const url = new URL(config.SMTP_URL);
    return `smtp ${url.hostname}:${url.port || (url.protocol === "smtps:" ? "465" : "587")}`;
  }
  return config.mailTransport === "log" ? "log" : "outbox (demo)";
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
