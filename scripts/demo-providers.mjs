// The demo's own Feide and Vipps: with the demo seed, `npm start` (server.mjs, the primary process)
// starts a local Feide-like and a Vipps-like OpenID provider (scripts/oidc-peer.mjs) on 127.0.0.1,
// with the demo's people to pick from, and gives the app processes the FEIDE_*/VIPPS_* settings
// that point at them, so every log-in method can be tried. Not outside the demo, and not for a
// provider that is configured (its FEIDE_CLIENT_ID/FEIDE_CLIENT_SECRET, VIPPS_… set).
import crypto from "node:crypto";
import { courseGroup, orgGroup, startOidcPeer } from "./oidc-peer.mjs";

const flag = (value) => value === "true" || value === "1";

/**
 * Whether this start is the demo: demo mode (scripts/demo-mode.mjs, which server.mjs applies first and
 * which fills in DEMO_MODE when the operator set neither variable), or the older SEED_DEMO.
 */
export function isDemo(env) {
  const demoMode = env.DEMO_MODE !== undefined && env.DEMO_MODE !== "" ? env.DEMO_MODE : env.SEED_DEMO;
  return flag(demoMode ?? "");
}

/** The providers that get a demo stand-in: in the demo, each one that is not configured. */
export function demoProviderKinds(env) {
  if (!isDemo(env)) return [];
  return ["feide", "vipps"].filter((kind) => {
    const prefix = kind.toUpperCase();
    return !env[`${prefix}_CLIENT_ID`] && !env[`${prefix}_CLIENT_SECRET`];
  });
}

// ---------------------------------------------------------------------------------------------
// The demo's people (app/services/demo/people.ts; their classes in app/services/demo/seed.server.ts)

const ORG = "example.org";
const SUBJECTS = { SYK2001: "Praksis i sykehjem", SYK2002: "Praksis i spesialisthelsetjenesten" };

