import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, expect, test, vi } from "vitest";
import { closedPortUrl, startSilentServer, startSmtpPeer } from "~/test/smtp";
import { MailNotSent, SMTP_TIMEOUTS, mailFailureKind, sendMail } from "./email.server";
import { resetEnvForTests } from "./env.server";

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
