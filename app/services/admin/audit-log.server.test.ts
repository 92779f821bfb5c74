import { afterAll, beforeAll, expect, test } from "vitest";
import { openTestDatabase } from "~/test/db";
import type { Database } from "~/services/platform/db/client.server";
import {
  auditEvents,
  classes,
  forms,
  semesters,
  recordOpenings,
  ROLE,
  subjects,
  users,
} from "~/services/platform/db/schema";
import { auditInWords } from "./audit-words.server";
import {
  allAuditEntries,
  auditQueryParams,
  readAuditQuery,
  searchAuditLog,
  type AuditEntry,
  type AuditQuery,
} from "./audit-log.server";

let database: Database;
let ada: number;
let bo: number;
let cy: number;

const query = (over: Partial<AuditQuery> = {}): AuditQuery => ({
  person: "",
  as: "either",
  action: null,
  from: null,
  to: null,
  page: 1,
  ...over,
});

beforeAll(async () => {
  database = await openTestDatabase();
  const made = await database.db
    .insert(users)
    .values([
      { displayName: "Ada Admin", email: "ada@example.org" },
      { displayName: "Bo Student", email: "bo@example.org" },
      { displayName: "Cy 100% Lærer", email: "cy@example.org" },
    ])
    .returning({ id: users.id });
  [ada, bo, cy] = made.map((u) => u.id);
  await database.db.insert(auditEvents).values([
    // 23:30 UTC on the 24th is 00:30 on the 25th in Oslo.
    { at: new Date("2026-11-24T23:30:00Z"), action: "login", actorUserId: bo, ip: "10.0.0.2" },
    {
      at: new Date("2026-11-25T09:00:00Z"),
      action: "document.downloaded",
      actorUserId: cy,
      subjectUserId: bo,
      classId: 4,
      details: { document: "full" },
    },
    { at: new Date("2026-11-25T10:00:00Z"), action: "user.updated", actorUserId: ada, subjectUserId: cy },
    { at: new Date("2026-11-23T12:00:00Z"), action: "login", actorUserId: ada },
  ]);
  await database.db.insert(recordOpenings).values({
    studentUserId: bo,
    viewerUserId: cy,
    viewerRole: ROLE.Teacher,
    kind: "studentPage",
    classId: 4,
    hour: new Date("2026-11-25T11:00:00Z"),
    at: new Date("2026-11-25T11:05:00Z"),
  });
});

afterAll(async () => {
  await database?.close();
});

const db = () => database.db;
const actions = async (q: AuditQuery) =>
  (await searchAuditLog(db(), q)).entries.map((e) => `${e.action}:${e.actorName ?? "-"}>${e.subjectName ?? "-"}`);

test("everything, newest first, the openings of records among the events", async () => {
  expect(await actions(query())).toEqual([
    "record.opened:Cy 100% Lærer>Bo Student",
    "user.updated:Ada Admin>Cy 100% Lærer",
    "document.downloaded:Cy 100% Lærer>Bo Student",
    "login:Bo Student>-",
    "login:Ada Admin>-",
  ]);
  const [opened] = (await searchAuditLog(db(), query())).entries;
  expect(opened).toMatchObject({
    classId: 4,
    details: { page: "studentPage", role: ROLE.Teacher },
    ip: null,
    subjectEmail: "bo@example.org",
  });
});

test("by person, as the one who acted, the one it was about, or either; by name or e-mail", async () => {
  expect(await actions(query({ person: "bo student" }))).toEqual([
    "record.opened:Cy 100% Lærer>Bo Student",
    "document.downloaded:Cy 100% Lærer>Bo Student",
    "login:Bo Student>-",
  ]);
  expect(await actions(query({ person: "BO@example", as: "actor" }))).toEqual(["login:Bo Student>-"]);
  expect(await actions(query({ person: "bo", as: "subject" }))).toEqual([
    "record.opened:Cy 100% Lærer>Bo Student",
    "document.downloaded:Cy 100% Lærer>Bo Student",
  ]);
  // A "%" in the search is a percent sign, not a wildcard.
  expect(await actions(query({ person: "100%", as: "actor" }))).toEqual([
    "record.opened:Cy 100% Lærer>Bo Student",
    "document.downloaded:Cy 100% Lærer>Bo Student",
  ]);
  expect(await actions(query({ person: "a%n", as: "actor" }))).toEqual([]);
  expect(await actions(query({ person: "nobody" }))).toEqual([]);
});

