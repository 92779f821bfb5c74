import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openTestDatabase } from "~/test/db";
import { classIdOf, userIdOf } from "~/test/app";
import type { Database } from "~/services/platform/db/client.server";
import { seedDemo } from "~/services/demo/index.server";
import { signingForms, studentReferences } from "~/services/platform/db/schema";
import { placementOf } from "./placement.server";
import { progressOverview } from "./class-progress.server";
import { staffTodo, staffTodoView, studentTodo, TODO_FORMS_SHOWN } from "./todo.server";

// The demo seeded on 22 November 2026: both classes are past their mid-semester dates (SYK2001 30 September), before their end dates.
const TODAY = "2026-11-22";
let database: Database;
const db = () => database.db;
let syk2001: number;
let syk2002: number;
const id = (name: string) => userIdOf(db(), `${name}@example.org`);

async function referenceOf(student: string, classId: number) {
  const [ref] = await db()
    .select()
    .from(studentReferences)
    .where(and(eq(studentReferences.classId, classId), eq(studentReferences.studentUserId, await id(student))));
  return ref;
}

async function todoOf(student: string, classId: number) {
  const ref = await referenceOf(student, classId);
  const placement = (await placementOf(db(), ref.id, ref.studentUserId, TODAY))!;
  return studentTodo(db(), placement, TODAY);
}

const teacher = async (name: string) => staffTodo(db(), { userId: await id(name), role: "teacher", today: TODAY });
const supervisor = async (name: string) =>
  staffTodo(db(), { userId: await id(name), role: "supervisor", today: TODAY });

beforeAll(async () => {
  database = await openTestDatabase();
  await seedDemo(db(), new Date("2026-11-22T12:00:00Z"));
  syk2001 = await classIdOf(db(), "SYK2001");
  syk2002 = await classIdOf(db(), "SYK2002");
});
afterAll(() => database.close());

describe("the student's to-do", () => {
  test("each form not sent: the mid-semester ones overdue first, then the end-semester ones; what was sent is left out", async () => {
    // Emma sent the main form at mid-semester; the medication form is overdue; both end-semester forms are open.
    const todo = await todoOf("student01", syk2001);
    expect(todo.warning).toBeNull();
    expect(todo.signingWaits).toBe(false);
    expect(todo.forms.map((f) => [f.name, f.isMidSemester, f.due])).toEqual([
      ["Legemiddelhåndtering", true, "behind"],
      ["Vurdering av kliniske kompetanser", false, "open"],
      ["Legemiddelhåndtering", false, "open"],
    ]);
    expect(todo.forms[0].deadline).toBe("2026-09-30");
    // Jakob's own draft: Continue, not Start.
    expect(
      (await todoOf("student04", syk2001)).forms.find(
        (f) => f.isMidSemester && f.name === "Vurdering av kliniske kompetanser",
      )?.draft,
    ).toBe(true);
  });

  test("the mid-semester part confirmed closes the mid-semester forms: student 19 has only the end's left", async () => {
    const todo = await todoOf("student19", syk2002);
    expect(todo.forms.every((f) => !f.isMidSemester && f.due === "open")).toBe(true);
    expect(todo.forms).toHaveLength(2);
  });

  test("a warning given waits to be read and confirmed, then stays as confirmed", async () => {
    expect((await todoOf("student18", syk2002)).warning).toBe("given");
    const { warnings } = await import("~/services/platform/db/schema");
    const ref = await referenceOf("student18", syk2002);
    await db()
      .update(warnings)
      .set({ studentConfirmedWarningAt: new Date("2026-11-22T10:00:00Z") })
      .where(eq(warnings.studentReferenceId, ref.id));
    expect((await todoOf("student18", syk2002)).warning).toBe("confirmed");
    await db().update(warnings).set({ studentConfirmedWarningAt: null }).where(eq(warnings.studentReferenceId, ref.id));
  });
});

