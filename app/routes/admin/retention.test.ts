import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ROLE } from "~/services/identity";
import { classes, semesters, recordOpenings, subjects } from "~/services/platform/db/schema";
import { currentInstitution } from "~/services/platform/institution.server";
import { RECORD_KINDS, retentionRules } from "~/services/records";
import { previewRetention } from "~/services/records/index.server";
import { classIdOf, cookieActingAs, startTestApp, stopTestApp, userIdOf } from "~/test/app";
import { callLoader, getPage } from "~/test/route";
import * as page from "./retention";

let app: Awaited<ReturnType<typeof startTestApp>>;
let cookie: string;
let oldClassId: number;

/** The demo's previous semester (SYK1002) moved three years back: past every default period. */
async function ageOldClass() {
  const db = app.database.db;
  oldClassId = await classIdOf(db, "SYK1002");
  const [old] = await db.select({ semesterId: classes.semesterId }).from(classes).where(eq(classes.id, oldClassId));
  const [semester] = await db.select().from(semesters).where(eq(semesters.id, old.semesterId));
  const back = (date: string) => `${Number(date.slice(0, 4)) - 3}${date.slice(4)}`;
  await db
    .update(semesters)
    .set({ startDate: back(semester.startDate), endDate: back(semester.endDate) })
    .where(eq(semesters.id, semester.id));
  const [dates] = await db.select().from(classes).where(eq(classes.id, oldClassId));
  await db
    .update(classes)
    .set({
      midSemesterDate: dates.midSemesterDate && back(dates.midSemesterDate),
      endSemesterDate: dates.endSemesterDate && back(dates.endSemesterDate),
    })
    .where(eq(classes.id, oldClassId));
}

beforeAll(async () => {
  app = await startTestApp();
  cookie = await cookieActingAs(app.database.db, "admin@example.org", ROLE.Admin);
});

afterAll(async () => {
  await stopTestApp(app);
});

type View = Awaited<ReturnType<typeof page.loader>>;

async function load(path = "/admin/retention"): Promise<View> {
  const response = await callLoader(page, getPage(path, { cookie }));
  expect(response.status).toBe(200);
  return (await response.json()) as View;
}

test("a class past its period: the page shows what the next run removes, per kind with its rule and per class, the service's own counts", async () => {
  await ageOldClass();
  const view = await load();
  const preview = await previewRetention(app.database.db, retentionRules(currentInstitution()), new Date());
  expect(view.kinds.map((k) => k.rule.kind)).toEqual([...RECORD_KINDS]);
  expect(view.kinds.map((k) => k.count)).toEqual(RECORD_KINDS.map((kind) => preview.totals[kind]));
  expect(view.kinds.find((k) => k.rule.kind === "answers")).toMatchObject({
    rule: { keepDays: 365, from: "classEnd", action: "delete" },
  });
  expect(view.kinds.find((k) => k.rule.kind === "answers")!.count).toBeGreaterThan(0);

  // The old class is listed with its counts and a link to it; this semester's classes are not due.
  const old = view.classes.find((c) => c.key === String(oldClassId));
  expect(old).toMatchObject({ href: `/admin/class/${oldClassId}`, subject: expect.stringMatching(/^SYK1002 /) });
  expect(old!.counts.find((c) => c.kind === "answers")?.countText).toBe(
    String(preview.byClass.find((c) => c.classId === oldClassId)!.counts.answers),
  );
  expect(view.classes.map((c) => c.subject)).not.toContainEqual(expect.stringMatching(/^SYK200[12] /));
  expect(view.page).toBe(1);
  expect(view.previous).toBeNull();
});

test("a page number that is no page is the first or the last page", async () => {
  for (const query of ["?page=0", "?page=-1", "?page=abc", "?page=1e3", "?page=%00"]) {
    expect((await load(`/admin/retention${query}`)).page).toBe(1);
  }
  const last = await load("/admin/retention?page=99999");
  expect(last.page).toBe(last.pages);
  expect(last.next).toBeNull();
});

test("more classes than a page: twenty a page, each page linking to the one before and after it", async () => {
  // 21 more classes in the old semester, each with a record opening three years old (due).
  const db = app.database.db;
  const [old] = await db.select({ semesterId: classes.semesterId }).from(classes).where(eq(classes.id, oldClassId));
  const student = await userIdOf(db, "student01@example.org");
  const admin = await userIdOf(db, "admin@example.org");
  for (let i = 0; i < page.CLASSES_PER_PAGE + 1; i++) {
    const [subject] = await db
      .insert(subjects)
      .values({ subjectCode: `GML${100 + i}`, name: `Gammelt emne ${i}` })
      .returning();
    const [made] = await db.insert(classes).values({ subjectId: subject.id, semesterId: old.semesterId }).returning();
    const at = new Date(Date.UTC(2020, 0, 1, i));
    await db.insert(recordOpenings).values({
      studentUserId: student,
      viewerUserId: admin,
      viewerRole: ROLE.Admin,
      kind: "userProfile",
      hour: at,
      at,
      classId: made.id,
    });
  }
  const first = await load();
  expect(first.classes).toHaveLength(page.CLASSES_PER_PAGE);
  expect(first.pages).toBe(2);
  expect(first.previous).toBeNull();
  expect(first.next).toBe("/admin/retention?page=2#classes-heading");
  const second = await load("/admin/retention?page=2");
  expect(second.classes.length).toBeGreaterThanOrEqual(2);
  expect(second.previous).toBe("/admin/retention#classes-heading");
  expect(second.next).toBeNull();
  const keys = [...first.classes, ...second.classes].map((c) => c.key);
  expect(new Set(keys).size).toBe(keys.length);
});
