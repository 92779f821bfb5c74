import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import type { Database, Db } from "~/services/platform/db/client.server";
import { seedDemo } from "~/services/demo/index.server";
import {
  answerSets,
  schemeForms,
  schemes,
  classes,
  semesters,
  reminders,
  signingForms,
  studentReferences,
  subjects,
  users,
  warnings,
} from "~/services/platform/db/schema";
import type { Mail } from "~/services/platform/email.server";
import { resetEnvForTests } from "~/services/platform/env.server";
import { ROLE } from "~/services/identity";
import { openTestDatabase } from "~/test/db";
import { clearReminderState, REMINDER_INSTITUTION, REMINDER_NOW, REMINDER_ORIGIN } from "~/test/reminders";
import { userIdOf } from "~/test/app";
import {
  NOT_SENT_WITHOUT_SMTP,
  reminderDaysOf,
  reminderLog,
  reminderPreferencesOf,
  runReminders,
  saveLanguagePreference,
  saveReminderDays,
  saveReminderPreferences,
} from "./reminders.server";

const NOW = REMINDER_NOW;
const TODAY = "2026-10-01";
const INSTITUTION = REMINDER_INSTITUTION;
const ORIGIN = REMINDER_ORIGIN;

let database: Database;
let db: Db;
let classA: number;
let classB: number;
const sent: Mail[] = [];
let failing = false;
const send = async (mail: Mail) => {
  if (failing) throw new Error("421 the mail server is not accepting mail");
  sent.push(mail);
};
const run = (now = NOW) => runReminders(db, { institution: INSTITUTION, origin: ORIGIN, now, send });
const to = (email: string) => sent.filter((m) => m.to === email);
const addDays = (iso: string, n: number) =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

async function classOf(code: string): Promise<number> {
  const [row] = await db
    .select({ id: classes.id })
    .from(classes)
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .innerJoin(semesters, eq(semesters.id, classes.semesterId))
    .where(and(eq(subjects.subjectCode, code), eq(semesters.name, "Høst 2026")));
  return row.id;
}

async function referenceOf(student: string, classId: number) {
  const [row] = await db
    .select()
    .from(studentReferences)
    .where(
      and(eq(studentReferences.studentUserId, await userIdOf(db, student)), eq(studentReferences.classId, classId)),
    );
  return row;
}

/** The class's active students with their assigned supervisor and teacher. */
async function studentsOf(classId: number) {
  return db
    .select({
      id: users.id,
      email: users.email,
      supervisorUserId: studentReferences.supervisorUserId,
      teacherUserId: studentReferences.teacherUserId,
    })
    .from(studentReferences)
    .innerJoin(users, eq(users.id, studentReferences.studentUserId))
    .where(and(eq(studentReferences.classId, classId), eq(users.isActive, true)));
}

/** Marks every form of the class's half sent by the student (as the form page's send does). */
async function sendAllForms(
  studentUserId: number,
  classId: number,
  isMid: boolean,
  roleId: 2 | 3 | 4 = ROLE.Student,
  authorUserId = studentUserId,
) {
  const rows = await db
    .select({ schemeId: schemes.id, formId: schemeForms.formId })
    .from(schemes)
    .innerJoin(schemeForms, eq(schemeForms.schemeId, schemes.id))
    .where(and(eq(schemes.classId, classId), eq(schemes.isMidSemester, isMid)));
  for (const r of rows) {
    await db
      .insert(answerSets)
      .values({ ...r, studentUserId, authorUserId, authorRoleId: roleId, isMidSemester: isMid, sentAt: NOW })
      .onConflictDoUpdate({
        target: [answerSets.formId, answerSets.schemeId, answerSets.studentUserId, answerSets.authorUserId],
        set: { sentAt: NOW },
      });
  }
}

beforeAll(async () => {
  database = await openTestDatabase();
  db = database.db;
  await seedDemo(db, NOW);
  classA = await classOf("SYK2001");
  classB = await classOf("SYK2002");
});

afterAll(async () => {
  await database.close();
});

