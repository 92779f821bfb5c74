import { spawn } from "node:child_process";
import path from "node:path";
import { and, eq, inArray, sql } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import "../../../scripts/smtp-greeting.mjs";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { seedDemo } from "~/services/demo/index.server";
import type { Database, Db } from "~/services/platform/db/client.server";
import {
  classes,
  semesters,
  reminders,
  signingForms,
  studentReferences,
  subjects,
  warnings,
} from "~/services/platform/db/schema";
import { resetEnvForTests } from "~/services/platform/env.server";
import { openTestDatabase } from "~/test/db";
import { clearReminderState, REMINDER_INSTITUTION, REMINDER_NOW, REMINDER_ORIGIN } from "~/test/reminders";
import { userIdOf } from "~/test/app";
import { runReminders, saveLanguagePreference } from "./reminders.server";

/**
 * The reminders end to end through a real SMTP server (smtp-server, as the e2e peer): what arrives,
 * in which language, how many times; a server that refuses and then accepts; and two processes
 * racing on one database, counted at the SMTP server.
 */

const NOW = REMINDER_NOW;
const INSTITUTION = REMINDER_INSTITUTION;
const ORIGIN = REMINDER_ORIGIN;

interface Received {
  to: string;
  subject: string;
  text: string;
  html: string;
  raw: string;
}

let database: Database & { url: string };
let db: Db;
let smtp: SMTPServer;
let port: number;
let refusing = false;
const received: Received[] = [];

// ─── A small MIME reader: enough for nodemailer's multipart/alternative ──────

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const body = text.replace(/=\r?\n/g, "");
  for (let i = 0; i < body.length; i++) {
    if (body[i] === "=" && /^[0-9A-F]{2}$/i.test(body.slice(i + 1, i + 3))) {
      bytes.push(parseInt(body.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(body[i], "utf8"));
  }
  return Buffer.from(bytes).toString("utf8");
}

function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, encoding: string, data: string) =>
      encoding.toUpperCase() === "B"
        ? Buffer.from(data, "base64").toString("utf8")
        : decodeQuotedPrintable(data.replace(/_/g, " ")),
    );
}

function headersOf(block: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of block.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const at = line.indexOf(":");
    if (at > 0) out[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
  }
  return out;
}

function bodyOf(headers: Record<string, string>, body: string): string {
  const encoding = (headers["content-transfer-encoding"] ?? "7bit").toLowerCase();
  if (encoding === "quoted-printable") return decodeQuotedPrintable(body);
  if (encoding === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  return body;
}

function parseMail(raw: string, to: string): Received {
  raw = raw.replace(/\r\n/g, "\n");
  const split = raw.indexOf("\n\n");
  const headers = headersOf(raw.slice(0, split));
  const boundary = /boundary="?([^";]+)"?/.exec(headers["content-type"] ?? "")?.[1];
  const parts = boundary
    ? raw
        .slice(split + 2)
        .split(`--${boundary}`)
        .slice(1, -1)
        .map((part) => {
          const at = part.indexOf("\n\n", 1);
          const h = headersOf(part.slice(0, at));
          return { type: h["content-type"] ?? "", body: bodyOf(h, part.slice(at + 2)) };
        })
    : [{ type: headers["content-type"] ?? "", body: bodyOf(headers, raw.slice(split + 2)) }];
  return {
    to,
    subject: decodeHeader(headers.subject ?? ""),
    text: parts.find((p) => p.type.startsWith("text/plain"))?.body ?? "",
    html: parts.find((p) => p.type.startsWith("text/html"))?.body ?? "",
    raw,
  };
}

// ─── Set-up ──────────────────────────────────────────────────────────────────

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        if (refusing) {
          callback(Object.assign(new Error("Service not available, try again later"), { responseCode: 421 }));
          return;
        }
        const raw = Buffer.concat(chunks).toString("utf8");
        for (const r of session.envelope.rcptTo) received.push(parseMail(raw, r.address.toLowerCase()));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  port = (smtp.server.address() as { port: number }).port;
  process.env.SMTP_URL = `smtp://127.0.0.1:${port}?ignoreTLS=true`;
  process.env.MAIL_FROM = "Praksis <noreply@praksis.example.org>";
  resetEnvForTests();
  database = await openTestDatabase();
  db = database.db;
  await seedDemo(db, NOW);
});

