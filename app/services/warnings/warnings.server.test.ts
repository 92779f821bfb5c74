import { and, eq, sql } from "drizzle-orm";
import i18next, { type TFunction } from "i18next";
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import resources from "~/locales";
import type { Database, Db } from "~/services/platform/db/client.server";
import { seedDemo } from "~/services/demo/index.server";
import { auditEvents, classes, semesters, subjects, warnings } from "~/services/platform/db/schema";
import type { Mail } from "~/services/platform/email.server";
import { openTestDatabase } from "~/test/db";
import { requireStudentAccess, type StudentAccess } from "~/services/placements/index.server";
import { ROLE, type RoleId } from "~/services/identity";
import { WARNING_TEXT_LIMIT } from "./warnings";
import {
  confirmWarning,
  deleteWarning,
  saveWarningDraft,
  submitWarning,
  warningFor,
  warningGivenMail,
  warningStateOf,
  type WarningMailContext,
} from "./warnings.server";
import { userIdOf } from "~/test/app";

const sent: Mail[] = [];
let mailFails = false;
vi.mock("~/services/platform/email.server", async (importOriginal) => ({
  ...(await importOriginal<typeof import("~/services/platform/email.server")>()),
  sendMail: async (mail: Mail) => {
    // What the real sendMail throws when the server refuses, times out or is unreachable.
    if (mailFails)
      throw new (await importOriginal<typeof import("~/services/platform/email.server")>()).MailNotSent("unreachable", {
        cause: new Error("SMTP down"),
      });
    sent.push(mail);
  },
}));

const NOW = new Date("2026-11-22T12:00:00Z");
let database: Database;
let db: Db;
let mail: WarningMailContext;
let classB: number;

const FULL = {
  comment: "Du dokumenterer for lite og for sent.",
  passRequirement: "Du må dokumentere alle observasjoner samme vakt.",
  passRequirementSummary: "Dokumentasjon samme vakt.",
};
const EMPTY = { comment: "", passRequirement: "", passRequirementSummary: "" };

beforeAll(async () => {
  database = await openTestDatabase();
  db = database.db;
  await seedDemo(db, NOW);
  const i18n = i18next.createInstance();
  await i18n.init({ resources, lng: "nb", interpolation: { escapeValue: false } });
  mail = {
    t: i18n.getFixedT("nb", "warnings") as TFunction,
    origin: "https://praksis.example.org",
    appName: "Praksis Fjordbyen",
  };
  const [row] = await db
    .select({ id: classes.id })
    .from(classes)
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .innerJoin(semesters, eq(semesters.id, classes.semesterId))
    .where(and(eq(subjects.subjectCode, "SYK2002"), eq(semesters.name, "Høst 2026")));
  classB = row.id;
});

afterAll(async () => {
  await database.close();
});

beforeEach(() => {
  sent.length = 0;
  mailFails = false;
});

/** How `viewer` (acting as `role`) stands to the student, by the app's own permission rules. */
async function accessOf(
  viewer: string,
  role: RoleId,
  student: string,
): Promise<StudentAccess & { actorUserId: number }> {
  const actorUserId = await userIdOf(db, viewer);
  const access = await requireStudentAccess(db, { userId: actorUserId, role }, classB, await userIdOf(db, student));
  return { ...access, actorUserId };
}

const as = (a: Awaited<ReturnType<typeof accessOf>>) => ({
  access: a,
  actorUserId: a.actorUserId,
  ip: "192.0.2.9",
  now: NOW,
});

async function auditsOf(studentEmail: string, action: string) {
  const subject = await userIdOf(db, studentEmail);
  return (await db.select().from(auditEvents).where(eq(auditEvents.action, action))).filter(
    (e) => e.subjectUserId === subject,
  );
}

async function rowsOf(access: StudentAccess) {
  return db.select().from(warnings).where(eq(warnings.studentReferenceId, access.referenceId));
}

