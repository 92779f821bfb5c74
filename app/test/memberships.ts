import type { CourseMembership } from "~/services/identity/index.server";

/** A Feide course membership in the demo's current semester (Høst 2026), as the app stores it. */
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
