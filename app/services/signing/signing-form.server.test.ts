import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import type { Database, Db } from "~/services/platform/db/client.server";
import { seedDemo } from "~/services/demo/index.server";
import {
  answerSets,
  answers,
  schemes,
  auditEvents,
  classes,
  formQuestions,
  formQuestionGroups,
  forms,
  semesters,
  resultSubmissions,
  signingFormArchive,
  signingForms,
  subjects,
  users,
} from "~/services/platform/db/schema";
import { openTestDatabase } from "~/test/db";
import { answeringPlace, saveAnswers } from "~/services/answering/index.server";
import { answerToken, EMPTY } from "~/services/answering";
import { placementOf } from "~/services/placements/index.server";
import type { ResultExporter } from "./result-exporter.server";
import { ROLE, type RoleId } from "~/services/identity";
import type { EndPartInput, MidPartInput } from "./signing-form";
import {
  cancelForm,
  resubmitResult,
  saveEndPart,
  saveMidPart,
  signForm,
  signingFormCard,
  signingFormView,
  signingPlace,
  storedForm,
  validationSummary,
  checkMidPart,
  type SigningPlace,
} from "./signing-form.server";
import { sendingFacts } from "./sending.server";

const NOW = new Date("2026-11-22T12:00:00Z");
let database: Database;
let db: Db;
let classA: number;

beforeAll(async () => {
  database = await openTestDatabase();
  db = database.db;
  await seedDemo(db, NOW);
  const [row] = await db
    .select({ id: classes.id })
    .from(classes)
    .innerJoin(subjects, eq(subjects.id, classes.subjectId))
    .innerJoin(semesters, eq(semesters.id, classes.semesterId))
    .where(and(eq(subjects.subjectCode, "SYK2001"), eq(semesters.name, "Høst 2026")));
  classA = row.id;
});

afterAll(async () => {
  await database.close();
});

async function userIdOf(email: string): Promise<number> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, `${email}@example.org`));
  return row.id;
}

/** The place of `who` (acting in `role`) at the signing form of a class A student. */
async function placeOf(
  who: string,
  role: RoleId,
  student: string,
): Promise<SigningPlace & { actor: { userId: number } }> {
  const userId = await userIdOf(who);
  const place = await signingPlace(db, { userId, role }, classA, await userIdOf(student));
  return { ...place, actor: { userId } };
}

// The demo's forms are not all sent: the teacher goes on all the same, saying so (see "forms not sent").
const mid: MidPartInput & { unsentAcknowledged: boolean } = {
  midSemesterSpecificCompetenceAreasBegun: "yes",
  midSemesterStudentHasGivenFeedback: "notRelevant",
  midSemesterCompletedDate: "2026-10-01",
  unsentAcknowledged: true,
};
const end: EndPartInput = {
  attendancePassed: "yes",
  workRequirementsPassed: "yes",
  specificCompetenceAreasPassed: "yes",
  generalCompetenceAreasPassed: "yes",
  teacherComment: "Studenten har nådd læringsutbyttet.",
  endSemesterCompletedDate: "2026-11-20",
};

async function auditsOf(action: string, signingFormId?: number) {
  const rows = await db.select().from(auditEvents).where(eq(auditEvents.action, action));
  return signingFormId === undefined ? rows : rows.filter((r) => r.details?.signingFormId === signingFormId);
}

/** The three people of a student: the teacher laerer1 (or `teacher`), the student, the assigned supervisor. */
async function people(student: string, supervisor: string, teacher = "laerer1") {
  return {
    teacher: await placeOf(teacher, ROLE.Teacher, student),
    student: await placeOf(student, ROLE.Student, student),
    supervisor: await placeOf(supervisor, ROLE.Supervisor, student),
  };
}

async function readyToSign(student: string, supervisor: string) {
  const p = await people(student, supervisor);
  expect(await saveMidPart(db, p.teacher, p.teacher.actor, mid, { now: NOW })).toEqual({ ok: true, created: true });
  expect(await saveEndPart(db, p.teacher, p.teacher.actor, end, { now: NOW })).toEqual({ ok: true });
  return p;
}