describe("writing the draft", () => {
  test("the teacher's first save creates the draft (audited once); later saves change it in place", async () => {
    const teacher = await accessOf("admin@example.org", ROLE.Teacher, "student15@example.org");
    const first = await saveWarningDraft(db, {
      ...as(teacher),
      text: { ...EMPTY, comment: "Første\r\nlinje" },
      seenId: null,
    });
    expect(first).toMatchObject({ ok: true, created: true });
    if (!first.ok) return;
    const second = await saveWarningDraft(db, {
      ...as(teacher),
      text: { ...FULL, passRequirement: "" },
      seenId: first.warningId,
    });
    expect(second).toMatchObject({ ok: true, created: false, warningId: first.warningId });
    const rows = await rowsOf(teacher);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      ...FULL,
      passRequirement: "",
      submittedAt: null,
      teacherUserId: teacher.actorUserId,
    });
    const created = await auditsOf("student15@example.org", "warning.created");
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({
      actorUserId: teacher.actorUserId,
      classId: classB,
      ip: "192.0.2.9",
      details: { warningId: first.warningId },
    });
    expect(await warningStateOf(db, teacher.referenceId)).toBe("draft");
    expect(sent).toEqual([]);
  });

  test("a draft keeps line breaks as \\n, and blank as empty", async () => {
    const teacher = await accessOf("admin@example.org", ROLE.Teacher, "student15@example.org");
    const [row] = await rowsOf(teacher);
    await saveWarningDraft(db, {
      ...as(teacher),
      text: { comment: "a\r\nb", passRequirement: "  ", passRequirementSummary: "c" },
      seenId: row.id,
    });
    const [after] = await rowsOf(teacher);
    expect(after).toMatchObject({ comment: "a\nb", passRequirement: "", passRequirementSummary: "c" });
  });

  test("any teacher of the class may write; the draft is theirs alone to see", async () => {
    const colleague = await accessOf("laerer3@example.org", ROLE.Teacher, "student15@example.org");
    const view = await warningFor(db, colleague);
    expect(view).toMatchObject({ state: "draft", teacherName: "Ada Administrator", submittedAt: null });
    for (const [viewer, role] of [
      ["student15@example.org", ROLE.Student],
      ["veileder3@example.org", ROLE.Supervisor],
      ["admin@example.org", ROLE.Admin],
    ] as const) {
      expect(await warningFor(db, await accessOf(viewer, role, "student15@example.org")), viewer).toBeNull();
    }
  });

  test("a text over 10 000 characters is refused and nothing is written", async () => {
    const teacher = await accessOf("admin@example.org", ROLE.Teacher, "student15@example.org");
    const [before] = await rowsOf(teacher);
    const outcome = await saveWarningDraft(db, {
      ...as(teacher),
      text: { ...FULL, passRequirementSummary: "x".repeat(WARNING_TEXT_LIMIT + 1) },
      seenId: before.id,
    });
    expect(outcome).toEqual({
      ok: false,
      error: "invalid",
      fieldErrors: { passRequirementSummary: "tooLong" },
      state: "draft",
    });
    const [after] = await rowsOf(teacher);
    expect(after).toEqual(before);
  });

  test("supervisors and students may not write a warning", async () => {
    for (const [viewer, role] of [
      ["veileder4@example.org", ROLE.Supervisor],
      ["student16@example.org", ROLE.Student],
    ] as const) {
      const access = await accessOf(viewer, role, "student16@example.org");
      expect(await saveWarningDraft(db, { ...as(access), text: FULL, seenId: null })).toMatchObject({
        ok: false,
        error: "notAllowed",
      });
      expect(await submitWarning(db, { ...as(access), text: FULL, seenId: null, mail })).toMatchObject({
        ok: false,
        error: "notAllowed",
      });
      expect(await rowsOf(access)).toEqual([]);
    }
  });

  test("saves at once, each starting from no warning, make one warning", async () => {
    const teacher = await accessOf("admin@example.org", ROLE.Teacher, "student16@example.org");
    const colleague = await accessOf("laerer3@example.org", ROLE.Teacher, "student16@example.org");
    // On PostgreSQL the pool opens its connections lazily: open them first, so the saves truly overlap.
    await Promise.all(Array.from({ length: 4 }, () => db.execute(sql`select 1`)));
    const outcomes = await Promise.all([
      saveWarningDraft(db, { ...as(teacher), text: { ...EMPTY, comment: "Fra fane 1" }, seenId: null }),
      saveWarningDraft(db, { ...as(colleague), text: { ...EMPTY, comment: "Fra fane 2" }, seenId: null }),
      saveWarningDraft(db, { ...as(teacher), text: { ...EMPTY, comment: "Fra fane 1" }, seenId: null }),
      saveWarningDraft(db, { ...as(colleague), text: { ...EMPTY, comment: "Fra fane 3" }, seenId: null }),
    ]);
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(outcomes.filter((o) => o.ok && o.created)).toHaveLength(1);
    expect(await rowsOf(teacher)).toHaveLength(1);
    expect(await auditsOf("student16@example.org", "warning.created")).toHaveLength(1);
  });
});