/** Nothing due: no answers, warnings or signing forms, every date far ahead. Each test sets what it needs. */
beforeEach(async () => {
  sent.length = 0;
  failing = false;
  await clearReminderState(db);
});

describe("deadline reminders (a)", () => {
  test("N days before the mid-semester date, each student with a form not sent and each supervisor, once", async () => {
    await db
      .update(classes)
      .set({ midSemesterDate: addDays(TODAY, 7) })
      .where(eq(classes.id, classA));
    const students = await studentsOf(classA);
    const supervisors = [...new Set(students.map((s) => s.supervisorUserId).filter((id): id is number => id !== null))];
    const first = await run();
    expect(first.sent).toBe(students.length + supervisors.length);
    for (const s of students) expect(to(s.email)).toHaveLength(1);
    const mail = to("student01@example.org")[0];
    expect(mail.subject).toMatch(/^Påminnelse: frist /);
    expect(mail.text).toContain("Fristen for midtveisvurderingen i SYK2001");
    expect(mail.text).toContain(`${ORIGIN}/student/forms`);
    expect(mail.text).toContain(`${ORIGIN}/settings#reminders`);
    expect(mail.text).toContain("Fjordbyen høgskole");
    expect(mail.html).toContain('<html lang="nb">');
    const supervisorMail = sent.find((m) => m.to === "veileder1@example.org")!;
    expect(supervisorMail.text).toContain("Disse studentene venter på skjemaer fra deg:");

    // The next run, the next day, a restart: the same occasion is not sent again.
    sent.length = 0;
    expect((await run()).sent).toBe(0);
    expect((await run(new Date(NOW.getTime() + 86_400_000))).sent).toBe(0);
    expect(sent).toEqual([]);
    const records = await db.select().from(reminders);
    expect(records.every((r) => r.status === "sent" && r.sentAt !== null && r.attempts === 1)).toBe(true);
  });

  test("not before the window, not for a student whose forms are sent, not once the mid-semester part is confirmed", async () => {
    await db
      .update(classes)
      .set({ midSemesterDate: addDays(TODAY, 8) })
      .where(eq(classes.id, classA));
    expect((await run()).sent).toBe(0);

    await db
      .update(classes)
      .set({ midSemesterDate: addDays(TODAY, 2) })
      .where(eq(classes.id, classA));
    const s1 = await referenceOf("student01@example.org", classA);
    const s2 = await referenceOf("student02@example.org", classA);
    await sendAllForms(s1.studentUserId, classA, true);
    await db.insert(signingForms).values({ studentReferenceId: s2.id, midSemesterCompletedDate: TODAY });
    await run();
    expect(to("student01@example.org")).toEqual([]);
    expect(to("student02@example.org")).toEqual([]);
    expect(to("student03@example.org")).toHaveLength(1);
  });

  test("in the recipient's language, and the day count the admin set", async () => {
    await saveReminderDays(db, {
      institutionId: "fjordbyen",
      days: { midDaysBefore: 1, endDaysBefore: 10, signingRepeatDays: 7, adminWeeksBefore: 4 },
      actorUserId: await userIdOf(db, "admin@example.org"),
    });
    await db
      .update(classes)
      .set({ midSemesterDate: addDays(TODAY, 3), endSemesterDate: addDays(TODAY, 10) })
      .where(eq(classes.id, classA));
    // Mid is 3 days away (count 1: not yet); the end is 10 days away (count 10: now). The end half's forms only.
    await saveLanguagePreference(db, await userIdOf(db, "student03@example.org"), "en");
    await run();
    const mail = to("student03@example.org")[0];
    expect(mail.subject).toMatch(/^Reminder: deadline .* in SYK2001/);
    expect(mail.text).toContain("The deadline for the end-semester assessment in SYK2001");
    expect(mail.text).toContain("Fjordbyen University College");
    expect(mail.html).toContain('<html lang="en">');
  });

  test("a teacher gets a digest of their students who are behind after the deadline", async () => {
    await db
      .update(classes)
      .set({ midSemesterDate: addDays(TODAY, -1) })
      .where(eq(classes.id, classA));
    const students = await studentsOf(classA);
    const teachers = [...new Set(students.map((s) => s.teacherUserId).filter((id): id is number => id !== null))];
    await run();
    expect(sent).toHaveLength(teachers.length);
    const digest = to("laerer1@example.org")[0];
    expect(digest.subject).toBe("Studenter som ligger etter i SYK2001 Praksis i sykehjem");
    expect(digest.text).toMatch(/mangler fra studenten, veileder, praksislærer/);
    // A student without an assigned teacher is in every class teacher's digest.
    const unassigned = await referenceOf("student11@example.org", classA);
    expect(unassigned.teacherUserId).toBeNull();
    const [{ name }] = await db
      .select({ name: users.displayName })
      .from(users)
      .where(eq(users.id, unassigned.studentUserId));
    expect(to("laerer1@example.org")[0].text).toContain(`- ${name}: `);
    expect(to("laerer2@example.org")[0].text).toContain(`- ${name}: `);
    sent.length = 0;
    await run();
    expect(sent).toEqual([]);
  });
});