test("by action: an action of the log, or the openings alone", async () => {
  expect(await actions(query({ action: "login" }))).toEqual(["login:Bo Student>-", "login:Ada Admin>-"]);
  expect(await actions(query({ action: "record.opened" }))).toEqual(["record.opened:Cy 100% Lærer>Bo Student"]);
});

test("by dates, whole days in Norway, both ends included", async () => {
  expect(await actions(query({ from: "2026-11-25", to: "2026-11-25" }))).toEqual([
    "record.opened:Cy 100% Lærer>Bo Student",
    "user.updated:Ada Admin>Cy 100% Lærer",
    "document.downloaded:Cy 100% Lærer>Bo Student",
    "login:Bo Student>-",
  ]);
  expect(await actions(query({ to: "2026-11-24" }))).toEqual(["login:Ada Admin>-"]);
  expect(await actions(query({ from: "2026-11-26" }))).toEqual([]);
});

test("a page at a time: whether there is a next, without counting the whole trail", async () => {
  const first = await searchAuditLog(db(), query(), 2);
  expect(first.entries.map((e) => e.action)).toEqual(["record.opened", "user.updated"]);
  expect(first.hasNext).toBe(true);
  const third = await searchAuditLog(db(), query({ page: 3 }), 2);
  expect(third.entries.map((e) => e.action)).toEqual(["login"]);
  expect(third.hasNext).toBe(false);

  const pages = [];
  for await (const page of allAuditEntries(db(), query(), 2)) pages.push(page.length);
  expect(pages).toEqual([2, 2, 1]);
});

test("the search read from the URL: what is malformed is left out", () => {
  expect(
    readAuditQuery(new URLSearchParams("person=%20Bo%20&as=subject&action=login&from=2026-11-01&to=2026-11-30&page=2")),
  ).toEqual({
    person: "Bo",
    as: "subject",
    action: "login",
    from: "2026-11-01",
    to: "2026-11-30",
    page: 2,
  });
  expect(readAuditQuery(new URLSearchParams("as=boss&action=drop table&from=2026-02-30&to=yesterday&page=-1"))).toEqual(
    query(),
  );
  expect(readAuditQuery(new URLSearchParams(`person=${"x".repeat(300)}&page=1e9`))).toMatchObject({
    person: "x".repeat(200),
    page: 1000,
  });
  expect(readAuditQuery(new URLSearchParams("action=record.opened")).action).toBe("record.opened");
});

test("the URL of a search holds only what is set", () => {
  expect(auditQueryParams(query()).toString()).toBe("");
  expect(auditQueryParams(query({ person: "Bo", as: "actor", from: "2026-11-01", page: 3 })).toString()).toBe(
    "person=Bo&as=actor&from=2026-11-01&page=3",
  );
  // Whom the person was matters only with a person.
  expect(auditQueryParams(query({ as: "actor" }), 2).toString()).toBe("page=2");
});

