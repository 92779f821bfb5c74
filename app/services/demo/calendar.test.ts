import { describe, expect, test } from "vitest";
import { demoCalendar } from "./calendar";

describe("where the demo sits in time", () => {
  test("in the autumn: this semester, the one before and the next; dates at their usual places", () => {
    const calendar = demoCalendar(new Date("2026-11-25T10:00:00Z"));
    expect(calendar.today).toBe("2026-11-25");
    expect([calendar.previous.name, calendar.current.name, calendar.next.name]).toEqual([
      "Vår 2026",
      "Høst 2026",
      "Vår 2027",
    ]);
    expect(calendar.classes).toEqual({
      SYK2001: { midSemesterDate: "2026-09-30", endSemesterDate: "2026-12-17" },
      SYK2002: { midSemesterDate: "2026-10-07", endSemesterDate: "2026-12-24" },
      SYK1002: { midSemesterDate: "2026-04-01", endSemesterDate: "2026-06-16" },
    });
  });

  test("early in a semester the mid-semester date is yesterday, so the demo is between its evaluations", () => {
    const calendar = demoCalendar(new Date("2027-01-04T09:00:00Z"));
    expect(calendar.current.name).toBe("Vår 2027");
    expect(calendar.previous.name).toBe("Høst 2026");
    expect(calendar.classes.SYK2001).toEqual({ midSemesterDate: "2027-01-03", endSemesterDate: "2027-06-16" });
    expect(calendar.classes.SYK2002).toEqual({ midSemesterDate: "2027-01-03", endSemesterDate: "2027-06-23" });
    expect(calendar.classes.SYK1002).toEqual({ midSemesterDate: "2026-09-30", endSemesterDate: "2026-12-17" });
  });

  test("on a semester's last day the end-semester date is that day; in Norway's date, not UTC's", () => {
    const calendar = demoCalendar(new Date("2027-06-30T21:30:00Z"));
    // 23:30 in Oslo: still 30 June.
    expect(calendar.today).toBe("2027-06-30");
    expect(calendar.classes.SYK2001).toEqual({ midSemesterDate: "2027-04-01", endSemesterDate: "2027-06-30" });
    expect(calendar.classes.SYK2002).toEqual({ midSemesterDate: "2027-04-08", endSemesterDate: "2027-06-30" });
    const july = demoCalendar(new Date("2027-06-30T22:30:00Z"));
    expect([july.today, july.current.name]).toEqual(["2027-07-01", "Høst 2027"]);
  });

  test("on a semester's first day the mid-semester date is the day before it; in a leap year, 29 February counts", () => {
    expect(demoCalendar(new Date("2027-07-01T08:00:00Z")).classes.SYK2001).toEqual({
      midSemesterDate: "2027-06-30",
      endSemesterDate: "2027-12-17",
    });
    const leap = demoCalendar(new Date("2028-02-29T09:00:00Z"));
    expect(leap.classes.SYK2001).toEqual({ midSemesterDate: "2028-02-28", endSemesterDate: "2028-06-16" });
  });
});