describe("who reaches the form", () => {
  test("the class's teachers, the student, the assigned and extra supervisors; anyone else gets a 404", async () => {
    expect((await placeOf("laerer2", ROLE.Teacher, "student05")).relation).toBe("teacher");
    expect((await placeOf("student05", ROLE.Student, "student05")).relation).toBe("self");
    expect((await placeOf("veileder1", ROLE.Supervisor, "student05")).relation).toBe("supervisor");
    expect((await placeOf("veileder1", ROLE.Supervisor, "student02")).relation).toBe("extraSupervisor");
    for (const [who, role, student] of [
      ["laerer3", ROLE.Teacher, "student05"],
      ["veileder2", ROLE.Supervisor, "student05"],
      ["student06", ROLE.Student, "student05"],
    ] as const) {
      const refused = await placeOf(who, role, student).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(Response);
      expect((refused as Response).status).toBe(404);
    }
  });
});

describe("a whole form", () => {
  test("created by the first save, confirmed, filled, signed by all, locked and submitted; each step audited", async () => {
    const p = await people("student03", "veileder1");
    expect(await signingFormCard(db, p.teacher.referenceId, "nb")).toMatchObject({ state: "notCreated" });
    expect((await signingFormView(db, p.teacher, p.teacher.actor.userId, "nb")).id).toBe(-1);

    expect(await saveMidPart(db, p.teacher, p.teacher.actor, mid, { now: NOW })).toEqual({ ok: true, created: true });
    const form = (await storedForm(db, p.teacher.referenceId))!;
    expect(form).toMatchObject({
      midSemesterCompletedDate: "2026-10-01",
      midSemesterSpecificCompetenceAreasBegun: true,
      midSemesterStudentHasGivenFeedback: null,
    });
    expect(await auditsOf("signing_form.created", form.id)).toHaveLength(1);
    // The student's forms move on to the end of the semester with the confirmation.
    expect((await placementOf(db, p.teacher.referenceId, p.teacher.actor.userId, "2026-09-01"))!.half.half).toBe("end");
    expect(await saveMidPart(db, p.teacher, p.teacher.actor, mid, { now: NOW })).toEqual({
      ok: false,
      error: "state",
      reason: "midConfirmed",
    });

    // Nobody signs before the end part is saved.
    expect(await signForm(db, p.student, p.student.actor, { withoutSupervisor: false }, { now: NOW })).toEqual({
      ok: false,
      error: "state",
      reason: "endNotSaved",
    });
    expect(
      await saveEndPart(db, p.teacher, p.teacher.actor, { ...end, endSemesterCompletedDate: undefined }, { now: NOW }),
    ).toEqual({ ok: true });
    expect(await storedForm(db, p.teacher.referenceId)).toMatchObject({
      endSemesterCompletedDate: "2026-11-22",
      overallPassed: true,
    });
    expect(await auditsOf("signing_form.saved", form.id)).toHaveLength(1);

    expect(await signForm(db, p.student, p.student.actor, { withoutSupervisor: false }, { now: NOW })).toEqual({
      ok: true,
      signer: "student",
      allSigned: false,
      submission: "skipped",
    });
    expect(await signingFormCard(db, p.teacher.referenceId, "nb")).toEqual({
      state: "partlySigned",
      signedBy: ["student"],
      midDateText: "1.10.2026",
      submittedText: null,
    });
    expect(
      await signForm(db, p.supervisor, p.supervisor.actor, { withoutSupervisor: false }, { now: NOW }),
    ).toMatchObject({
      ok: true,
      signer: "supervisor",
    });
    const later = new Date("2026-11-22T13:00:00Z");
    expect(
      await signForm(
        db,
        p.teacher,
        p.teacher.actor,
        { withoutSupervisor: false, unsentAcknowledged: true },
        { now: later },
      ),
    ).toEqual({
      ok: true,
      signer: "teacher",
      allSigned: true,
      submission: "submitted",
    });

    const done = (await storedForm(db, p.teacher.referenceId))!;
    expect(done).toMatchObject({
      isLocked: true,
      signedByStudentUserId: p.student.actor.userId,
      signedBySupervisorUserId: p.supervisor.actor.userId,
      signedByTeacherUserId: p.teacher.actor.userId,
      signedByTeacherDate: later,
      signWithoutSupervisorConfirmedDate: null,
    });
    expect(done.resultSubmittedAt).not.toBeNull();
    const submissions = await db
      .select()
      .from(resultSubmissions)
      .where(eq(resultSubmissions.studentReferenceId, p.teacher.referenceId));
    expect(submissions).toHaveLength(1);
    expect(submissions[0]).toMatchObject({ exporter: "database", submittedByUserId: p.teacher.actor.userId });
    expect(submissions[0].payload).toMatchObject({
      signingFormId: form.id,
      subjectCode: "SYK2001",
      overallPassed: true,
    });
    // The payload keeps the name it has always been stored (and handed over) under: the semester is "periodName".
    expect(submissions[0].payload).toMatchObject({ periodName: expect.stringMatching(/^(Vår|Høst) \d{4}$/) });
    expect(submissions[0].payload).not.toHaveProperty("semesterName");
    const signedRows = await auditsOf("signing_form.signed", form.id);
    expect(signedRows).toHaveLength(3);
    // The rows keep the names they have always been stored under: the supervisor is "advisor" there.
    expect(signedRows.map((row) => row.details?.as).sort()).toEqual(["advisor", "student", "teacher"]);
    expect(signedRows.every((row) => "withoutAdvisor" in (row.details ?? {}))).toBe(true);
    expect(signedRows.some((row) => "withoutSupervisor" in (row.details ?? {}))).toBe(false);
    expect(await auditsOf("result.submitted", form.id)).toHaveLength(1);

    // Locked for everyone: no save, no second signature, and the competence forms no longer take answers.
    expect(await saveEndPart(db, p.teacher, p.teacher.actor, end, { now: later })).toEqual({
      ok: false,
      error: "state",
      reason: "locked",
    });
    expect(await signForm(db, p.student, p.student.actor, { withoutSupervisor: false }, { now: later })).toMatchObject({
      reason: "alreadySigned",
    });
    const [mainForm] = await db
      .select({ id: forms.id })
      .from(forms)
      .where(eq(forms.name, "Vurdering av kliniske kompetanser"));
    const [endScheme] = await db
      .select({ id: schemes.id })
      .from(schemes)
      .where(and(eq(schemes.classId, classA), eq(schemes.isMidSemester, false)));
    const answering = await answeringPlace(
      db,
      { userId: p.student.actor.userId, role: ROLE.Student },
      { classId: classA, formId: mainForm.id, schemeId: endScheme.id, studentUserId: p.student.studentUserId },
    );
    expect(answering.locked).toBe(true);
    const [question] = answering.form.groups[0].questions;
    expect(
      await saveAnswers(
        db,
        answering,
        { userId: p.student.actor.userId, roleId: ROLE.Student },
        [{ questionId: question.id, value: "Mer tekst", comment: null, base: answerToken(EMPTY) }],
        { send: false },
      ),
    ).toEqual({ ok: false, error: "locked" });

    const view = await signingFormView(db, p.student, p.student.actor.userId, "nb");
    expect(view).toMatchObject({
      allSigned: true,
      signedByAllText: "22.11.2026 kl. 14:00",
      rights: { banner: "signedByAll", sign: false },
      end: { saved: true, answers: { workRequirementsPassed: "yes" }, dateText: "22.11.2026" },
      mid: { answers: { midSemesterStudentHasGivenFeedback: "notRelevant" } },
    });
    expect(view.resultSubmittedText).toMatch(/^\d{1,2}\.\d{1,2}\.\d{4}$/);
    expect(view.signatures.map((s) => [s.signer, s.name])).toEqual([
      ["student", "Nora Hansen"],
      ["supervisor", "Marte Solberg"],
      ["teacher", "Ingrid Haugen"],
    ]);
  });

  test("the teacher signs without the supervisor only with the confirmation, whose date is kept; the supervisor cannot sign after", async () => {
    const p = await readyToSign("student07", "veileder1");
    expect(await signForm(db, p.student, p.student.actor, { withoutSupervisor: false }, { now: NOW })).toMatchObject({
      ok: true,
    });
    expect(
      await signForm(
        db,
        p.teacher,
        p.teacher.actor,
        { withoutSupervisor: false, unsentAcknowledged: true },
        { now: NOW },
      ),
    ).toEqual({
      ok: false,
      error: "invalid",
      fieldErrors: { signWithoutSupervisorConfirmed: "confirmWithoutSupervisor" },
    });
    expect(
      await signForm(
        db,
        p.teacher,
        p.teacher.actor,
        { withoutSupervisor: true, unsentAcknowledged: true },
        { now: NOW },
      ),
    ).toMatchObject({ ok: true, allSigned: true });
    expect(await storedForm(db, p.teacher.referenceId)).toMatchObject({
      isLocked: true,
      signWithoutSupervisorConfirmedDate: NOW,
      signedBySupervisorDate: null,
    });
    expect(await signForm(db, p.supervisor, p.supervisor.actor, { withoutSupervisor: false }, { now: NOW })).toEqual({
      ok: false,
      error: "state",
      reason: "locked",
    });
  });

  test("the roles that may not: a supervisor or student saving or cancelling, an extra supervisor signing", async () => {
    const p = await people("student02", "veileder2");
    const extra = await placeOf("veileder1", ROLE.Supervisor, "student02");
    for (const place of [p.student, p.supervisor, extra]) {
      expect(await saveMidPart(db, place, place.actor, mid)).toEqual({ ok: false, error: "notAllowed" });
      expect(await cancelForm(db, place, place.actor)).toEqual({ ok: false, error: "notAllowed" });
    }
    await saveMidPart(db, p.teacher, p.teacher.actor, mid, { now: NOW });
    await saveEndPart(db, p.teacher, p.teacher.actor, end, { now: NOW });
    expect(await signForm(db, extra, extra.actor, { withoutSupervisor: false })).toEqual({
      ok: false,
      error: "notAllowed",
    });
    expect(await saveEndPart(db, p.supervisor, p.supervisor.actor, end)).toEqual({ ok: false, error: "notAllowed" });
  });
});

