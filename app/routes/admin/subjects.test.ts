import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { auditEvents, subjects } from "~/services/platform/db/schema";
import { ROLE } from "~/services/identity";
import { cookieActingAs, startTestApp, stopTestApp } from "~/test/app";
import { callAction, callLoader, getPage, postForm } from "~/test/route";
import * as page from "./subjects";
import { flashTextOf } from "~/test/flash-text";

let app: Awaited<ReturnType<typeof startTestApp>>;
let admin: string;
let teacher: string;

beforeAll(async () => {
  app = await startTestApp();
  admin = await cookieActingAs(app.database.db, "admin@example.org", ROLE.Admin);
  teacher = await cookieActingAs(app.database.db, "laerer1@example.org", ROLE.Teacher);
});
afterAll(() => stopTestApp(app));

const db = () => app.database.db;

async function subjectId(code: string): Promise<number> {
  const [row] = await db().select({ id: subjects.id }).from(subjects).where(eq(subjects.subjectCode, code));
  return row.id;
}

function post(fields: Record<string, string>, cookie = admin, path = "/admin/subjects") {
  return callAction(page, postForm(path, fields, { cookie }));
}

interface Reply {
  status: string;
  error?: Record<string, string[] | null>;
  initialValue?: Record<string, unknown>;
}

test("the admin sees the subjects; ?edit opens one of them for editing", async () => {
  const list = await callLoader(page, getPage("/admin/subjects", { cookie: admin }));
  expect(list.status).toBe(200);
  const body = (await list.json()) as { subjects: { subjectCode: string }[]; editing: unknown };
  expect(body.subjects.map((s) => s.subjectCode)).toEqual(["SYK1002", "SYK2001", "SYK2002"]);
  expect(body.editing).toBeNull();

  const id = await subjectId("SYK2001");
  const edit = await callLoader(page, getPage(`/admin/subjects?edit=${id}`, { cookie: admin }));
  expect(((await edit.json()) as { editing: { id: number } }).editing).toMatchObject({ id, subjectCode: "SYK2001" });
});

test("editing an unknown or malformed subject id is a 404", async () => {
  for (const edit of ["999999", "abc", "-1", "1.5"]) {
    const response = await callLoader(page, getPage(`/admin/subjects?edit=${edit}`, { cookie: admin }));
    expect(response.status, edit).toBe(404);
  }
});

test("someone not acting as admin is sent to the role chooser, and every post is refused", async () => {
  const list = await callLoader(page, getPage("/admin/subjects", { cookie: teacher }));
  expect(list.status).toBe(302);
  expect(list.headers.get("Location")).toMatch(/^\/role\?redirectTo=/);

  const create = await post({ intent: "create", subjectCode: "NOPE1", name: "Nei" }, teacher);
  expect(create.status).toBe(403);
  const id = await subjectId("SYK2001");
  const update = await post({ intent: "update", id: String(id), subjectCode: "NOPE2", name: "Nei" }, teacher);
  expect(update.status).toBe(403);
  expect(await db().select().from(subjects).where(eq(subjects.subjectCode, "NOPE1"))).toEqual([]);
  const [unchanged] = await db().select().from(subjects).where(eq(subjects.id, id));
  expect(unchanged.subjectCode).toBe("SYK2001");
});

test("creating a subject redirects (303) with a message; the code is stored in capitals; it is audited", async () => {
  const response = await post({ intent: "create", subjectCode: " rt100 ", name: " Praksis i rus og psykiatri " });
  expect(response.status).toBe(303);
  expect(response.headers.get("Location")).toBe("/admin/subjects");
  expect(await flashTextOf(response)).toBe("Emnet RT100 er opprettet.");
  const [row] = await db().select().from(subjects).where(eq(subjects.subjectCode, "RT100"));
  expect(row.name).toBe("Praksis i rus og psykiatri");
  const events = await db().select().from(auditEvents).where(eq(auditEvents.action, "subject.created"));
  expect(events.some((e) => (e.details as { subjectId?: number }).subjectId === row.id)).toBe(true);
});

test("missing fields get a message each and a 400, keeping what was typed", async () => {
  const response = await post({ intent: "create", subjectCode: "", name: "Bare navn" });
  expect(response.status).toBe(400);
  const reply = (await response.json()) as Reply;
  expect(reply.error?.subjectCode).toEqual(["adminUsers:subjects.errors.codeRequired"]);
  expect(reply.error?.name).toBeUndefined();
  expect(reply.initialValue?.name).toBe("Bare navn");

  const both = (await (await post({ intent: "create" })).json()) as Reply;
  expect(both.error?.subjectCode).toEqual(["adminUsers:subjects.errors.codeRequired"]);
  expect(both.error?.name).toEqual(["adminUsers:subjects.errors.nameRequired"]);
});

test("over-long code or name gets a message and a 400, never a 500", async () => {
  const response = await post({ intent: "create", subjectCode: "X".repeat(21), name: "N".repeat(201) });
  expect(response.status).toBe(400);
  const reply = (await response.json()) as Reply;
  expect(reply.error?.subjectCode).toEqual(["adminUsers:subjects.errors.codeTooLong"]);
  expect(reply.error?.name).toEqual(["adminUsers:subjects.errors.nameTooLong"]);
  expect(reply.initialValue?.subjectCode).toBe("X".repeat(21));
  // Exactly at the limits is fine.
  const atLimit = await post({ intent: "create", subjectCode: "Y".repeat(20), name: "N".repeat(200) });
  expect(atLimit.status).toBe(303);
});

test("a duplicate code, in any case, gets the clear message with a 409 and keeps the form", async () => {
  const response = await post({ intent: "create", subjectCode: "syk2001", name: "Et annet sykehjemsemne" });
  expect(response.status).toBe(409);
  const reply = (await response.json()) as Reply;
  expect(reply.error?.subjectCode).toEqual(["adminUsers:subjects.errors.duplicate"]);
  expect(reply.initialValue).toMatchObject({ subjectCode: "syk2001", name: "Et annet sykehjemsemne" });
  expect(await db().select().from(subjects).where(eq(subjects.name, "Et annet sykehjemsemne"))).toEqual([]);
});

test("updating a subject saves it; another subject's code is a 409; an unknown or missing id is a 404", async () => {
  await post({ intent: "create", subjectCode: "RT200", name: "Før" });
  const id = await subjectId("RT200");
  const path = `/admin/subjects?edit=${id}`;

  const saved = await post({ intent: "update", id: String(id), subjectCode: "rt201", name: "Etter" }, admin, path);
  expect(saved.status).toBe(303);
  const [row] = await db().select().from(subjects).where(eq(subjects.id, id));
  expect(row).toMatchObject({ subjectCode: "RT201", name: "Etter" });

  const duplicate = await post(
    { intent: "update", id: String(id), subjectCode: "SYK2002", name: "Etter" },
    admin,
    path,
  );
  expect(duplicate.status).toBe(409);
  expect(((await duplicate.json()) as Reply).error?.subjectCode).toEqual(["adminUsers:subjects.errors.duplicate"]);

  expect((await post({ intent: "update", id: "999999", subjectCode: "RT300", name: "X" })).status).toBe(404);
  expect((await post({ intent: "update", subjectCode: "RT300", name: "X" })).status).toBe(404);
  expect((await post({ intent: "delete", subjectCode: "RT300", name: "X" })).status).toBe(400);
  expect(await db().select().from(subjects).where(eq(subjects.subjectCode, "RT300"))).toEqual([]);
});
