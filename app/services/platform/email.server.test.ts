import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { closedPortUrl, startSilentServer, startSmtpPeer } from "~/test/smtp";
import {
  MailNotSent,
  SMTP_TIMEOUTS,
  checkMailTransport,
  mailFailureKind,
  mailTransportSummary,
  sendMail,
} from "./email.server";
import { EnvError, resetEnvForTests } from "./env.server";
import { institutions } from "./institution.server";
import { log } from "./log.server";

const mail = { to: "mottaker@example.org", subject: "123456 er koden din", text: "Koden er 123456" };
let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "praksis-mail-"));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  delete process.env.SMTP_URL;
  delete process.env.OUTBOX_DIR;
  resetEnvForTests();
});

function useSmtp(url: string): void {
  process.env.SMTP_URL = url;
  resetEnvForTests();
}

async function failureOf(purpose?: string): Promise<{ failure: MailNotSent; warnings: unknown[][]; ms: number }> {
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  const began = performance.now();
  try {
    await sendMail(mail, { purpose });
  } catch (error) {
    expect(error).toBeInstanceOf(MailNotSent);
    return { failure: error as MailNotSent, warnings: warn.mock.calls, ms: performance.now() - began };
  }
  throw new Error("sendMail did not fail");
}

test("a mail the SMTP server accepts is delivered, nothing is logged as a warning", async () => {
  const peer = await startSmtpPeer();
  try {
    useSmtp(peer.url);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await sendMail(mail);
    expect(peer.received).toEqual(["mottaker@example.org"]);
    expect(warn).not.toHaveBeenCalled();
  } finally {
    await peer.close();
  }
});

test("a recipient the server refuses (550) is MailNotSent 'refused', permanent, logged once with the cause and never the code", async () => {
  const peer = await startSmtpPeer({ refuse: "rcpt" });
  try {
    useSmtp(peer.url);
    const { failure, warnings } = await failureOf("log-in code");
    expect(failure).toMatchObject({ kind: "refused", responseCode: 550, permanent: true });
    expect(warnings).toHaveLength(1);
    const line = String(warnings[0][0]);
    expect(line).toMatch(/^\[mail\] not sent \(log-in code\): refused: .*550/);
    expect(line).not.toContain("123456");
    expect(peer.received).toEqual([]);
  } finally {
    await peer.close();
  }
});

test("an erased person's placeholder address (.invalid) is refused before any transport: permanent, nothing sent or written", async () => {
  const peer = await startSmtpPeer();
  try {
    useSmtp(peer.url);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const sent = sendMail({ ...mail, to: "slettet-12@anonymisert.invalid" }, { purpose: "reminder" });
    await expect(sent).rejects.toMatchObject({ name: "MailNotSent", kind: "refused", permanent: true });
    expect(peer.received).toEqual([]);
    expect(String(warn.mock.calls[0]?.[0])).not.toContain("slettet-12");
  } finally {
    await peer.close();
  }
  delete process.env.SMTP_URL;
  process.env.OUTBOX_DIR = dir;
  resetEnvForTests();
  await expect(sendMail({ ...mail, to: "slettet-12@anonymisert.invalid" })).rejects.toMatchObject({ kind: "refused" });
  expect(fs.readdirSync(dir)).toEqual([]);
});

test("a message the server refuses for now (451 after DATA) is 'refused' and not permanent: worth trying again", async () => {
  const peer = await startSmtpPeer({ refuse: "data" });
  try {
    useSmtp(peer.url);
    const { failure, warnings } = await failureOf();
    expect(failure).toMatchObject({ kind: "refused", responseCode: 451, permanent: false });
    expect(warnings).toHaveLength(1);
    expect(String(warnings[0][0])).toMatch(/^\[mail\] not sent: refused: .*451/);
  } finally {
    await peer.close();
  }
});

