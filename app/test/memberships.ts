import type { CourseMembership } from "~/services/identity/index.server";

/**
 * A Feide course membership of Høst 2026 (and a month after), as the app stores it: for tests that seed the
 * demo on a day of that semester (`seedDemo(db, new Date("2026-11-22T12:00:00Z"))`) and pass that day on.
 */
export function courseMembership(code: string, overrides: Partial<CourseMembership> = {}): CourseMembership {
  return {
    groupId: `fc:fs:fs:emne:fjordbyen.no:${code}:1`,
    subjectCode: code,
    subjectVersion: "1",
    displayName: code,
    active: true,
    notBefore: new Date("2026-08-01T00:00:00Z"),
    notAfter: new Date("2027-01-31T22:00:00Z"),
    fsRoles: ["student"],
    ...overrides,
  };
}
