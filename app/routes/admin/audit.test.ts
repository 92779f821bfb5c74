import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ROLE } from "~/services/identity";
import { auditEvents, recordOpenings } from "~/services/platform/db/schema";
import { classIdOf, cookieActingAs, startTestApp, stopTestApp, userIdOf } from "~/test/app";
import { callLoader, getPage } from "~/test/route";
import * as auditCsv from "../api/audit-csv";
import * as auditPage from "./audit";

let app: Awaited<ReturnType<typeof startTestApp>>;
let admin: string;
let adminId: number;
let emmaId: number;
let laerer1Id: number;

const db = () => app.database.db;

beforeAll(async () => {
  app = await startTestApp();
  admin = await cookieActingAs(db(), "admin@example.org", ROLE.Admin);
  adminId = await userIdOf(db(), "admin@example.org");
  emmaId = await userIdOf(db(), "student01@example.org");
  laerer1Id = await userIdOf(db(), "laerer1@example.org");
  await db()
    .insert(recordOpenings)
    .values({ studentUserId: emmaId, viewerUserId: laerer1Id, viewerRole: ROLE.Teacher, kind: "warning" });
  await db()
    .insert(auditEvents)
    .values({
      action: "document.downloaded",
      actorUserId: laerer1Id,
      subjectUserId: emmaId,
      details: { document: "=cmd" },
      ip: "10.2.3.4",
    });
});

afterAll(async () => {
  await stopTestApp(app);
});

interface Page {
  entries: {
    action: string;
    code: string;
    actor: { name: string } | null;
    subject: { name: string; email: string } | null;
    className: string | null;
    details: { label: string; value: string }[];
  }[];
  actions: { value: string; label: string }[];
  older: string | null;
  newer: string | null;
  csvHref: string;
}

async function search(query: string): Promise<Page> {
  const response = await callLoader(auditPage, getPage(`/admin/audit${query}`, { cookie: admin }));
  expect(response.status).toBe(200);
  return (await response.json()) as Page;
}

async function searchesAudited(): Promise<unknown[]> {
  const rows = await db()
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.action, "audit.searched"), eq(auditEvents.actorUserId, adminId)));
  return rows.map((r) => r.details);
}

test("by the person a record is about: who opened it and who downloaded her documents", async () => {
  const page = await search("?person=student01%40example.org&as=subject");
  expect(page.entries.map((e) => e.code)).toEqual(["document.downloaded", "record.opened"]);
  // In words: the action as a phrase and the opening's details by name, not codes and JSON.
  expect(page.entries.map((e) => e.action)).toEqual(["Lastet ned dokument", "Åpnet opplysninger om student"]);
  expect(page.entries[1].details).toEqual([
    { label: "Side", value: "Varsel" },
    { label: "Rolle", value: "Praksislærer" },
  ]);
  expect(page.entries.every((e) => e.subject?.email === "student01@example.org")).toBe(true);
  expect(page.csvHref).toBe("/api/audit-csv?person=student01%40example.org&as=subject");
});

test("the admin's own searches are audited, with what was searched; looking at the unfiltered log is not a search", async () => {
  const before = (await searchesAudited()).length;
  await search("");
  expect(await searchesAudited()).toHaveLength(before);
  await search("?person=laerer1&as=actor&action=record.opened&from=2020-01-01");
  const after = await searchesAudited();
  expect(after).toHaveLength(before + 1);
  expect(after.at(-1)).toMatchObject({
    person: "laerer1",
    as: "actor",
    action: "record.opened",
    from: "2020-01-01",
    to: null,
    page: 1,
  });
  // The search is found by the next search of the admin's own actions.
  const mine = await search("?person=admin%40example.org&as=actor&action=audit.searched");
  expect(mine.entries.length).toBeGreaterThanOrEqual(1);
});

