// The local OpenID providers standing in for Feide and Vipps in the tests (scripts/oidc-peer.mjs),
// with the test accounts: people of the demo seed, and ones made to fail (a groups API that is down
// or answers garbage, no e-mail, unknown, deactivated, an unverified e-mail, a student at Vipps, a
// stranger at Vipps whose number is typed on a supervisor's account).
//
//   const peer = await startOidcPeer({ kind: "feide", redirectUris: ["http://127.0.0.1:3100/feide-success"] });
//
// The log-in page: type a username from the tables below (any other name gets a fallback account),
// or `error:<code>` to send the browser back to the app with that error.
import { courseGroup, orgGroup as institutionGroup, startOidcPeer as startPeer } from "../../scripts/oidc-peer.mjs";
import { semesterOf } from "../../scripts/demo-providers.mjs";

// The memberships run through the semester the demo is seeded in (today's) and a month after it, as
// FS writes them; the earlier class's through the semester before, which is over.
const now = semesterOf(new Date());
const before = semesterOf(new Date(Date.parse(`${now.start}T12:00:00Z`) - 86_400_000));
const SEMESTER_START = `${now.start}T00:00:00Z`;
const SEMESTER_END = new Date(Date.parse(`${now.end}T22:59:59Z`) + 31 * 86_400_000).toISOString().replace(".000Z", "Z");
const ORG = "fjordbyen.no";

const SUBJECT_NAMES = {
  SYK2001: "Praksis i sykehjem",
  SYK2002: "Praksis i spesialisthelsetjenesten",
  SYK1002: "Praksis i hjemmesykepleien",
};

/** One Feide "fc:fs:emne" group membership of this semester at Fjordbyen, as the groups API gives it. */
export function emne(
  code,
  {
    active = true,
    fsroles = ["STUDENT"],
    notBefore = SEMESTER_START,
    notAfter = SEMESTER_END,
    version = "1",
    name,
  } = {},
) {
  return courseGroup({
    org: ORG,
    code,
    name: name ?? SUBJECT_NAMES[code],
    active,
    fsroles,
    notBefore,
    notAfter,
    version,
  });
}

/** A group that is not a subject: the app must filter groups by type. */
export function orgGroup() {
  return institutionGroup(ORG, "Fjordbyen");
}

function feideStudent(nn, name, groups) {
  const login = `student${nn}`;
  return {
    sub: `feide-${login}`,
    claims: {
      name,
      email: `${login}@example.org`,
      email_verified: true,
      "https://n.feide.no/claims/userid_sec": [`feide:${login}@${ORG}`],
      "https://n.feide.no/claims/eduPersonPrincipalName": `${login}@${ORG}`,
    },
    groups,
  };
}

function feidePerson(login, sub, name, email, groups) {
  const claims = {
    "https://n.feide.no/claims/userid_sec": [`feide:${login}@${ORG}`],
    "https://n.feide.no/claims/eduPersonPrincipalName": `${login}@${ORG}`,
  };
  if (name !== undefined) claims.name = name;
  if (email !== undefined) Object.assign(claims, { email, email_verified: true });
  return { sub, claims, groups };
}

export const DEFAULT_FEIDE_ACCOUNTS = Object.freeze({
  student05: feideStudent("05", "Sofie Nilsen", [emne("SYK2001"), orgGroup()]),
  student09: feideStudent("09", "Ingrid Jensen", [emne("SYK2001"), orgGroup()]),
  student10: feideStudent("10", "Oskar Dahl", [emne("SYK2001"), orgGroup()]),
  student11: feideStudent("11", "Maja Moen", "down"),
  student12: feideStudent("12", "Filip Halvorsen", "garbage"),
  student14: feideStudent("14", "Lukas Iversen", [emne("SYK2002"), orgGroup()]),
  student15: feideStudent("15", "Olivia Jacobsen", [emne("SYK2002"), orgGroup()]),
  student16: feideStudent("16", "Henrik Johannessen", [emne("SYK2002"), orgGroup()]),
  student25: feideStudent("25", "Amalie Vik", [
    emne("SYK2002"),
    emne("SYK1002", { active: false, notBefore: `${before.start}T00:00:00Z`, notAfter: `${before.end}T21:59:59Z` }),
  ]),
  "ny.student": feidePerson("ny.student", "feide-ny-student", "Nina Ny", "ny.student@example.org", [emne("SYK2002")]),
  "ny.student2": feidePerson("ny.student2", "feide-ny-student2", "Nils Ny", "ny.student2@example.org", [
    emne("SYK2002"),
  ]),
  "ukjent.ansatt": feidePerson("ukjent.ansatt", "feide-ukjent", "Ukjent Ansatt", "ukjent.ansatt@example.org", [
    emne("SYK2001", { fsroles: ["UNDERVISER"] }),
  ]),
  "uten.epost": feidePerson("uten.epost", "feide-uten-epost", "Uten Epost", undefined, [emne("SYK2001")]),
  deaktivert: feidePerson("deaktivert", "feide-deaktivert", "Deaktivert Bruker", "deaktivert@example.org", []),
  admin: feidePerson("admin", "feide-admin", "Ada Administrator", "admin@example.org", [
    emne("SYK2001", { fsroles: ["UNDERVISER"] }),
  ]),
  laerer1: feidePerson("laerer1", "feide-laerer1", "Ingrid Haugen", "laerer1@example.org", []),
  laerer2: feidePerson("laerer2", "feide-laerer2", "Lars Bakken", "laerer2@example.org", []),
});

function vippsPerson(login, name, phone, email, emailVerified = true) {
  const claims = { phone_number: phone, phone_number_verified: true, email, email_verified: emailVerified };
  if (name !== undefined) claims.name = name;
  return { sub: `vipps-${login}`, claims };
}

export const DEFAULT_VIPPS_ACCOUNTS = Object.freeze({
  veileder1: vippsPerson("veileder1", "Marte Solberg", "4741234567", "marte.privat@example.net"),
  veileder3: vippsPerson("veileder3", "Hanne Berg", "4798765432", "hanne.privat@example.net"),
  veileder4: vippsPerson("veileder4", "Jonas Eriksen", "4799999999", "veileder4@example.org"),
  // Ole Kristiansen's number as a teacher typed it (nobody has proved it): his own Vipps, and a
  // stranger's who holds the same number (the typo case, or a number passed on).
  veileder2: vippsPerson("veileder2", "Ole Kristiansen", "4792345678", "ole.privat@example.net"),
  fremmed: vippsPerson("fremmed", "Frida Fremmed", "4792345678", "frida.fremmed@example.net"),
  // A supervisor new to Praksis who accepts an invitation and logs in with Vipps right away.
  invitert: vippsPerson("invitert", "Ivar Invitert", "4745454545", "ivar.privat@example.net"),
  "veileder4-unverified": vippsPerson(
    "veileder4-unverified",
    "Jonas Uverifisert",
    "4700000000",
    "veileder4@example.org",
    false,
  ),
  ukjent: vippsPerson("ukjent", "Ukjent Person", "4711111111", "ukjent@example.net"),
  student13: vippsPerson("student13", "Student Tretten", "4722222222", "student13@example.org"),
});

/** A provider with the test accounts (and `options.accounts` on top). */
export function startOidcPeer(options) {
  const defaults = options.kind === "vipps" ? DEFAULT_VIPPS_ACCOUNTS : DEFAULT_FEIDE_ACCOUNTS;
  return startPeer({ ...options, accounts: { ...defaults, ...(options.accounts ?? {}) } });
}
