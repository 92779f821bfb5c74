import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { openTestDatabase } from "~/test/db";
import { userIdOf } from "~/test/app";
import { createSubject, listSubjects, normalizeSubjectCode, updateSubject } from "./subjects.server";
import type { Database } from "~/services/platform/db/client.server";
import { auditEvents, subjects } from "~/services/platform/db/schema";
import { seedDemo } from "~/services/demo/index.server";

let database: Database;
let actor: { userId: number; ip: string };

beforeAll(async () => {
  database = await openTestDatabase();
  await seedDemo(database.db, new Date("2026-11-22T12:00:00Z"));
  actor = { userId: await userIdOf(database.db, "admin@example.org"), ip: "192.0.2.7" };
});
afterAll(() => database.close());

async function lastAudit(action: string) {
  const [row] = await database.db
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.action, action))
    .orderBy(desc(auditEvents.id))
    .limit(1);
  return row;
}

test("a subject code is trimmed and in capitals", () => {
  expect(normalizeSubjectCode("  syk2001 ")).toBe("SYK2001");
  expect(normalizeSubjectCode("sykø-1")).toBe("SYKØ-1");
});

test("the subjects are listed by code", async () => {
  const codes = (await listSubjects(database.db)).map((s) => s.subjectCode);
  expect(codes).toEqual(["SYK1002", "SYK2001", "SYK2002"]);
});

test("creating a subject stores the normalised code and trimmed name, and is audited", async () => {
  const result = await createSubject(
    database.db,
    { subjectCode: " syk3001 ", name: "  Praksis i psykisk helsevern " },
    actor,
  );
  expect(result.ok).toBe(true);
  if (!result.ok) return;
  expect(result.subject).toMatchObject({ subjectCode: "SYK3001", name: "Praksis i psykisk helsevern" });
  const event = await lastAudit("subject.created");
  expect(event).toMatchObject({ actorUserId: actor.userId, ip: "192.0.2.7" });
  expect(event.details).toMatchObject({ subjectId: result.subject.id, subjectCode: "SYK3001" });
});

test("a code that exists already, in any case, is refused", async () => {
  expect(await createSubject(database.db, { subjectCode: "syk2001", name: "Noe annet" }, actor)).toEqual({
    ok: false,
    reason: "duplicateCode",
  });
  // A row from before codes were normalised still counts.
  await database.db.insert(subjects).values({ subjectCode: "gam100", name: "Gammelt emne" });
  expect(await createSubject(database.db, { subjectCode: "GAM100", name: "Nytt emne" }, actor)).toEqual({
    ok: false,
    reason: "duplicateCode",
  });
  expect(await database.db.select().from(subjects).where(eq(subjects.name, "Nytt emne"))).toEqual([]);
});

test("two admins creating the same code at once: one subject, the other gets the duplicate message", async () => {
  const results = await Promise.all([
    createSubject(database.db, { subjectCode: "RACE1", name: "Først" }, actor),
    createSubject(database.db, { subjectCode: "race1", name: "Sist" }, actor),
  ]);
  expect(results.filter((r) => r.ok)).toHaveLength(1);
  expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, reason: "duplicateCode" }]);
  expect(await database.db.select().from(subjects).where(eq(subjects.subjectCode, "RACE1"))).toHaveLength(1);
});

test("updating a subject changes code and name, keeps its own code, and is audited with before and after", async () => {
  const created = await createSubject(database.db, { subjectCode: "UPD1", name: "Før" }, actor);
  if (!created.ok) throw new Error("not created");
  const id = created.subject.id;

  const sameCode = await updateSubject(database.db, id, { subjectCode: "upd1", name: "Etter" }, actor);
  expect(sameCode).toMatchObject({ ok: true, subject: { id, subjectCode: "UPD1", name: "Etter" } });

  const renamed = await updateSubject(database.db, id, { subjectCode: "UPD2", name: "Etter" }, actor);
  expect(renamed).toMatchObject({ ok: true, subject: { subjectCode: "UPD2" } });
  const event = await lastAudit("subject.updated");
  expect(event.details).toEqual({
    subjectId: id,
    before: { subjectCode: "UPD1", name: "Etter" },
    after: { subjectCode: "UPD2", name: "Etter" },
  });
});

test("updating to another subject's code, or an unknown subject, is refused and changes nothing", async () => {
  const [syk2002] = await database.db.select().from(subjects).where(eq(subjects.subjectCode, "SYK2002"));
  expect(await updateSubject(database.db, syk2002.id, { subjectCode: "Syk2001", name: "X" }, actor)).toEqual({
    ok: false,
    reason: "duplicateCode",
  });
  const [after] = await database.db.select().from(subjects).where(eq(subjects.id, syk2002.id));
  expect(after).toEqual(syk2002);
  expect(await updateSubject(database.db, 999_999, { subjectCode: "NEW1", name: "X" }, actor)).toEqual({
    ok: false,
    reason: "notFound",
  });
  expect(await database.db.select().from(subjects).where(eq(subjects.subjectCode, "NEW1"))).toEqual([]);
});