test("a server that accepts the connection and never answers is a 'timeout', within the timeout", async () => {
  const silent = await startSilentServer();
  try {
    useSmtp(silent.url);
    const { failure, warnings, ms } = await failureOf("invitation");
    expect(failure.kind).toBe("timeout");
    expect(failure.permanent).toBe(false);
    expect(ms).toBeLessThan(3_000);
    expect(warnings).toHaveLength(1);
    expect(String(warnings[0][0])).toMatch(/^\[mail\] not sent \(invitation\): timeout: /);
  } finally {
    await silent.close();
  }
});

test("without timeouts in SMTP_URL the transport's own are short: a silent server cannot hold a request for long", async () => {
  expect(SMTP_TIMEOUTS.connectionTimeout).toBeLessThanOrEqual(5_000);
  expect(SMTP_TIMEOUTS.greetingTimeout).toBeLessThanOrEqual(5_000);
  expect(SMTP_TIMEOUTS.socketTimeout).toBeLessThanOrEqual(10_000);
  const silent = await startSilentServer();
  try {
    useSmtp(silent.urlWithDefaultTimeouts);
    const { failure, ms } = await failureOf();
    expect(failure.kind).toBe("timeout");
    // nodemailer's own greeting timeout is 30 s.
    expect(ms).toBeGreaterThan(SMTP_TIMEOUTS.greetingTimeout - 500);
    expect(ms).toBeLessThan(SMTP_TIMEOUTS.greetingTimeout + 3_000);
  } finally {
    await silent.close();
  }
}, 20_000);

test("a closed port is 'unreachable'", async () => {
  useSmtp(await closedPortUrl());
  const { failure, warnings, ms } = await failureOf();
  expect(failure.kind).toBe("unreachable");
  expect(failure.cause).toMatchObject({ code: expect.stringMatching(/^E(CONNECTION|SOCKET)$/) });
  expect(ms).toBeLessThan(3_000);
  expect(warnings).toHaveLength(1);
  expect(String(warnings[0][0])).toMatch(/^\[mail\] not sent: unreachable: .*ECONNREFUSED/);
});

test("an outbox that cannot be written (no SMTP_URL) is 'unreachable' too, not a crash", async () => {
  const file = path.join(dir, "not-a-folder");
  fs.writeFileSync(file, "");
  process.env.OUTBOX_DIR = path.join(file, "outbox");
  resetEnvForTests();
  vi.spyOn(console, "info").mockImplementation(() => {});
  const { failure, warnings } = await failureOf();
  expect(failure.kind).toBe("unreachable");
  expect(warnings).toHaveLength(1);
});

test("nodemailer's error codes map to the three kinds", () => {
  expect(mailFailureKind(Object.assign(new Error("x"), { code: "ETIMEDOUT" }))).toBe("timeout");
  expect(mailFailureKind(Object.assign(new Error("x"), { code: "EENVELOPE", responseCode: 550 }))).toBe("refused");
  expect(mailFailureKind(Object.assign(new Error("x"), { code: "EAUTH", responseCode: 535 }))).toBe("refused");
  expect(mailFailureKind(Object.assign(new Error("x"), { code: "ECONNECTION", responseCode: 421 }))).toBe("refused");
  expect(mailFailureKind(Object.assign(new Error("x"), { code: "ESOCKET" }))).toBe("unreachable");
  expect(mailFailureKind(Object.assign(new Error("x"), { code: "EDNS" }))).toBe("unreachable");
});