describe("the result's hand-over", () => {
  test("a failing exporter loses no signature: the form is locked, not submitted, the failure audited; sending again works once", async () => {
    const p = await readyToSign("student08", "veileder2");
    await signForm(db, p.student, p.student.actor, { withoutSupervisor: false });
    await signForm(db, p.supervisor, p.supervisor.actor, { withoutSupervisor: false });
    const failing: ResultExporter = {
      name: "fs",
      submit: () => Promise.reject(new Error("FS svarer ikke")),
    };
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(
      await signForm(
        db,
        p.teacher,
        p.teacher.actor,
        { withoutSupervisor: false, unsentAcknowledged: true },
        { exporter: failing },
      ),
    ).toMatchObject({
      ok: true,
      allSigned: true,
      submission: "failed",
    });
    expect(logged).toHaveBeenCalledWith(expect.stringContaining("[result] submission to fs failed: FS svarer ikke"));
    const form = (await storedForm(db, p.teacher.referenceId))!;
    expect(form).toMatchObject({ isLocked: true, resultSubmittedAt: null });
    expect(form.signedByStudentDate && form.signedBySupervisorDate && form.signedByTeacherDate).toBeTruthy();
    expect((await auditsOf("result.submission_failed", form.id))[0].details).toMatchObject({
      exporter: "fs",
      error: "FS svarer ikke",
    });
    expect((await signingFormView(db, p.teacher, p.teacher.actor.userId, "nb")).rights.submitResult).toBe(true);

    expect(await resubmitResult(db, p.student, p.student.actor)).toEqual({ ok: false, error: "notAllowed" });
    expect(await resubmitResult(db, p.teacher, p.teacher.actor)).toEqual({ ok: true, submission: "submitted" });
    expect(await resubmitResult(db, p.teacher, p.teacher.actor)).toEqual({
      ok: false,
      error: "state",
      reason: "alreadySubmitted",
    });
    expect(
      await db.select().from(resultSubmissions).where(eq(resultSubmissions.studentReferenceId, p.teacher.referenceId)),
    ).toHaveLength(1);
  });
});