test("the log a page at a time, with links that keep the search", async () => {
  const first = await search("?action=login");
  expect(first.newer).toBeNull();
  await db()
    .insert(auditEvents)
    .values(
      Array.from({ length: 60 }, (_, i) => ({
        action: "login",
        actorUserId: emmaId,
        at: new Date(Date.UTC(2026, 0, 1, 0, i)),
      })),
    );
  const full = await search("?action=login");
  expect(full.entries).toHaveLength(50);
  expect(full.older).toBe("/admin/audit?action=login&page=2#results-heading");
  const second = await search("?action=login&page=2");
  expect(second.entries.length).toBeGreaterThanOrEqual(10);
  expect(second.newer).toBe("/admin/audit?action=login#results-heading");
});

test("the search as CSV: an attachment, not cached, every match, the export audited", async () => {
  const response = await callLoader(auditCsv, getPage("/api/audit-csv?person=student01&as=subject", { cookie: admin }));
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
  expect(response.headers.get("Content-Disposition")).toMatch(
    /^attachment; filename="praksis-audit-\d{4}-\d{2}-\d{2}\.csv"/,
  );
  expect(response.headers.get("Cache-Control")).toBe("no-store");
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await response.arrayBuffer());
  const lines = text.slice(1).split("\r\n");
  expect(lines[0]).toBe(
    "Tidspunkt;Handling;Utført av;Utført av (e-post);Gjelder;Gjelder (e-post);Klasse-id;Detaljer;IP-adresse",
  );
  expect(lines.filter((l) => l.includes(";record.opened;"))).toHaveLength(1);
  expect(lines.find((l) => l.includes(";document.downloaded;"))).toContain(`"{""document"":""=cmd""}";10.2.3.4`);
  const [exported] = await db().select().from(auditEvents).where(eq(auditEvents.action, "audit.exported"));
  expect(exported).toMatchObject({ actorUserId: adminId, details: { person: "student01", as: "subject" } });
});

test("in English, English headings", async () => {
  const response = await callLoader(
    auditCsv,
    getPage("/api/audit-csv?action=warning.created", { cookie: admin, headers: { "Accept-Language": "en" } }),
  );
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await response.arrayBuffer());
  expect(text.slice(1).split("\r\n")[0]).toBe(
    "Time;Action;Done by;Done by (e-mail);About;About (e-mail);Class id;Details;IP address",
  );
});

test("nobody but an admin", async () => {
  const teacher = await cookieActingAs(db(), "laerer1@example.org", ROLE.Teacher);
  expect((await callLoader(auditPage, getPage("/admin/audit", { cookie: teacher }))).status).toBe(302);
  expect((await callLoader(auditCsv, getPage("/api/audit-csv", { cookie: teacher }))).status).toBe(302);
});

test("the log in words in both languages: actions, details and classes named; the filter offers the phrases", async () => {
  const syk2001 = await classIdOf(db(), "SYK2001");
  await db()
    .insert(auditEvents)
    .values({
      action: "class.updated",
      actorUserId: adminId,
      classId: syk2001,
      details: { midSemesterDate: { from: "2026-10-01", to: "2026-10-08" } },
      at: new Date("2031-05-05T10:00:00Z"),
    });
  const nb = await search("?from=2031-05-05&to=2031-05-05");
  expect(nb.entries.map((e) => [e.code, e.action, e.className, e.details])).toEqual([
    [
      "class.updated",
      "Endret klasse",
      expect.stringMatching(/^SYK2001 Praksis i sykehjem \(.+\)$/),
      [{ label: "Midtveisdato", value: "2026-10-01 → 2026-10-08" }],
    ],
  ]);
  expect(nb.actions).toContainEqual({ value: "record.opened", label: "Åpnet opplysninger om student" });
  const response = await callLoader(
    auditPage,
    getPage("/admin/audit?from=2031-05-05&to=2031-05-05", { cookie: admin, headers: { "Accept-Language": "en" } }),
  );
  const en = (await response.json()) as Page;
  expect(en.entries.map((e) => [e.action, e.details[0].label])).toEqual([["Changed a class", "Mid-semester date"]]);
});
