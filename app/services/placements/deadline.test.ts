import { describe, expect, test } from "vitest";
import { currentHalf, deadlineText, formDue } from "./deadline";

const dates = { midSemesterDate: "2026-10-01", endSemesterDate: "2026-12-11" };

describe("currentHalf", () => {
  test("before and on the mid-semester date it is mid-semester, with that date as the deadline", () => {
    expect(currentHalf(dates, false, "2026-08-20")).toEqual({ half: "mid", deadline: "2026-10-01" });
    expect(currentHalf(dates, false, "2026-10-01")).toEqual({ half: "mid", deadline: "2026-10-01" });
  });

  test("the day after the mid-semester date it is end-semester, with the end date as the deadline", () => {
    expect(currentHalf(dates, false, "2026-10-02")).toEqual({ half: "end", deadline: "2026-12-11" });
    expect(currentHalf(dates, false, "2027-01-15")).toEqual({ half: "end", deadline: "2026-12-11" });
  });

  test("a confirmed mid-semester part of the signing form switches to end-semester early", () => {
    expect(currentHalf(dates, true, "2026-08-20")).toEqual({ half: "end", deadline: "2026-12-11" });
  });

  test("a class without dates stays in mid-semester without a deadline until confirmed", () => {
    const none = { midSemesterDate: null, endSemesterDate: null };
    expect(currentHalf(none, false, "2026-12-30")).toEqual({ half: "mid", deadline: null });
    expect(currentHalf(none, true, "2026-12-30")).toEqual({ half: "end", deadline: null });
    expect(currentHalf({ midSemesterDate: "2026-10-01", endSemesterDate: null }, false, "2026-11-01")).toEqual({
      half: "end",
      deadline: null,
    });
  });
});

test("deadlines read d.m.yyyy without leading zeros", () => {
  expect(deadlineText("2026-07-01")).toBe("1.7.2026");
  expect(deadlineText("2026-12-11")).toBe("11.12.2026");
});

describe("formDue: a form judged against the student's own deadline", () => {
  test("a mid-semester form is open until its date, behind after it, and closed once the mid-semester part is confirmed", () => {
    expect(formDue(true, dates, false, "2026-10-01")).toBe("open");
    expect(formDue(true, dates, false, "2026-10-02")).toBe("behind");
    expect(formDue(true, dates, true, "2026-10-02")).toBe("closed");
    expect(formDue(true, dates, true, "2026-08-20")).toBe("closed");
  });

  test("an end-semester form waits for the mid-semester to be over, is open until the end date, behind after it", () => {
    expect(formDue(false, dates, false, "2026-09-01")).toBe("later");
    expect(formDue(false, dates, true, "2026-09-01")).toBe("open");
    expect(formDue(false, dates, false, "2026-10-02")).toBe("open");
    expect(formDue(false, dates, false, "2026-12-11")).toBe("open");
    expect(formDue(false, dates, false, "2026-12-12")).toBe("behind");
  });

  test("without dates nothing is ever behind", () => {
    const none = { midSemesterDate: null, endSemesterDate: null };
    expect(formDue(true, none, false, "2030-01-01")).toBe("open");
    expect(formDue(false, none, false, "2030-01-01")).toBe("later");
    expect(formDue(false, none, true, "2030-01-01")).toBe("open");
  });
});
