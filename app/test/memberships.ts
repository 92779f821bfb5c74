import type { CourseMembership } from "~/services/identity/index.server";
import { calendar } from "~/test/calendar";

/** A Feide course membership in the demo's current semester (and a month after it), as the app stores it. */
export function courseMembership(code: string, overrides: Partial<CourseMembership> = {}): CourseMembership {
  return {
    groupId: `fc:fs:fs:emne:fjordbyen.no:${code}:1`,
    subjectCode: code,
    subjectVersion: "1",
    displayName: code,
    active: true,
    notBefore: new Date(`${calendar.current.startDate}T00:00:00Z`),
    notAfter: new Date(Date.parse(`${calendar.current.endDate}T22:00:00Z`) + 31 * 86_400_000),
    fsRoles: ["student"],
    ...overrides,
  };
}
