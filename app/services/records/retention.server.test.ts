import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { openTestDatabase } from "~/test/db";
import { clearReminderState, REMINDER_INSTITUTION, REMINDER_ORIGIN } from "~/test/reminders";
import { runReminders } from "~/services/reminders/index.server";
import type { Mail } from "~/services/platform/email.server";
import { seedDemo } from "~/services/demo/index.server";
import { readAuditQuery, searchAuditLog } from "~/services/admin/index.server";
import {
  openMyDataExport,
  openSemesterReport,
  reportStudentIds,
  type Translate,
} from "~/services/documents/index.server";
import type { Database } from "~/services/platform/db/client.server";
import {
  answerSets,
  schemes,
  auditEvents,
  classes,
  oneTimeCodes,
  semesters,
  recordOpenings,
  reminders,
  resultSubmissions,
  ROLE,
  sessions,
  signingForms,
  studentReferences,
  subjects,
  supervisorInvitations,
  userAffiliations,
  userRoles,
  users,
  warnings,
} from "~/services/platform/db/schema";
import {
  erasePerson,
  erasurePlan,
  ERASED_NAME,
  nextRunAfter,
  noCounts,
  previewRetention,
  lastRetentionRun,
  runDailyRetention,
  scheduleRetention,
  runRetention,
  type RecordKind,
  type RetentionRule,
} from "./index.server";

const DAY = 24 * 60 * 60 * 1000;
const SEEDED = new Date("2026-11-22T12:00:00Z");
/** The run's clock: the spring class (SYK1002, ended in June) is past a 30-day period; the autumn classes are not. */
const NOW = new Date("2026-11-23T03:00:00Z");
const ago = (days: number) => new Date(NOW.getTime() - days * DAY);

const RULES: RetentionRule[] = [
  { kind: "answers", keepDays: 30, from: "classEnd", action: "delete" },
  { kind: "warnings", keepDays: 30, from: "classEnd", action: "delete" },
  { kind: "signingForms", keepDays: 30, from: "classEnd", action: "delete" },
  { kind: "resultSubmissions", keepDays: 30, from: "classEnd", action: "delete" },
  { kind: "recordOpenings", keepDays: 365, from: "created", action: "delete" },
  { kind: "auditEvents", keepDays: 730, from: "created", action: "delete" },
  { kind: "invitations", keepDays: 30, from: "classEnd", action: "delete" },
  { kind: "codes", keepDays: 7, from: "created", action: "delete" },
  { kind: "people", keepDays: 100, from: "lastLogIn", action: "anonymise" },
];

let database: Database;
let db: Database["db"];
let oldClass: number;
let currentClasses: number[];
let student: number; // in the spring class and an autumn one
let leaver: number; // only in the spring class, last logged in long ago
let admin: number;
let idle: number; // no class, no log-in for years
let idleAdmin: number;

const userId = async (email: string) =>
  (await db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0].id;

const countOf = async (query: Promise<{ n: number }[]>) => (await query)[0].n;
const answerSetsIn = (classIds: number[]) =>
  countOf(
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(answerSets)
      .innerJoin(schemes, eq(schemes.id, answerSets.schemeId))
      .where(inArray(schemes.classId, classIds)),
  );

async function person(name: string, email: string, lastLoginAt: Date | null, roleId: number) {
  const [row] = await db
    .insert(users)
    .values({ displayName: name, email, phoneNumber: "+4791234567", lastLoginAt, createdAt: ago(2000) })
    .returning({ id: users.id });
  await db.insert(userRoles).values({ userId: row.id, roleId });
  return row.id;
}

