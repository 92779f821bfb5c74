/** Role ids are fixed by the product (docs/rules/identity.md); the roles table holds the same four rows. */
export const ROLE = { Admin: 1, Student: 2, Teacher: 3, Advisor: 4 } as const;
export type RoleId = (typeof ROLE)[keyof typeof ROLE];
export type RoleName = keyof typeof ROLE;
