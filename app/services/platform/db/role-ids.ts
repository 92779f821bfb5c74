/** Role ids are fixed by the product (docs/rules/identity.md); the roles table holds the same four rows. */
export const ROLE = { Admin: 1, Student: 2, Teacher: 3, Supervisor: 4 } as const;
export type RoleId = (typeof ROLE)[keyof typeof ROLE];
/** The roles' names as the roles table stores them: the supervisor's is "Advisor" (docs/glossary.md). */
export type RoleName = "Admin" | "Student" | "Teacher" | "Advisor"; // stored name
