import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { userIdOf } from "~/test/app";
import { openTestDatabase } from "~/test/db";
import type { Database } from "~/services/platform/db/client.server";
import { forms } from "~/services/platform/db/schema";
import { seedDemo } from "~/services/demo/index.server";
import { ROLE, type RoleId } from "~/services/identity";
import { formToRead } from "./form-view.server";

const now = new Date("2026-11-22T12:00:00Z");
let database: Database;
const id: Record<string, number> = {};
const formId: Record<string, number> = {};

beforeAll(async () => {
  database = await openTestDatabase();
  await seedDemo(database.db, now);
  for (const name of ["admin", "laerer1", "laerer3", "veileder1", "veileder3", "student01"]) {
    id[name] = await userIdOf(database.db, `${name}@example.org`);
  }
  for (const row of await database.db.select({ id: forms.id, name: forms.name }).from(forms)) formId[row.name] = row.id;
});

afterAll(async () => {
  await database?.close();
});

const read = (name: string, role: RoleId, form: number) => formToRead(database.db, { userId: id[name], role }, form);
const MAIN = "Vurdering av kliniske kompetanser";
const MEDICATION = "Legemiddelhåndtering";
const WOUNDS = "Sårstell og infeksjonsforebygging";

describe("a form to read (the teacher's and supervisor's form page)", () => {
  test("a teacher of a class that uses the form reads its groups, questions, help texts and grading labels", async () => {
    const found = await read("laerer1", ROLE.Teacher, formId[MAIN]);
    expect(found).not.toBeNull();
    const { form } = found!;
    expect(form.name).toBe(MAIN);
    expect(form.isMainForm).toBe(true);
    expect(form.groups.map((g) => [g.name, g.type])).toContainEqual(["Studentens egenvurdering", "text"]);
    const grading = form.groups.find((g) => g.name === "Pasientobservasjon og vurdering")!;
    expect(grading.type).toBe("grading");
    expect(grading.options).toEqual([
      "Selvstendig",
      "Delvis selvstendig",
      "Veiledet",
      "Assistert",
      "Uselvstendig",
      "Ikke relevant",
    ]);
    expect(grading.questions[0]).toMatchObject({
      text: "Observerer og vurderer pasientens behov",
      helpText: expect.stringContaining("NEWS2"),
    });
    // A text group has no grading labels.
    expect(form.groups.find((g) => g.type === "text")!.options).toEqual([]);
  });

  test("the classes of the viewer's that use it, newest semester first, with their halves", async () => {
    const teacher = await read("laerer1", ROLE.Teacher, formId[MAIN]);
    expect(teacher!.classes.map((c) => [c.subjectCode, c.halves])).toEqual([
      ["SYK2001", ["mid", "end"]],
      ["SYK1002", ["mid", "end"]],
    ]);
    // Only the viewer's own classes: laerer3 teaches SYK2002 alone.
    expect((await read("laerer3", ROLE.Teacher, formId[MAIN]))!.classes.map((c) => c.subjectCode)).toEqual(["SYK2002"]);
    expect((await read("veileder3", ROLE.Supervisor, formId[WOUNDS]))!.classes.map((c) => c.subjectCode)).toEqual([
      "SYK2002",
    ]);
  });

  test("nobody else: a teacher or supervisor whose classes do not use it, a student id acting as teacher, an unknown form", async () => {
    expect(await read("laerer3", ROLE.Teacher, formId[MEDICATION])).toBeNull();
    expect(await read("veileder3", ROLE.Supervisor, formId[MEDICATION])).toBeNull();
    expect(await read("student01", ROLE.Teacher, formId[MAIN])).toBeNull();
    expect(await read("laerer1", ROLE.Teacher, 999_999)).toBeNull();
    expect(await read("veileder1", ROLE.Supervisor, formId[MEDICATION])).not.toBeNull();
  });

  test("a deleted form is gone for everyone", async () => {
    await database.db.update(forms).set({ deletedAt: now }).where(eq(forms.id, formId[MEDICATION]));
    try {
      expect(await read("laerer1", ROLE.Teacher, formId[MEDICATION])).toBeNull();
    } finally {
      await database.db.update(forms).set({ deletedAt: null }).where(eq(forms.id, formId[MEDICATION]));
    }
  });
});
