import { afterAll, beforeAll, test } from "vitest";
import { listUsers, type UserListQuery } from "~/services/admin/index.server";
import type { Database } from "~/services/platform/db/client.server";
import { userRoles, users } from "~/services/platform/db/schema";
import { ROLE, type RoleId } from "~/services/identity";
import { openTestDatabase } from "~/test/db";

/**
 * The admin's users list with 20,000 users: the first page, a search, a role filter and a deep
 * offset, each the median of several runs after a warm-up. Prints figures; asserts nothing.
 */
const USERS = 20_000;
const BATCH = 1_000;
const RUNS = 7;

const FIRST = [
  "Emma",
  "Noah",
  "Nora",
  "Jakob",
  "Sofie",
  "Emil",
  "Ella",
  "William",
  "Ingrid",
  "Oskar",
  "Åse",
  "Øyvind",
  "Ærle",
  "Maja",
  "Filip",
  "Leah",
];
const LAST = [
  "Andersen",
  "Johansen",
  "Hansen",
  "Pedersen",
  "Nilsen",
  "Larsen",
  "Olsen",
  "Karlsen",
  "Jensen",
  "Dahl",
  "Sæther",
  "Ødegård",
  "Aas",
  "Lie",
  "Holm",
  "Strand",
];

let database: Database;

function rolesFor(i: number): RoleId[] {
  if (i % 100 === 0) return [ROLE.Admin, ROLE.Teacher];
  if (i % 25 === 0) return [ROLE.Teacher];
  if (i % 10 === 0) return [ROLE.Supervisor];
  return [ROLE.Student];
}

beforeAll(async () => {
  database = await openTestDatabase();
  const began = performance.now();
  for (let start = 0; start < USERS; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, USERS - start) }, (_, k) => {
      const i = start + k;
      return {
        // Some names end in a number, as imported test accounts often do, to exercise the numeric sort.
        displayName: `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}${i % 7 === 0 ? ` ${i}` : ""}`,
        email: `bruker${i}@example.org`,
        isActive: i % 20 !== 0,
      };
    });
    const inserted = await database.db.insert(users).values(rows).returning({ id: users.id });
    await database.db
      .insert(userRoles)
      .values(inserted.flatMap(({ id }, k) => rolesFor(start + k).map((roleId) => ({ userId: id, roleId }))));
  }
  console.log(`users list: seeded ${USERS} users in ${Math.round(performance.now() - began)} ms (${database.kind})`);
});

afterAll(async () => {
  await database?.close();
});

async function median(query: UserListQuery): Promise<{ ms: number; rows: number; total: number }> {
  let result = await listUsers(database.db, query);
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const began = performance.now();
    result = await listUsers(database.db, query);
    times.push(performance.now() - began);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)], rows: result.rows.length, total: result.total };
}

test("users list response times with 20,000 users", async () => {
  const cases: [string, UserListQuery][] = [
    ["first page (20, active users)", {}],
    ["search 'hansen'", { search: "hansen" }],
    ["search 'bruker1999' (e-mail)", { search: "bruker1999" }],
    ["role filter Teacher", { roleId: ROLE.Teacher }],
    ["deep offset 19,980 (with deactivated)", { includeInactive: true, offset: 19_980 }],
    ["widest load-more page (500 rows)", { limit: 500 }],
  ];
  for (const [label, query] of cases) {
    const { ms, rows, total } = await median(query);
    console.log(`users list: ${label.padEnd(40)} ${ms.toFixed(1).padStart(7)} ms  (${rows} rows of ${total})`);
  }
});