afterAll(async () => {
  delete process.env.SMTP_URL;
  resetEnvForTests();
  await database.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

beforeEach(async () => {
  received.length = 0;
  refusing = false;
  await clearReminderState(db);
});

async function classOf(code: string): Promise<number> {
  const [row] = await db
    .select({ id: classes.id })
    .from(classes)
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .innerJoin(semesters, eq(semesters.id, classes.semesterId))
    .where(and(eq(subjects.subjectCode, code), eq(semesters.name, "Høst 2026")));
  return row.id;
}

const run = (now = NOW) => runReminders(db, { institution: INSTITUTION, origin: ORIGIN, now });
const countBy = (mails: Received[]) => {
  const counts = new Map<string, number>();
  for (const m of mails) counts.set(`${m.to}|${m.subject}`, (counts.get(`${m.to}|${m.subject}`) ?? 0) + 1);
  return counts;
};

describe("through SMTP", () => {
  test("plain text and HTML, in each recipient's language, one per recipient", async () => {
    const classA = await classOf("SYK2001");
    await db.update(classes).set({ midSemesterDate: "2026-10-03" }).where(eq(classes.id, classA));
    await saveLanguagePreference(db, await userIdOf(db, "student02@example.org"), "en");
    const summary = await run();
    expect(summary.sent).toBeGreaterThan(2);
    expect(received).toHaveLength(summary.sent);
    expect([...countBy(received).values()].every((n) => n === 1)).toBe(true);

    const nb = received.find((m) => m.to === "student01@example.org")!;
    expect(nb.raw).toMatch(/Content-Type: multipart\/alternative/i);
    expect(nb.subject).toBe("Påminnelse: frist 3.10.2026 i SYK2001 Praksis i sykehjem");
    expect(nb.text).toContain("Hei, ");
    expect(nb.text).toContain("Fristen for midtveisvurderingen i SYK2001 Praksis i sykehjem er 3.10.2026.");
    expect(nb.text).toContain("Du har ikke sendt disse skjemaene ennå:");
    expect(nb.text).toContain("https://praksis.example.org/student/forms");
    expect(nb.text).toContain(
      "Du kan slå av slike påminnelser under Innstillinger:\nhttps://praksis.example.org/settings#reminders",
    );
    expect(nb.html).toContain('<html lang="nb">');
    expect(nb.html).toContain('<a href="https://praksis.example.org/settings#reminders">');

    const en = received.find((m) => m.to === "student02@example.org")!;
    expect(en.subject).toBe("Reminder: deadline 3 Oct 2026 in SYK2001 Praksis i sykehjem");
    expect(en.text).toContain("You have not sent these forms yet:");
    expect(en.text).toContain("Regards, Fjordbyen University College");
    expect(en.html).toContain('<html lang="en">');

    received.length = 0;
    await run(new Date(NOW.getTime() + 3_600_000));
    expect(received).toEqual([]);
  });

  test("a server that refuses, then accepts: tried again with back-off, and each reminder arrives once", async () => {
    const classB = await classOf("SYK2002");
    await db.update(classes).set({ midSemesterDate: "2026-10-02" }).where(eq(classes.id, classB));
    refusing = true;
    const first = await run();
    expect(first.failed).toBeGreaterThan(0);
    expect(first.sent).toBe(0);
    expect(received).toEqual([]);
    const failed = await db.select().from(reminders);
    expect(failed.every((r) => r.status === "failed" && r.sentAt === null && /421/.test(r.lastError ?? ""))).toBe(true);

    refusing = false;
    const second = await run(new Date(NOW.getTime() + 5 * 60_000));
    expect(second.sent).toBe(first.failed);
    expect(received).toHaveLength(first.failed);
    expect([...countBy(received).values()].every((n) => n === 1)).toBe(true);
    const done = await db.select().from(reminders);
    expect(done.every((r) => r.status === "sent" && r.attempts === 2)).toBe(true);
  });
});

describe("two processes on one database", () => {
  test("race: every reminder is sent exactly once, counted at the SMTP server", async () => {
    const classA = await classOf("SYK2001");
    const classB = await classOf("SYK2002");
    await db
      .update(classes)
      .set({ midSemesterDate: "2026-10-02" })
      .where(inArray(classes.id, [classA, classB]));
    // A signing form and a warning too, so every kind the two race for is in it.
    const [ref] = await db.select().from(studentReferences).where(eq(studentReferences.classId, classB)).limit(1);
    await db.insert(signingForms).values({
      studentReferenceId: ref.id,
      endSemesterCompletedDate: "2026-10-01",
      generalCompetenceAreasPassed: true,
      specificCompetenceAreasPassed: true,
    });
    await db.insert(warnings).values({
      studentReferenceId: ref.id,
      teacherUserId: ref.teacherUserId!,
      comment: "x",
      passRequirement: "y",
      passRequirementSummary: "z",
      submittedAt: new Date(NOW.getTime() - 60_000),
    });
    await db.execute(sql`select 1`);

    // Two processes, each connected and waiting (it prints "ready"), are told to go at the same moment.
    const child = () => {
      const process_ = spawn(path.resolve("node_modules/.bin/tsx"), ["app/test/reminders-run.ts", NOW.toISOString()], {
        env: {
          ...process.env,
          DATABASE_URL: database.url,
          SMTP_URL: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
          SESSION_SECRET: "x".repeat(40),
          NODE_ENV: "test",
        },
        timeout: 60_000,
      });
      let stdout = "";
      let stderr = "";
      process_.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
      process_.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
      const ready = new Promise<void>((resolve, reject) => {
        const check = () => (stdout.startsWith("ready\n") ? resolve() : undefined);
        process_.stdout.on("data", check);
        process_.once("exit", (code) => reject(new Error(`exited ${code} before it was ready: ${stderr}`)));
      });
      const done = new Promise<{ stdout: string }>((resolve, reject) =>
        process_.once("exit", (code) =>
          code === 0 ? resolve({ stdout }) : reject(new Error(`exited ${code}: ${stderr}`)),
        ),
      );
      return { ready, done, go: () => process_.stdin.end("go\n") };
    };
    const racers = [child(), child()];
    await Promise.all(racers.map((r) => r.ready));
    const startAt = Date.now();
    for (const r of racers) r.go();
    const results = await Promise.all(racers.map((r) => r.done));
    const [a, b] = results.map(
      (r) =>
        JSON.parse(r.stdout.trim().split("\n").at(-1)!) as {
          due: number;
          taken: number;
          sent: number;
          failed: number;
          startedAt: number;
          endedAt: number;
        },
    );
    console.info(
      `[race] process A took ${a.taken} and sent ${a.sent} (${a.startedAt - startAt}–${a.endedAt - startAt} ms); process B took ${b.taken} and sent ${b.sent} (${b.startedAt - startAt}–${b.endedAt - startAt} ms); due ${a.due}`,
    );
    // The two runs overlapped in time: each began before the other ended.
    expect(a.startedAt).toBeLessThan(b.endedAt);
    expect(b.startedAt).toBeLessThan(a.endedAt);

    expect(a.due).toBe(b.due);
    expect(a.due).toBeGreaterThan(20);
    expect(a.failed + b.failed).toBe(0);
    expect(a.sent + b.sent).toBe(a.due);
    expect(received).toHaveLength(a.due);
    const counts = countBy(received);
    expect(counts.size).toBe(a.due);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    const records = await db.select().from(reminders);
    expect(records).toHaveLength(a.due);
    expect(records.every((r) => r.status === "sent")).toBe(true);
    expect(new Set(records.map((r) => r.kind))).toEqual(new Set(["deadline", "warning", "signing"]));
  }, 90_000);
});
