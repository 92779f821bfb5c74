import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { eq } from "drizzle-orm";
import type { Database } from "~/services/platform/db/client.server";
import { userAffiliations } from "~/services/platform/db/schema";
import { seedDemo } from "~/services/demo/index.server";
import {
  COURSE_GROUP_TYPE,
  courseMemberships,
  GroupsError,
  hasKnownStudentCourse,
  matchingClasses,
  membershipActiveOn,
  membershipMatchesClass,
  parseCourseGroupId,
  storeCourseMemberships,
  storedMemberships,
  type MembershipFacts,
} from "./memberships.server";
import { openTestDatabase } from "~/test/db";
import { userIdOf } from "~/test/app";
import { courseMembership } from "~/test/memberships";

const autumn = { subjectCode: "SYK2001", startDate: "2026-08-01", endDate: "2027-01-31" };

function facts(overrides: Partial<MembershipFacts> = {}): MembershipFacts {
  return {
    groupType: COURSE_GROUP_TYPE,
    subjectCode: "SYK2001",
    active: true,
    notBefore: new Date("2026-08-01T00:00:00Z"),
    notAfter: new Date("2027-01-31T22:00:00Z"),
    fsRoles: ["student"],
    ...overrides,
  };
}

describe("parseCourseGroupId", () => {
  test("reads code and version from a Feide course group id", () => {
    expect(parseCourseGroupId("fc:fs:fs:emne:ntnu.no:SYK2001:1")).toEqual({
      subjectCode: "SYK2001",
      subjectVersion: "1",
    });
    expect(parseCourseGroupId("fc:fs:fs:emne:uit.no:syk2001")).toEqual({
      subjectCode: "SYK2001",
      subjectVersion: null,
    });
  });
  test.each(["fc:org:ntnu.no", "fc:fs:fs:emne:", "fc:fs:fs:emne:ntnu.no", "fc:fs:fs:klasse:ntnu.no:SYK2001:1", ""])(
    "refuses %j",
    (id) => expect(parseCourseGroupId(id)).toBeNull(),
  );
});

describe("courseMemberships", () => {
  const emne = {
    id: "fc:fs:fs:emne:fjordbyen.no:SYK2001:1",
    type: "fc:fs:emne",
    displayName: "Praksis i sykehjem",
    membership: {
      basic: "member",
      active: true,
      fsroles: ["STUDENT"],
      notBefore: "2026-08-01T00:00:00Z",
      notAfter: "2027-01-31T22:59:59Z",
    },
  };

  test("keeps course groups only, with roles in lower case and dates parsed", () => {
    const result = courseMemberships([emne, { id: "fc:org:fjordbyen.no", type: "fc:org", displayName: "Fjordbyen" }]);
    expect(result).toEqual([
      {
        groupId: emne.id,
        subjectCode: "SYK2001",
        subjectVersion: "1",
        displayName: "Praksis i sykehjem",
        active: true,
        notBefore: new Date("2026-08-01T00:00:00Z"),
        notAfter: new Date("2027-01-31T22:59:59Z"),
        fsRoles: ["student"],
      },
    ]);
  });

  test("skips entries that do not parse and tolerates bad dates and missing membership", () => {
    const result = courseMemberships([
      null,
      42,
      { id: 7, type: "fc:fs:emne" },
      { id: "fc:fs:fs:emne:x", type: "fc:fs:emne" },
      { ...emne, membership: { ...emne.membership, notBefore: "not a date", notAfter: 12 } },
      { id: "fc:fs:fs:emne:fjordbyen.no:SYK2002:1", type: "fc:fs:emne" },
    ]);
    expect(result.map((m) => [m.subjectCode, m.notBefore, m.notAfter, m.active])).toEqual([
      ["SYK2001", null, null, true],
      ["SYK2002", null, null, true],
    ]);
  });

  test.each([{}, "[]", null, { groups: [] }])("an answer that is not a list (%j) is an error", (body) => {
    expect(() => courseMemberships(body)).toThrow(GroupsError);
  });
});