describe("a teacher's and a supervisor's to-do", () => {
  test("the teacher's forms: their own students', not sent by any teacher, the overdue first; what a teacher sent is left out", async () => {
    const todo = await teacher("laerer1");
    // Five students, two forms in each half, less the main form Emma's teacher sent at mid-semester.
    expect(todo.formsTotal).toBe(19);
    expect(todo.forms).toHaveLength(19);
    expect(new Set(todo.forms.map((f) => f.studentName))).toEqual(
      new Set(["Emma Andersen", "Nora Hansen", "Sofie Nilsen", "Ella Olsen", "Ingrid Jensen"]),
    );
    expect(todo.forms.slice(0, 9).every((f) => f.isMidSemester && f.due === "behind")).toBe(true);
    expect(todo.forms.slice(9).every((f) => !f.isMidSemester && f.due === "open")).toBe(true);
    expect(
      todo.forms.some(
        (f) =>
          f.studentName === "Emma Andersen" && f.isMidSemester && f.formName === "Vurdering av kliniske kompetanser",
      ),
    ).toBe(false);
    expect(todo).toMatchObject({ signatures: [], warnings: [], withoutSupervisor: [] });
  });

  test("the admin as teacher: the warning not confirmed, the student without a supervisor; a half all sent is left out", async () => {
    const todo = await teacher("admin");
    expect(todo.warnings.map((w) => w.studentName)).toEqual(["Aksel Lie"]);
    expect(todo.withoutSupervisor.map((s) => s.studentName)).toEqual(["Tobias Myhre"]);
    // Mathias Aas: everything sent at mid-semester; only the end's forms wait.
    expect(todo.forms.filter((f) => f.studentName === "Mathias Aas").every((f) => !f.isMidSemester)).toBe(true);
    // Astrid Brekke is laerer3's, and her mid-semester is confirmed.
    const laerer3 = await teacher("laerer3");
    expect(laerer3.forms.filter((f) => f.studentName === "Astrid Brekke").map((f) => f.isMidSemester)).toEqual([
      false,
      false,
    ]);
    expect(laerer3.warnings).toEqual([]);
  });

  test("a supervisor's forms: assigned and extra students; a draft of their own is Continue", async () => {
    const todo = await supervisor("veileder1");
    const names = new Set(todo.forms.map((f) => f.studentName));
    // Assigned to five, and an extra supervisor of Noah Johansen's.
    expect(names).toEqual(
      new Set(["Emma Andersen", "Nora Hansen", "Sofie Nilsen", "Ella Olsen", "Ingrid Jensen", "Noah Johansen"]),
    );
    // Nora's main form at mid-semester is veileder1's draft.
    expect(
      todo.forms.find(
        (f) => f.studentName === "Nora Hansen" && f.isMidSemester && f.formName === "Vurdering av kliniske kompetanser",
      )?.draft,
    ).toBe(true);
    // Noah's main form was sent by his assigned supervisor: any supervisor's counts.
    expect(
      todo.forms.some(
        (f) =>
          f.studentName === "Noah Johansen" && f.isMidSemester && f.formName === "Vurdering av kliniske kompetanser",
      ),
    ).toBe(false);
    expect(todo.forms.length).toBeLessThanOrEqual(TODO_FORMS_SHOWN);
    expect(todo).toMatchObject({ signatures: [], warnings: [], withoutSupervisor: [] });
  });

  test("a signing form saved with its results waits for the student and the assigned supervisor, then for the teacher once the student has signed", async () => {
    const ref = await referenceOf("student09", syk2001); // laerer1's, veileder1's
    await db().insert(signingForms).values({
      studentReferenceId: ref.id,
      midSemesterCompletedDate: "2026-09-30",
      endSemesterCompletedDate: TODAY,
      generalCompetenceAreasPassed: true,
      specificCompetenceAreasPassed: true,
    });
    expect((await todoOf("student09", syk2001)).signingWaits).toBe(true);
    expect((await supervisor("veileder1")).signatures.map((s) => s.studentName)).toEqual(["Ingrid Jensen"]);
    expect((await teacher("laerer1")).signatures).toEqual([]);
    await db()
      .update(signingForms)
      .set({ signedByStudentUserId: ref.studentUserId, signedByStudentDate: new Date("2026-11-22T09:00:00Z") })
      .where(eq(signingForms.studentReferenceId, ref.id));
    expect((await todoOf("student09", syk2001)).signingWaits).toBe(false);
    const laerer1 = await teacher("laerer1");
    expect(laerer1.signatures.map((s) => s.studentName)).toEqual(["Ingrid Jensen"]);
    // Her mid-semester part is confirmed now: her mid-semester forms no longer wait.
    expect(laerer1.forms.some((f) => f.studentName === "Ingrid Jensen" && f.isMidSemester)).toBe(false);
    expect(staffTodoView(laerer1, "teacher", "nb").signatures[0].href).toBe(
      `/teacher/class/${syk2001}/student/${ref.studentUserId}/signingform`,
    );
    await db().update(signingForms).set({ isLocked: true }).where(eq(signingForms.studentReferenceId, ref.id));
    expect((await teacher("laerer1")).signatures).toEqual([]);
    expect((await supervisor("veileder1")).signatures).toEqual([]);
    await db().delete(signingForms).where(eq(signingForms.studentReferenceId, ref.id));
  });

  test("the home page's view links each item in the viewer's area, with Start or Continue and the deadline as text", async () => {
    const view = staffTodoView(await supervisor("veileder1"), "supervisor", "nb");
    const nora = view.forms.find((f) => f.studentName === "Nora Hansen" && f.draft)!;
    expect(nora.href).toMatch(new RegExp(`^/supervisor/class/${syk2001}/student/\\d+/form/\\d+/assignment/\\d+$`));
    expect(nora).toMatchObject({ deadline: "30.9.2026", behind: true });
  });
});

describe("the class overview's warning and signing columns", () => {
  test("per student, in the one query: the warning's state, the signing form's, and whether the mid-semester part is confirmed", async () => {
    const rows = await progressOverview(db(), syk2002);
    const row = (name: string) => rows.find((r) => r.displayName === name)!;
    expect(row("Aksel Lie")).toMatchObject({ warning: "given", signing: { state: "none" } });
    expect(row("Astrid Brekke")).toMatchObject({
      warning: "none",
      midConfirmed: true,
      signing: { state: "midConfirmed", waitingFor: [] },
    });
    expect(row("Mathias Aas")).toMatchObject({ mid: { student: 2, supervisor: 2, teacher: 2 }, midConfirmed: false });
  });
});