describe("cancelling", () => {
  test("archives the form as it was, empties it, and the teacher starts over; the summary says it was archived", async () => {
    const p = await readyToSign("student09", "veileder1");
    await signForm(db, p.student, p.student.actor, { withoutSupervisor: false }, { now: NOW });
    const before = (await storedForm(db, p.teacher.referenceId))!;
    expect(await cancelForm(db, p.supervisor, p.supervisor.actor)).toEqual({ ok: false, error: "notAllowed" });
    expect((await validationSummary(db, p.teacher, p.teacher.actor.userId)).assessmentResultArchived).toBe(false);

    const at = new Date("2026-11-22T15:00:00Z");
    expect(await cancelForm(db, p.teacher, p.teacher.actor, { now: at })).toEqual({ ok: true });
    expect(await storedForm(db, p.teacher.referenceId)).toBeNull();
    const [archived] = await db
      .select()
      .from(signingFormArchive)
      .where(eq(signingFormArchive.studentReferenceId, p.teacher.referenceId));
    expect(archived).toMatchObject({ archivedByUserId: p.teacher.actor.userId, reason: "cancelled", archivedAt: at });
    expect(archived.data).toMatchObject({
      id: before.id,
      signedByStudentUserId: p.student.actor.userId,
      signedByStudentDate: NOW.toISOString(),
      endSemesterCompletedDate: "2026-11-20",
    });
    // The archive keeps the fields under the names it has always stored.
    expect(archived.data).toHaveProperty("signedByAdvisorUserId", null);
    expect(archived.data).toHaveProperty("signWithoutAdvisorConfirmedDate", null);
    expect(archived.data).not.toHaveProperty("signedBySupervisorUserId");
    expect((await auditsOf("signing_form.cancelled", before.id))[0].details).toMatchObject({
      signed: { student: true, advisor: false, teacher: false },
    });
    expect(await validationSummary(db, p.teacher, p.teacher.actor.userId)).toMatchObject({
      assessmentResultArchived: true,
      archivedCount: 1,
      lastArchivedAt: at,
    });
    expect(await cancelForm(db, p.teacher, p.teacher.actor)).toEqual({
      ok: false,
      error: "state",
      reason: "notCreated",
    });
    expect(await signForm(db, p.student, p.student.actor, { withoutSupervisor: false })).toEqual({
      ok: false,
      error: "state",
      reason: "notCreated",
    });
    expect(await saveMidPart(db, p.teacher, p.teacher.actor, mid, { now: at })).toEqual({ ok: true, created: true });
  });
});

