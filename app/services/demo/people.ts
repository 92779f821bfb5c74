// The demo's people: who logs in as what (printed at start-up, README).
import { ROLE, type RoleId } from "~/services/platform/db/schema";

export interface DemoPerson {
  name: string;
  email: string;
  roles: RoleId[];
  phoneNumber?: string;
  /**
   * The number counts as proved, as if Vipps had vouched for it: the demo's own Vipps
   * (scripts/demo-providers.mjs) offers these supervisors, who then go straight in. Every other
   * number is only typed, and a Vipps log-in with it asks for the account's e-mail code first.
   */
  phoneVerified?: boolean;
  isActive?: boolean;
}

export const ADMIN: DemoPerson = {
  name: "Ada Administrator",
  email: "admin@example.org",
  // Two roles, so the role chooser has something to choose between.
  roles: [ROLE.Admin, ROLE.Teacher],
};

export const TEACHERS: DemoPerson[] = [
  { name: "Ingrid Haugen", email: "laerer1@example.org", roles: [ROLE.Teacher] },
  { name: "Lars Bakken", email: "laerer2@example.org", roles: [ROLE.Teacher] },
  { name: "Siri Lunde", email: "laerer3@example.org", roles: [ROLE.Teacher] },
];

export const SUPERVISORS: DemoPerson[] = [
  {
    name: "Marte Solberg",
    email: "veileder1@example.org",
    phoneNumber: "+4741234567",
    phoneVerified: true,
    roles: [ROLE.Supervisor],
  },
  { name: "Ole Kristiansen", email: "veileder2@example.org", phoneNumber: "+4792345678", roles: [ROLE.Supervisor] },
  {
    name: "Hanne Berg",
    email: "veileder3@example.org",
    phoneNumber: "+4798765432",
    phoneVerified: true,
    roles: [ROLE.Supervisor],
  },
  { name: "Jonas Eriksen", email: "veileder4@example.org", phoneNumber: "+4746813579", roles: [ROLE.Supervisor] },
];

export const STUDENT_NAMES = [
  "Emma Andersen",
  "Noah Johansen",
  "Nora Hansen",
  "Jakob Pedersen",
  "Sofie Nilsen",
  "Emil Larsen",
  "Ella Olsen",
  "William Karlsen",
  "Ingrid Jensen",
  "Oskar Dahl",
  "Maja Moen",
  "Filip Halvorsen",
  "Leah Strand",
  "Lukas Iversen",
  "Olivia Jacobsen",
  "Henrik Johannessen",
  "Frida Sæther",
  "Aksel Lie",
  "Astrid Brekke",
  "Mathias Aas",
  "Selma Holm",
  "Tobias Myhre",
  "Ida Ødegård",
  "Magnus Knutsen",
];

export const STUDENTS: DemoPerson[] = STUDENT_NAMES.map((name, i) => ({
  name,
  email: `student${String(i + 1).padStart(2, "0")}@example.org`,
  roles: [ROLE.Student],
}));

/** Has a course membership that matches a current class but has not joined it yet. */
export const STUDENT_WITHOUT_CLASS: DemoPerson = {
  name: "Amalie Vik",
  email: "student25@example.org",
  roles: [ROLE.Student],
};

export const DEACTIVATED_STUDENT: DemoPerson = {
  name: "Dina Deaktivert",
  email: "deaktivert@example.org",
  roles: [ROLE.Student],
  isActive: false,
};

export const PEOPLE: DemoPerson[] = [
  ADMIN,
  ...TEACHERS,
  ...SUPERVISORS,
  ...STUDENTS,
  STUDENT_WITHOUT_CLASS,
  DEACTIVATED_STUDENT,
];

export interface DemoLogin {
  role: string;
  name: string;
  email: string;
}

export const DEMO_LOGINS: DemoLogin[] = [
  { role: "Admin", name: ADMIN.name, email: ADMIN.email },
  ...TEACHERS.map((p) => ({ role: "Teacher", name: p.name, email: p.email })),
  ...SUPERVISORS.map((p) => ({ role: "Advisor", name: p.name, email: p.email })),
  ...STUDENTS.slice(0, 2).map((p) => ({ role: "Student", name: p.name, email: p.email })),
  { role: "Student", name: STUDENT_WITHOUT_CLASS.name, email: STUDENT_WITHOUT_CLASS.email },
];