describe("the matching rule", () => {
  test("an active student membership of the subject in the class's semester matches", () => {
    expect(membershipMatchesClass(facts(), autumn)).toBe(true);
  });
  test("the subject code is compared without regard to case", () => {
    expect(membershipMatchesClass(facts({ subjectCode: "syk2001" }), autumn)).toBe(true);
  });
  test("another subject does not match", () => {
    expect(membershipMatchesClass(facts({ subjectCode: "SYK2002" }), autumn)).toBe(false);
  });
  test("an inactive membership does not match", () => {
    expect(membershipMatchesClass(facts({ active: false }), autumn)).toBe(false);
  });
  test("a teaching role is not a student membership", () => {
    expect(membershipMatchesClass(facts({ fsRoles: ["underviser"] }), autumn)).toBe(false);
    expect(membershipMatchesClass(facts({ fsRoles: [] }), autumn)).toBe(false);
  });
  test("only course groups count", () => {
    expect(membershipMatchesClass(facts({ groupType: "fc:org" }), autumn)).toBe(false);
    expect(membershipMatchesClass(facts({ subjectCode: null }), autumn)).toBe(false);
  });
  test("a membership that ended before the semester began does not match", () => {
    const spring = facts({ notBefore: new Date("2026-01-01T00:00:00Z"), notAfter: new Date("2026-06-30T21:59:59Z") });
    expect(membershipMatchesClass(spring, autumn)).toBe(false);
  });
  test("a membership that starts after the semester does not match", () => {
    expect(membershipMatchesClass(facts({ notBefore: new Date("2027-02-01T00:00:00Z"), notAfter: null }), autumn)).toBe(
      false,
    );
  });
  test("the edges are Oslo calendar days: ending on the first day, or starting on the last, still overlaps", () => {
    // 22:30 UTC on 31 July is 00:30 on 1 August in Oslo.
    expect(membershipMatchesClass(facts({ notBefore: null, notAfter: new Date("2026-07-31T22:30:00Z") }), autumn)).toBe(
      true,
    );
    expect(membershipMatchesClass(facts({ notBefore: null, notAfter: new Date("2026-07-31T21:30:00Z") }), autumn)).toBe(
      false,
    );
    expect(membershipMatchesClass(facts({ notBefore: new Date("2027-01-31T22:59:00Z"), notAfter: null }), autumn)).toBe(
      true,
    );
    expect(membershipMatchesClass(facts({ notBefore: new Date("2027-01-31T23:00:00Z"), notAfter: null }), autumn)).toBe(
      false,
    );
  });
  test("a membership without dates matches any semester of its subject", () => {
    expect(membershipMatchesClass(facts({ notBefore: null, notAfter: null }), autumn)).toBe(true);
  });
  test("membershipActiveOn: active and within its dates on that day", () => {
    expect(membershipActiveOn(facts(), "2026-11-22")).toBe(true);
    expect(membershipActiveOn(facts(), "2027-02-01")).toBe(false);
    expect(membershipActiveOn(facts(), "2026-07-31")).toBe(false);
    expect(membershipActiveOn(facts({ active: false }), "2026-11-22")).toBe(false);
  });
});

describe("with the demo database", () => {
  let database: Database;
  const now = new Date("2026-11-22T12:00:00Z");
  beforeAll(async () => {
    database = await openTestDatabase();
    await seedDemo(database.db, now);
  });
  afterAll(() => database.close());

  test("the student without a class matches the current class of the subject in their membership", async () => {
    const rows = await matchingClasses(database.db, await userIdOf(database.db, "student25@example.org"), "2026-11-22");
    expect(rows.map((r) => [r.subjectCode, r.semesterName])).toEqual([["SYK2002", "Høst 2026"]]);
  });

  test("a class the student has joined is not offered again", async () => {
    expect(
      await matchingClasses(database.db, await userIdOf(database.db, "student13@example.org"), "2026-11-22"),
    ).toEqual([]);
  });

  test("storing replaces the earlier memberships, and matching follows the new ones", async () => {
    const userId = await userIdOf(database.db, "student25@example.org");
    await storeCourseMemberships(database.db, userId, [courseMembership("SYK2001"), courseMembership("SYK2001")], now);
    const stored = await storedMemberships(database.db, userId);
    expect(stored.map((m) => [m.subjectCode, m.fsRoles, m.fetchedAt.toISOString()])).toEqual([
      ["SYK2001", ["student"], now.toISOString()],
    ]);
    const rows = await matchingClasses(database.db, userId, "2026-11-22");
    expect(rows.map((r) => r.subjectCode)).toEqual(["SYK2001"]);

    await storeCourseMemberships(database.db, userId, [courseMembership("SYK2001", { active: false })], now);
    expect(await matchingClasses(database.db, userId, "2026-11-22")).toEqual([]);

    await storeCourseMemberships(database.db, userId, [], now);
    expect(await database.db.select().from(userAffiliations).where(eq(userAffiliations.userId, userId))).toEqual([]);
  });

  test("a known student course needs an active student membership of a subject Praksis has", async () => {
    const today = "2026-11-22";
    expect(await hasKnownStudentCourse(database.db, [courseMembership("SYK2002")], today)).toBe(true);
    expect(await hasKnownStudentCourse(database.db, [courseMembership("syk2002")], today)).toBe(true);
    expect(await hasKnownStudentCourse(database.db, [courseMembership("XYZ9999")], today)).toBe(false);
    expect(
      await hasKnownStudentCourse(database.db, [courseMembership("SYK2002", { fsRoles: ["underviser"] })], today),
    ).toBe(false);
    expect(await hasKnownStudentCourse(database.db, [courseMembership("SYK2002", { active: false })], today)).toBe(
      false,
    );
    expect(await hasKnownStudentCourse(database.db, [courseMembership("SYK2002")], "2027-03-01")).toBe(false);
    expect(await hasKnownStudentCourse(database.db, [], today)).toBe(false);
  });
});
