import { describe, expect, test } from "vitest";
import {
  currentSemesterOf,
  defaultClassDates,
  formatDay,
  nextSemester,
  osloDate,
  parseSemesterName,
  previousSemester,
  semesterFor,
  semesterStatus,
  semesterToCreate,
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
  const semester = { startDate: "2026-07-01", endDate: "2026-12-31" };

  test("is future before the start day", () => {
    expect(semesterStatus(semester, new Date("2026-06-30T12:00:00Z"))).toBe("future");
  });

  test("is current from the first to the last day, both inclusive", () => {
    expect(semesterStatus(semester, new Date("2026-07-01T00:30:00+02:00"))).toBe("current");
    expect(semesterStatus(semester, new Date("2026-09-15T12:00:00Z"))).toBe("current");
    expect(semesterStatus(semester, new Date("2026-12-31T23:59:00+01:00"))).toBe("current");
  });

  test("is past after the end day", () => {
    expect(semesterStatus(semester, new Date("2027-01-01T00:00:00+01:00"))).toBe("past");
  });

  test("uses Oslo's day at a late-evening UTC instant", () => {
    // 22:30 UTC on 30 June is 00:30 on 1 July in Oslo: Høst has begun.
    expect(semesterStatus(semester, new Date("2026-06-30T22:30:00Z"))).toBe("current");
    // 23:30 UTC on 31 December is 00:30 on 1 January in Oslo: Høst is over.
    expect(semesterStatus(semester, new Date("2026-12-31T23:30:00Z"))).toBe("past");
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
    expect(nextSemester({ name: "Sommerkurs" }, new Date("2026-03-01T12:00:00Z")).name).toBe("Høst 2026");
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

describe("nextSemester, more branches", () => {
  test("after Høst in late December comes Vår of the following year, across the year boundary", () => {
    // 22:30 UTC on 31 December is still 23:30 on 31 December in Oslo.
    expect(nextSemester({ name: "Høst 2026" }, new Date("2026-12-31T22:30:00Z"))).toEqual({
      name: "Vår 2027",
      startDate: "2027-01-01",
      endDate: "2027-06-30",
    });
    expect(nextSemester({ name: "Høst 2099" }, new Date("2099-08-01T12:00:00Z")).name).toBe("Vår 2100");
  });

  test("reads the season whatever its case, and the year from the name rather than from today", () => {
    expect(nextSemester({ name: "høst 2026" }, new Date("2026-11-01T12:00:00Z")).name).toBe("Vår 2027");
    expect(nextSemester({ name: "VÅR 2027" }, new Date("2027-02-01T12:00:00Z"))).toEqual({
      name: "Høst 2027",
      startDate: "2027-07-01",
      endDate: "2027-12-31",
    });
  });

  test("after a semester with another name comes Høst of today's year in Oslo", () => {
    // 23:30 UTC on 31 December 2026 is already 2027 in Oslo.
    expect(nextSemester({ name: "Sommerkurs" }, new Date("2026-12-31T23:30:00Z")).name).toBe("Høst 2027");
  });
});

describe("currentSemesterOf", () => {
  const vaar = { name: "Vår 2026", startDate: "2026-01-01", endDate: "2026-06-30" };
  const hoest = { name: "Høst 2026", startDate: "2026-07-01", endDate: "2026-12-31" };

  test("is the semester running today, by Oslo's calendar day", () => {
    expect(currentSemesterOf([vaar, hoest], new Date("2026-06-30T21:30:00Z"))).toBe(vaar);
    expect(currentSemesterOf([vaar, hoest], new Date("2026-06-30T22:30:00Z"))).toBe(hoest);
  });

  test("is null between semesters", () => {
    expect(currentSemesterOf([vaar], new Date("2026-09-01T12:00:00Z"))).toBeNull();
    expect(currentSemesterOf([], new Date("2026-09-01T12:00:00Z"))).toBeNull();
  });

  test("takes the one that started last when two overlap", () => {
    const course = { name: "Sommerkurs 2026", startDate: "2026-06-01", endDate: "2026-08-31" };
    expect(currentSemesterOf([course, hoest], new Date("2026-07-15T12:00:00Z"))).toBe(hoest);
    expect(currentSemesterOf([hoest, course], new Date("2026-06-15T12:00:00Z"))).toBe(course);
  });
});

describe("semesterToCreate", () => {
  const vaar = { name: "Vår 2026", startDate: "2026-01-01", endDate: "2026-06-30" };
  const hoest = { name: "Høst 2026", startDate: "2026-07-01", endDate: "2026-12-31" };
  const nextVaar = { name: "Vår 2027", startDate: "2027-01-01", endDate: "2027-06-30" };

  test("with Høst current: Vår of the following year", () => {
    expect(semesterToCreate([vaar, hoest], new Date("2026-11-22T12:00:00Z"))).toEqual(nextVaar);
  });

  test("with Vår current: Høst of the same year", () => {
    expect(semesterToCreate([vaar], new Date("2026-03-01T12:00:00Z"))).toEqual(hoest);
  });

  test("nothing when a future semester exists", () => {
    expect(semesterToCreate([vaar, hoest, nextVaar], new Date("2026-11-22T12:00:00Z"))).toBeNull();
    expect(semesterToCreate([hoest], new Date("2026-06-30T12:00:00Z"))).toBeNull();
  });

  test("with no semester at all: the one containing today", () => {
    expect(semesterToCreate([], new Date("2026-11-22T12:00:00Z"))).toEqual(hoest);
    expect(semesterToCreate([], new Date("2026-02-01T12:00:00Z"))).toEqual(vaar);
  });

  test("with only past semesters: the one containing today, Høst from July, Vår before", () => {
    const old = { name: "Høst 2025", startDate: "2025-07-01", endDate: "2025-12-31" };
    expect(semesterToCreate([old], new Date("2026-07-01T00:30:00+02:00"))).toEqual(hoest);
    expect(semesterToCreate([old], new Date("2026-06-30T23:30:00+02:00"))).toEqual(vaar);
  });

  test("at the year boundary: Vår of the new year whether Høst has just ended or not", () => {
    // 23:30 on 31 December in Oslo: Høst 2026 is still current.
    expect(semesterToCreate([hoest], new Date("2026-12-31T22:30:00Z"))).toEqual(nextVaar);
    // 00:30 on 1 January in Oslo: no current semester, and today is in Vår 2027.
    expect(semesterToCreate([hoest], new Date("2026-12-31T23:30:00Z"))).toEqual(nextVaar);
  });
});

describe("defaultClassDates", () => {
  test("puts the mid-semester date halfway and the end-semester date on the last day", () => {
    expect(defaultClassDates({ startDate: "2026-07-01", endDate: "2026-12-31" })).toEqual({
      midSemesterDate: "2026-09-30",
      endSemesterDate: "2026-12-31",
    });
    expect(defaultClassDates({ startDate: "2027-01-01", endDate: "2027-06-30" })).toEqual({
      midSemesterDate: "2027-04-01",
      endSemesterDate: "2027-06-30",
    });
  });

  test("counts days across a daylight-saving change without drifting", () => {
    expect(defaultClassDates({ startDate: "2027-03-20", endDate: "2027-04-03" }).midSemesterDate).toBe("2027-03-27");
  });
});

describe("formatDay", () => {
  test("writes d.m.yyyy in Norwegian and d Mon yyyy in English, whatever the server's time zone", () => {
    expect(formatDay("2027-01-01", "nb")).toBe("1.1.2027");
    expect(formatDay("2026-12-31", "nb")).toBe("31.12.2026");
    expect(formatDay("2027-06-30", "en")).toBe("30 Jun 2027");
  });
});