describe("giving the warning", () => {
  test("needs all three texts; the draft stays as it was", async () => {
    const teacher = await accessOf("admin@example.org", ROLE.Teacher, "student16@example.org");
    const [before] = await rowsOf(teacher);
    const outcome = await submitWarning(db, {
      ...as(teacher),
      text: { ...FULL, passRequirement: " ", comment: "" },
      seenId: before.id,
      mail,
    });
    expect(outcome).toEqual({
      ok: false,
      error: "invalid",
      fieldErrors: { comment: "required", passRequirement: "required" },
      state: "draft",
    });
    expect((await rowsOf(teacher))[0]).toEqual(before);
    expect(sent).toEqual([]);
  });

  test("gives it, with the text the page had; the giver answers for it; the student gets a short mail", async () => {
    const colleague = await accessOf("laerer3@example.org", ROLE.Teacher, "student16@example.org");
    const [draft] = await rowsOf(colleague);
    const later = new Date(NOW.getTime() + 60_000);
    const outcome = await submitWarning(db, { ...as(colleague), now: later, text: FULL, seenId: draft.id, mail });
    expect(outcome).toEqual({ ok: true, warningId: draft.id, changed: true, mailSent: true });
    const [given] = await rowsOf(colleague);
    expect(given).toMatchObject({
      ...FULL,
      submittedAt: later,
      studentConfirmedWarningAt: null,
      teacherUserId: colleague.actorUserId,
    });
    expect(given.createdAt).toEqual(draft.createdAt);

    const [event] = await auditsOf("student16@example.org", "warning.submitted");
    expect(event).toMatchObject({
      actorUserId: colleague.actorUserId,
      classId: classB,
      details: { warningId: draft.id, created: false, ...FULL },
    });

    expect(sent).toHaveLength(1);
    expect(sent[0].to).toBe("student16@example.org");
    expect(sent[0].subject).toBe("Du har fått et varsel i SYK2002 Praksis i spesialisthelsetjenesten");
    expect(sent[0].text).toContain("Hei, Henrik Johannessen!");
    expect(sent[0].text).toContain("https://praksis.example.org/student/warning");
    // The text itself is behind the log-in.
    for (const text of Object.values(FULL)) expect(sent[0].text).not.toContain(text);
  });

  test("the student, the supervisor and the admin now see it", async () => {
    for (const [viewer, role] of [
      ["student16@example.org", ROLE.Student],
      ["veileder4@example.org", ROLE.Supervisor],
      ["admin@example.org", ROLE.Admin],
      ["admin@example.org", ROLE.Teacher],
    ] as const) {
      const view = await warningFor(db, await accessOf(viewer, role, "student16@example.org"));
      expect(view, viewer).toMatchObject({ state: "given", text: FULL, teacherName: "Siri Lunde", confirmedAt: null });
    }
  });

  test("the same post again (a double click, a reload) changes nothing and mails nobody", async () => {
    const teacher = await accessOf("admin@example.org", ROLE.Teacher, "student16@example.org");
    const [given] = await rowsOf(teacher);
    for (const seenId of [given.id, null]) {
      expect(await submitWarning(db, { ...as(teacher), text: FULL, seenId, mail })).toEqual({
        ok: true,
        warningId: given.id,
        changed: false,
        mailSent: false,
      });
    }
    expect(await rowsOf(teacher)).toEqual([given]);
    expect(sent).toEqual([]);
    expect(await auditsOf("student16@example.org", "warning.submitted")).toHaveLength(1);
  });

  test("a given warning is not edited: other text, to give or to save, is refused", async () => {
    const teacher = await accessOf("admin@example.org", ROLE.Teacher, "student16@example.org");
    const [given] = await rowsOf(teacher);
    const other = { ...FULL, comment: "Noe annet" };
    expect(await submitWarning(db, { ...as(teacher), text: other, seenId: given.id, mail })).toEqual({
      ok: false,
      error: "alreadyGiven",
      state: "given",
    });
    expect(await saveWarningDraft(db, { ...as(teacher), text: other, seenId: given.id })).toEqual({
      ok: false,
      error: "alreadyGiven",
      state: "given",
    });
    expect(await rowsOf(teacher)).toEqual([given]);
  });

  test("gives at once make one warning, one audit entry and one mail", async () => {
    const teacher = await accessOf("admin@example.org", ROLE.Teacher, "student17@example.org");
    const colleague = await accessOf("laerer3@example.org", ROLE.Teacher, "student17@example.org");
    const outcomes = await Promise.all([
      submitWarning(db, { ...as(teacher), text: FULL, seenId: null, mail }),
      submitWarning(db, { ...as(colleague), text: FULL, seenId: null, mail }),
      submitWarning(db, { ...as(teacher), text: FULL, seenId: null, mail }),
      submitWarning(db, { ...as(colleague), text: FULL, seenId: null, mail }),
    ]);
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(outcomes.filter((o) => o.ok && o.changed)).toHaveLength(1);
    expect(await rowsOf(teacher)).toHaveLength(1);
    expect(await auditsOf("student17@example.org", "warning.submitted")).toEqual([
      expect.objectContaining({ details: expect.objectContaining({ created: true }) }),
    ]);
    expect(sent.map((m) => m.to)).toEqual(["student17@example.org"]);
  });

  test("a mail that cannot be sent does not undo the warning; the teacher is told", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    mailFails = true;
    const teacher = await accessOf("admin@example.org", ROLE.Teacher, "student19@example.org");
    const outcome = await submitWarning(db, { ...as(teacher), text: FULL, seenId: null, mail });
    expect(outcome).toMatchObject({ ok: true, changed: true, mailSent: false });
    expect(await warningStateOf(db, teacher.referenceId)).toBe("given");
    // Logged once, by the mail service (email.server.test.ts), not again here.
    expect(logged).not.toHaveBeenCalled();
  });
});