/** The spring semester's report, one line per student's place (the keys for texts: only its rows matter here). */
async function springReport(): Promise<string[]> {
  const [spring] = await db.select({ id: classes.semesterId }).from(classes).where(eq(classes.id, oldClass));
  const t = ((key: string) => key) as unknown as Translate;
  const text = await readAll((await openSemesterReport(db, spring.id, { t }))!.stream);
  return text.split("\r\n").filter((line) => line.length > 0);
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

beforeAll(async () => {
  database = await openTestDatabase();
  db = database.db;
  await seedDemo(db, SEEDED);
  const rows = await db
    .select({ id: classes.id, code: subjects.subjectCode })
    .from(classes)
    .innerJoin(subjects, eq(subjects.id, classes.subjectId));
  oldClass = rows.find((r) => r.code === "SYK1002")!.id;
  currentClasses = rows.filter((r) => r.code !== "SYK1002").map((r) => r.id);
  student = await userId("student01@example.org");
  admin = await userId("admin@example.org");

  // Records of every class kind in the spring class, about the student (the demo holds answers there).
  const [ref] = await db
    .select({ id: studentReferences.id })
    .from(studentReferences)
    .where(and(eq(studentReferences.studentUserId, student), eq(studentReferences.classId, oldClass)));
  const teacher = await userId("laerer1@example.org");
  await db
    .insert(warnings)
    .values({ studentReferenceId: ref.id, teacherUserId: teacher, comment: "OLD-WARNING" })
    .onConflictDoNothing();
  await db
    .insert(signingForms)
    .values({ studentReferenceId: ref.id, teacherComment: "OLD-SIGNING" })
    .onConflictDoNothing();
  await db.insert(resultSubmissions).values({ studentReferenceId: ref.id, exporter: "test", payload: {} });
  await db.insert(supervisorInvitations).values({
    studentReferenceId: ref.id,
    invitedByUserId: student,
    email: "veileder.gammel@example.org",
    tokenHash: "old-invitation",
    expiresAt: ago(150),
    createdAt: ago(160),
  });

  leaver = await person("Lea Leaver", "lea.leaver@example.org", ago(200), ROLE.Student);
  await db.insert(studentReferences).values({ classId: oldClass, studentUserId: leaver });
  await db
    .insert(userAffiliations)
    .values({ userId: leaver, groupId: "fs:g1", groupType: "fc:fs:emne", displayName: "X" });
  await db.insert(auditEvents).values({
    at: ago(200),
    action: "user.updated",
    actorUserId: admin,
    subjectUserId: leaver,
    details: { displayName: { before: "Lea L.", after: "Lea Leaver" } },
  });
  idle = await person("Ivar Idle", "ivar.idle@example.org", ago(1000), ROLE.Supervisor);
  idleAdmin = await person("Ada Idle", "ada.idle@example.org", ago(1000), ROLE.Admin);
  await db.insert(sessions).values({ id: "idle-session", userId: idle, expiresAt: NOW, absoluteExpiresAt: NOW });

  // Rows counted from their own creation: one past its period and one within, of each.
  await db.insert(auditEvents).values([
    { at: ago(800), action: "login", actorUserId: student },
    { at: ago(700), action: "login", actorUserId: student },
  ]);
  await db.insert(recordOpenings).values([
    {
      studentUserId: student,
      hour: ago(400),
      at: ago(400),
      viewerUserId: teacher,
      kind: "student",
      viewerRole: ROLE.Teacher,
    },
    {
      studentUserId: student,
      hour: ago(10),
      at: ago(10),
      viewerUserId: teacher,
      kind: "student",
      viewerRole: ROLE.Teacher,
    },
  ]);
  await db.insert(oneTimeCodes).values([
    { email: "x@example.org", codeHash: "a", createdAt: ago(8), expiresAt: ago(8) },
    { email: "y@example.org", codeHash: "b", createdAt: ago(1), expiresAt: ago(1) },
  ]);
});

afterAll(async () => {
  await database?.close();
});

describe("the retention run", () => {
  let preview: Awaited<ReturnType<typeof previewRetention>>;
  let ran: Record<RecordKind, number>;
  let before: { current: number; old: number; warnings: number; signingForms: number; report: string[] };

  beforeAll(async () => {
    const inOldClass = async (table: string) => {
      const { rows } = (await db.execute(
        sql`select count(*)::int as n from ${sql.raw(table)} t join student_references r on r.id = t.student_reference_id where r.class_id = ${oldClass}`,
      )) as unknown as { rows: { n: number }[] };
      return rows[0].n;
    };
    before = {
      current: await answerSetsIn(currentClasses),
      old: await answerSetsIn([oldClass]),
      warnings: await inOldClass("warnings"),
      signingForms: (await inOldClass("signing_forms")) + (await inOldClass("signing_form_archive")),
      report: await springReport(),
    };
    preview = await previewRetention(db, RULES, NOW);
    ran = await runRetention(db, RULES, NOW);
  });

  test("the preview counts what the run then removed, per kind, and names only the class past its period", () => {
    expect(before.old).toBeGreaterThan(0);
    expect(before.warnings).toBeGreaterThan(0);
    expect(preview.totals).toEqual(ran);
    expect(ran).toMatchObject({
      answers: before.old,
      warnings: before.warnings,
      signingForms: before.signingForms,
      resultSubmissions: 1,
      invitations: 1,
      recordOpenings: 1,
      auditEvents: 1,
      codes: 1,
      people: 2,
    });
    expect(preview.byClass.map((c) => [c.classId, c.subjectCode])).toEqual([[oldClass, "SYK1002"]]);
    expect(preview.byClass[0].counts).toMatchObject({
      answers: before.old,
      warnings: before.warnings,
      signingForms: before.signingForms,
    });
    expect(preview.lastRun).toBeNull();
  });

  test("past its period → gone; within it → untouched", async () => {
    expect(await answerSetsIn([oldClass])).toBe(0);
    expect(await answerSetsIn(currentClasses)).toBe(before.current);
    expect(await db.select().from(warnings).where(eq(warnings.comment, "OLD-WARNING"))).toEqual([]);
    expect(await db.select().from(signingForms).where(eq(signingForms.teacherComment, "OLD-SIGNING"))).toEqual([]);
    expect(
      await db.select().from(supervisorInvitations).where(eq(supervisorInvitations.tokenHash, "old-invitation")),
    ).toEqual([]);
    const logins = await db
      .select({ at: auditEvents.at })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "login"), eq(auditEvents.actorUserId, student)));
    expect(logins.map((r) => r.at.getTime())).toEqual([ago(700).getTime()]);
    const opened = await db
      .select({ at: recordOpenings.at })
      .from(recordOpenings)
      .where(eq(recordOpenings.studentUserId, student));
    expect(opened.map((r) => r.at.getTime())).toContain(ago(10).getTime());
    expect(opened.map((r) => r.at.getTime())).not.toContain(ago(400).getTime());
    expect((await db.select({ e: oneTimeCodes.email }).from(oneTimeCodes)).map((r) => r.e)).toContain("y@example.org");
  });

  test("a person past their period is anonymised; an admin, or someone in a recent class, is not", async () => {
    const [lea] = await db.select().from(users).where(eq(users.id, leaver));
    expect(lea).toMatchObject({
      displayName: ERASED_NAME,
      email: `slettet-${leaver}@anonymisert.invalid`,
      phoneNumber: null,
      feideUserId: null,
      vippsSub: null,
      verifiedPhone: null,
      isActive: false,
    });
    expect(lea.anonymisedAt?.getTime()).toBe(NOW.getTime());
    expect(await db.select().from(userAffiliations).where(eq(userAffiliations.userId, leaver))).toEqual([]);
    expect(await db.select().from(sessions).where(eq(sessions.userId, idle))).toEqual([]);
    const [trail] = await db
      .select({ details: auditEvents.details })
      .from(auditEvents)
      .where(eq(auditEvents.subjectUserId, leaver));
    expect(JSON.stringify(trail.details)).not.toContain("Lea");
    for (const id of [idleAdmin, student, admin]) {
      const [kept] = await db
        .select({ name: users.displayName, at: users.anonymisedAt })
        .from(users)
        .where(eq(users.id, id));
      expect(kept.name).not.toBe(ERASED_NAME);
      expect(kept.at).toBeNull();
    }
  });

  test("the semester report still counts the anonymised student, by the placeholder name", async () => {
    const report = await springReport();
    expect(report).toHaveLength(before.report.length);
    expect(report.filter((line) => line.startsWith(`${ERASED_NAME};`))).toHaveLength(1);
    expect(before.report.some((line) => line.startsWith("Lea Leaver;"))).toBe(true);
    const [spring] = await db.select({ id: classes.semesterId }).from(classes).where(eq(classes.id, oldClass));
    expect(await reportStudentIds(db, spring.id)).toContain(leaver);
    const refs = await db.select().from(studentReferences).where(eq(studentReferences.classId, oldClass));
    expect(refs.map((r) => r.studentUserId)).toContain(leaver);
  });

  test("the run is audited once, with its counts and no actor; the preview shows it as the last run", async () => {
    const rows = await db.select().from(auditEvents).where(eq(auditEvents.action, "retention.run"));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actorUserId: null, subjectUserId: null, details: ran });
    const after = await previewRetention(db, RULES, NOW);
    expect(after.lastRun).toEqual({ at: NOW.toISOString(), totals: ran });
  });

  test("a second run removes nothing, and the preview said so", async () => {
    const again = await previewRetention(db, RULES, NOW);
    expect(again.totals).toEqual(noCounts());
    expect(again.byClass).toEqual([]);
    expect(await runRetention(db, RULES, NOW)).toEqual(noCounts());
  });

  test("the student's My data and the admin's audit log still render, and agree", async () => {
    const mine = JSON.parse(await readAll((await openMyDataExport(db, student, NOW))!.stream)) as {
      answerSets: unknown[];
      auditTrail: { at: string; action: string }[];
      accessList: { at: string }[];
    };
    expect(mine.answerSets.length).toBeGreaterThan(0);
    const logged = await searchAuditLog(
      db,
      { ...readAuditQuery(new URLSearchParams()), person: "student01@example.org" },
      1000,
    );
    const audited = logged.entries.filter((e) => e.action !== "record.opened");
    expect(audited.map((e) => e.at.toISOString()).toSorted()).toEqual(
      mine.auditTrail.map((e) => new Date(e.at).toISOString()).toSorted(),
    );
    const opened = logged.entries.filter((e) => e.action === "record.opened" && e.subjectUserId === student);
    expect(opened.length).toBe(mine.accessList.length);
    // The anonymised student's own copy renders too, under the placeholder name.
    const theirs = JSON.parse(await readAll((await openMyDataExport(db, leaver, NOW))!.stream)) as {
      profile: { displayName: string; email: string };
    };
    expect(theirs.profile).toMatchObject({ displayName: ERASED_NAME, email: `slettet-${leaver}@anonymisert.invalid` });
  });
});