test("a report download is one entry naming its students; the openings it records for each student stay out of the search", async () => {
  await db()
    .insert(auditEvents)
    .values({
      at: new Date("2026-11-27T09:00:00Z"),
      action: "report.downloaded",
      actorUserId: ada,
      details: { periodId: 1, report: "students-csv", students: 2, studentUserIds: [bo, cy] },
    });
  await db()
    .insert(recordOpenings)
    .values(
      [bo, cy].map((studentUserId) => ({
        studentUserId,
        viewerUserId: ada,
        viewerRole: ROLE.Admin,
        kind: "semesterReport",
        hour: new Date("2026-11-27T09:00:00Z"),
        at: new Date("2026-11-27T09:00:00Z"),
      })),
    );
  const day = { from: "2026-11-27", to: "2026-11-27" };
  expect(await actions(query(day))).toEqual(["report.downloaded:Ada Admin>-"]);
  // Who saw Bo: the download is found by the students it names.
  expect(await actions(query({ ...day, person: "bo", as: "subject" }))).toEqual(["report.downloaded:Ada Admin>-"]);
  expect(await actions(query({ ...day, person: "bo" }))).toEqual(["report.downloaded:Ada Admin>-"]);
  expect(await actions(query({ ...day, person: "bo", as: "actor" }))).toEqual([]);
  expect(await actions(query({ ...day, action: "record.opened" }))).toEqual([]);
});

test("the log in words: actions as phrases, details by name, a class by its subject and semester", async () => {
  const [subject] = await db().insert(subjects).values({ subjectCode: "ORD1", name: "Ordemne" }).returning();
  const [semester] = await db()
    .insert(semesters)
    .values({ name: "Vår 2031", startDate: "2031-01-01", endDate: "2031-06-30" })
    .returning();
  const [klass] = await db().insert(classes).values({ subjectId: subject.id, semesterId: semester.id }).returning();
  const [form] = await db().insert(forms).values({ name: "Ordskjema" }).returning();
  const texts: Record<string, string> = {
    "audit.actions.report_downloaded": "Lastet ned semesterrapport",
    "audit.detailKeys.periodId": "Semester",
    "audit.detailKeys.students": "Studenter",
    "audit.detailKeys.isMidSemester": "Vurdering",
    "audit.detailKeys.formIds": "Skjemaer",
    "audit.detailKeys.midSemesterDate": "Midtveisdato",
    "audit.detailKeys.vippsUnproved": "Må bekreftes på nytt for Vipps",
    "audit.mid": "midtveis",
    "audit.yes": "ja",
  };
  const t = (key: string, values?: Record<string, unknown>) =>
    texts[key] ?? (values?.defaultValue as string | undefined) ?? key;
  const entry = (
    action: AuditEntry["action"],
    details: Record<string, unknown>,
    classId: number | null = null,
  ): AuditEntry => ({
    at: new Date(),
    action,
    actorUserId: ada,
    actorName: "Ada Admin",
    actorEmail: null,
    subjectUserId: null,
    subjectName: null,
    subjectEmail: null,
    classId,
    details,
    ip: null,
  });
  const words = await auditInWords(
    db(),
    [
      entry("report.downloaded", {
        periodId: semester.id, // stored name
        report: "students-csv",
        students: 2,
        studentUserIds: [bo, cy],
      }),
      entry("scheme.removed", { isMidSemester: true, formIds: [form.id] }, klass.id),
      entry("class.updated", { midSemesterDate: { from: "2031-03-01", to: "2031-03-15" } }, klass.id),
      entry("user.phone_changed", { vippsUnproved: true }, 999_999),
    ],
    t,
  );
  expect(words[0]).toEqual({
    action: "Lastet ned semesterrapport",
    className: null,
    details: [
      { label: "Semester", value: "Vår 2031" },
      { label: "report", value: "students-csv" },
      { label: "Studenter", value: "2" },
    ],
  });
  expect(words[1]).toMatchObject({
    className: "ORD1 Ordemne (Vår 2031)",
    details: [
      { label: "Vurdering", value: "midtveis" },
      { label: "Skjemaer", value: "Ordskjema" },
    ],
  });
  expect(words[2].details).toEqual([{ label: "Midtveisdato", value: "2031-03-01 → 2031-03-15" }]);
  expect(words[3]).toMatchObject({
    action: "user.phone_changed",
    className: "audit.classUnknown",
    details: [{ label: "Må bekreftes på nytt for Vipps", value: "ja" }],
  });
  expect(words.flatMap((w) => w.details.map((d) => d.value)).join(" ")).not.toMatch(/[{}[\]"]/);
});