describe("the validation summary", () => {
  test("counts the teachers' sent answers and the viewer's own draft per half and question type, not another teacher's draft", async () => {
    // Student 01 has laerer1's sent mid-semester main form (all graded questions); the class also has a specific form.
    const laerer1 = await placeOf("laerer1", ROLE.Teacher, "student01");
    const laerer2 = await placeOf("laerer2", ROLE.Teacher, "student01");
    const summary = await validationSummary(db, laerer1, laerer1.actor.userId);
    // The main form's text group is the student's own self-assessment: not counted for the teachers.
    expect(summary.teacherAnswerSummary).toEqual([
      { formQuestionType: "grading", isMidSemester: true, totalAnswers: 12, totalQuestions: 16 },
      { formQuestionType: "grading", isMidSemester: false, totalAnswers: 0, totalQuestions: 16 },
    ]);
    expect(summary).toMatchObject({
      assessmentResultArchived: false,
      assessmentResultSubmitted: false,
      resultSubmittedAt: null,
    });

    // laerer2 begins the end-semester specific form: a draft of two answers, one of them empty.
    const [medication] = await db.select({ id: forms.id }).from(forms).where(eq(forms.name, "Legemiddelhåndtering"));
    const questionIds = (
      await db
        .select({ id: formQuestions.id })
        .from(formQuestions)
        .innerJoin(formQuestionGroups, eq(formQuestionGroups.id, formQuestions.groupId))
        .where(eq(formQuestionGroups.formId, medication.id))
    ).map((q) => q.id);
    const [endScheme] = await db
      .select({ id: schemes.id })
      .from(schemes)
      .where(and(eq(schemes.classId, classA), eq(schemes.isMidSemester, false)));
    const [set] = await db
      .insert(answerSets)
      .values({
        formId: medication.id,
        schemeId: endScheme.id,
        studentUserId: laerer1.studentUserId,
        authorUserId: laerer2.actor.userId,
        authorRoleId: ROLE.Teacher,
        isMidSemester: false,
      })
      .returning();
    await db.insert(answers).values([
      { answerSetId: set.id, questionId: questionIds[0], value: "2" },
      { answerSetId: set.id, questionId: questionIds[1], value: null, comment: "Kommer tilbake til dette" },
    ]);
    const endGrading = async (place: SigningPlace & { actor: { userId: number } }) =>
      (await validationSummary(db, place, place.actor.userId)).teacherAnswerSummary.find(
        (c) => !c.isMidSemester && c.formQuestionType === "grading",
      );
    expect(await endGrading(laerer2)).toMatchObject({ totalAnswers: 1 });
    expect(await endGrading(laerer1)).toMatchObject({ totalAnswers: 0 });
    await db.update(answerSets).set({ sentAt: NOW }).where(eq(answerSets.id, set.id));
    expect(await endGrading(laerer1)).toMatchObject({ totalAnswers: 1 });
  });
});

/**
 * Truly at the same time (each call has its own connection and transaction): the outcome must be
 * one that some order of the two would give.
 */