describe("erasure on request", () => {
  test("the plan: the account and sessions go now, the records of a class within its period are kept, with the date", async () => {
    const plan = (await erasurePlan(db, student, RULES, NOW))!;
    expect(plan.person).toMatchObject({ id: student, erased: false, roles: ["Student"] });
    expect(plan.goes[0]).toEqual({ kind: "account", count: 1 });
    const answers = plan.kept.find((k) => k.kind === "answers")!;
    expect(answers.count).toBeGreaterThan(0);
    const [end] = await db
      .select({
        end: sql<string>`to_char(greatest(${semesters.endDate}, ${classes.endSemesterDate}) + 30, 'YYYY-MM-DD')`,
      })
      .from(classes)
      .innerJoin(semesters, eq(semesters.id, classes.semesterId))
      .where(inArray(classes.id, currentClasses))
      .orderBy(sql`1 desc`)
      .limit(1);
    expect(answers.until).toBe(end.end);
    expect(plan.kept.find((k) => k.kind === "auditEvents")?.count).toBeGreaterThan(0);
    expect(await erasurePlan(db, 999_999, RULES, NOW)).toBeNull();
  });

  test("an admin may not erase themself; a person who is not there is not found", async () => {
    expect(await erasePerson(db, admin, { actorUserId: admin }, RULES, NOW)).toBe("self");
    expect(await erasePerson(db, 999_999, { actorUserId: admin }, RULES, NOW)).toBe("not-found");
  });

  test("erasing anonymises at once, keeps what must be kept, is audited with the admin as actor, and happens once", async () => {
    const kept = await answerSetsIn(currentClasses);
    expect(await erasePerson(db, student, { actorUserId: admin, ip: "192.0.2.1" }, RULES, NOW)).toBe("erased");
    const [gone] = await db.select().from(users).where(eq(users.id, student));
    expect(gone).toMatchObject({ displayName: ERASED_NAME, isActive: false, phoneNumber: null });
    expect(await answerSetsIn(currentClasses)).toBe(kept);
    expect(await db.select().from(recordOpenings).where(eq(recordOpenings.studentUserId, student))).toEqual([]);
    const [row] = await db.select().from(auditEvents).where(eq(auditEvents.action, "user.erased"));
    expect(row).toMatchObject({ actorUserId: admin, subjectUserId: student, ip: "192.0.2.1" });
    expect(row.details).toMatchObject({ account: 1 });
    expect(await erasePerson(db, student, { actorUserId: admin }, RULES, NOW)).toBe("already");
    expect((await erasurePlan(db, student, RULES, NOW))!.person.erased).toBe(true);
    // My data still renders for them, and the audit log names them by the placeholder.
    expect(await openMyDataExport(db, student, NOW)).not.toBeNull();
    const logged = await searchAuditLog(db, { ...readAuditQuery(new URLSearchParams()), action: "user.erased" });
    expect(logged.entries[0]).toMatchObject({ subjectName: ERASED_NAME, actorUserId: admin });
  });
});