describe("confirming", () => {
  test("only the student confirms, only the given warning their page showed, and once", async () => {
    const student = await accessOf("student16@example.org", ROLE.Student, "student16@example.org");
    const [given] = await rowsOf(student);
    for (const [viewer, role] of [
      ["admin@example.org", ROLE.Teacher],
      ["veileder4@example.org", ROLE.Supervisor],
    ] as const) {
      const other = await accessOf(viewer, role, "student16@example.org");
      expect(await confirmWarning(db, { ...as(other), seenId: given.id })).toEqual({
        ok: false,
        error: "notAllowed",
        state: "given",
      });
    }
    expect(await confirmWarning(db, { ...as(student), seenId: given.id + 1000 })).toEqual({
      ok: false,
      error: "gone",
      state: "given",
    });

    const at = new Date(NOW.getTime() + 3_600_000);
    expect(await confirmWarning(db, { ...as(student), now: at, seenId: given.id })).toEqual({
      ok: true,
      changed: true,
    });
    const [confirmed] = await rowsOf(student);
    expect(confirmed.studentConfirmedWarningAt).toEqual(at);
    // The teacher's last change of the text stays what it was.
    expect(confirmed.updatedAt).toEqual(given.updatedAt);
    expect(await warningFor(db, student)).toMatchObject({ state: "confirmed", confirmedAt: at });

    expect(await confirmWarning(db, { ...as(student), seenId: given.id })).toEqual({ ok: true, changed: false });
    expect((await rowsOf(student))[0].studentConfirmedWarningAt).toEqual(at);
    expect(await auditsOf("student16@example.org", "warning.confirmed")).toEqual([
      expect.objectContaining({ actorUserId: student.actorUserId, details: { warningId: given.id } }),
    ]);
  });

  test("a draft is nothing to confirm, and neither is no warning", async () => {
    const draft = await accessOf("student15@example.org", ROLE.Student, "student15@example.org");
    const [row] = await rowsOf(draft);
    expect(await confirmWarning(db, { ...as(draft), seenId: row.id })).toEqual({
      ok: false,
      error: "none",
      state: "draft",
    });
    const none = await accessOf("student20@example.org", ROLE.Student, "student20@example.org");
    expect(await confirmWarning(db, { ...as(none), seenId: 1 })).toEqual({ ok: false, error: "none", state: "none" });
    expect((await rowsOf(draft))[0].studentConfirmedWarningAt).toBeNull();
  });
});

