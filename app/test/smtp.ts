import net from "node:net";
import { SMTPServer } from "smtp-server";
import "../../scripts/smtp-greeting.mjs";

/** Fast failures for tests: the same nodemailer options the mail service sets, shorter (SMTP_URL's query wins). */
export const SHORT_TIMEOUTS = "connectionTimeout=500&greetingTimeout=500&socketTimeout=500";

export interface SmtpPeer {
  url: string;
  /** Recipients of every mail the peer accepted. */
  received: string[];
  close(): Promise<void>;
}

function smtpError(message: string, responseCode: number): Error {
  return Object.assign(new Error(message), { responseCode });
}

/**
 * A real SMTP server on 127.0.0.1 (smtp-server, as in the e2e set-up). `refuse`: "rcpt" answers
 * every recipient with 550 (no such mailbox), "data" answers the message with 451 (try later).
 */
export async function startSmtpPeer(options: { refuse?: "rcpt" | "data" } = {}): Promise<SmtpPeer> {
  const received: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (options.refuse === "rcpt") return callback(smtpError(`5.1.1 <${address.address}>: mailbox unavailable`, 550));
      callback();
    },
    onData(stream, session, callback) {
      stream.resume();
      stream.on("end", () => {
        if (options.refuse === "data") return callback(smtpError("4.3.0 try again later", 451));
        received.push(...session.envelope.rcptTo.map((r) => r.address));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true&${SHORT_TIMEOUTS}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A server that accepts the connection and never says a word (no SMTP greeting). */
export async function startSilentServer(): Promise<{
  url: string;
  urlWithDefaultTimeouts: string;
  close(): Promise<void>;
}> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true&${SHORT_TIMEOUTS}`,
    urlWithDefaultTimeouts: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The address of a port nobody listens on (taken, then let go). */
export async function closedPortUrl(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `smtp://127.0.0.1:${port}?ignoreTLS=true&${SHORT_TIMEOUTS}`;
}