describe("two people at once", () => {
  test("the student and the supervisor sign at the same moment: both signatures are kept", async () => {
    const p = await readyToSign("student01", "veileder1");
    const [a, b] = await Promise.all([
      signForm(db, p.student, p.student.actor, { withoutSupervisor: false }),
      signForm(db, p.supervisor, p.supervisor.actor, { withoutSupervisor: false }),
    ]);
    expect([a.ok, b.ok]).toEqual([true, true]);
    const form = (await storedForm(db, p.teacher.referenceId))!;
    expect(form.signedByStudentUserId).toBe(p.student.actor.userId);
    expect(form.signedBySupervisorUserId).toBe(p.supervisor.actor.userId);
    expect(form.isLocked).toBe(false);
  });

  test("the teacher saves while the student signs: the signature stays, and it never vouches for content it did not see", async () => {
    // Student 11 has no supervisor in the demo; the teacher and the student are what matter here.
    const teacher = await placeOf("laerer1", ROLE.Teacher, "student11");
    const student = await placeOf("student11", ROLE.Student, "student11");
    await saveMidPart(db, teacher, teacher.actor, mid, { now: NOW });
    await saveEndPart(db, teacher, teacher.actor, end, { now: NOW });
    const changed: EndPartInput = { ...end, generalCompetenceAreasPassed: "no" };
    const [save, sign] = await Promise.all([
      saveEndPart(db, teacher, teacher.actor, changed, { now: NOW }),
      signForm(db, student, student.actor, { withoutSupervisor: false }, { now: NOW }),
    ]);
    expect(sign.ok).toBe(true);
    const form = (await storedForm(db, teacher.referenceId))!;
    expect(form.signedByStudentUserId).toBe(student.actor.userId);
    // The save came first (the student signed the changed result) or was refused after the signature.
    if (save.ok) expect(form.generalCompetenceAreasPassed).toBe(false);
    else {
      expect(save).toEqual({ ok: false, error: "state", reason: "endFrozen" });
      expect(form.generalCompetenceAreasPassed).toBe(true);
    }
  });

  test("the teacher signs without the supervisor while the supervisor signs: locked either way, the result submitted once", async () => {
    const p = await readyToSign("student05", "veileder1");
    await signForm(db, p.student, p.student.actor, { withoutSupervisor: false });
    const [teacher, supervisor] = await Promise.all([
      signForm(db, p.teacher, p.teacher.actor, { withoutSupervisor: true, unsentAcknowledged: true }),
      signForm(db, p.supervisor, p.supervisor.actor, { withoutSupervisor: false }),
    ]);
    expect(teacher).toMatchObject({ ok: true, allSigned: true, submission: "submitted" });
    const form = (await storedForm(db, p.teacher.referenceId))!;
    expect(form.isLocked).toBe(true);
    if (supervisor.ok) {
      // The supervisor came first: nobody signed without them.
      expect(form.signedBySupervisorUserId).toBe(p.supervisor.actor.userId);
      expect(form.signWithoutSupervisorConfirmedDate).toBeNull();
    } else {
      expect(supervisor).toEqual({ ok: false, error: "state", reason: "locked" });
      expect(form.signWithoutSupervisorConfirmedDate).not.toBeNull();
    }
    expect(
      await db.select().from(resultSubmissions).where(eq(resultSubmissions.studentReferenceId, p.teacher.referenceId)),
    ).toHaveLength(1);
  });

  test("two teachers create the form at once: one form, created once; the other is told it is confirmed", async () => {
    const one = await placeOf("laerer1", ROLE.Teacher, "student04");
    const two = await placeOf("laerer2", ROLE.Teacher, "student04");
    const results = await Promise.all([
      saveMidPart(db, one, one.actor, mid, { now: NOW }),
      saveMidPart(db, two, two.actor, { ...mid, midSemesterCompletedDate: "2026-10-02" }, { now: NOW }),
    ]);
    expect(results.filter((r) => r.ok)).toEqual([{ ok: true, created: true }]);
    expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, error: "state", reason: "midConfirmed" }]);
    const rows = await db.select().from(signingForms).where(eq(signingForms.studentReferenceId, one.referenceId));
    expect(rows).toHaveLength(1);
    expect(await auditsOf("signing_form.created", rows[0].id)).toHaveLength(1);
  });

  test("the teacher cancels while the student signs: the signature is archived with the form, or refused after it", async () => {
    const p = await readyToSign("student06", "veileder2");
    const [cancel, sign] = await Promise.all([
      cancelForm(db, p.teacher, p.teacher.actor),
      signForm(db, p.student, p.student.actor, { withoutSupervisor: false }),
    ]);
    expect(cancel.ok).toBe(true);
    expect(await storedForm(db, p.teacher.referenceId)).toBeNull();
    const [archived] = await db
      .select()
      .from(signingFormArchive)
      .where(eq(signingFormArchive.studentReferenceId, p.teacher.referenceId));
    if (sign.ok) expect(archived.data.signedByStudentUserId).toBe(p.student.actor.userId);
    else {
      expect(sign).toEqual({ ok: false, error: "state", reason: "notCreated" });
      expect(archived.data.signedByStudentUserId).toBeNull();
    }
  });
});

