import i18next, { type TFunction } from "i18next";
import { beforeAll, describe, expect, test } from "vitest";
import resources from "~/locales";
import { ROLE } from "~/services/identity";
import { escapeHtml, renderReminder, type MailContext } from "./mail";
import {
  deadlinePhase,
  kindsForRoles,
  MAX_ATTEMPTS,
  nextAttemptAt,
  optOutsAfter,
  parseReminderDays,
  signingRound,
  intervalMs,
} from "./reminders";

describe("kinds and opt-outs", () => {
  test("each role sees the kinds it can receive", () => {
    expect(kindsForRoles([ROLE.Student])).toEqual(["deadline", "signing"]);
    expect(kindsForRoles([ROLE.Supervisor])).toEqual(["deadline", "warning", "signing"]);
    expect(kindsForRoles([ROLE.Teacher])).toEqual(["digest", "signing"]);
    expect(kindsForRoles([ROLE.Admin, ROLE.Teacher])).toEqual(["digest", "signing", "admin"]);
    expect(kindsForRoles([])).toEqual([]);
  });

  test("unticked shown kinds go off; kinds not shown keep their choice; unknown values are ignored", () => {
    expect(optOutsAfter([], ["deadline", "signing"], ["signing"])).toEqual(["deadline"]);
    expect(optOutsAfter(["deadline"], ["deadline", "signing"], ["deadline", "signing"])).toEqual([]);
    expect(optOutsAfter(["admin", "nonsense"], ["deadline"], ["deadline", "admin"])).toEqual(["admin"]);
  });
});

describe("day counts", () => {
  test("whole numbers in range only", () => {
    expect(
      parseReminderDays({ midDaysBefore: "7", endDaysBefore: " 2 ", signingRepeatDays: "7", adminWeeksBefore: "4" }),
    ).toEqual({
      ok: true,
      days: { midDaysBefore: 7, endDaysBefore: 2, signingRepeatDays: 7, adminWeeksBefore: 4 },
    });
    expect(
      parseReminderDays({ midDaysBefore: "-1", endDaysBefore: "2.5", signingRepeatDays: "0", adminWeeksBefore: "13" }),
    ).toEqual({
      ok: false,
      errors: { midDaysBefore: "range", endDaysBefore: "range", signingRepeatDays: "range", adminWeeksBefore: "range" },
    });
    expect(
      parseReminderDays({
        midDaysBefore: undefined,
        endDaysBefore: "61",
        signingRepeatDays: "60",
        adminWeeksBefore: "0",
      }),
    ).toMatchObject({
      ok: false,
      errors: { midDaysBefore: "range", endDaysBefore: "range" },
    });
  });
});

describe("when", () => {
  test("a deadline reminds from N days before up to the day itself, then the digest for a week", () => {
    expect(deadlinePhase("2026-10-08", 7, "2026-09-30")).toBeNull();
    expect(deadlinePhase("2026-10-08", 7, "2026-10-01")).toBe("remind");
    expect(deadlinePhase("2026-10-08", 7, "2026-10-08")).toBe("remind");
    expect(deadlinePhase("2026-10-08", 7, "2026-10-09")).toBe("digest");
    expect(deadlinePhase("2026-10-08", 7, "2026-10-15")).toBe("digest");
    expect(deadlinePhase("2026-10-08", 7, "2026-10-16")).toBeNull();
    expect(deadlinePhase("2026-10-08", 0, "2026-10-07")).toBeNull();
  });

  test("signing rounds: at once, after N days, after 2N days, then no more", () => {
    expect(signingRound("2026-10-01", "2026-10-01", 7)).toBe(0);
    expect(signingRound("2026-10-01", "2026-10-07", 7)).toBe(0);
    expect(signingRound("2026-10-01", "2026-10-08", 7)).toBe(1);
    expect(signingRound("2026-10-01", "2026-10-15", 7)).toBe(2);
    expect(signingRound("2026-10-01", "2027-01-01", 7)).toBe(2);
    expect(signingRound("2026-10-05", "2026-10-01", 7)).toBe(0);
  });

  test("back-off: 5 minutes, doubling, at most 6 hours, given up after the last attempt", () => {
    const now = new Date("2026-10-01T00:00:00Z");
    const minutes = (attempts: number) => (nextAttemptAt(attempts, now)!.getTime() - now.getTime()) / 60_000;
    expect([1, 2, 3, 4, 5, 6, 7].map(minutes)).toEqual([5, 10, 20, 40, 80, 160, 320]);
    expect(nextAttemptAt(MAX_ATTEMPTS, now)).toBeNull();
  });

  test("the interval: minutes, or off at 0", () => {
    expect(intervalMs(15)).toBe(900_000);
    expect(intervalMs(0)).toBeNull();
  });
});

describe("the mail", () => {
  let ctx: MailContext;
  beforeAll(async () => {
    const instance = i18next.createInstance();
    await instance.init({ resources, lng: "en", interpolation: { escapeValue: false } });
    ctx = {
      t: instance.getFixedT("en") as TFunction,
      language: "en",
      origin: "https://p.example.org",
      appName: "Praksis Nordlys",
      institutionName: "Nordlys University",
    };
  });

  test("plain text and HTML say the same, escaped, with the log-in and settings links", () => {
    const mail = renderReminder(
      {
        kind: "deadline",
        half: "mid",
        deadline: "2026-10-08",
        subject: "SYK<1> & co",
        items: [{ studentUserId: 1, student: "Ola <b>", forms: ["A", "B"] }],
        path: "/supervisor/class/1",
      },
      "Kari",
      ctx,
    );
    expect(mail.subject).toBe("Reminder: deadline 8 Oct 2026 in SYK<1> & co");
    expect(mail.text).toContain("Hello Kari,");
    expect(mail.text).toContain("- Ola <b>: A, B");
    expect(mail.text).toContain("https://p.example.org/supervisor/class/1");
    expect(mail.text).toContain("https://p.example.org/settings#reminders");
    expect(mail.text).toContain("Regards, Nordlys University");
    expect(mail.html).toContain("<li>Ola &lt;b&gt;: A, B</li>");
    expect(mail.html).toContain('<a href="https://p.example.org/settings#reminders">');
    expect(mail.html).not.toContain("<b>");
    expect(escapeHtml(`"'`)).toBe("&quot;&#39;");
  });

  test("a repeated signing reminder says which it is", () => {
    const first = renderReminder(
      { kind: "signing", subject: "S", student: "Ola", self: false, round: 0, path: "/x" },
      "K",
      ctx,
    );
    const third = renderReminder(
      { kind: "signing", subject: "S", student: "Ola", self: false, round: 2, path: "/x" },
      "K",
      ctx,
    );
    expect(first.text).not.toContain("reminder number");
    expect(third.text).toContain("This is reminder number 3.");
  });
});
