import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { auditEvents, reminders } from "~/services/platform/db/schema";
import { currentInstitution } from "~/services/platform/institution.server";
import { ROLE } from "~/services/identity";
import { cookieActingAs, startTestApp, stopTestApp, userIdOf } from "~/test/app";
import { callAction, callLoader, flashOf, getPage, postForm } from "~/test/route";
import * as page from "./reminders";

let app: Awaited<ReturnType<typeof startTestApp>>;
let cookie: string;

beforeAll(async () => {
  app = await startTestApp();
  cookie = await cookieActingAs(app.database.db, "admin@example.org", ROLE.Admin);
  const student = await userIdOf(app.database.db, "student01@example.org");
  // 30 records: 20 sent, 10 failed, one minute apart.
  await app.database.db.insert(reminders).values(
    Array.from({ length: 30 }, (_, i) => ({
      kind: "deadline",
      recipientUserId: student,
      occasionKey: `mid:1:2026-10-${String(i + 1).padStart(2, "0")}`,
      status: i % 3 === 0 ? "failed" : "sent",
      email: "student01@example.org",
      subject: `Påminnelse ${i + 1}`,
      attempts: i % 3 === 0 ? 2 : 1,
      lastError: i % 3 === 0 ? "421 try again later" : null,
      nextAttemptAt: i % 3 === 0 ? new Date("2026-10-01T12:00:00Z") : null,
      sentAt: i % 3 === 0 ? null : new Date(Date.UTC(2026, 9, 1, 8, i)),
      createdAt: new Date(Date.UTC(2026, 9, 1, 8, i)),
    })),
  );
});

afterAll(async () => {
  await stopTestApp(app);
});

test("the list: newest first, 25 at a time with a link for more, by status", async () => {
  const first = await (await callLoader(page, getPage("/admin/reminders", { cookie }))).json();
  expect(first.total).toBe(30);
  expect(first.rows).toHaveLength(25);
  expect(first.rows[0].subject).toBe("Påminnelse 30");
  expect(first.moreHref).toBe("/admin/reminders?limit=50#reminder-26");
  const all = await (await callLoader(page, getPage("/admin/reminders?limit=50", { cookie }))).json();
  expect(all.rows).toHaveLength(30);
  expect(all.moreHref).toBeNull();
  const failed = await (await callLoader(page, getPage("/admin/reminders?status=failed", { cookie }))).json();
  expect(failed.total).toBe(10);
  expect(
    failed.rows.every(
      (r: { status: string; lastError: string }) => r.status === "failed" && r.lastError === "421 try again later",
    ),
  ).toBe(true);
  const unknown = await (
    await callLoader(page, getPage("/admin/reminders?status=nonsense&limit=-4", { cookie }))
  ).json();
  expect(unknown.status).toBeNull();
  expect(unknown.rows).toHaveLength(25);
});

test("the day counts: defaults, refused when out of range, saved and audited", async () => {
  const before = await (await callLoader(page, getPage("/admin/reminders", { cookie }))).json();
  expect(before.days).toEqual({ midDaysBefore: 7, endDaysBefore: 2, signingRepeatDays: 7, adminWeeksBefore: 4 });
  const wrong = await callAction(
    page,
    postForm(
      "/admin/reminders",
      { midDaysBefore: "x", endDaysBefore: "2", signingRepeatDays: "0", adminWeeksBefore: "4" },
      { cookie },
    ),
  );
  expect(wrong.status).toBe(400);
  expect((await wrong.json()).errors).toEqual({ midDaysBefore: "range", signingRepeatDays: "range" });
  const saved = await callAction(
    page,
    postForm(
      "/admin/reminders",
      { midDaysBefore: "10", endDaysBefore: "3", signingRepeatDays: "5", adminWeeksBefore: "6" },
      { cookie },
    ),
  );
  expect(saved.status).toBe(303);
  expect(await flashOf(saved)).toEqual({ type: "success", key: "reminders:admin.saved" });
  const after = await (await callLoader(page, getPage("/admin/reminders", { cookie }))).json();
  expect(after.days).toEqual({ midDaysBefore: 10, endDaysBefore: 3, signingRepeatDays: 5, adminWeeksBefore: 6 });
  const [event] = await app.database.db
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.action, "reminders.settings_saved"));
  expect(event.details).toMatchObject({ institution: currentInstitution().id, midDaysBefore: 10 });
});