describe("forms not sent: the check before confirming the mid-semester part and before the teacher signs", () => {
  const MAIN = "Vurdering av kliniske kompetanser";
  const MEDICATION = "Legemiddelhåndtering";
  const { unsentAcknowledged: _, ...midOnly } = mid;
  /** Students 10 to 12 have no supervisor: their teacher (any of the class's) and themselves. */
  const withoutSupervisor = async (student: string) => ({
    teacher: await placeOf("laerer1", ROLE.Teacher, student),
    student: await placeOf(student, ROLE.Student, student),
  });

  test("each form of both halves with who has sent it and the teachers' answers; the supervisor's part only when the student has one", async () => {
    // Student 01: the mid-semester main form sent by her, her supervisor and laerer1; nothing else sent.
    const laerer1 = await placeOf("laerer1", ROLE.Teacher, "student01");
    const facts = await sendingFacts(db, laerer1, laerer1.actor.userId);
    expect(facts.hasSupervisor).toBe(true);
    // (The validation summary's test above may have sent a teacher's end-semester form for her.)
    expect(facts.forms.map((f) => [f.name, f.isMidSemester, f.sent.student, f.sent.supervisor])).toEqual([
      [MAIN, true, true, true],
      [MEDICATION, true, false, false],
      [MAIN, false, false, false],
      [MEDICATION, false, false, false],
    ]);
    expect(facts.forms.slice(0, 2).map((f) => f.sent.teacher)).toEqual([true, false]);
    expect(facts.forms[0].teacherAnswers.answered).toBeGreaterThan(0);
    expect(facts.forms[0].teacherAnswers.answered).toBeLessThanOrEqual(facts.forms[0].teacherAnswers.questions);
    expect(facts.forms[2].teacherAnswers).toMatchObject({ answered: 0 });
    // Student 10 has no supervisor: nobody can send that part, so it is not waited for.
    const noSupervisor = await placeOf("laerer2", ROLE.Teacher, "student10");
    expect((await sendingFacts(db, noSupervisor, noSupervisor.actor.userId)).hasSupervisor).toBe(false);
  });

  test("confirming the mid-semester part with forms not sent: refused without the acknowledgement, or where the institution requires them sent; kept in the audit row", async () => {
    const p = await withoutSupervisor("student12");
    expect(await checkMidPart(db, p.teacher, p.teacher.actor, midOnly, { now: NOW, requireSentForms: false })).toEqual({
      ok: true,
      requireSentForms: false,
      unsent: [
        {
          schemeId: expect.any(Number),
          formId: expect.any(Number),
          name: MAIN,
          isMidSemester: true,
          missing: ["student", "teacher"],
        },
        {
          schemeId: expect.any(Number),
          formId: expect.any(Number),
          name: MEDICATION,
          isMidSemester: true,
          missing: ["student", "teacher"],
        },
      ],
    });
    expect(await saveMidPart(db, p.teacher, p.teacher.actor, midOnly, { now: NOW, requireSentForms: false })).toEqual({
      ok: false,
      error: "invalid",
      fieldErrors: { unsentAcknowledged: "acknowledgeUnsent" },
    });
    expect(await saveMidPart(db, p.teacher, p.teacher.actor, mid, { now: NOW, requireSentForms: true })).toEqual({
      ok: false,
      error: "state",
      reason: "formsNotSent",
    });
    expect(await storedForm(db, p.teacher.referenceId)).toBeNull();
    expect(await saveMidPart(db, p.teacher, p.teacher.actor, mid, { now: NOW, requireSentForms: false })).toEqual({
      ok: true,
      created: true,
    });
    const form = (await storedForm(db, p.teacher.referenceId))!;
    const [created] = await auditsOf("signing_form.created", form.id);
    expect(created.details).toMatchObject({
      unsentAcknowledged: [
        { formId: expect.any(Number), assignmentId: expect.any(Number), half: "mid", missing: ["student", "teacher"] },
        { formId: expect.any(Number), assignmentId: expect.any(Number), half: "mid", missing: ["student", "teacher"] },
      ],
    });
    // The stored name only (rows before and after the code's rename read alike).
    for (const entry of (created.details as { unsentAcknowledged: object[] }).unsentAcknowledged)
      expect(entry).not.toHaveProperty("schemeId");
  });

  test("the teacher's signature with forms not sent: both boxes named at once, refused where the institution requires every form sent, kept in the audit row; the student's and supervisor's signatures need none", async () => {
    const p = await withoutSupervisor("student10");
    expect(await saveMidPart(db, p.teacher, p.teacher.actor, mid, { now: NOW })).toEqual({ ok: true, created: true });
    expect(await saveEndPart(db, p.teacher, p.teacher.actor, end, { now: NOW })).toEqual({ ok: true });
    expect(
      await signForm(
        db,
        p.student,
        p.student.actor,
        { withoutSupervisor: false },
        { now: NOW, requireSentForms: true },
      ),
    ).toMatchObject({ ok: true });
    expect(
      await signForm(
        db,
        p.teacher,
        p.teacher.actor,
        { withoutSupervisor: false },
        { now: NOW, requireSentForms: false },
      ),
    ).toEqual({
      ok: false,
      error: "invalid",
      fieldErrors: {
        signWithoutSupervisorConfirmed: "confirmWithoutSupervisor",
        unsentAcknowledged: "acknowledgeUnsent",
      },
    });
    expect(
      await signForm(
        db,
        p.teacher,
        p.teacher.actor,
        { withoutSupervisor: true },
        { now: NOW, requireSentForms: false },
      ),
    ).toEqual({
      ok: false,
      error: "invalid",
      fieldErrors: { unsentAcknowledged: "acknowledgeUnsent" },
    });
    expect(
      await signForm(
        db,
        p.teacher,
        p.teacher.actor,
        { withoutSupervisor: true, unsentAcknowledged: true },
        { now: NOW, requireSentForms: true },
      ),
    ).toEqual({
      ok: false,
      error: "state",
      reason: "formsNotSent",
    });
    expect((await storedForm(db, p.teacher.referenceId))!.signedByTeacherDate).toBeNull();
    expect(
      await signForm(
        db,
        p.teacher,
        p.teacher.actor,
        { withoutSupervisor: true, unsentAcknowledged: true },
        { now: NOW, requireSentForms: false },
      ),
    ).toMatchObject({
      ok: true,
      allSigned: true,
    });
    const form = (await storedForm(db, p.teacher.referenceId))!;
    const [signed] = (await auditsOf("signing_form.signed", form.id)).filter((row) => row.details?.as === "teacher");
    expect((signed.details as { unsentAcknowledged: unknown[] }).unsentAcknowledged).toHaveLength(4);
  });

  test("with every form sent, nothing is asked, even where the institution requires it", async () => {
    const p = await withoutSupervisor("student11");
    // A form of an earlier test is archived: this one starts empty.
    await cancelForm(db, p.teacher, p.teacher.actor);
    const facts = await sendingFacts(db, p.teacher, p.teacher.actor.userId);
    // Student 11 has no supervisor: the student's and a teacher's part of every form is all that is waited for.
    for (const form of facts.forms) {
      for (const [author, roleId] of [
        [p.student.actor.userId, ROLE.Student],
        [p.teacher.actor.userId, ROLE.Teacher],
      ] as const) {
        await db
          .insert(answerSets)
          .values({
            formId: form.formId,
            schemeId: form.schemeId,
            studentUserId: p.student.studentUserId,
            authorUserId: author,
            authorRoleId: roleId,
            isMidSemester: form.isMidSemester,
            sentAt: NOW,
          })
          .onConflictDoUpdate({
            target: [answerSets.formId, answerSets.schemeId, answerSets.studentUserId, answerSets.authorUserId],
            set: { sentAt: NOW },
          });
      }
    }
    expect(await saveMidPart(db, p.teacher, p.teacher.actor, midOnly, { now: NOW, requireSentForms: true })).toEqual({
      ok: true,
      created: true,
    });
    expect(await saveEndPart(db, p.teacher, p.teacher.actor, end, { now: NOW })).toEqual({ ok: true });
    await signForm(db, p.student, p.student.actor, { withoutSupervisor: false }, { now: NOW });
    expect(
      await signForm(db, p.teacher, p.teacher.actor, { withoutSupervisor: true }, { now: NOW, requireSentForms: true }),
    ).toMatchObject({ ok: true, allSigned: true });
    const form = (await storedForm(db, p.teacher.referenceId))!;
    expect(
      (await auditsOf("signing_form.signed", form.id)).every((row) => !("unsentAcknowledged" in (row.details ?? {}))),
    ).toBe(true);
  });
});