describe("settings", () => {
  test("a user who switched the kind off gets none; switched on again, they do", async () => {
    const student = await userIdOf(db, "student04@example.org");
    expect((await reminderPreferencesOf(db, student)).kinds).toEqual([
      { kind: "deadline", on: true },
      { kind: "signing", on: true },
    ]);
    await saveReminderPreferences(db, student, ["signing"]);
    expect((await reminderPreferencesOf(db, student)).kinds).toEqual([
      { kind: "deadline", on: false },
      { kind: "signing", on: true },
    ]);
    await db
      .update(classes)
      .set({ midSemesterDate: addDays(TODAY, 1) })
      .where(eq(classes.id, classA));
    await run();
    expect(to("student04@example.org")).toEqual([]);
    expect(to("student05@example.org")).toHaveLength(1);
    await saveReminderPreferences(db, student, ["deadline", "signing"]);
    await run();
    expect(to("student04@example.org")).toHaveLength(1);
  });

  test("the day counts default to 7, 2, 7 and 4 and are kept per institution", async () => {
    expect(await reminderDaysOf(db, "nordlys")).toEqual({
      midDaysBefore: 7,
      endDaysBefore: 2,
      signingRepeatDays: 7,
      adminWeeksBefore: 4,
    });
    const admin = await userIdOf(db, "admin@example.org");
    await saveReminderDays(db, {
      institutionId: "nordlys",
      days: { midDaysBefore: 3, endDaysBefore: 1, signingRepeatDays: 5, adminWeeksBefore: 2 },
      actorUserId: admin,
    });
    expect(await reminderDaysOf(db, "nordlys")).toEqual({
      midDaysBefore: 3,
      endDaysBefore: 1,
      signingRepeatDays: 5,
      adminWeeksBefore: 2,
    });
    expect(await reminderDaysOf(db, "fjordbyen")).toEqual({
      midDaysBefore: 7,
      endDaysBefore: 2,
      signingRepeatDays: 7,
      adminWeeksBefore: 4,
    });
  });
});

describe("warning notices (b)", () => {
  test("the supervisors of a student given a warning are told once, without its text", async () => {
    const ref = await referenceOf("student01@example.org", classA);
    await db.insert(warnings).values({
      studentReferenceId: ref.id,
      teacherUserId: ref.teacherUserId!,
      comment: "Hemmelig tekst om studenten",
      passRequirement: "Krav",
      passRequirementSummary: "Kort",
      submittedAt: new Date(NOW.getTime() - 3_600_000),
    });
    const [supervisor] = await db.select({ email: users.email }).from(users).where(eq(users.id, ref.supervisorUserId!));
    await run();
    expect(sent.map((m) => m.to)).toEqual([supervisor.email]);
    expect(sent[0].subject).toBe("Et varsel er gitt i SYK2001 Praksis i sykehjem");
    expect(sent[0].text).toContain("logg inn for å lese det");
    expect(sent[0].text).not.toContain("Hemmelig");
    expect(sent[0].html).not.toContain("Hemmelig");
    sent.length = 0;
    await run();
    expect(sent).toEqual([]);
  });
});