describe("deleting", () => {
  test("the teacher deletes a confirmed warning: none is left, and the trail keeps what it was", async () => {
    const teacher = await accessOf("admin@example.org", ROLE.Teacher, "student16@example.org");
    const [row] = await rowsOf(teacher);
    for (const [viewer, role] of [
      ["student16@example.org", ROLE.Student],
      ["veileder4@example.org", ROLE.Supervisor],
    ] as const) {
      const other = await accessOf(viewer, role, "student16@example.org");
      expect(await deleteWarning(db, { ...as(other), seenId: row.id })).toEqual({
        ok: false,
        error: "notAllowed",
        state: "confirmed",
      });
    }
    expect(await deleteWarning(db, { ...as(teacher), seenId: row.id + 1000 })).toEqual({
      ok: false,
      error: "gone",
      state: "confirmed",
    });
    expect(await rowsOf(teacher)).toHaveLength(1);

    expect(await deleteWarning(db, { ...as(teacher), seenId: row.id })).toEqual({ ok: true, deleted: "confirmed" });
    expect(await rowsOf(teacher)).toEqual([]);
    expect(await warningStateOf(db, teacher.referenceId)).toBe("none");
    expect(await warningFor(db, teacher)).toBeNull();
    const [event] = await auditsOf("student16@example.org", "warning.deleted");
    expect(event).toMatchObject({
      actorUserId: teacher.actorUserId,
      classId: classB,
      details: {
        warningId: row.id,
        state: "confirmed",
        createdAt: row.createdAt.toISOString(),
        submittedAt: row.submittedAt!.toISOString(),
        confirmedAt: row.studentConfirmedWarningAt!.toISOString(),
      },
    });
    // What the student was given is still in the trail.
    expect((await auditsOf("student16@example.org", "warning.submitted"))[0].details).toMatchObject(FULL);

    expect(await deleteWarning(db, { ...as(teacher), seenId: row.id })).toEqual({ ok: true, deleted: null });
  });

  test("a save from a page that still showed the deleted warning does not bring it back", async () => {
    const teacher = await accessOf("admin@example.org", ROLE.Teacher, "student16@example.org");
    const stale = await saveWarningDraft(db, { ...as(teacher), text: FULL, seenId: 123_456 });
    expect(stale).toEqual({ ok: false, error: "gone", state: "none", currentId: null });
    expect(await submitWarning(db, { ...as(teacher), text: FULL, seenId: 123_456, mail })).toEqual({
      ok: false,
      error: "gone",
      state: "none",
      currentId: null,
    });
    expect(await rowsOf(teacher)).toEqual([]);
    // Saved on purpose from a fresh start, it is a new warning.
    const fresh = await saveWarningDraft(db, { ...as(teacher), text: FULL, seenId: null });
    expect(fresh).toMatchObject({ ok: true, created: true });
  });

  test("a draft is deleted the same way", async () => {
    const teacher = await accessOf("admin@example.org", ROLE.Teacher, "student15@example.org");
    const [row] = await rowsOf(teacher);
    expect(await deleteWarning(db, { ...as(teacher), seenId: row.id })).toEqual({ ok: true, deleted: "draft" });
    expect(await rowsOf(teacher)).toEqual([]);
    expect((await auditsOf("student15@example.org", "warning.deleted"))[0].details).toMatchObject({
      state: "draft",
      submittedAt: null,
    });
  });
});

test("the mail in English says the same", async () => {
  const i18n = i18next.createInstance();
  await i18n.init({ resources, lng: "en", interpolation: { escapeValue: false } });
  const message = warningGivenMail(i18n.getFixedT("en", "warnings") as TFunction, {
    to: "x@example.org",
    studentName: "Ola",
    subject: "SYK2002 Praksis",
    origin: "https://praksis.example.org",
    appName: "Praksis Fjordbyen",
  });
  expect(message.subject).toBe("You have been given a warning in SYK2002 Praksis");
  expect(message.text).toContain("Log in to Praksis Fjordbyen");
  expect(message.text).toContain("https://praksis.example.org/student/warning");
});