describe("outside demo mode, codes stay in the mailbox", () => {
  afterEach(() => {
    for (const name of ["MAIL_TRANSPORT", "DEMO_MODE", "MAIL_FROM", "INSTITUTION_FILE"]) delete process.env[name];
    log.level = "warn";
  });

  function using(settings: Record<string, string>): string {
    const outbox = fs.mkdtempSync(path.join(dir, "outbox-"));
    Object.assign(process.env, { OUTBOX_DIR: outbox, ...settings });
    resetEnvForTests();
    return outbox;
  }

  /** Every console line of the mail's sending, at every level. */
  async function linesOfSending(): Promise<{ delivery: string; lines: string }> {
    log.level = "debug";
    const calls = (["debug", "info", "warn", "error", "log"] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation(() => {}),
    );
    const delivery = await sendMail(mail, { purpose: "log-in code" });
    return {
      delivery,
      lines: calls
        .flatMap((c) => c.mock.calls.flat())
        .map(String)
        .join("\n"),
    };
  }

  test("MAIL_TRANSPORT=log: the mail is written to the outbox folder (the app's user alone reads it); the log says its kind and id, never the address, subject or code", async () => {
    const outbox = using({ MAIL_TRANSPORT: "log" });
    const { delivery, lines } = await linesOfSending();
    expect(delivery).toBe("log");
    const [file] = fs.readdirSync(outbox);
    expect(fs.statSync(path.join(outbox, file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(path.join(outbox, file), "utf8"))).toMatchObject({
      to: mail.to,
      text: mail.text,
    });
    expect(lines).toContain("[mail] not sent (MAIL_TRANSPORT=log): written to the outbox folder");
    expect(lines).toContain("kind=log-in code");
    expect(lines).toContain(`id=${file.replace(/\.json$/, "")}`);
    expect(lines).not.toMatch(/123456|mottaker|example\.org|koden/i);
  });

  test("in demo mode the demo's outbox shows the mail in the console too (its log-ins are public)", async () => {
    using({ DEMO_MODE: "true" });
    const { delivery, lines } = await linesOfSending();
    expect(delivery).toBe("outbox");
    expect(lines).toContain("Koden er 123456");
  });

  test("start-up outside demo mode without SMTP_URL stops, naming SMTP_URL and MAIL_TRANSPORT=log; the trial's choice is said once", () => {
    using({});
    expect(() => checkMailTransport()).toThrow(EnvError);
    expect(() => checkMailTransport()).toThrow(/SMTP_URL: required outside demo mode.*MAIL_TRANSPORT=log/);
    using({ MAIL_TRANSPORT: "log" });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    checkMailTransport();
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/^\[mail\] MAIL_TRANSPORT=log: no mail is sent/);
    delete process.env.MAIL_TRANSPORT;
    using({ DEMO_MODE: "true" });
    expect(() => checkMailTransport()).not.toThrow();
    delete process.env.DEMO_MODE;
    useSmtp("smtp://user:secret@mail.hogskolen.no:2525");
    expect(() => checkMailTransport()).not.toThrow();
  });

  test("the start-up line's transport: host and port of the SMTP server (never its user or password), log, or the demo's outbox", () => {
    useSmtp("smtp://user:secret@mail.hogskolen.no:2525");
    expect(mailTransportSummary()).toBe("smtp mail.hogskolen.no:2525");
    useSmtp("smtps://user:secret@mail.hogskolen.no");
    expect(mailTransportSummary()).toBe("smtp mail.hogskolen.no:465");
    delete process.env.SMTP_URL;
    using({ MAIL_TRANSPORT: "log" });
    expect(mailTransportSummary()).toBe("log");
    delete process.env.MAIL_TRANSPORT;
    using({ DEMO_MODE: "true" });
    expect(mailTransportSummary()).toBe("outbox (demo)");
  });

  test("the sender: MAIL_FROM, else the institution file's mailFrom", async () => {
    const file = path.join(dir, "institution.json");
    const own = { ...institutions.fjordbyen, mailFrom: "Praksis Fjordbyen <praksis@hogskolen.no>" };
    fs.writeFileSync(file, JSON.stringify(own));
    const outbox = using({ MAIL_TRANSPORT: "log", INSTITUTION_FILE: file });
    vi.spyOn(console, "info").mockImplementation(() => {});
    const from = (f: string) => (JSON.parse(fs.readFileSync(path.join(outbox, f), "utf8")) as { from: string }).from;
    await sendMail(mail);
    const first = fs.readdirSync(outbox);
    process.env.MAIL_FROM = "Praksis <praksis@annen.no>";
    resetEnvForTests();
    await sendMail(mail);
    // Each mail read on its own: two written in the same millisecond have names in no set order.
    const second = fs.readdirSync(outbox).filter((f) => !first.includes(f));
    expect(first.map(from)).toEqual(["Praksis Fjordbyen <praksis@hogskolen.no>"]);
    expect(second.map(from)).toEqual(["Praksis <praksis@annen.no>"]);
  });
});