/** The semester of a day in Norway (Vår 1 Jan – 30 Jun, Høst 1 Jul – 31 Dec), as the demo seed places its classes. */
export function semesterOf(today) {
  const day = new Intl.DateTimeFormat("en-CA", {
    timeZone: "Europe/Oslo",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(today);
  const year = day.slice(0, 4);
  return Number(day.slice(5, 7)) >= 7
    ? { start: `${year}-07-01`, end: `${year}-12-31` }
    : { start: `${year}-01-01`, end: `${year}-06-30` };
}

function feidePerson(login, name, description, groups) {
  return {
    choice: { login, label: name, description },
    account: {
      sub: `demo-feide-${login}`,
      claims: {
        name,
        email: `${login}@example.org`,
        email_verified: true,
        "https://n.feide.no/claims/userid_sec": [`feide:${login}@${ORG}`],
        "https://n.feide.no/claims/eduPersonPrincipalName": `${login}@${ORG}`,
      },
      groups: [...groups, orgGroup(ORG, "Demo University")],
    },
  };
}

function vippsPerson(login, name, phone, description) {
  return {
    choice: { login, label: name, description },
    account: {
      sub: `demo-vipps-${login}`,
      claims: {
        name,
        phone_number: phone,
        phone_number_verified: true,
        email: `${login}.privat@example.net`,
        email_verified: true,
      },
    },
  };
}

/** Who can be picked at the demo Feide and the demo Vipps, with Feide course memberships of today's semester. */
export function demoPeople(today = new Date()) {
  const { start, end } = semesterOf(today);
  const course = (code, fsroles = ["STUDENT"]) =>
    courseGroup({
      org: ORG,
      code,
      name: SUBJECTS[code],
      fsroles,
      notBefore: `${start}T00:00:00Z`,
      notAfter: `${end}T22:00:00Z`,
    });
  return {
    feide: [
      feidePerson("student01", "Emma Andersen", "Student in Praksis i sykehjem (SYK2001)", [course("SYK2001")]),
      feidePerson(
        "student25",
        "Amalie Vik",
        "Student whose Feide course (SYK2002) has a class she has not joined yet",
        [course("SYK2002")],
      ),
      feidePerson("ny.student", "Nora Ny", "Student new to Praksis: Feide shows SYK2002, so her user is created", [
        course("SYK2002"),
      ]),
      feidePerson("laerer1", "Ingrid Haugen", "Practice teacher, Praksis i sykehjem (SYK2001)", [
        course("SYK2001", ["UNDERVISER"]),
      ]),
      feidePerson("admin", "Ada Administrator", "Administrator, also practice teacher (SYK2002)", [
        course("SYK2002", ["UNDERVISER"]),
      ]),
      feidePerson("ukjent.ansatt", "Ulrik Ukjent", "Staff member Praksis does not know: is refused", [
        course("SYK2001", ["UNDERVISER"]),
      ]),
    ],
    vipps: [
      vippsPerson(
        "veileder1",
        "Marte Solberg",
        "4741234567",
        "Practice supervisor, Praksis i sykehjem (phone +47 41 23 45 67)",
      ),
      vippsPerson(
        "veileder3",
        "Hanne Berg",
        "4798765432",
        "Practice supervisor, Praksis i spesialisthelsetjenesten (phone +47 98 76 54 32)",
      ),
      vippsPerson("ukjent", "Per Ukjent", "4711111111", "Not a practice supervisor in Praksis: is refused"),
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// Starting them

const TITLES = { feide: "Feide", vipps: "Vipps" };

async function listen(options, port) {
  try {
    return await startOidcPeer({ ...options, port });
  } catch (error) {
    // The port next to the app's is taken: any free one does, the app is told which.
    if (error?.code === "EADDRINUSE") return startOidcPeer({ ...options, port: 0 });
    throw error;
  }
}

/**
 * Starts a demo provider for each of `kinds` on 127.0.0.1 (the app's port + 1 for Feide, + 2 for
 * Vipps, or a free one), accepting the app's callbacks at localhost, 127.0.0.1 and APP_URL.
 * Returns the settings for the app processes and a close().
 */
export async function startDemoProviders({ kinds, appPort, appUrl, today = new Date() }) {
  const origins = new Set([`http://localhost:${appPort}`, `http://127.0.0.1:${appPort}`]);
  if (appUrl) origins.add(appUrl.replace(/\/+$/, ""));
  const people = demoPeople(today);
  const peers = {};
  const env = {};
  try {
    for (const kind of kinds) {
      const title = TITLES[kind];
      const peer = await listen(
        {
          kind,
          host: "127.0.0.1",
          clientId: `praksis-demo-${kind}`,
          clientSecret: crypto.randomBytes(24).toString("base64url"),
          redirectUris: [...origins].map((origin) => `${origin}/${kind}-success`),
          accounts: Object.fromEntries(people[kind].map((p) => [p.choice.login, p.account])),
          name: `Demo ${title}`,
          intro: [
            `This is not the real ${title}. It is a stand-in that the Praksis demo runs on this computer, so that log-in with ${title} can be tried without a real account. There is no password: pick a person.`,
          ],
          choices: people[kind].map((p) => p.choice),
        },
        appPort + (kind === "feide" ? 1 : 2),
      );
      peers[kind] = peer;
      const prefix = kind.toUpperCase();
      Object.assign(env, {
        [`${prefix}_CLIENT_ID`]: peer.clientId,
        [`${prefix}_CLIENT_SECRET`]: peer.clientSecret,
        [`${prefix}_ISSUER`]: peer.issuer,
      });
      if (kind === "feide") env.FEIDE_GROUPS_URL = peer.groupsUrl;
      if (kind === "vipps") env.VIPPS_USERINFO_URL = peer.userinfoUrl;
    }
  } catch (error) {
    await Promise.all(Object.values(peers).map((peer) => peer.close()));
    throw error;
  }
  return {
    env,
    peers,
    close: () => Promise.all(Object.values(peers).map((peer) => peer.close())).then(() => undefined),
  };
}
