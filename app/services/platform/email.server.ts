import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { env, whenEnvResets } from "./env.server";

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

let transport: Transporter | undefined;
whenEnvResets(() => {
  transport = undefined;
});

/**
 * Sends through SMTP_URL; without one, the mail is written to the local outbox (and the console)
 * so a newcomer running the demo can still log in.
 */
export async function sendMail(mail: Mail): Promise<void> {
  const config = env();
  if (config.SMTP_URL) {
    transport ??= nodemailer.createTransport(config.SMTP_URL);
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