describe("signing reminders (c)", () => {
  async function savedForm(student: string) {
    const ref = await referenceOf(student, classB);
    await db.insert(signingForms).values({
      studentReferenceId: ref.id,
      endSemesterCompletedDate: TODAY,
      generalCompetenceAreasPassed: true,
      specificCompetenceAreasPassed: true,
    });
    return ref;
  }

  test("each party the form waits for, at once and again after N days; the teacher once the student has signed", async () => {
    const ref = await savedForm("student13@example.org");
    const [supervisor] = await db.select({ email: users.email }).from(users).where(eq(users.id, ref.supervisorUserId!));
    const [teacher] = await db.select({ email: users.email }).from(users).where(eq(users.id, ref.teacherUserId!));
    await run();
    expect(sent.map((m) => m.to).sort()).toEqual(["student13@example.org", supervisor.email].sort());
    // The supervisor's occasion keeps the name it has always been stored under ("advisor"): a reminder
    // recorded before the code said "supervisor" is the same occasion, and is not sent twice.
    const [supervisorRow] = await db
      .select({ occasionKey: reminders.occasionKey })
      .from(reminders)
      .where(and(eq(reminders.kind, "signing"), eq(reminders.recipientUserId, ref.supervisorUserId!)));
    expect(supervisorRow.occasionKey).toBe(`${ref.id}:c0:advisor:r0`);
    expect(to("student13@example.org")[0].text).toContain(
      `/student/class/${classB}/student/${ref.studentUserId}/signingform`,
    );

    sent.length = 0;
    await run(new Date(NOW.getTime() + 3 * 86_400_000));
    expect(sent).toEqual([]);

    await db
      .update(signingForms)
      .set({ signedByStudentUserId: ref.studentUserId, signedByStudentDate: new Date(NOW.getTime() + 4 * 86_400_000) })
      .where(eq(signingForms.studentReferenceId, ref.id));
    await run(new Date(NOW.getTime() + 4 * 86_400_000));
    expect(sent.map((m) => m.to)).toEqual([teacher.email]);

    sent.length = 0;
    // Seven days on: the supervisor is reminded again (round 2); the student has signed.
    await run(new Date(NOW.getTime() + 7 * 86_400_000));
    expect(sent.map((m) => m.to)).toEqual([supervisor.email]);
    expect(sent[0].text).toContain("Dette er påminnelse nummer 2.");
  });

  test("no reminder for a form not saved with its results, nor for a signed one", async () => {
    const ref = await referenceOf("student14@example.org", classB);
    await db
      .insert(signingForms)
      .values({ studentReferenceId: ref.id, endSemesterCompletedDate: TODAY, generalCompetenceAreasPassed: true });
    const done = await savedForm("student15@example.org");
    await db.update(signingForms).set({ isLocked: true }).where(eq(signingForms.studentReferenceId, done.id));
    await run();
    expect(sent).toEqual([]);
  });
});

describe("administrators (d)", () => {
  test("in the semester's last weeks, classes without schemes or end dates, once", async () => {
    const late = new Date("2026-12-10T08:00:00Z");
    await db.update(classes).set({ endSemesterDate: null }).where(eq(classes.id, classB));
    await run(late);
    const mail = to("admin@example.org");
    expect(mail).toHaveLength(1);
    expect(mail[0].text).toContain("SYK2002");
    expect(mail[0].text).toContain("ingen sluttdato");
    expect(mail[0].text).not.toContain("SYK2001");
    sent.length = 0;
    await run(late);
    expect(to("admin@example.org")).toEqual([]);
  });
});