describe("the daily run", () => {
  test("runs once a day across processes: of two at once, one runs and the other finds the day taken", async () => {
    const day = new Date("2026-11-24T01:00:00Z");
    const quiet = { info() {} };
    expect(await nextRunAfter(db, day)).toBe(day.toISOString());
    const both = await Promise.all([
      runDailyRetention(db, { rules: RULES, now: day, log: quiet }),
      runDailyRetention(db, { rules: RULES, now: day, log: quiet }),
    ]);
    expect(both.filter((r) => r === null)).toHaveLength(1);
    expect(await runDailyRetention(db, { rules: RULES, now: new Date("2026-11-24T23:00:00Z"), log: quiet })).toBeNull();
    expect(await nextRunAfter(db, day)).toBe("2026-11-25T00:00:00.000Z");
    expect((await previewRetention(db, RULES, day)).lastRun?.at).toBe(day.toISOString());
  });

  test("the app's schedule runs it, with nothing more than the database and the rules (no callback)", async () => {
    const began = new Date();
    const keepAll = RULES.map((rule) => ({ ...rule, keepDays: 100_000 }));
    const info = vi.spyOn(console, "info").mockImplementation(() => {});
    const schedule = scheduleRetention({ db: async () => db, rules: () => keepAll, firstDelayMs: 0 });
    try {
      await expect
        .poll(async () => (await lastRetentionRun(db))?.at ?? "", { timeout: 10_000 })
        .toSatisfy((at: string) => at >= began.toISOString());
    } finally {
      schedule.stop();
      info.mockRestore();
    }
  });
});

