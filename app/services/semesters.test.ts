import { describe, expect, test } from "vitest";
import {
  nextSemester,
  osloDate,
  parseSemesterName,
  previousSemester,
  semesterFor,
  semesterStatus,
} from "./semesters";

describe("osloDate", () => {
  test("takes the calendar day in Norway, not in UTC", () => {
    expect(osloDate(new Date("2026-03-10T12:00:00Z"))).toBe("2026-03-10");
    // Winter (UTC+1): 23:30 UTC is already the next day in Oslo.
    expect(osloDate(new Date("2026-12-31T23:30:00Z"))).toBe("2027-01-01");
    expect(osloDate(new Date("2026-12-31T22:59:59Z"))).toBe("2026-12-31");
    // Summer (UTC+2): 22:00 UTC is midnight in Oslo.
    expect(osloDate(new Date("2026-06-30T22:00:00Z"))).toBe("2026-07-01");
    expect(osloDate(new Date("2026-06-30T21:59:59Z"))).toBe("2026-06-30");
  });
});

describe("parseSemesterName", () => {
  test("reads season and year, and rejects other names", () => {
    expect(parseSemesterName("Høst 2026")).toEqual({ season: "Høst", year: 2026 });
    expect(parseSemesterName("vår 2027")).toEqual({ season: "Vår", year: 2027 });
    expect(parseSemesterName("Sommer 2026")).toBeNull();
  });
});

describe("semesterStatus", () => {
  const period = { startDate: "2026-07-01", endDate: "2026-12-31" };

  test("is future before the start day", () => {
    expect(semesterStatus(period, new Date("2026-06-30T12:00:00Z"))).toBe("future");
  });

  test("is current from the first to the last day, both inclusive", () => {
    expect(semesterStatus(period, new Date("2026-07-01T00:30:00+02:00"))).toBe("current");
    expect(semesterStatus(period, new Date("2026-09-15T12:00:00Z"))).toBe("current");
    expect(semesterStatus(period, new Date("2026-12-31T23:59:00+01:00"))).toBe("current");
  });

  test("is past after the end day", () => {
    expect(semesterStatus(period, new Date("2027-01-01T00:00:00+01:00"))).toBe("past");
  });

  test("uses Oslo's day at a late-evening UTC instant", () => {
    // 22:30 UTC on 30 June is 00:30 on 1 July in Oslo: Høst has begun.
    expect(semesterStatus(period, new Date("2026-06-30T22:30:00Z"))).toBe("current");
    // 23:30 UTC on 31 December is 00:30 on 1 January in Oslo: Høst is over.
    expect(semesterStatus(period, new Date("2026-12-31T23:30:00Z"))).toBe("past");
  });
});

describe("semesterFor", () => {
  test("gives Vår for January to June", () => {
    expect(semesterFor(new Date("2027-01-01T00:00:00+01:00"))).toEqual({
      name: "Vår 2027",
      startDate: "2027-01-01",
      endDate: "2027-06-30",
    });
    expect(semesterFor(new Date("2026-06-30T21:59:00Z")).name).toBe("Vår 2026");
  });

  test("gives Høst for July to December", () => {
    expect(semesterFor(new Date("2026-07-01T00:00:00+02:00"))).toEqual({
      name: "Høst 2026",
      startDate: "2026-07-01",
      endDate: "2026-12-31",
    });
    expect(semesterFor(new Date("2026-12-31T22:59:00Z")).name).toBe("Høst 2026");
  });

  test("crosses the boundary at midnight in Oslo", () => {
    expect(semesterFor(new Date("2026-06-30T22:00:00Z")).name).toBe("Høst 2026");
    expect(semesterFor(new Date("2026-12-31T23:00:00Z")).name).toBe("Vår 2027");
  });
});

describe("nextSemester", () => {
  const today = new Date("2026-11-22T12:00:00Z");

  test("after Høst comes Vår of the following year", () => {
    expect(nextSemester({ name: "Høst 2026" }, today)).toEqual({
      name: "Vår 2027",
      startDate: "2027-01-01",
      endDate: "2027-06-30",
    });
  });

  test("after Vår comes Høst of the same year", () => {
    expect(nextSemester({ name: "Vår 2026" }, new Date("2026-03-01T12:00:00Z"))).toEqual({
      name: "Høst 2026",
      startDate: "2026-07-01",
      endDate: "2026-12-31",
    });
  });

  test("after a semester with another name comes Høst of this year", () => {
    expect(nextSemester({ name: "Sommerkurs" }, new Date("2026-03-01T12:00:00Z")).name).toBe(
      "Høst 2026",
    );
  });

  test("with no current semester: Høst from July onward", () => {
    expect(nextSemester(null, new Date("2026-07-01T00:15:00+02:00")).name).toBe("Høst 2026");
    expect(nextSemester(null, today).name).toBe("Høst 2026");
  });

  test("with no current semester: Vår before July", () => {
    expect(nextSemester(null, new Date("2026-06-30T23:45:00+02:00")).name).toBe("Vår 2026");
    expect(nextSemester(null, new Date("2026-01-01T00:00:00+01:00")).name).toBe("Vår 2026");
  });

  test("with no current semester, late evening UTC on 31 December is already next year", () => {
    expect(nextSemester(null, new Date("2026-12-31T23:30:00Z"))).toEqual({
      name: "Vår 2027",
      startDate: "2027-01-01",
      endDate: "2027-06-30",
    });
  });
});

describe("previousSemester", () => {
  test("steps back one half-year across the year boundary", () => {
    expect(previousSemester({ name: "Høst 2026" })?.name).toBe("Vår 2026");
    expect(previousSemester({ name: "Vår 2026" })).toEqual({
      name: "Høst 2025",
      startDate: "2025-07-01",
      endDate: "2025-12-31",
    });
    expect(previousSemester({ name: "Sommerkurs" })).toBeNull();
  });
});