describe("sending", () => {
  test("a mail server that refuses: marked failed with the next try; not sent twice once it accepts", async () => {
    await db
      .update(classes)
      .set({ midSemesterDate: addDays(TODAY, 1) })
      .where(eq(classes.id, classB));
    failing = true;
    const first = await run();
    expect(first.sent).toBe(0);
    expect(first.failed).toBe(first.taken);
    const failed = await db.select().from(reminders);
    expect(failed.length).toBeGreaterThan(0);
    for (const r of failed) {
      expect(r.status).toBe("failed");
      expect(r.attempts).toBe(1);
      expect(r.sentAt).toBeNull();
      expect(r.lastError).toContain("421");
      expect(r.nextAttemptAt!.getTime()).toBe(NOW.getTime() + 5 * 60_000);
    }
    // Before the next try is due, nothing happens, even with the server back.
    failing = false;
    expect((await run(new Date(NOW.getTime() + 60_000))).taken).toBe(0);
    // Refused again: the back-off doubles.
    failing = true;
    await run(new Date(NOW.getTime() + 5 * 60_000));
    const again = await db.select().from(reminders);
    expect(again.every((r) => r.attempts === 2 && r.nextAttemptAt!.getTime() === NOW.getTime() + 15 * 60_000)).toBe(
      true,
    );
    // Accepted: each sent once.
    failing = false;
    const later = new Date(NOW.getTime() + 15 * 60_000);
    const ok = await run(later);
    expect(ok.sent).toBe(failed.length);
    expect(new Set(sent.map((m) => m.to)).size).toBe(sent.length);
    const done = await db.select().from(reminders);
    expect(done.every((r) => r.status === "sent" && r.attempts === 3)).toBe(true);
    expect((await run(later)).sent).toBe(0);
  });

  test("sent only when an SMTP server (or the demo's outbox) took it: outside demo mode without SMTP it fails, is written nowhere, and goes once SMTP is there", async () => {
    await db
      .update(classes)
      .set({ midSemesterDate: addDays(TODAY, 1) })
      .where(eq(classes.id, classB));
    const outbox = fs.mkdtempSync(path.join(os.tmpdir(), "praksis-reminders-"));
    const saved = { ...process.env };
    try {
      Object.assign(process.env, { MAIL_TRANSPORT: "log", OUTBOX_DIR: outbox, DEMO_MODE: "false" });
      delete process.env.SMTP_URL;
      resetEnvForTests();
      // The default sender: nothing written, nothing marked sent.
      const trial = await runReminders(db, { institution: INSTITUTION, origin: ORIGIN, now: NOW });
      expect(trial.taken).toBeGreaterThan(0);
      expect(trial).toMatchObject({ sent: 0, failed: trial.taken });
      const failed = await db.select().from(reminders);
      expect(
        failed.every((r) => r.status === "failed" && r.sentAt === null && r.lastError === NOT_SENT_WITHOUT_SMTP),
      ).toBe(true);
      expect(fs.readdirSync(outbox)).toEqual([]);
      // A sender that only wrote it to the log counts as not sent either.
      const logged = await runReminders(db, {
        institution: INSTITUTION,
        origin: ORIGIN,
        now: new Date(NOW.getTime() + 5 * 60_000),
        send: async () => "log" as const,
      });
      expect(logged).toMatchObject({ sent: 0, failed: trial.taken });
      // With an SMTP server that accepts, the retry sends each once.
      const accepted = await run(new Date(NOW.getTime() + 15 * 60_000));
      expect(accepted.sent).toBe(trial.taken);
      expect((await db.select().from(reminders)).every((r) => r.status === "sent")).toBe(true);
    } finally {
      process.env = saved;
      resetEnvForTests();
      fs.rmSync(outbox, { recursive: true, force: true });
    }
  });

  test("in demo mode without SMTP the demo's outbox counts as sent", async () => {
    await db
      .update(classes)
      .set({ midSemesterDate: addDays(TODAY, 1) })
      .where(eq(classes.id, classB));
    const outbox = fs.mkdtempSync(path.join(os.tmpdir(), "praksis-reminders-"));
    const saved = { ...process.env };
    vi.spyOn(console, "info").mockImplementation(() => {});
    try {
      Object.assign(process.env, { DEMO_MODE: "true", OUTBOX_DIR: outbox });
      delete process.env.SMTP_URL;
      delete process.env.MAIL_TRANSPORT;
      resetEnvForTests();
      const demo = await runReminders(db, { institution: INSTITUTION, origin: ORIGIN, now: NOW });
      expect(demo.sent).toBe(demo.taken);
      expect(fs.readdirSync(outbox)).toHaveLength(demo.taken);
    } finally {
      process.env = saved;
      resetEnvForTests();
      fs.rmSync(outbox, { recursive: true, force: true });
    }
  });

  test("a failed reminder no longer due when its retry comes is dropped, not sent", async () => {
    await db
      .update(classes)
      .set({ midSemesterDate: addDays(TODAY, 1) })
      .where(eq(classes.id, classB));
    failing = true;
    await run();
    const ref = await referenceOf("student13@example.org", classB);
    await sendAllForms(ref.studentUserId, classB, true);
    failing = false;
    await run(new Date(NOW.getTime() + 10 * 60_000));
    expect(to("student13@example.org")).toEqual([]);
    const [record] = await db.select().from(reminders).where(eq(reminders.recipientUserId, ref.studentUserId));
    expect(record.status).toBe("dropped");
  });

  test("a process that died after taking a reminder: tried again after the lease", async () => {
    await db
      .update(classes)
      .set({ midSemesterDate: addDays(TODAY, 1) })
      .where(eq(classes.id, classB));
    const ref = await referenceOf("student13@example.org", classB);
    await db.insert(reminders).values({
      kind: "deadline",
      recipientUserId: ref.studentUserId,
      occasionKey: `mid:${classB}:${addDays(TODAY, 1)}`,
      status: "sending",
      email: "student13@example.org",
      subject: "…",
      attempts: 1,
      claimedAt: NOW,
    });
    await run(new Date(NOW.getTime() + 60_000));
    expect(to("student13@example.org")).toEqual([]);
    await run(new Date(NOW.getTime() + 11 * 60_000));
    expect(to("student13@example.org")).toHaveLength(1);
  });

  test("two runs at once on one database (separate connections): every reminder sent once", async () => {
    await db
      .update(classes)
      .set({ midSemesterDate: addDays(TODAY, 1) })
      .where(inArray(classes.id, [classA, classB]));
    const other = await openTestDatabaseOn(database);
    try {
      const [a, b] = await Promise.all([
        runReminders(db, { institution: INSTITUTION, origin: ORIGIN, now: NOW, send }),
        runReminders(other.db, { institution: INSTITUTION, origin: ORIGIN, now: NOW, send }),
      ]);
      expect(a.due).toBe(b.due);
      expect(a.sent + b.sent).toBe(a.due);
      expect(sent).toHaveLength(a.due);
      expect(new Set(sent.map((m) => `${m.to}|${m.subject}`)).size).toBe(sent.length);
    } finally {
      await other.close();
    }
  });

  test("the admin's list: newest first, by status, with the total", async () => {
    await db
      .update(classes)
      .set({ midSemesterDate: addDays(TODAY, 1) })
      .where(eq(classes.id, classB));
    failing = true;
    await run();
    const all = await reminderLog(db, { status: null, limit: 5 });
    expect(all.rows).toHaveLength(5);
    expect(all.total).toBeGreaterThan(5);
    expect((await reminderLog(db, { status: "sent", limit: 5 })).total).toBe(0);
    const failed = await reminderLog(db, { status: "failed", limit: 100 });
    expect(failed.total).toBe(all.total);
    expect(failed.rows[0].lastError).toContain("421");
  });
});

/** A second pool on the same database, as a second instance would have. */
async function openTestDatabaseOn(first: Database & { url?: string }) {
  const { openDatabase } = await import("~/services/platform/db/client.server");
  return openDatabase({ url: (first as { url: string }).url, kind: "external", poolSize: 4 });
}
