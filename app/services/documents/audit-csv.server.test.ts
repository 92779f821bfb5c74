import { afterAll, beforeAll, expect, test } from "vitest";
import { openTestDatabase } from "~/test/db";
import type { Database } from "~/services/platform/db/client.server";
import { auditEvents, users } from "~/services/platform/db/schema";
import { auditCells, openAuditCsv, osloTimestamp } from "./audit-csv.server";

let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
  const [mallory, sara] = await database.db
    .insert(users)
    .values([
      { displayName: '=HYPERLINK("http://evil")', email: "mallory@example.org" },
      { displayName: "Sara; Student", email: "sara@example.org" },
    ])
    .returning({ id: users.id });
  await database.db.insert(auditEvents).values([
    {
      at: new Date("2026-11-25T08:00:00Z"),
      action: "user.updated",
      actorUserId: mallory.id,
      subjectUserId: sara.id,
      details: { field: "+1" },
      ip: "10.0.0.1",
    },
    { at: new Date("2026-06-30T22:30:05Z"), action: "login", actorUserId: sara.id, ip: "10.0.0.2" },
  ]);
});

afterAll(async () => {
  await database?.close();
});

test("time in Norway, as a spreadsheet reads it, summer and winter", () => {
  expect(osloTimestamp(new Date("2026-11-25T08:00:00Z"))).toBe("2026-11-25 09:00:00");
  expect(osloTimestamp(new Date("2026-06-30T22:30:05Z"))).toBe("2026-07-01 00:30:05");
});

test("a cell a spreadsheet would run as a formula is text", () => {
  const cells = auditCells({
    at: new Date("2026-11-25T08:00:00Z"),
    action: "user.updated",
    actorUserId: 1,
    actorName: "=1+1",
    actorEmail: "@evil",
    subjectUserId: null,
    subjectName: null,
    subjectEmail: null,
    classId: 3,
    details: { a: 1 },
    ip: null,
  });
  expect(cells).toEqual(["2026-11-25 09:00:00", "user.updated", "=1+1", "@evil", null, null, 3, '{"a":1}', null]);
});

test("the search as CSV: a BOM, translated headings, one neutralised line per event, newest first", async () => {
  const csv = openAuditCsv(
    database.db,
    { person: "", as: "either", action: null, from: null, to: null, page: 1 },
    {
      t: (key) => key.split(".").pop() ?? key,
      now: new Date("2026-11-25T10:00:00Z"),
    },
  );
  expect(csv.fileName).toBe("praksis-audit-2026-11-25.csv");
  const bytes = new Uint8Array(await new Response(csv.stream).arrayBuffer());
  expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  expect(text.slice(1).split("\r\n")).toEqual([
    "at;action;actorName;actorEmail;subjectName;subjectEmail;classId;details;ip",
    `2026-11-25 09:00:00;user.updated;"'=HYPERLINK(""http://evil"")";mallory@example.org;"Sara; Student";sara@example.org;;"{""field"":""+1""}";10.0.0.1`,
    `2026-07-01 00:30:05;login;"Sara; Student";sara@example.org;;;;;10.0.0.2`,
    "",
  ]);
});