describe("an anonymised person gets no mail", () => {
  test("a reminder run that mails every other student of the class mails none to the erased student", async () => {
    await clearReminderState(db);
    const [classA] = await db
      .select({ id: classes.id })
      .from(classes)
      .innerJoin(subjects, eq(subjects.id, classes.subjectId))
      .where(and(eq(subjects.subjectCode, "SYK2001"), inArray(classes.id, currentClasses)));
    const today = NOW.toISOString().slice(0, 10);
    const inAWeek = new Date(Date.parse(`${today}T00:00:00Z`) + 7 * DAY).toISOString().slice(0, 10);
    await db.update(classes).set({ midSemesterDate: inAWeek }).where(eq(classes.id, classA.id));
    const sent: Mail[] = [];
    const summary = await runReminders(db, {
      institution: REMINDER_INSTITUTION,
      origin: REMINDER_ORIGIN,
      now: NOW,
      send: async (mail: Mail) => {
        sent.push(mail);
      },
    });
    expect(summary.sent).toBeGreaterThan(0);
    expect(sent.some((mail) => mail.to === "student02@example.org")).toBe(true);
    expect(sent.filter((mail) => mail.to.endsWith(".invalid"))).toEqual([]);
    const [erased] = await db.select({ anonymisedAt: users.anonymisedAt }).from(users).where(eq(users.id, student));
    expect(erased.anonymisedAt).not.toBeNull();
    const theirs = await db.select().from(reminders).where(eq(reminders.recipientUserId, student));
    expect(theirs).toEqual([]);
  });
});
